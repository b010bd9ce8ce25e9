// SPDX-License-Identifier: MIT
// LSTM beyond the ONNX node suite (whose reference ignores sequence_lens): a bidirectional LSTM with per-row
// sequence lengths shorter than seq_length, peepholes, initial states and all three outputs; input_forget with
// clip; layout = 1; float64; and attribute/shape errors.
//
// Expected values come from a numpy implementation of the ONNX equations (steps past a row's length give
// Y = 0 and keep the state; the reverse direction runs over [0, len) backwards), cross-checked against
// onnxruntime 1.x (max difference < 2e-7); inputs are multiples of 1/8, exact in float32. Generated offline
// with /tmp/probe-venv/bin/python (numpy default_rng(7)), printed to 8 significant digits.
#include <gtest/gtest.h>

#include "support/kernel_harness.hpp"
#include "support/node_runner.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

using namespace onnxmicro_test::node_runner;
using onnxmicro_test::make_attribute_float;
using onnxmicro_test::make_attribute_int;
using onnxmicro_test::make_attribute_string;
using onnxmicro_test::make_attribute_strings;

// seq_length 3, batch 2, input_size 2, hidden_size 2, two directions.
const std::vector<float> kX = {1, 0.25f, 0.375f, 0.875f, 0.125f, 0.625f, 0.75f, -0.625f, -1, -0.375f, -0.5f, 0.75f};
const std::vector<float> kW = {0.875f, -1,      0,       0.625f, -0.75f,  0.625f,  -0.75f, -0.125f,
                               0.625f, -0.375f, -0.375f, -0.5f,  0.5f,    -0.5f,   1,      -0.125f,
                               0,      0,       0.125f,  0.125f, 0,       1,       0.625f, 0.625f,
                               0.375f, 0.25f,   -0.375f, 1,      -0.125f, -0.625f, 0.75f,  -0.75f};
const std::vector<float> kR = {0.75f, 0.25f,   -0.875f, -1,      -0.125f, -1,     -0.75f,  0,
                               1,     -0.125f, 0.625f,  0.875f,  0.625f,  0.25f,  -0.125f, 0,
                               -0.5f, 0,       -0.25f,  -0.5f,   1,       -1,     -0.875f, -0.625f,
                               1,     0.375f,  0.75f,   -0.625f, 0.5f,    -0.25f, 0,       -1};
const std::vector<float> kB = {0.25f, 0.75f, 0.375f, -0.75f, 0.125f, -0.5f, 1,       0.75f,   -0.625f, 0,     0.875f,
                               0.75f, 0.5f,  0.25f,  -1,     0.5f,   0,     -0.875f, -0.5f,   0.125f,  0.5f,  0,
                               0.25f, 0.75f, 0.375f, -0.25f, 0.25f,  0.25f, -0.875f, -0.875f, 0.375f,  -0.25f};
const std::vector<float> kH0 = {0.25f, -0.375f, -0.625f, -0.75f, -0.25f, 0.625f, -0.25f, -0.25f};
const std::vector<float> kC0 = {0.125f, 1, -0.25f, 0.25f, -0.125f, 0.25f, -0.125f, 0.25f};
const std::vector<float> kP = {0.125f, 0.375f, 1, -0.75f, 0.125f, -0.125f, -0.25f, -0.5f, -1, -0.25f, 0.75f, -0.875f};

// Forward direction only (the first half of every bidirectional input).
std::vector<float> first_half(const std::vector<float>& v) { return {v.begin(), v.begin() + v.size() / 2}; }

