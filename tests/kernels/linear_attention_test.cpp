// SPDX-License-Identifier: MIT
// LinearAttention beyond the ONNX node suite: a float16 past_state with float activations (present_state keeps
// the state's dtype), per-head decay with grouped query heads and a scalar beta against a recurrence written from
// the definition, and the update-rule / gate validation messages.
#include <cmath>
#include <string>
#include <vector>

#include "support/node_runner.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

using namespace onnxmicro_test::node_runner;
using onnxmicro_test::make_attribute_int;
using onnxmicro_test::make_attribute_string;

struct Recurrence {
  std::vector<double> output;
  std::vector<double> state;
};

// gated_delta with decay per KV head (B, T, Hkv) and one beta per token (B, T, 1), in double.
Recurrence gated_delta_ref(const std::vector<double>& q, const std::vector<double>& k, const std::vector<double>& v,
                           const std::vector<double>& decay, const std::vector<double>& beta, std::vector<double> state,
                           int batch, int len, int q_heads, int kv_heads, int dk, int dv) {
  Recurrence r;
  r.output.assign(static_cast<std::size_t>(batch * len * q_heads * dv), 0.0);
  const int group = q_heads / kv_heads;
  const double scale = 1.0 / std::sqrt(static_cast<double>(dk));
  for (int b = 0; b < batch; ++b) {
    for (int t = 0; t < len; ++t) {
      const int token = b * len + t;
      for (int h = 0; h < kv_heads; ++h) {
        double* s = &state[static_cast<std::size_t>((b * kv_heads + h) * dk * dv)];
        const double g = std::exp(decay[token * kv_heads + h]);
        for (int i = 0; i < dk * dv; ++i) s[i] *= g;
        const double* key = &k[static_cast<std::size_t>((token * kv_heads + h) * dk)];
        for (int m = 0; m < dv; ++m) {
          double retrieved = 0;
          for (int d = 0; d < dk; ++d) retrieved += s[d * dv + m] * key[d];
          const double delta = beta[token] * (v[(token * kv_heads + h) * dv + m] - retrieved);
          for (int d = 0; d < dk; ++d) s[d * dv + m] += key[d] * delta;
        }
        for (int qh = h * group; qh < (h + 1) * group; ++qh) {
          for (int m = 0; m < dv; ++m) {
            double acc = 0;
            for (int d = 0; d < dk; ++d) acc += q[(token * q_heads + qh) * dk + d] * s[d * dv + m];
            r.output[(token * q_heads + qh) * dv + m] = scale * acc;
          }
        }
      }
    }
  }
  r.state = std::move(state);
  return r;
}

TEST(LinearAttentionKernel, Float16StateWithFloatInputsAndGroupedHeads) {
  const int batch = 2, len = 3, q_heads = 4, kv_heads = 2, dk = 3, dv = 2;
  const auto q = ramp(batch * len * q_heads * dk, 1), k = ramp(batch * len * kv_heads * dk, 2);
  const auto v = ramp(batch * len * kv_heads * dv, 3), past = ramp(batch * kv_heads * dk * dv, 4);
  auto decay = ramp(batch * len * kv_heads, 5);
  for (double& d : decay) d = -0.5 * std::fabs(d);
  auto beta = ramp(batch * len, 6);
  for (double& b : beta) b = 0.5 + 0.25 * b;
  // The state enters as float16: round the reference's starting state the same way.
  std::vector<double> past16;
  for (double p : past) past16.push_back(om::float16_t::from_float(static_cast<float>(p)).to_float());
  NodeRun r = run_node("LinearAttention", {{"", 27}},
                       {input("q", DataType::float32, {batch, len, q_heads * dk}, q),
                        input("k", DataType::float32, {batch, len, kv_heads * dk}, k),
                        input("v", DataType::float32, {batch, len, kv_heads * dv}, v),
                        input("past", DataType::float16, {batch, kv_heads, dk, dv}, past),
                        input("decay", DataType::float32, {batch, len, kv_heads}, decay),
                        input("beta", DataType::float32, {batch, len, 1}, beta)},
                       {{"out", DataType::float32}, {"state", DataType::float16}},
                       {make_attribute_int("q_num_heads", q_heads), make_attribute_int("kv_num_heads", kv_heads)});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.dtypes[0], DataType::float32);
  EXPECT_EQ(r.dtypes[1], DataType::float16);
  EXPECT_EQ(r.shapes[1], (Shape{batch, kv_heads, dk, dv}));
  const Recurrence ref = gated_delta_ref(q, k, v, decay, beta, past16, batch, len, q_heads, kv_heads, dk, dv);
  expect_near_all(r.values[0], ref.output, 1e-5);
  expect_near_all(r.values[1], ref.state, 2e-3);
}

TEST(LinearAttentionKernel, ValidationMessages) {
  const Input q = input("q", DataType::float32, {1, 1, 4}, ramp(4, 1));
  const Input k = input("k", DataType::float32, {1, 1, 4}, ramp(4, 2));
  const Input v = input("v", DataType::float32, {1, 1, 4}, ramp(4, 3));
  const ProtoWriter qh = make_attribute_int("q_num_heads", 2), kvh = make_attribute_int("kv_num_heads", 2);
  const std::vector<Output> outs = {{"out"}, {"state"}};
  expect_error(
      run_node("LinearAttention", {{"", 27}}, {q, k, v}, outs, {qh, kvh, make_attribute_string("update_rule", "mamba")})
          .status,
      StatusCode::invalid_model, "'update_rule' is 'mamba'");
  expect_error(run_node("LinearAttention", {{"", 27}},
                        {q, k, v, omitted(), input("decay", DataType::float32, {1, 1, 2}, ramp(2, 4))}, outs,
                        {qh, kvh, make_attribute_string("update_rule", "linear")})
                   .status,
               StatusCode::invalid_model, "input 4 'decay' is not allowed");
  expect_error(
      run_node("LinearAttention", {{"", 27}}, {q, k, v}, outs, {qh, kvh, make_attribute_string("update_rule", "delta")})
          .status,
      StatusCode::invalid_model, "input 5 'beta' is required");
  expect_error(run_node("LinearAttention", {{"", 27}},
                        {q, k, v, omitted(), omitted(), input("beta", DataType::float32, {1, 1, 3}, ramp(3, 4))}, outs,
                        {qh, kvh, make_attribute_string("update_rule", "delta")})
                   .status,
               StatusCode::invalid_model, "last dim must be kv_num_heads or 1");
  expect_error(run_node("LinearAttention", {{"", 27}}, {q, k, v}, outs,
                        {qh, make_attribute_int("kv_num_heads", 3), make_attribute_string("update_rule", "linear")})
                   .status,
               StatusCode::invalid_model, "must be a multiple of 'kv_num_heads'");
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
