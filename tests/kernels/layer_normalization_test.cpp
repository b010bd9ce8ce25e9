// SPDX-License-Identifier: MIT
// The block normalisers beyond the ONNX node suite (which only has float32 and per-channel GroupNormalization):
// LayerNormalization without bias, with broadcast Scale and float16/float64 X; RMSNormalization with a scale
// dtype other than X's; GroupNormalization's per-group (18) vs per-channel (21) parameters picked by opset;
// InstanceNormalization on 3-D input; and the validation messages. Expected values come from a direct
// two-pass loop in double written here.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "onnxmicro/onnxmicro.hpp"
#include "support/kernel_test_prelude.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

using namespace onnxmicro_test::prelude;

NodeResult run(const std::string& op, int opset, const std::vector<TestTensor>& inputs,
               const std::vector<ProtoWriter>& attributes = {}) {
  return onnxmicro_test::run_node(om::all_kernels_registry(), op, opset, inputs, attributes);
}

std::vector<float> ramp(int count, float scale) {
  std::vector<float> v(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) v[static_cast<std::size_t>(i)] = scale * static_cast<float>((i * 7) % 11 - 5);
  return v;
}

/// Normalises consecutive blocks of `block` values (mean removed unless `rms`), epsilon 1e-5.
std::vector<double> normalize_blocks(const std::vector<float>& x, std::size_t block, bool rms = false) {
  std::vector<double> y(x.size());
  for (std::size_t start = 0; start < x.size(); start += block) {
    double mean = 0.0, squares = 0.0;
    if (!rms) {
      for (std::size_t i = 0; i < block; ++i) mean += x[start + i];
      mean /= static_cast<double>(block);
    }
    for (std::size_t i = 0; i < block; ++i) squares += (x[start + i] - mean) * (x[start + i] - mean);
    const double inv = 1.0 / std::sqrt(squares / static_cast<double>(block) + 1e-5);
    for (std::size_t i = 0; i < block; ++i) y[start + i] = (x[start + i] - mean) * inv;
  }
  return y;
}

TEST(LayerNormalization, BroadcastScaleWithoutBias) {
  const std::vector<float> x = ramp(24, 0.5f);
  const std::vector<float> scale = {2.0f, -1.0f, 0.5f};  // shape [3, 1]: one value per row of the [3, 4] block
  auto result = run("LayerNormalization", 17, {make(Shape{2, 3, 4}, x), make(Shape{3, 1}, scale).named("Scale")},
                    {make_attribute_int("axis", 1)});
  ASSERT_TRUE(result.status.ok()) << result.status.message();
  const std::vector<double> expected = normalize_blocks(x, 12);
  const std::vector<float> y = values_of<float>(result.output);
  ASSERT_EQ(y.size(), expected.size());
  for (std::size_t i = 0; i < y.size(); ++i) EXPECT_NEAR(y[i], expected[i] * scale[(i / 4) % 3], 1e-5) << i;
}

TEST(LayerNormalization, Float16AndFloat64) {
  const std::vector<float> x = ramp(8, 0.25f);
  std::vector<om::float16_t> x16, one16(4, om::float16_t::from_float(1.0f));
  for (float v : x) x16.push_back(om::float16_t::from_float(v));
  auto half = run("LayerNormalization", 17, {make(Shape{2, 4}, x16), make(Shape{4}, one16).named("Scale")});
  ASSERT_TRUE(half.status.ok()) << half.status.message();
  EXPECT_EQ(half.output.dtype, DataType::float16);
  std::vector<double> x64(x.begin(), x.end()), one64(4, 1.0);
  auto wide = run("LayerNormalization", 17, {make(Shape{2, 4}, x64), make(Shape{4}, one64).named("Scale")});
  ASSERT_TRUE(wide.status.ok()) << wide.status.message();
  const std::vector<double> expected = normalize_blocks(x, 4);
  const auto y16 = values_of<om::float16_t>(half.output);
  const auto y64 = values_of<double>(wide.output);
  for (std::size_t i = 0; i < expected.size(); ++i) {
    EXPECT_NEAR(y16[i].to_float(), expected[i], 2e-3) << i;
    EXPECT_NEAR(y64[i], expected[i], 1e-12) << i;
  }
}

TEST(LayerNormalization, ValidationMessages) {
  const TestTensor x = make(Shape{2, 3}, ramp(6, 1.0f));
  auto axis =
      run("LayerNormalization", 17, {x, make(Shape{3}, ramp(3, 1.0f)).named("Scale")}, {make_attribute_int("axis", 2)});
  EXPECT_EQ(axis.status.code(), StatusCode::invalid_model);
  EXPECT_NE(std::string(axis.status.message()).find("attribute 'axis' is 2, expected a value in [-2, 1]"),
            std::string::npos)
      << axis.status.message();
  auto scale = run("LayerNormalization", 17, {x, make(Shape{4}, ramp(4, 1.0f)).named("Scale")});
  EXPECT_EQ(scale.status.code(), StatusCode::invalid_model);
  EXPECT_NE(std::string(scale.status.message()).find("input 1 'Scale' has shape [4]"), std::string::npos)
      << scale.status.message();
  auto dtype = run("LayerNormalization", 17,
                   {make(Shape{2}, std::vector<std::int32_t>{1, 2}), make(Shape{2}, std::vector<std::int32_t>{1, 1})});
  EXPECT_EQ(dtype.status.code(), StatusCode::unsupported);
  EXPECT_NE(std::string(dtype.status.message()).find("dtype int32"), std::string::npos) << dtype.status.message();
  auto stash = run("LayerNormalization", 17, {x, make(Shape{3}, ramp(3, 1.0f)).named("Scale")},
                   {make_attribute_int("stash_type", 7)});
  EXPECT_NE(std::string(stash.status.message()).find("attribute 'stash_type' is 7"), std::string::npos)
      << stash.status.message();
}