TEST(LSTMKernel, BidirectionalWithShorterSequenceLensMatchesReference) {
  NodeRunner node;
  om::Status st = node.run("LSTM", 14,
                           {{"X", {3, 2, 2}, kX},
                            {"W", {2, 8, 2}, kW},
                            {"R", {2, 8, 2}, kR},
                            {"B", {2, 16}, kB},
                            input<std::int32_t>("sequence_lens", {2}, {3, 2}),
                            {"initial_h", {2, 2, 2}, kH0},
                            {"initial_c", {2, 2, 2}, kC0},
                            {"P", {2, 6}, kP}},
                           {"Y", "Y_h", "Y_c"},
                           {make_attribute_string("direction", "bidirectional"), make_attribute_int("hidden_size", 2)});
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_EQ(node.shape(0), (om::Shape{3, 2, 2, 2}));
  EXPECT_EQ(node.shape(1), (om::Shape{2, 2, 2}));
  EXPECT_EQ(node.shape(2), (om::Shape{2, 2, 2}));
  // Row 1 has length 2: Y[2, :, 1, :] is zero in both directions.
  expect_near_all(node.values<float>(0),
                  {0.26254926f,
                   0.115165f,
                   -0.20685323f,
                   0.25404312f,
                   0.17158885f,
                   0.15043759f,
                   0.14178817f,
                   0.068152524f,
                   0.17611754f,
                   0.18705088f,
                   0.11414078f,
                   0.19305796f,
                   0.16401706f,
                   0.011897182f,
                   0.082547245f,
                   0.18243061f,
                   0.060036789f,
                   0.34539947f,
                   0,
                   0,
                   0.045466692f,
                   -0.015370373f,
                   0,
                   0},
                  "Y");
  expect_near_all(
      node.values<float>(1),
      {0.06003679f, 0.34539947f, 0.11414079f, 0.19305795f, 0.17158885f, 0.15043759f, 0.14178817f, 0.068152525f}, "Y_h");
  expect_near_all(
      node.values<float>(2),
      {0.071941279f, 0.81650585f, 0.20383099f, 1.0258752f, 0.41831592f, 0.21157993f, 0.25548327f, 0.09489195f}, "Y_c");
}

TEST(LSTMKernel, InputForgetAndClipMatchReference) {
  NodeRunner node;
  om::Status st = node.run("LSTM", 7,
                           {{"X", {3, 2, 2}, kX},
                            {"W", {1, 8, 2}, first_half(kW)},
                            {"R", {1, 8, 2}, first_half(kR)},
                            {"B", {1, 16}, first_half(kB)},
                            omitted(),
                            {"initial_h", {1, 2, 2}, first_half(kH0)},
                            {"initial_c", {1, 2, 2}, first_half(kC0)},
                            {"P", {1, 6}, first_half(kP)}},
                           {"Y"},
                           {make_attribute_int("hidden_size", 2), make_attribute_int("input_forget", 1),
                            make_attribute_float("clip", 0.5f)});
  ASSERT_TRUE(st.ok()) << st.message();
  expect_near_all(node.values<float>(0),
                  {0.17776815f, 0.21965574f, -0.19831257f, 0.16331575f, 0.093417615f, 0.18577567f, 0.093673206f,
                   0.15361882f, 0.010476687f, 0.22047608f, -0.045352069f, 0.19783915f},
                  "Y");
}

// Swaps the first two axes of a [a, b, rest] row-major array.
std::vector<float> swap_leading(const std::vector<float>& v, std::size_t a, std::size_t b) {
  const std::size_t rest = v.size() / (a * b);
  std::vector<float> out(v.size());
  for (std::size_t i = 0; i < a; ++i)
    for (std::size_t j = 0; j < b; ++j)
      for (std::size_t k = 0; k < rest; ++k) out[(j * a + i) * rest + k] = v[(i * b + j) * rest + k];
  return out;
}

