// SPDX-License-Identifier: MIT
// Attention beyond the ONNX node suite (float/float16/bfloat16 only, T1 == T2): double inputs and a float Q/K with
// a double V against a reference written from the definition, an integer additive mask, qk_matmul_output mode 0
// staying raw with softcap, version differences (nonpad_kv_seqlen from 24, windows and the 4-D head-count rule
// from 25), and the validation messages.
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "support/node_runner.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

using namespace onnxmicro_test::node_runner;
using onnxmicro_test::make_attribute_float;
using onnxmicro_test::make_attribute_int;

// Scaled dot-product attention over 4-D (B, H, S, D) inputs in double: bias[i][j] added to the scores.
std::vector<double> attention_ref(const std::vector<double>& q, const std::vector<double>& k,
                                  const std::vector<double>& v, int batch, int heads, int q_len, int kv_len, int head,
                                  int v_head, const std::vector<double>& bias, double softcap = 0) {
  std::vector<double> y(static_cast<std::size_t>(batch * heads * q_len * v_head));
  const double scale = 1.0 / std::sqrt(static_cast<double>(head));
  for (int bh = 0; bh < batch * heads; ++bh) {
    for (int i = 0; i < q_len; ++i) {
      std::vector<double> p(static_cast<std::size_t>(kv_len));
      double max = -INFINITY;
      for (int j = 0; j < kv_len; ++j) {
        double s = 0;
        for (int d = 0; d < head; ++d) s += q[(bh * q_len + i) * head + d] * k[(bh * kv_len + j) * head + d];
        s *= scale;
        if (softcap > 0) s = softcap * std::tanh(s / softcap);
        p[j] = s + bias[i * kv_len + j];
        max = std::max(max, p[j]);
      }
      double sum = 0;
      for (double& e : p) sum += (e = std::exp(e - max));
      for (int d = 0; d < v_head; ++d) {
        double acc = 0;
        for (int j = 0; j < kv_len; ++j) acc += p[j] / sum * v[(bh * kv_len + j) * v_head + d];
        y[(bh * q_len + i) * v_head + d] = acc;
      }
    }
  }
  return y;
}

