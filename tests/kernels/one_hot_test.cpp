// SPDX-License-Identifier: MIT
// OneHot: negative indices (off before opset 11, counted from the back after), out-of-range indices (a row of
// off values, not an error), float indices truncated, axis 0, int64 values, and the depth input's rules.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "support/kernel_test_prelude.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

using namespace onnxmicro_test::prelude;

NodeResult run(int opset, const std::vector<TestTensor>& inputs, const std::vector<ProtoWriter>& attributes = {}) {
  return onnxmicro_test::run_node(om::all_kernels_registry(), "OneHot", opset, inputs, attributes);
}

TestTensor depth(float value) { return make(Shape{}, std::vector<float>{value}).named("depth").as_constant(); }
TestTensor off_on() { return make(Shape{2}, std::vector<std::int64_t>{-1, 5}).named("values"); }

TEST(OneHot, NegativeIndicesCountFromTheBackFromOpset11) {
  const TestTensor indices = make(Shape{3}, std::vector<std::int32_t>{-1, 3, 1});
  NodeResult r11 = run(11, {indices, depth(3), off_on()});
  ASSERT_TRUE(r11.status.ok()) << r11.status.message();
  EXPECT_EQ(r11.output.shape, (Shape{3, 3}));
  EXPECT_EQ(values_of<std::int64_t>(r11.output), (std::vector<std::int64_t>{-1, -1, 5, -1, -1, -1, -1, 5, -1}));
  NodeResult r9 = run(9, {indices, depth(3), off_on()});
  ASSERT_TRUE(r9.status.ok()) << r9.status.message();
  EXPECT_EQ(values_of<std::int64_t>(r9.output), (std::vector<std::int64_t>{-1, -1, -1, -1, -1, -1, -1, 5, -1}));
}

TEST(OneHot, FloatIndicesTruncateAndAxisZeroLeadsTheOutput) {
  // depth 2.9 truncates to 2; indices 1.7 -> 1, -0.5 -> 0.
  NodeResult r =
      run(11, {make(Shape{2}, std::vector<double>{1.7, -0.5}), depth(2.9f), off_on()}, {make_attribute_int("axis", 0)});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.output.shape, (Shape{2, 2}));
  // output[d][i] = on where indices[i] == d.
  EXPECT_EQ(values_of<std::int64_t>(r.output), (std::vector<std::int64_t>{-1, 5, 5, -1}));
}

TEST(OneHot, DepthMustBeAKnownPositiveScalar) {
  const TestTensor indices = make(Shape{1}, std::vector<std::int64_t>{0});
  NodeResult r = run(11, {indices, make(Shape{}, std::vector<float>{3.0f}).named("depth"), off_on()});
  EXPECT_EQ(r.status.code(), StatusCode::unsupported);
  EXPECT_NE(std::string(r.status.message()).find("must be known at prepare time"), std::string::npos)
      << r.status.message();
  r = run(11, {indices, depth(0), off_on()});
  EXPECT_NE(std::string(r.status.message()).find("(depth) is 0, expected >= 1"), std::string::npos)
      << r.status.message();
  r = run(11, {indices, depth(2), make(Shape{3}, std::vector<float>{0, 1, 2})});
  EXPECT_NE(std::string(r.status.message()).find("expected [2] ([off_value, on_value])"), std::string::npos)
      << r.status.message();
  r = run(11, {indices, depth(2), off_on()}, {make_attribute_int("axis", 2)});
  EXPECT_EQ(r.status.code(), StatusCode::invalid_model) << r.status.message();
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
