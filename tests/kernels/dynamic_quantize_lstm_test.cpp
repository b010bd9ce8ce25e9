// SPDX-License-Identifier: MIT
// com.microsoft DynamicQuantizeLSTM beyond the quantize_dynamic models of conformance_dynamic_quant_models (which
// compare it with a numpy reference of onnxruntime's kernel): zero points given as graph inputs are read at run
// time (shifting W and its zero point together changes nothing, bit for bit); the transposed weight layout and
// per-column scales agree with the float LSTM on the dequantized weights to within 8-bit activation quantization;
// and the errors onnxruntime also raises.
#include <gtest/gtest.h>

#include <cmath>

#include "support/kernel_harness.hpp"
#include "support/node_runner.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

using namespace onnxmicro_test::node_runner;
using onnxmicro_test::make_attribute_int;

constexpr std::int64_t kSteps = 4, kInput = 3, kHidden = 2, kGates = 4 * kHidden;

std::vector<float> x_values() {
  std::vector<float> x;
  for (std::int64_t i = 0; i < kSteps * kInput; ++i) x.push_back(std::sin(0.7f * static_cast<float>(i)) * 1.5f);
  return x;
}
/// uint8 weights of `rows` x kGates (the transposed layout), centred on 128.
std::vector<std::uint8_t> weight_values(std::int64_t rows, int shift, int seed) {
  std::vector<std::uint8_t> w;
  for (std::int64_t i = 0; i < rows * kGates; ++i)
    w.push_back(static_cast<std::uint8_t>(128 + shift + (i * seed) % 41 - 20));
  return w;
}
std::vector<float> per_column_scales(float base) {
  std::vector<float> s;
  for (std::int64_t j = 0; j < kGates; ++j) s.push_back(base * (1.0f + 0.125f * static_cast<float>(j)));
  return s;
}

/// A forward DynamicQuantizeLSTM over x_values() with weights `w`, uint8 R shifted by `r_shift`, and the scales and
/// zero points given as graph inputs; its Y.
NodeRun run_lstm(Input w, int r_shift, Input w_scale, Input w_zero, Input r_scale, Input r_zero) {
  return run_node("DynamicQuantizeLSTM", Opsets{{"", 21}, {"com.microsoft", 1}},
                  {{"X", {kSteps, 1, kInput}, x_values()},
                   std::move(w),
                   input<std::uint8_t>("R", {1, kHidden, kGates}, weight_values(kHidden, r_shift, 11)),
                   omitted(),
                   omitted(),
                   omitted(),
                   omitted(),
                   omitted(),
                   std::move(w_scale),
                   std::move(w_zero),
                   std::move(r_scale),
                   std::move(r_zero)},
                  {"Y"}, {make_attribute_int("hidden_size", kHidden)}, "com.microsoft");
}

/// uint8 W and R shifted by `shift`, with zero points `w_zero` (R's: w_zero[0] repeated) of shape `param_dims` and
/// per-direction (one value) or per-column scales.
NodeRun run_quantized(int shift, std::vector<std::uint8_t> w_zero, std::vector<std::int64_t> param_dims) {
  const std::size_t params = w_zero.size();
  const auto scales = [params](float base) { return params == 1 ? std::vector<float>{base} : per_column_scales(base); };
  return run_lstm(input<std::uint8_t>("W", {1, kInput, kGates}, weight_values(kInput, shift, 7)), shift,
                  {"W_scale", param_dims, scales(0.02f)}, input<std::uint8_t>("W_zero_point", param_dims, w_zero),
                  {"R_scale", param_dims, scales(0.03f)},
                  input<std::uint8_t>("R_zero_point", param_dims, std::vector<std::uint8_t>(params, w_zero[0])));
}

