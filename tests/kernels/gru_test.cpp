// SPDX-License-Identifier: MIT
// GRU beyond the ONNX node suite: reverse direction with per-row sequence lengths and an initial state, with
// linear_before_reset 1 and 0, version checks (linear_before_reset from opset 3, bfloat16 from 22) and GRU-1's
// "foward" default spelling.
//
// Expected values come from a numpy implementation of the ONNX equations with sequence_lens (steps past a
// row's length give Y = 0; reverse runs over [0, len) backwards), cross-checked against onnxruntime (max
// difference < 1e-7); inputs are multiples of 1/8. Generated offline with /tmp/probe-venv/bin/python.
#include <gtest/gtest.h>

#include "support/kernel_harness.hpp"
#include "support/node_runner.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

using namespace onnxmicro_test::node_runner;
using onnxmicro_test::make_attribute_int;
using onnxmicro_test::make_attribute_string;

// seq_length 3, batch 2, input_size 2, hidden_size 2.
const std::vector<float> kX = {1, 0.25f, 0.375f, 0.875f, 0.125f, 0.625f, 0.75f, -0.625f, -1, -0.375f, -0.5f, 0.75f};
const std::vector<float> kW = {-0.25f, 1, 1, -0.625f, -1, 0.375f, -1, -0.375f, 0, 0.75f, -0.875f, 0.375f};
const std::vector<float> kR = {0.125f, -0.75f, 0.75f, 0.75f, 0, 1, 0.25f, 0.875f, 1, 0.125f, -0.5f, -0.75f};
const std::vector<float> kB = {0.125f, -0.625f, 0.5f, 0.875f, -0.5f, 0.125f, -1, -0.625f, -0.25f, 0.875f, 1, 0.25f};
const std::vector<float> kH0 = {0.125f, 0.125f, -0.875f, -0.25f};

std::vector<Input> reverse_inputs() {
  return {{"X", {3, 2, 2}, kX},
          {"W", {1, 6, 2}, kW},
          {"R", {1, 6, 2}, kR},
          {"B", {1, 12}, kB},
          input<std::int32_t>("sequence_lens", {2}, {2, 3}),
          {"initial_h", {1, 2, 2}, kH0}};
}

TEST(GRUKernel, ReverseLinearBeforeResetWithSequenceLensMatchesReference) {
  NodeRunner node;
  om::Status st = node.run("GRU", 14, reverse_inputs(), {"Y", "Y_h"},
                           {make_attribute_string("direction", "reverse"), make_attribute_int("hidden_size", 2),
                            make_attribute_int("linear_before_reset", 1)});
  ASSERT_TRUE(st.ok()) << st.message();
  // Row 0 has length 2: Y[2, 0, 0, :] is zero and Y_h[0, 0] is the state after t = 0.
  expect_near_all(node.values<float>(0),
                  {0.2981399f, -0.16271652f, 0.018609262f, 0.35522151f, 0.39763362f, 0.27590813f, -0.51755536f,
                   0.16094476f, 0, 0, -0.39397722f, 0.86383695f},
                  "Y");
  expect_near_all(node.values<float>(1), {0.2981399f, -0.16271652f, 0.018609263f, 0.35522151f}, "Y_h");
}

TEST(GRUKernel, ReverseResetBeforeLinearMatchesReference) {
  NodeRunner node;
  om::Status st = node.run("GRU", 3, reverse_inputs(), {"Y"}, {make_attribute_string("direction", "reverse")});
  ASSERT_TRUE(st.ok()) << st.message();
  expect_near_all(node.values<float>(0),
                  {0.67444936f, -0.091645365f, 0.44368059f, 0.25250958f, 0.51381962f, 0.31582546f, -0.032625275f,
                   0.18619499f, 0, 0, -0.25718951f, 0.86147283f},
                  "Y");
}

TEST(GRUKernel, VersionDifferences) {
  const std::vector<Input> inputs = {{"X", {3, 2, 2}, kX}, {"W", {1, 6, 2}, kW}, {"R", {1, 6, 2}, kR}};
  // GRU-1's schema default is spelled "foward"; models may carry it.
  EXPECT_TRUE(NodeRunner().run("GRU", 1, inputs, {"Y"}, {make_attribute_string("direction", "foward")}).ok());
  om::Status st = NodeRunner().run("GRU", 1, inputs, {"Y"}, {make_attribute_int("linear_before_reset", 1)});
  EXPECT_TRUE(contains(st, "'linear_before_reset' exists only from opset 3 on")) << st.message();

  // bfloat16: added in opset 22.
  using onnxmicro_test::make;
  auto bf16 = [](const std::vector<float>& v) {
    std::vector<om::bfloat16_t> out;
    for (float f : v) out.push_back(om::bfloat16_t::from_float(f));
    return out;
  };
  const std::vector<onnxmicro_test::TestTensor> tensors = {make<om::bfloat16_t>({3, 2, 2}, bf16(kX)).named("X"),
                                                           make<om::bfloat16_t>({1, 6, 2}, bf16(kW)).named("W"),
                                                           make<om::bfloat16_t>({1, 6, 2}, bf16(kR)).named("R")};
  onnxmicro_test::NodeResult old = onnxmicro_test::run_node(om::all_kernels_registry(), "GRU", 14, tensors);
  EXPECT_TRUE(contains(old.status, "dtype bfloat16, which this kernel does not support")) << old.status.message();
  onnxmicro_test::NodeResult current = onnxmicro_test::run_node(om::all_kernels_registry(), "GRU", 22, tensors);
  ASSERT_TRUE(current.status.ok()) << current.status.message();
  NodeRunner reference;
  ASSERT_TRUE(reference.run("GRU", 22, inputs, {"Y"}, {}).ok());
  const std::vector<float> expected = reference.values<float>(0);
  const std::vector<om::bfloat16_t> actual = onnxmicro_test::values_of<om::bfloat16_t>(current.output);
  ASSERT_EQ(actual.size(), expected.size());
  for (std::size_t i = 0; i < actual.size(); ++i) EXPECT_NEAR(actual[i].to_float(), expected[i], 1e-2) << i;
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
