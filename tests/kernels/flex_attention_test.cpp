// SPDX-License-Identifier: MIT
// FlexAttention beyond the ONNX node suite: modifier graphs the suite does not use (an ALiBi-style bias built
// from Shape/Gather/Range/Unsqueeze/Cast constants, a Where on the probabilities, Constant nodes) against a
// reference written from the definition, grouped heads in double, and the messages for graphs outside the
// supported subset.
#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "support/node_runner.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

using namespace onnxmicro_test::node_runner;
using onnxmicro_test::make_attribute_float;
using onnxmicro_test::make_attribute_graph;
using onnxmicro_test::make_attribute_int;
using onnxmicro_test::make_graph;
using onnxmicro_test::make_int64_tensor;
using onnxmicro_test::make_node;
using onnxmicro_test::make_tensor_type;

using Modifier = std::function<double(double value, int h, int i, int j)>;

// (B, Hq, L, D) x (B, Hkv, S, D) attention with modifiers, in double.
std::vector<double> flex_ref(const std::vector<double>& q, const std::vector<double>& k, const std::vector<double>& v,
                             int batch, int q_heads, int kv_heads, int q_len, int kv_len, int head, int v_head,
                             const Modifier& score_mod, const Modifier& prob_mod) {
  std::vector<double> y(static_cast<std::size_t>(batch * q_heads * q_len * v_head));
  const int group = q_heads / kv_heads;
  for (int b = 0; b < batch; ++b) {
    for (int h = 0; h < q_heads; ++h) {
      const int kvh = b * kv_heads + h / group;
      for (int i = 0; i < q_len; ++i) {
        std::vector<double> s(static_cast<std::size_t>(kv_len));
        double max = -INFINITY, sum = 0;
        for (int j = 0; j < kv_len; ++j) {
          double dot = 0;
          for (int d = 0; d < head; ++d)
            dot += q[((b * q_heads + h) * q_len + i) * head + d] * k[(kvh * kv_len + j) * head + d];
          s[j] = score_mod(dot / std::sqrt(static_cast<double>(head)), h, i, j);
          max = std::max(max, s[j]);
        }
        for (double& e : s) sum += (e = std::exp(e - max));
        for (int j = 0; j < kv_len; ++j) s[j] = prob_mod(s[j] / sum, h, i, j);
        for (int d = 0; d < v_head; ++d) {
          double acc = 0;
          for (int j = 0; j < kv_len; ++j) acc += s[j] * v[(kvh * kv_len + j) * v_head + d];
          y[((b * q_heads + h) * q_len + i) * v_head + d] = acc;
        }
      }
    }
  }
  return y;
}

// A modifier graph's input/output: the element type only, the shape follows the scores.
ProtoWriter make_value_info(const std::string& name, DataType dtype) {
  ProtoWriter info;
  info.string_field(1, name);
  info.message_field(2, make_tensor_type(dtype, {}, false));
  return info;
}
ProtoWriter scalar_int(const std::string& name, std::int64_t value) { return make_int64_tensor(name, {}, {value}); }

// score_mod: scores + 0.25 * float(k_idx - q_idx), the index grids from Shape/Gather/Range/Unsqueeze.
ProtoWriter alibi_graph() {
  return make_graph(
      "alibi",
      {make_node("Shape", {"scores"}, {"shape"}, {}, "shape"),
       make_node("Gather", {"shape", "two"}, {"L"}, {make_attribute_int("axis", 0)}, "gl"),
       make_node("Gather", {"shape", "three"}, {"S"}, {make_attribute_int("axis", 0)}, "gs"),
       make_node("Range", {"zero", "L", "one"}, {"qr"}, {}, "rq"),
       make_node("Range", {"zero", "S", "one"}, {"kr"}, {}, "rk"),
       make_node("Unsqueeze", {"qr", "last"}, {"qi"}, {}, "uq"), make_node("Sub", {"kr", "qi"}, {"rel"}, {}, "sub"),
       make_node("Cast", {"rel"}, {"relf"}, {make_attribute_int("to", 1)}, "cast"),
       make_node("Constant", {}, {"slope"}, {make_attribute_float("value_float", 0.25f)}, "slope"),
       make_node("Mul", {"relf", "slope"}, {"bias"}, {}, "mul"),
       make_node("Add", {"scores", "bias"}, {"scores_out"}, {}, "add")},
      {make_value_info("scores", DataType::float32)}, {make_value_info("scores_out", DataType::float32)},
      {scalar_int("zero", 0), scalar_int("one", 1), scalar_int("two", 2), scalar_int("three", 3),
       make_int64_tensor("last", {1}, {1})});
}

