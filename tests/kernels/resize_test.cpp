// SPDX-License-Identifier: MIT
// Resize beyond the conformance suite: integer outputs round half to even and saturate (numpy saturate_cast),
// nearest copies 64-bit integers exactly, Resize-10's legacy nearest, negative axes, per-version attribute
// values, and the errors for bad inputs and attributes.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "support/kernel_test_prelude.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

using namespace onnxmicro_test::prelude;

TestTensor scales(const std::vector<float>& v) {
  return make(Shape{static_cast<std::int64_t>(v.size())}, v).named("scales").as_constant();
}
TestTensor sizes(const std::vector<std::int64_t>& v) {
  return make(Shape{static_cast<std::int64_t>(v.size())}, v).named("sizes").as_constant();
}
const TestTensor& omitted() { return onnxmicro_test::kOmitted; }

NodeResult resize(int opset, const std::vector<TestTensor>& inputs, const std::vector<ProtoWriter>& attributes) {
  return onnxmicro_test::run_node(om::all_kernels_registry(), "Resize", opset, inputs, attributes);
}

TEST(ResizeKernel, LinearUint8RoundsHalfToEven) {
  // half_pixel sources -0.25, 0.25, 0.75, 1.25: 1, 1.5, 2.5, 3 -> 1, 2, 2, 3.
  NodeResult r = resize(13, {make(Shape{2}, std::vector<std::uint8_t>{1, 3}), omitted(), scales({2.0f})},
                        {make_attribute_string("mode", "linear")});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.output.shape, (Shape{4}));
  EXPECT_EQ(values_of<std::uint8_t>(r.output), (std::vector<std::uint8_t>{1, 2, 2, 3}));
}

TEST(ResizeKernel, CubicInt8Saturates) {
  // Alternating extremes make the cubic kernel overshoot; the result clips to [-128, 127].
  NodeResult r = resize(13, {make(Shape{4}, std::vector<std::int8_t>{-128, 127, -128, 127}), omitted(), scales({2.0f})},
                        {make_attribute_string("mode", "cubic")});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  std::vector<std::int8_t> y = values_of<std::int8_t>(r.output);
  ASSERT_EQ(y.size(), 8u);
  EXPECT_EQ(y[0], -128);  // source -0.25 overshoots below -128
  EXPECT_EQ(y[7], 127);
}

TEST(ResizeKernel, NearestCopiesInt64Exactly) {
  const std::int64_t big = (std::int64_t{1} << 62) + 1;  // not representable in double
  NodeResult r = resize(19, {make(Shape{2}, std::vector<std::int64_t>{big, 3}), omitted(), scales({2.0f})}, {});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(values_of<std::int64_t>(r.output), (std::vector<std::int64_t>{big, big, 3, 3}));
}

TEST(ResizeKernel, Version10NearestCeilsWhenDownsampling) {
  // ONNX's original Resize-10 example: [[1,2,3,4],[5,6,7,8]] scaled by 0.6 gives [[1,3]].
  NodeResult r = resize(
      10, {make(Shape{1, 1, 2, 4}, std::vector<float>{1, 2, 3, 4, 5, 6, 7, 8}), scales({1.0f, 1.0f, 0.6f, 0.6f})}, {});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.output.shape, (Shape{1, 1, 1, 2}));
  EXPECT_EQ(values_of<float>(r.output), (std::vector<float>{1, 3}));
}

TEST(ResizeKernel, NegativeAxesMatchPositive) {
  TestTensor x = make(Shape{2, 3}, std::vector<float>{1, 2, 4, 8, 16, 32});
  NodeResult neg = resize(18, {x, omitted(), omitted(), sizes({5})},
                          {make_attribute_string("mode", "linear"), make_attribute_ints("axes", {-1})});
  NodeResult pos = resize(18, {x, omitted(), omitted(), sizes({5})},
                          {make_attribute_string("mode", "linear"), make_attribute_ints("axes", {1})});
  ASSERT_TRUE(neg.status.ok()) << neg.status.message();
  ASSERT_TRUE(pos.status.ok()) << pos.status.message();
  EXPECT_EQ(neg.output.shape, (Shape{2, 5}));
  EXPECT_EQ(neg.output.bytes, pos.output.bytes);
}

TEST(ResizeKernel, CoordinateModesFollowTheirVersions) {
  TestTensor x = make(Shape{1, 4}, std::vector<float>{1, 2, 3, 4});
  const ProtoWriter nn_mode = make_attribute_string("coordinate_transformation_mode", "tf_half_pixel_for_nn");
  // Resize-11 (and opset 12) has tf_half_pixel_for_nn: sources (y + 0.5) / 2 = 0.25, 0.75, 1.25, ... round
  // (half down) to 0, 1, 1, 2, 2, 3, 3, 4 (clamped to 3).
  NodeResult r = resize(12, {x, make(Shape{0}, std::vector<float>{}).as_constant(), scales({1.0f, 2.0f})}, {nn_mode});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(values_of<float>(r.output), (std::vector<float>{1, 2, 2, 3, 3, 4, 4, 4}));
  r = resize(13, {x, omitted(), scales({1.0f, 2.0f})}, {nn_mode});
  EXPECT_EQ(r.status.code(), StatusCode::invalid_model);
  EXPECT_TRUE(contains(r.status, "which Resize-13 does not have")) << r.status.message();
  r = resize(18, {x, omitted(), scales({1.0f, 2.0f})},
             {make_attribute_string("coordinate_transformation_mode", "half_pixel_symmetric")});
  EXPECT_TRUE(contains(r.status, "which Resize-18 does not have")) << r.status.message();
}

TEST(ResizeKernel, RejectsBadInputsAndAttributes) {
  TestTensor x = make(Shape{1, 4}, std::vector<float>{1, 2, 3, 4});
  NodeResult r = resize(13, {x, omitted(), scales({1.0f, 2.0f}), sizes({1, 8})}, {});
  EXPECT_TRUE(contains(r.status, "exactly one of 'scales' and 'sizes'")) << r.status.message();
  r = resize(13, {x, omitted(), scales({2.0f})}, {});
  EXPECT_TRUE(contains(r.status, "has 1 values, expected 2")) << r.status.message();
  r = resize(13, {x, omitted(), scales({1.0f, 2.0f})}, {make_attribute_string("mode", "bilinear")});
  EXPECT_TRUE(contains(r.status, "attribute 'mode' is 'bilinear'")) << r.status.message();
  r = resize(18, {x, omitted(), scales({2.0f, 2.0f})}, {make_attribute_ints("axes", {1, -1})});
  EXPECT_TRUE(contains(r.status, "names axis 1 twice")) << r.status.message();
  r = resize(13, {x, omitted(), make(Shape{2}, std::vector<float>{1.0f, 2.0f}).named("scales")}, {});
  EXPECT_EQ(r.status.code(), StatusCode::unsupported);
  EXPECT_TRUE(contains(r.status, "decides the output shape")) << r.status.message();
  r = resize(13, {make(DataType::boolean, Shape{2}, std::vector<std::uint8_t>{1, 0}), omitted(), scales({2.0f})},
             {make_attribute_string("mode", "linear")});
  EXPECT_TRUE(contains(r.status, "linear and cubic interpolation do not support")) << r.status.message();
  r = resize(13, {x, omitted(), scales({1.0f, 2.0f})},
             {make_attribute_string("coordinate_transformation_mode", "tf_crop_and_resize")});
  EXPECT_TRUE(contains(r.status, "needs input 1 'roi'")) << r.status.message();
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
