// SPDX-License-Identifier: MIT
// Expand beyond the ONNX node suite: a 'shape' with fewer dims than the input and 1s that keep the input's dims
// (numpy broadcasting both ways), zero-sized outputs, bool data, and errors (incompatible dims, negative dims,
// non-constant shape).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "onnxmicro/kernels/tensor/expand.hpp"
#include "support/kernel_test_prelude.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

using namespace onnxmicro_test::prelude;

NodeResult expand(const TestTensor& x, const std::vector<std::int64_t>& shape, bool constant = true) {
  TestTensor s = make(Shape{static_cast<std::int64_t>(shape.size())}, shape).named("shape");
  if (constant) s = s.as_constant();
  return onnxmicro_test::run_node(om::KernelSet<om::kernels::Expand_8>::registry(), "Expand", 13, {x, s});
}

TEST(Expand, ShapeMayBeShorterAndItsOnesKeepInputDims) {
  TestTensor x = make(Shape{3, 1}, std::vector<float>{1, 2, 3});
  NodeResult r = expand(x, {2, 1, 2});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.output.shape, (Shape{2, 3, 2}));
  EXPECT_EQ(values_of<float>(r.output), (std::vector<float>{1, 1, 2, 2, 3, 3, 1, 1, 2, 2, 3, 3}));
  r = expand(x, {1});  // shorter than the input: the output is the input
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.output.shape, (Shape{3, 1}));
  EXPECT_EQ(values_of<float>(r.output), (std::vector<float>{1, 2, 3}));
}

TEST(Expand, ZeroSizedAndBoolOutputs) {
  TestTensor b = make(om::DataType::boolean, Shape{1, 2}, std::vector<std::uint8_t>{1, 0});
  NodeResult r = expand(b, {0, 2});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.output.shape, (Shape{0, 2}));
  r = expand(b, {3, 1});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(values_of<std::uint8_t>(r.output), (std::vector<std::uint8_t>{1, 0, 1, 0, 1, 0}));
}

TEST(Expand, ErrorsNameTheShapes) {
  TestTensor x = make(Shape{3}, std::vector<std::int32_t>{1, 2, 3});
  NodeResult r = expand(x, {2});
  EXPECT_EQ(r.status.code(), StatusCode::invalid_model);
  EXPECT_NE(std::string(r.status.message()).find("cannot be broadcast"), std::string::npos) << r.status.message();
  r = expand(x, {-1, 3});
  EXPECT_NE(std::string(r.status.message()).find("must be >= 0"), std::string::npos) << r.status.message();
  r = expand(x, {2, 3}, false);
  EXPECT_EQ(r.status.code(), StatusCode::unsupported);
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
