// SPDX-License-Identifier: MIT
// CausalConvWithState beyond the ONNX node suite: bfloat16 with bias, past state and SiLU against a reference
// written from the definition, chaining two calls through the state equals one call over the whole sequence, and
// the validation messages.
#include <cmath>
#include <vector>

#include "support/node_runner.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

using namespace onnxmicro_test::node_runner;
using onnxmicro_test::make_attribute_string;

std::vector<double> conv_ref(const std::vector<double>& x, const std::vector<double>& w, const std::vector<double>& b,
                             const std::vector<double>& past, int batch, int channels, int len, int kernel, bool silu) {
  std::vector<double> y(static_cast<std::size_t>(batch * channels * len));
  for (int n = 0; n < batch; ++n) {
    for (int c = 0; c < channels; ++c) {
      for (int t = 0; t < len; ++t) {
        double acc = b.empty() ? 0.0 : b[c];
        for (int i = 0; i < kernel; ++i) {
          const int p = t + i - (kernel - 1);  // position in the input; negative positions are the state
          const double xv = p >= 0         ? x[(n * channels + c) * len + p]
                            : past.empty() ? 0.0
                                           : past[(n * channels + c) * (kernel - 1) + (kernel - 1 + p)];
          acc += w[c * kernel + i] * xv;
        }
        y[(n * channels + c) * len + t] = silu ? acc / (1 + std::exp(-acc)) : acc;
      }
    }
  }
  return y;
}

TEST(CausalConvWithStateKernel, BFloat16WithBiasPastStateAndSilu) {
  const auto x = ramp(2 * 3 * 5, 1), w = ramp(3 * 3, 2), b = ramp(3, 3), past = ramp(2 * 3 * 2, 4);
  auto rounded = [](std::vector<double> v) {
    for (double& e : v) e = om::bfloat16_t::from_float(static_cast<float>(e)).to_float();
    return v;
  };
  NodeRun r = run_node("CausalConvWithState", {{"", 27}},
                       {input("x", DataType::bfloat16, {2, 3, 5}, x), input("w", DataType::bfloat16, {3, 1, 3}, w),
                        input("b", DataType::bfloat16, {3}, b), input("past", DataType::bfloat16, {2, 3, 2}, past)},
                       {{"y", DataType::bfloat16}, {"state", DataType::bfloat16}},
                       {make_attribute_string("activation", "silu")});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  expect_near_all(r.values[0], conv_ref(rounded(x), rounded(w), rounded(b), rounded(past), 2, 3, 5, 3, true), 2e-2);
  // present_state: the last two input positions of each row, exactly.
  const auto xr = rounded(x);
  for (int row = 0; row < 6; ++row) {
    EXPECT_EQ(r.values[1][row * 2], xr[row * 5 + 3]);
    EXPECT_EQ(r.values[1][row * 2 + 1], xr[row * 5 + 4]);
  }
}

TEST(CausalConvWithStateKernel, TwoChunksThroughTheStateEqualOneCall) {
  const auto x = ramp(1 * 2 * 6, 5), w = ramp(2 * 4, 6);
  const Input weight = input("w", DataType::float32, {2, 1, 4}, w);
  const std::vector<Output> outs = {{"y"}, {"state"}};
  NodeRun whole =
      run_node("CausalConvWithState", {{"", 27}}, {input("x", DataType::float32, {1, 2, 6}, x), weight}, outs);
  ASSERT_TRUE(whole.status.ok()) << whole.status.message();
  std::vector<double> first, second;
  for (int c = 0; c < 2; ++c) {
    first.insert(first.end(), x.begin() + c * 6, x.begin() + c * 6 + 2);
    second.insert(second.end(), x.begin() + c * 6 + 2, x.begin() + c * 6 + 6);
  }
  NodeRun a =
      run_node("CausalConvWithState", {{"", 27}}, {input("x", DataType::float32, {1, 2, 2}, first), weight}, outs);
  ASSERT_TRUE(a.status.ok()) << a.status.message();
  NodeRun b = run_node("CausalConvWithState", {{"", 27}},
                       {input("x", DataType::float32, {1, 2, 4}, second), weight, omitted(),
                        input("past", DataType::float32, {1, 2, 3}, a.values[1])},
                       outs);
  ASSERT_TRUE(b.status.ok()) << b.status.message();
  for (int c = 0; c < 2; ++c) {
    for (int t = 0; t < 6; ++t) {
      const double chunked = t < 2 ? a.values[0][c * 2 + t] : b.values[0][c * 4 + t - 2];
      EXPECT_NEAR(chunked, whole.values[0][c * 6 + t], 1e-6) << "channel " << c << " position " << t;
    }
  }
  EXPECT_EQ(b.values[1], whole.values[1]);
}

TEST(CausalConvWithStateKernel, ValidationMessages) {
  const Input x = input("x", DataType::float32, {1, 2, 4}, ramp(8, 1));
  const Input w = input("w", DataType::float32, {2, 1, 3}, ramp(6, 2));
  const std::vector<Output> outs = {{"y"}, {"state"}};
  expect_error(
      run_node("CausalConvWithState", {{"", 27}}, {x, w}, outs, {make_attribute_string("activation", "gelu")}).status,
      StatusCode::invalid_model, "'activation' is 'gelu'");
  expect_error(run_node("CausalConvWithState", {{"", 27}},
                        {x, w, omitted(), input("past", DataType::float32, {1, 2, 3}, ramp(6, 3))}, outs)
                   .status,
               StatusCode::invalid_model, "dim 2 must be 2 (kernel size - 1)");
  expect_error(
      run_node("CausalConvWithState", {{"", 27}}, {x, input("w", DataType::float32, {2, 2, 3}, ramp(12, 2))}, outs)
          .status,
      StatusCode::invalid_model, "dim 1 must be 1");
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