TEST(AttentionKernel, DoubleInputsMatchTheDefinition) {
  const auto q = ramp(2 * 2 * 3 * 4, 1), k = ramp(2 * 2 * 5 * 4, 2), v = ramp(2 * 2 * 5 * 3, 3);
  NodeRun r = run_node("Attention", {{"", 23}},
                       {input("Q", DataType::float64, {2, 2, 3, 4}, q), input("K", DataType::float64, {2, 2, 5, 4}, k),
                        input("V", DataType::float64, {2, 2, 5, 3}, v)},
                       {{"Y", DataType::float64}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.dtypes[0], DataType::float64);
  EXPECT_EQ(r.shapes[0], (Shape{2, 2, 3, 3}));
  expect_near_all(r.values[0], attention_ref(q, k, v, 2, 2, 3, 5, 4, 3, std::vector<double>(15, 0.0)), 1e-12);
}

TEST(AttentionKernel, FloatQueryWithDoubleValueKeepsEachDtype) {
  const auto q = ramp(1 * 1 * 2 * 4, 4), k = ramp(1 * 1 * 3 * 4, 5), v = ramp(1 * 1 * 3 * 2, 6);
  NodeRun r =
      run_node("Attention", {{"", 24}},
               {input("Q", DataType::float32, {1, 1, 2, 4}, q), input("K", DataType::float32, {1, 1, 3, 4}, k),
                input("V", DataType::float64, {1, 1, 3, 2}, v), omitted(),
                input("past_key", DataType::float32, {1, 1, 1, 4}, ramp(4, 7)),
                input("past_value", DataType::float64, {1, 1, 1, 2}, ramp(2, 8))},
               {{"Y", DataType::float32}, {"present_key", DataType::float32}, {"present_value", DataType::float64}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.dtypes[0], DataType::float32);
  EXPECT_EQ(r.dtypes[2], DataType::float64);
  EXPECT_EQ(r.shapes[1], (Shape{1, 1, 4, 4}));
  // The present value is the past row followed by V, bit for bit.
  std::vector<double> present_v = ramp(2, 8);
  present_v.insert(present_v.end(), v.begin(), v.end());
  EXPECT_EQ(r.values[2], present_v);
  std::vector<double> all_k = ramp(4, 7);
  all_k.insert(all_k.end(), k.begin(), k.end());
  expect_near_all(r.values[0], attention_ref(q, all_k, present_v, 1, 1, 2, 4, 4, 2, std::vector<double>(8, 0.0)), 1e-5);
}

TEST(AttentionKernel, IntegerMaskIsAddedAndShortMaskPadsWithMinusInfinity) {
  const auto q = ramp(4, 9), k = ramp(12, 10), v = ramp(6, 11);
  // Mask of 2 columns over 3 keys: the third key is masked; key 1 gets +2.
  NodeRun r = run_node("Attention", {{"", 23}},
                       {input("Q", DataType::float32, {1, 1, 1, 4}, q), input("K", DataType::float32, {1, 1, 3, 4}, k),
                        input("V", DataType::float32, {1, 1, 3, 2}, v), input("mask", DataType::int32, {1, 2}, {0, 2})},
                       {{"Y", DataType::float32}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  expect_near_all(r.values[0], attention_ref(q, k, v, 1, 1, 1, 3, 4, 2, {0, 2, -INFINITY}), 1e-5);
}

TEST(AttentionKernel, QkOutputModeZeroIsTheRawProductEvenWithSoftcap) {
  const auto q = ramp(8, 12), k = ramp(8, 13), v = ramp(4, 14);
  NodeRun r = run_node("Attention", {{"", 23}},
                       {input("Q", DataType::float32, {1, 1, 2, 4}, q), input("K", DataType::float32, {1, 1, 2, 4}, k),
                        input("V", DataType::float32, {1, 1, 2, 2}, v)},
                       {{"Y"}, {""}, {""}, {"qk"}}, {make_attribute_float("softcap", 0.1f)});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  for (int i = 0; i < 2; ++i) {
    for (int j = 0; j < 2; ++j) {
      double s = 0;
      for (int d = 0; d < 4; ++d) s += q[i * 4 + d] * k[j * 4 + d];
      EXPECT_NEAR(r.values[1][i * 2 + j], s / 2.0, 1e-6);  // 1/sqrt(4); a softcap of 0.1 would clamp to 0.1
    }
  }
  expect_near_all(r.values[0], attention_ref(q, k, v, 1, 1, 2, 2, 4, 2, {0, 0, 0, 0}, 0.1), 1e-5);
}

TEST(AttentionKernel, FullyMaskedRowIsZeroAndNonpadMasksThePadding) {
  const auto q = ramp(8, 15), k = ramp(12, 16), v = ramp(6, 17);
  // nonpad_kv_seqlen = 2 hides key 2; the bool mask hides everything in query row 0.
  NodeRun r = run_node(
      "Attention", {{"", 24}},
      {input("Q", DataType::float32, {1, 1, 2, 4}, q), input("K", DataType::float32, {1, 1, 3, 4}, k),
       input("V", DataType::float32, {1, 1, 3, 2}, v), input("mask", DataType::boolean, {2, 3}, {0, 0, 0, 1, 1, 1}),
       omitted(), omitted(), input("nonpad", DataType::int64, {1}, {2})},
      {{"Y"}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  const auto ref = attention_ref(q, k, v, 1, 1, 2, 3, 4, 2, {0, 0, 0, 0, 0, -INFINITY});
  EXPECT_EQ(r.values[0][0], 0.0);
  EXPECT_EQ(r.values[0][1], 0.0);
  EXPECT_NEAR(r.values[0][2], ref[2], 1e-5);
  EXPECT_NEAR(r.values[0][3], ref[3], 1e-5);
}

TEST(AttentionKernel, NonpadKvSeqlenLimitsTheKeysFromOpset24) {
  NodeRun r = run_node(
      "Attention", {{"", 23}},
      {input("Q", DataType::float32, {1, 1, 1, 4}, ramp(4, 1)), input("K", DataType::float32, {1, 1, 2, 4}, ramp(8, 2)),
       input("V", DataType::float32, {1, 1, 2, 2}, ramp(4, 3)), omitted(), omitted(), omitted(),
       input("nonpad", DataType::int64, {1}, {1})},
      {{"Y"}});
  // Opset 23 ignores the seventh input: both keys take part (compare with the opset 24 result).
  NodeRun r24 = run_node(
      "Attention", {{"", 24}},
      {input("Q", DataType::float32, {1, 1, 1, 4}, ramp(4, 1)), input("K", DataType::float32, {1, 1, 2, 4}, ramp(8, 2)),
       input("V", DataType::float32, {1, 1, 2, 2}, ramp(4, 3)), omitted(), omitted(), omitted(),
       input("nonpad", DataType::int64, {1}, {1})},
      {{"Y"}});
  ASSERT_TRUE(r24.status.ok()) << r24.status.message();
  // With one valid key, opset 24 returns that key's value row exactly.
  EXPECT_NEAR(r24.values[0][0], ramp(4, 3)[0], 1e-6);
  EXPECT_NEAR(r24.values[0][1], ramp(4, 3)[1], 1e-6);
  if (r.status.ok()) {
    EXPECT_NE(r.values[0], r24.values[0]);
  }
}

TEST(AttentionKernel, Opset25RejectsHeadCountsFor4dInputsThatOpset23Ignores) {
  auto inputs = std::vector<Input>{input("Q", DataType::float32, {1, 2, 1, 4}, ramp(8, 1)),
                                   input("K", DataType::float32, {1, 2, 2, 4}, ramp(16, 2)),
                                   input("V", DataType::float32, {1, 2, 2, 2}, ramp(8, 3))};
  const std::vector<ProtoWriter> heads = {make_attribute_int("q_num_heads", 2), make_attribute_int("kv_num_heads", 2)};
  EXPECT_TRUE(run_node("Attention", {{"", 23}}, inputs, {{"Y"}}, heads).status.ok());
  expect_error(run_node("Attention", {{"", 25}}, inputs, {{"Y"}}, heads).status, StatusCode::invalid_model,
               "must not be set for 4-D inputs");
}

TEST(AttentionKernel, SlidingWindowLimitsBothSides) {
  // Q = 0 makes every score equal, so each output is the mean of the values each window admits.
  const std::vector<double> v = {1, 2, 4, 8, 16};
  NodeRun r = run_node(
      "Attention", {{"", 25}},
      {input("Q", DataType::float32, {1, 1, 5, 1}, std::vector<double>(5, 0.0)),
       input("K", DataType::float32, {1, 1, 5, 1}, ramp(5, 4)), input("V", DataType::float32, {1, 1, 5, 1}, v)},
      {{"Y"}}, {make_attribute_int("left_window_size", 1), make_attribute_int("right_window_size", 0)});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  expect_near_all(r.values[0], {1, 1.5, 3, 6, 12}, 1e-6);
}

TEST(AttentionKernel, ValidationMessages) {
  const Input q3 = input("Q", DataType::float32, {1, 2, 8}, ramp(16, 1));
  const Input k3 = input("K", DataType::float32, {1, 2, 8}, ramp(16, 2));
  const Input v3 = input("V", DataType::float32, {1, 2, 8}, ramp(16, 3));
  expect_error(run_node("Attention", {{"", 23}}, {q3, k3, v3}, {{"Y"}}).status, StatusCode::invalid_model,
               "required attribute 'q_num_heads'");
  expect_error(run_node("Attention", {{"", 23}}, {q3, k3, v3}, {{"Y"}},
                        {make_attribute_int("q_num_heads", 3), make_attribute_int("kv_num_heads", 1)})
                   .status,
               StatusCode::invalid_model, "not divisible by attribute 'q_num_heads'");
  // Head size 2 everywhere, but 4 query heads cannot share 3 key/value heads.
  expect_error(run_node("Attention", {{"", 23}},
                        {q3, input("K", DataType::float32, {1, 2, 6}, ramp(12, 2)),
                         input("V", DataType::float32, {1, 2, 6}, ramp(12, 3))},
                        {{"Y"}}, {make_attribute_int("q_num_heads", 4), make_attribute_int("kv_num_heads", 3)})
                   .status,
               StatusCode::invalid_model, "must be a multiple of key/value heads");
  const Input q = input("Q", DataType::float32, {1, 1, 2, 4}, ramp(8, 1));
  const Input k = input("K", DataType::float32, {1, 1, 3, 4}, ramp(12, 2));
  const Input v = input("V", DataType::float32, {1, 1, 3, 2}, ramp(6, 3));
  expect_error(
      run_node("Attention", {{"", 23}}, {q, k, v, input("m", DataType::float32, {3, 3}, ramp(9, 4))}, {{"Y"}}).status,
      StatusCode::invalid_model, "does not broadcast to [batch, q_heads, q_len, kv_len] = [1,1,2,3]");
  expect_error(run_node("Attention", {{"", 23}},
                        {q, k, v, omitted(), input("past_key", DataType::float32, {1, 1, 1, 4}, ramp(4, 5))}, {{"Y"}})
                   .status,
               StatusCode::invalid_model, "must be given together");
  expect_error(
      run_node("Attention", {{"", 23}}, {q, k, v}, {{"Y"}}, {make_attribute_int("qk_matmul_output_mode", 4)}).status,
      StatusCode::invalid_model, "'qk_matmul_output_mode' is 4");
  expect_error(
      run_node("Attention", {{"", 23}}, {q, k, v}, {{"Y"}}, {make_attribute_int("softmax_precision", 7)}).status,
      StatusCode::invalid_model, "'softmax_precision' is 7");
  expect_error(run_node("Attention", {{"", 23}},
                        {input("Q", DataType::int32, {1, 1, 2, 4}, ramp(8, 1)),
                         input("K", DataType::int32, {1, 1, 3, 4}, ramp(12, 2)), v},
                        {{"Y"}})
                   .status,
               StatusCode::unsupported, "has dtype int32");
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