TEST(DynamicQuantizeLSTMKernel, ZeroPointsAreReadAtRunTime) {
  const NodeRun base = run_quantized(0, {128}, {1});
  ASSERT_TRUE(base.status.ok()) << base.status.message();
  const NodeRun shifted = run_quantized(9, {137}, {1});
  ASSERT_TRUE(shifted.status.ok()) << shifted.status.message();
  EXPECT_EQ(base.values[0], shifted.values[0]);
  const NodeRun per_column = run_quantized(-5, std::vector<std::uint8_t>(kGates, 123), {1, kGates});
  ASSERT_TRUE(per_column.status.ok()) << per_column.status.message();
  EXPECT_NE(base.values[0], per_column.values[0]);  // per-column scales differ from the per-direction ones
}

TEST(DynamicQuantizeLSTMKernel, AgreesWithFloatLstmOnDequantizedWeights) {
  const NodeRun quantized = run_quantized(0, std::vector<std::uint8_t>(kGates, 128), {1, kGates});
  ASSERT_TRUE(quantized.status.ok()) << quantized.status.message();
  // LSTM's W is [1, 4H, input]: row j of gate block, column k = transposed[k][j], dequantized per column j.
  const auto dequantize = [](const std::vector<std::uint8_t>& q, std::int64_t rows, float base) {
    const std::vector<float> scales = per_column_scales(base);
    std::vector<float> w(static_cast<std::size_t>(rows * kGates));
    for (std::int64_t k = 0; k < rows; ++k)
      for (std::int64_t j = 0; j < kGates; ++j)
        w[static_cast<std::size_t>(j * rows + k)] =
            (static_cast<float>(q[static_cast<std::size_t>(k * kGates + j)]) - 128.0f) *
            scales[static_cast<std::size_t>(j)];
    return w;
  };
  const NodeRun reference =
      run_node("LSTM", Opsets{{"", 14}},
               {{"X", {kSteps, 1, kInput}, x_values()},
                {"W", {1, kGates, kInput}, dequantize(weight_values(kInput, 0, 7), kInput, 0.02f)},
                {"R", {1, kGates, kHidden}, dequantize(weight_values(kHidden, 0, 11), kHidden, 0.03f)}},
               {"Y"}, {make_attribute_int("hidden_size", kHidden)});
  ASSERT_TRUE(reference.status.ok()) << reference.status.message();
  // 8-bit X and H: each product is off by at most half a step of the operand's scale (range / 255).
  expect_near_all(quantized.values[0], reference.values[0], 0.02);
}

TEST(DynamicQuantizeLSTMKernel, RejectsPerColumnZeroPointsThatDifferWithinADirection) {
  std::vector<std::uint8_t> zero(kGates, 128);
  zero[3] = 127;
  const NodeRun run = run_quantized(0, zero, {1, kGates});
  expect_error(run.status, om::StatusCode::unsupported, "W_zero_point");
}

TEST(DynamicQuantizeLSTMKernel, RejectsAScaleOfTheWrongShape) {
  const NodeRun run =
      run_lstm(input<std::uint8_t>("W", {1, kInput, kGates}, weight_values(kInput, 0, 7)), 0,
               {"W_scale", {3}, {0.1f, 0.1f, 0.1f}}, input<std::uint8_t>("W_zero_point", {3}, {128, 128, 128}),
               {"R_scale", {1}, {0.1f}}, input<std::uint8_t>("R_zero_point", {1}, {128}));
  expect_error(run.status, om::StatusCode::invalid_model, "expected shape [1] or [1,8], got [3]");
}

TEST(DynamicQuantizeLSTMKernel, RejectsFloatWeights) {
  const NodeRun run = run_lstm({"W", {1, kInput, kGates}, std::vector<float>(kInput * kGates, 0.0f)}, 0,
                               {"W_scale", {1}, {0.1f}}, {"W_zero_point", {1}, {0.0f}}, {"R_scale", {1}, {0.1f}},
                               input<std::uint8_t>("R_zero_point", {1}, {128}));
  EXPECT_FALSE(run.status.ok());
  EXPECT_NE(std::string(run.status.message()).find("'W'"), std::string::npos) << run.status.message();
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
