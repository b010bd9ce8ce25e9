// SPDX-License-Identifier: MIT
// ConvInteger and QLinearConv beyond the ONNX node suite: 1-D windows, per-output-channel weight zero points and
// scales, bias, saturation, and the errors for group and parameter shapes. Expected values worked out by hand.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "onnxmicro/onnxmicro.hpp"
#include "support/kernel_harness.hpp"
#include "support/proto_writer.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

namespace om = onnxmicro;
using om::Shape;
using om::StatusCode;
using onnxmicro_test::make;
using onnxmicro_test::make_attribute_int;
using onnxmicro_test::NodeResult;
using onnxmicro_test::TestTensor;
using onnxmicro_test::values_of;

NodeResult run(const char* op, const std::vector<TestTensor>& inputs,
               const std::vector<onnxmicro_test::ProtoWriter>& attributes = {}) {
  return onnxmicro_test::run_node(om::all_kernels_registry(), op, 10, inputs, attributes);
}

TEST(ConvIntegerTest, OneDimensionalWithPerChannelWeightZeroPoints) {
  // x - 1 = [0, 1, 2, 3]; w - [0, 1] per channel = [[1, 1], [1, 0]].
  NodeResult r =
      run("ConvInteger", {make(Shape{1, 1, 4}, std::vector<std::uint8_t>{1, 2, 3, 4}),
                          make(Shape{2, 1, 2}, std::vector<std::int8_t>{1, 1, 2, 1}),
                          make(Shape{}, std::vector<std::uint8_t>{1}), make(Shape{2}, std::vector<std::int8_t>{0, 1})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.output.shape, (Shape{1, 2, 3}));
  EXPECT_EQ(values_of<std::int32_t>(r.output), (std::vector<std::int32_t>{1, 3, 5, 0, 1, 2}));
}

TEST(ConvIntegerTest, PaddingContributesZeroAfterTheShift) {
  // x - 3 = [-1, 1]; pads 1 each side, w = [1, 1]: [-1, 0, 1].
  NodeResult r =
      run("ConvInteger",
          {make(Shape{1, 1, 2}, std::vector<std::uint8_t>{2, 4}), make(Shape{1, 1, 2}, std::vector<std::uint8_t>{1, 1}),
           make(Shape{}, std::vector<std::uint8_t>{3})},
          {onnxmicro_test::make_attribute_ints("pads", {1, 1})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(values_of<std::int32_t>(r.output), (std::vector<std::int32_t>{-1, 0, 1}));
}

TEST(ConvIntegerTest, GroupMustDivideTheChannels) {
  NodeResult r = run("ConvInteger",
                     {make(Shape{1, 2, 2}, std::vector<std::uint8_t>{1, 2, 3, 4}),
                      make(Shape{3, 1, 1}, std::vector<std::uint8_t>{1, 1, 1})},
                     {make_attribute_int("group", 2)});
  EXPECT_EQ(r.status.code(), StatusCode::invalid_model);
  EXPECT_NE(std::string(r.status.message()).find("attribute 'group' is 2"), std::string::npos) << r.status.message();
}

TEST(ConvIntegerTest, WeightZeroPointNeedsOneValuePerOutputChannel) {
  NodeResult r = run(
      "ConvInteger",
      {make(Shape{1, 1, 2}, std::vector<std::uint8_t>{1, 2}), make(Shape{2, 1, 1}, std::vector<std::uint8_t>{1, 1}),
       make(Shape{}, std::vector<std::uint8_t>{0}), make(Shape{3}, std::vector<std::uint8_t>{0, 0, 0}).named("WZ")});
  EXPECT_EQ(r.status.code(), StatusCode::invalid_model);
  EXPECT_NE(std::string(r.status.message()).find("input 3 'WZ' has shape [3], expected a scalar or [2]"),
            std::string::npos)
      << r.status.message();
}

// x - 10 = [0, 10]; w - w_zero = [2, 2] per channel; bias [4, -4]; multipliers 0.5 * [1, 0.5] / 1.
std::vector<TestTensor> qlinear_conv_inputs(TestTensor bias) {
  return {make(Shape{1, 1, 2}, std::vector<std::uint8_t>{10, 20}),
          make(Shape{}, std::vector<float>{0.5f}),
          make(Shape{}, std::vector<std::uint8_t>{10}),
          make(Shape{2, 1, 1}, std::vector<std::int8_t>{2, 3}),
          make(Shape{2}, std::vector<float>{1.0f, 0.5f}),
          make(Shape{2}, std::vector<std::int8_t>{0, 1}),
          make(Shape{}, std::vector<float>{1.0f}),
          make(Shape{}, std::vector<std::uint8_t>{0}),
          bias};
}

TEST(QLinearConvTest, PerChannelScalesBiasAndSaturation) {
  // Channel 0: ([0, 20] + 4) * 0.5 = [2, 12]; channel 1: ([0, 20] - 4) * 0.25 = [-1 -> 0, 4].
  NodeResult r = run("QLinearConv", qlinear_conv_inputs(make(Shape{2}, std::vector<std::int32_t>{4, -4})));
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(values_of<std::uint8_t>(r.output), (std::vector<std::uint8_t>{2, 12, 0, 4}));
}

TEST(QLinearConvTest, BiasNeedsOneValuePerOutputChannel) {
  NodeResult r =
      run("QLinearConv", qlinear_conv_inputs(make(Shape{3}, std::vector<std::int32_t>{4, -4, 0}).named("B")));
  EXPECT_EQ(r.status.code(), StatusCode::invalid_model);
  EXPECT_NE(std::string(r.status.message()).find("input 8 'B' (B) has shape [3], expected [2]"), std::string::npos)
      << r.status.message();
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