TEST(LSTMKernel, BatchMajorLayoutGivesTheTransposedResult) {
  auto run = [](std::int64_t layout, NodeRunner& node) {
    const bool bm = layout == 1;
    return node.run("LSTM", 22,
                    {{"X", bm ? std::vector<std::int64_t>{2, 3, 2} : std::vector<std::int64_t>{3, 2, 2},
                      bm ? swap_leading(kX, 3, 2) : kX},
                     {"W", {2, 8, 2}, kW},
                     {"R", {2, 8, 2}, kR},
                     {"B", {2, 16}, kB},
                     input<std::int32_t>("sequence_lens", {2}, {3, 2}),
                     {"initial_h", {2, 2, 2}, bm ? swap_leading(kH0, 2, 2) : kH0},
                     {"initial_c", {2, 2, 2}, bm ? swap_leading(kC0, 2, 2) : kC0},
                     {"P", {2, 6}, kP}},
                    {"Y", "Y_h", "Y_c"},
                    {make_attribute_string("direction", "bidirectional"), make_attribute_int("layout", layout)});
  };
  NodeRunner seq_major, batch_major;
  ASSERT_TRUE(run(0, seq_major).ok());
  om::Status st = run(1, batch_major);
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_EQ(batch_major.shape(0), (om::Shape{2, 3, 2, 2}));
  // Y: [T, D, B, H] -> [B, T, D, H] is a swap of (T*D) with B.
  expect_near_all(batch_major.values<float>(0), swap_leading(seq_major.values<float>(0), 6, 2), "Y");
  expect_near_all(batch_major.values<float>(1), swap_leading(seq_major.values<float>(1), 2, 2), "Y_h");
  expect_near_all(batch_major.values<float>(2), swap_leading(seq_major.values<float>(2), 2, 2), "Y_c");
}

TEST(LSTMKernel, Float64MatchesTheFloatResult) {
  using onnxmicro_test::make;
  std::vector<double> x(kX.begin(), kX.end()), w(kW.begin(), kW.begin() + 16), r(kR.begin(), kR.begin() + 16);
  onnxmicro_test::NodeResult result =
      onnxmicro_test::run_node(om::all_kernels_registry(), "LSTM", 14,
                               {make<double>({3, 2, 2}, x).named("X"), make<double>({1, 8, 2}, w).named("W"),
                                make<double>({1, 8, 2}, r).named("R")});
  ASSERT_TRUE(result.status.ok()) << result.status.message();
  NodeRunner node;
  ASSERT_TRUE(node.run("LSTM", 14,
                       {{"X", {3, 2, 2}, kX}, {"W", {1, 8, 2}, first_half(kW)}, {"R", {1, 8, 2}, first_half(kR)}},
                       {"Y"}, {})
                  .ok());
  const std::vector<double> y = onnxmicro_test::values_of<double>(result.output);
  expect_near_all(std::vector<float>(y.begin(), y.end()), node.values<float>(0), "Y");
}

TEST(LSTMKernel, RejectsBadAttributesAndShapes) {
  NodeRunner node;
  const std::vector<Input> inputs = {
      {"X", {3, 2, 2}, kX}, {"W", {1, 8, 2}, first_half(kW)}, {"R", {1, 8, 2}, first_half(kR)}};
  om::Status st = node.run("LSTM", 14, inputs, {"Y"}, {make_attribute_string("direction", "sideways")});
  EXPECT_TRUE(contains(st, "attribute 'direction' is 'sideways'")) << st.message();
  st = NodeRunner().run("LSTM", 14, inputs, {"Y"}, {make_attribute_int("hidden_size", 3)});
  EXPECT_TRUE(contains(st, "input 1 'W': expected shape [1,12,2], got [1,8,2]")) << st.message();
  st = NodeRunner().run("LSTM", 14, inputs, {"Y"}, {make_attribute_strings("activations", {"Sigmoid", "Tanh"})});
  EXPECT_TRUE(contains(st, "attribute 'activations' has 2 names, expected 3")) << st.message();
  st = NodeRunner().run("LSTM", 14, inputs, {"Y"},
                        {make_attribute_strings("activations", {"Sigmoid", "Tanh", "Swish"})});
  EXPECT_TRUE(contains(st, "attribute 'activations'[2] is 'Swish'")) << st.message();
  // layout: added in opset 14.
  st = NodeRunner().run("LSTM", 7, inputs, {"Y"}, {make_attribute_int("layout", 1)});
  EXPECT_TRUE(contains(st, "layout exists only from opset 14 on")) << st.message();
  st = NodeRunner().run("LSTM", 14,
                        {{"X", {3, 2, 2}, kX},
                         {"W", {1, 8, 2}, first_half(kW)},
                         {"R", {1, 8, 2}, first_half(kR)},
                         omitted(),
                         input<std::int32_t>("sequence_lens", {2}, {4, 1})},
                        {"Y"}, {});
  EXPECT_TRUE(contains(st, "'sequence_lens'[0] is 4, expected a value in [0, 3]")) << st.message();
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
