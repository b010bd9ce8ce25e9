// SPDX-License-Identifier: MIT
// ConstantOfShape beyond the ONNX node suite: the float32 0 default, an empty shape giving a scalar, int4 values
// packed two per byte, float16 values, and errors (several values, negative dims, non-constant shape).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "onnxmicro/kernels/generator/constant_of_shape.hpp"
#include "support/kernel_test_prelude.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

using namespace onnxmicro_test::prelude;
using onnxmicro_test::make_attribute_tensor;
using onnxmicro_test::make_tensor_raw;

NodeResult constant_of_shape(const std::vector<std::int64_t>& shape, const std::vector<ProtoWriter>& attributes = {},
                             bool constant = true) {
  TestTensor s = make(Shape{static_cast<std::int64_t>(shape.size())}, shape).named("shape");
  if (constant) s = s.as_constant();
  return onnxmicro_test::run_node(om::KernelSet<om::kernels::ConstantOfShape_9>::registry(), "ConstantOfShape", 21, {s},
                                  attributes);
}
ProtoWriter value(DataType dtype, const std::vector<std::int64_t>& dims, const std::vector<std::uint8_t>& raw) {
  return make_attribute_tensor("value", make_tensor_raw("v", dtype, dims, raw));
}

TEST(ConstantOfShape, DefaultIsFloatZeroAndEmptyShapeIsAScalar) {
  NodeResult r = constant_of_shape({2, 3});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.output.dtype, DataType::float32);
  EXPECT_EQ(values_of<float>(r.output), std::vector<float>(6, 0.0f));
  r = constant_of_shape({}, {value(DataType::int64, {1}, {5, 0, 0, 0, 0, 0, 0, 0})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.output.shape, Shape());
  EXPECT_EQ(values_of<std::int64_t>(r.output), (std::vector<std::int64_t>{5}));
}

TEST(ConstantOfShape, PackedAndHalfValues) {
  NodeResult r = constant_of_shape({3}, {value(DataType::int4, {1}, {0x07})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.output.bytes, (std::vector<unsigned char>{0x77, 0x07}));  // padding bits cleared
  r = constant_of_shape({2}, {value(DataType::float16, {}, {0x00, 0x3C})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(values_of<std::uint16_t>(r.output), (std::vector<std::uint16_t>{0x3C00, 0x3C00}));
}

TEST(ConstantOfShape, Errors) {
  NodeResult r = constant_of_shape({2}, {value(DataType::uint8, {2}, {1, 2})});
  EXPECT_EQ(r.status.code(), StatusCode::invalid_model);
  EXPECT_NE(std::string(r.status.message()).find("expected exactly 1"), std::string::npos) << r.status.message();
  r = constant_of_shape({2, -1});
  EXPECT_NE(std::string(r.status.message()).find("dims must be >= 0"), std::string::npos) << r.status.message();
  r = constant_of_shape({2}, {}, false);
  EXPECT_EQ(r.status.code(), StatusCode::unsupported);
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