TEST(RMSNormalization, ScaleDtypeDecidesOutputDtype) {
  const std::vector<float> x = ramp(6, 0.5f);
  std::vector<om::float16_t> x16;
  for (float v : x) x16.push_back(om::float16_t::from_float(v));
  const std::vector<float> scale = {1.0f, 2.0f, 3.0f};
  auto result = run("RMSNormalization", 23, {make(Shape{2, 3}, x16), make(Shape{3}, scale).named("scale")});
  ASSERT_TRUE(result.status.ok()) << result.status.message();
  EXPECT_EQ(result.output.dtype, DataType::float32);
  const std::vector<double> expected = normalize_blocks(x, 3, /*rms=*/true);
  const std::vector<float> y = values_of<float>(result.output);
  for (std::size_t i = 0; i < y.size(); ++i) EXPECT_NEAR(y[i], expected[i] * scale[i % 3], 3e-3) << i;
}

TEST(GroupNormalization, Opset18ScalesPerGroupAndOpset21PerChannel) {
  const std::vector<float> x = ramp(16, 0.5f);  // N 1, C 4, spatial 4; 2 groups of 8 values
  const std::vector<double> normalized = normalize_blocks(x, 8);
  auto per_group = run("GroupNormalization", 18,
                       {make(Shape{1, 4, 4}, x), make(Shape{2}, std::vector<float>{2.0f, 3.0f}).named("scale"),
                        make(Shape{2}, std::vector<float>{0.0f, 1.0f}).named("bias")},
                       {make_attribute_int("num_groups", 2)});
  ASSERT_TRUE(per_group.status.ok()) << per_group.status.message();
  const std::vector<float> y18 = values_of<float>(per_group.output);
  for (std::size_t i = 0; i < 16; ++i) {
    const std::size_t g = i / 8;
    EXPECT_NEAR(y18[i], normalized[i] * (g ? 3.0 : 2.0) + (g ? 1.0 : 0.0), 1e-5) << i;
  }
  const std::vector<float> channel_scale = {1.0f, 2.0f, 3.0f, 4.0f};
  auto per_channel = run("GroupNormalization", 21,
                         {make(Shape{1, 4, 4}, x), make(Shape{4}, channel_scale).named("scale"),
                          make(Shape{4}, std::vector<float>(4, 0.5f)).named("bias")},
                         {make_attribute_int("num_groups", 2)});
  ASSERT_TRUE(per_channel.status.ok()) << per_channel.status.message();
  const std::vector<float> y21 = values_of<float>(per_channel.output);
  for (std::size_t i = 0; i < 16; ++i) EXPECT_NEAR(y21[i], normalized[i] * channel_scale[i / 4] + 0.5, 1e-5) << i;
  // A per-channel scale is refused by opset 18.
  auto wrong = run("GroupNormalization", 18,
                   {make(Shape{1, 4, 4}, x), make(Shape{4}, channel_scale).named("scale"),
                    make(Shape{4}, channel_scale).named("bias")},
                   {make_attribute_int("num_groups", 2)});
  EXPECT_EQ(wrong.status.code(), StatusCode::invalid_model);
  EXPECT_NE(std::string(wrong.status.message()).find("expected [2] (one value per group)"), std::string::npos)
      << wrong.status.message();
  auto groups = run("GroupNormalization", 21,
                    {make(Shape{1, 4, 4}, x), make(Shape{4}, channel_scale).named("scale"),
                     make(Shape{4}, channel_scale).named("bias")},
                    {make_attribute_int("num_groups", 3)});
  EXPECT_NE(std::string(groups.status.message()).find("attribute 'num_groups' is 3"), std::string::npos)
      << groups.status.message();
}

TEST(InstanceNormalization, ThreeDimensionalInput) {
  const std::vector<float> x = ramp(12, 1.0f);  // N 2, C 2, L 3
  auto result = run("InstanceNormalization", 6,
                    {make(Shape{2, 2, 3}, x), make(Shape{2}, std::vector<float>{1.0f, -1.0f}).named("scale"),
                     make(Shape{2}, std::vector<float>{0.0f, 2.0f}).named("B")});
  ASSERT_TRUE(result.status.ok()) << result.status.message();
  const std::vector<double> expected = normalize_blocks(x, 3);
  const std::vector<float> y = values_of<float>(result.output);
  for (std::size_t i = 0; i < y.size(); ++i) {
    const bool second = (i / 3) % 2 == 1;
    EXPECT_NEAR(y[i], second ? 2.0 - expected[i] : expected[i], 1e-5) << i;
  }
  auto shape = run("InstanceNormalization", 6,
                   {make(Shape{2, 2, 3}, x), make(Shape{3}, ramp(3, 1.0f)).named("scale"),
                    make(Shape{2}, ramp(2, 1.0f)).named("B")});
  EXPECT_NE(std::string(shape.status.message()).find("expected [2] (one value per channel)"), std::string::npos)
      << shape.status.message();
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
