// SPDX-License-Identifier: MIT
// EyeLike beyond the ONNX node suite: non-square shapes with k above and below (values from numpy.eye), the ones
// of float16/bfloat16/bool/int64, and errors (rank, dtype).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "onnxmicro/kernels/generator/eye_like.hpp"
#include "support/kernel_test_prelude.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

using namespace onnxmicro_test::prelude;

NodeResult eye_like(Shape shape, const std::vector<ProtoWriter>& attributes, DataType input_dtype = DataType::float32) {
  TestTensor x;
  x.dtype = input_dtype;
  x.shape = shape;
  x.bytes.resize(om::byte_size_of(input_dtype, shape.element_count()));
  return onnxmicro_test::run_node(om::KernelSet<om::kernels::EyeLike_9>::registry(), "EyeLike", 22, {x}, attributes);
}

TEST(EyeLike, OffDiagonalsOnNonSquareShapes) {
  NodeResult r = eye_like(Shape{3, 4}, {make_attribute_int("k", 1)});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(values_of<float>(r.output), (std::vector<float>{0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}));
  r = eye_like(Shape{3, 2}, {make_attribute_int("k", -1), make_attribute_int("dtype", 7)});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.output.dtype, DataType::int64);
  EXPECT_EQ(values_of<std::int64_t>(r.output), (std::vector<std::int64_t>{0, 0, 1, 0, 0, 1}));
  r = eye_like(Shape{2, 2}, {make_attribute_int("k", 5)});
  EXPECT_EQ(values_of<float>(r.output), (std::vector<float>{0, 0, 0, 0}));
}

TEST(EyeLike, OneInEachDtype) {
  NodeResult r = eye_like(Shape{1, 1}, {}, DataType::float16);
  EXPECT_EQ(values_of<std::uint16_t>(r.output), (std::vector<std::uint16_t>{0x3C00}));
  r = eye_like(Shape{1, 1}, {make_attribute_int("dtype", 16)});
  EXPECT_EQ(values_of<std::uint16_t>(r.output), (std::vector<std::uint16_t>{0x3F80}));
  r = eye_like(Shape{1, 1}, {make_attribute_int("dtype", 9)});
  EXPECT_EQ(r.output.bytes, (std::vector<unsigned char>{1}));
}

TEST(EyeLike, Errors) {
  NodeResult r = eye_like(Shape{2, 2, 2}, {});
  EXPECT_EQ(r.status.code(), StatusCode::invalid_model);
  EXPECT_NE(std::string(r.status.message()).find("2-D"), std::string::npos) << r.status.message();
  r = eye_like(Shape{2, 2}, {make_attribute_int("dtype", 8)});
  EXPECT_EQ(r.status.code(), StatusCode::unsupported);
  EXPECT_NE(std::string(r.status.message()).find("attribute 'dtype' is 8 (string)"), std::string::npos)
      << r.status.message();
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