TEST(FlexAttentionKernel, ScoreModGraphOfIndexGridsMatchesTheDefinition) {
  const auto q = ramp(1 * 2 * 3 * 4, 1), k = ramp(1 * 2 * 5 * 4, 2), v = ramp(1 * 2 * 5 * 2, 3);
  NodeRun r = run_node("FlexAttention", {{"", 26}, {"ai.onnx.preview", 1}},
                       {input("Q", DataType::float32, {1, 2, 3, 4}, q), input("K", DataType::float32, {1, 2, 5, 4}, k),
                        input("V", DataType::float32, {1, 2, 5, 2}, v)},
                       {{"Y"}}, {make_attribute_graph("score_mod", alibi_graph())}, "ai.onnx.preview");
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  const auto ref = flex_ref(
      q, k, v, 1, 2, 2, 3, 5, 4, 2, [](double s, int, int i, int j) { return s + 0.25 * (j - i); },
      [](double p, int, int, int) { return p; });
  expect_near_all(r.values[0], ref, 1e-5);
}

TEST(FlexAttentionKernel, ProbModWhereInDoubleWithGroupedHeads) {
  const auto q = ramp(2 * 4 * 2 * 3, 4), k = ramp(2 * 2 * 3 * 3, 5), v = ramp(2 * 2 * 3 * 3, 6);
  const ProtoWriter graph =
      make_graph("drop_small",
                 {make_node("Greater", {"probs", "floor"}, {"keep"}, {}, "gt"),
                  make_node("Where", {"keep", "probs", "zero"}, {"probs_out"}, {}, "where")},
                 {make_value_info("probs", DataType::float64)}, {make_value_info("probs_out", DataType::float64)},
                 {onnxmicro_test::make_tensor_raw<double>("floor", DataType::float64, {}, {0.3}),
                  onnxmicro_test::make_tensor_raw<double>("zero", DataType::float64, {}, {0.0})});
  NodeRun r = run_node("FlexAttention", {{"", 26}, {"ai.onnx.preview", 1}},
                       {input("Q", DataType::float64, {2, 4, 2, 3}, q), input("K", DataType::float64, {2, 2, 3, 3}, k),
                        input("V", DataType::float64, {2, 2, 3, 3}, v)},
                       {{"Y", DataType::float64}}, {make_attribute_graph("prob_mod", graph)}, "ai.onnx.preview");
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  const auto ref = flex_ref(
      q, k, v, 2, 4, 2, 2, 3, 3, 3, [](double s, int, int, int) { return s; },
      [](double p, int, int, int) { return p > 0.3 ? p : 0.0; });
  // The reference takes sqrt(scale) in float32 even for double inputs, hence more than double rounding.
  expect_near_all(r.values[0], ref, 1e-6);
}

TEST(FlexAttentionKernel, UnsupportedModifierGraphsNameTheNode) {
  const std::vector<Input> inputs = {input("Q", DataType::float32, {1, 1, 2, 2}, ramp(4, 1)),
                                     input("K", DataType::float32, {1, 1, 2, 2}, ramp(4, 2)),
                                     input("V", DataType::float32, {1, 1, 2, 2}, ramp(4, 3))};
  const ProtoWriter reduce = make_graph(
      "reduce", {make_node("ReduceMax", {"scores"}, {"scores_out"}, {make_attribute_int("keepdims", 1)}, "rmax")},
      {make_value_info("scores", DataType::float32)}, {make_value_info("scores_out", DataType::float32)});
  expect_error(run_node("FlexAttention", {{"", 26}, {"ai.onnx.preview", 1}}, inputs, {{"Y"}},
                        {make_attribute_graph("score_mod", reduce)}, "ai.onnx.preview")
                   .status,
               StatusCode::unsupported, "attribute 'score_mod': node 'rmax' (ReduceMax) would need the scores' values");
  const ProtoWriter reshape =
      make_graph("reshape", {make_node("Reshape", {"scores", "flat"}, {"scores_out"}, {}, "flatten")},
                 {make_value_info("scores", DataType::float32)}, {make_value_info("scores_out", DataType::float32)},
                 {make_int64_tensor("flat", {1}, {-1})});
  expect_error(run_node("FlexAttention", {{"", 26}, {"ai.onnx.preview", 1}}, inputs, {{"Y"}},
                        {make_attribute_graph("prob_mod", reshape)}, "ai.onnx.preview")
                   .status,
               StatusCode::unsupported, "node 'flatten' (Reshape) reshapes the scores");
  expect_error(run_node("FlexAttention", {{"", 26}, {"ai.onnx.preview", 1}}, inputs, {{"Y"}},
                        {make_attribute_int("softmax_precision", 6)}, "ai.onnx.preview")
                   .status,
               StatusCode::invalid_model, "'softmax_precision' is 6");
  expect_error(run_node("FlexAttention", {{"", 26}, {"ai.onnx.preview", 1}},
                        {inputs[0], input("K", DataType::float32, {1, 1, 2, 3}, ramp(6, 2)), inputs[2]}, {{"Y"}}, {},
                        "ai.onnx.preview")
                   .status,
               StatusCode::invalid_model, "dim 3 must be 2 (head size of Q)");
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
