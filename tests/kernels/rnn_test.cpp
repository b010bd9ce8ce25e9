// SPDX-License-Identifier: MIT
// RNN beyond the ONNX node suite: a bidirectional RNN with a different activation per direction whose
// alpha/beta values are consumed in order by the activations that take them (LeakyRelu alpha 0.1,
// HardSigmoid alpha 0.3 beta 0.4), in batch-major layout; plus an activation-count error.
//
// Expected values come from a numpy implementation of the ONNX equations, cross-checked against onnxruntime
// with layout 0 (max difference < 1e-7) and transposed to batch-major; inputs are multiples of 1/8.
// Generated offline with /tmp/probe-venv/bin/python.
#include <gtest/gtest.h>

#include "support/node_runner.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

using namespace onnxmicro_test::node_runner;
using onnxmicro_test::make_attribute_floats;
using onnxmicro_test::make_attribute_int;
using onnxmicro_test::make_attribute_string;
using onnxmicro_test::make_attribute_strings;

// batch 2, seq_length 3, input_size 2 (batch-major), hidden_size 2, two directions.
const std::vector<float> kX = {1, 0.25f, 0.125f, 0.625f, -1, -0.375f, 0.375f, 0.875f, 0.75f, -0.625f, -0.5f, 0.75f};
const std::vector<float> kW = {1, -0.25f, -0.625f, -0.5f, 0.5f, -1, 1, 0.75f};
const std::vector<float> kR = {0.125f, -0.125f, 0.5f, 0.125f, 0, -0.375f, -0.125f, 0.5f};
const std::vector<float> kB = {-1, -1, 0.5f, -0.25f, 0.625f, -1, 0.875f, -0.75f};

TEST(RNNKernel, PerDirectionActivationsInBatchMajorLayoutMatchReference) {
  NodeRunner node;
  om::Status st = node.run(
      "RNN", 22, {{"X", {2, 3, 2}, kX}, {"W", {2, 2, 2}, kW}, {"R", {2, 2, 2}, kR}, {"B", {2, 4}, kB}}, {"Y", "Y_h"},
      {make_attribute_string("direction", "bidirectional"), make_attribute_int("hidden_size", 2),
       make_attribute_int("layout", 1), make_attribute_strings("activations", {"LeakyRelu", "HardSigmoid"}),
       make_attribute_floats("activation_alpha", {0.1f, 0.3f}), make_attribute_floats("activation_beta", {0.4f})});
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_EQ(node.shape(0), (om::Shape{2, 3, 2, 2}));
  expect_near_all(
      node.values<float>(0),
      {0.4375f,      -0.2f,         0.92245117f, 0.20910156f, -0.04515625f, -0.1446875f, 0.68125f, 0.02265625f,
       -0.13938086f, -0.047816406f, 0.8125f,     0,           -0.034375f,   -0.1921875f, 0.64375f, 0.146875f,
       0.42597656f,  -0.14474609f,  1,           0,           -0.11161597f, -0.1117605f, 0.55f,    0},
      "Y");
  expect_near_all(
      node.values<float>(1),
      {-0.13938086f, -0.047816406f, 0.92245117f, 0.20910156f, -0.11161597f, -0.1117605f, 0.64375f, 0.146875f}, "Y_h");
}

TEST(RNNKernel, ActivationCountMustMatchDirections) {
  om::Status st = NodeRunner().run(
      "RNN", 14, {{"X", {3, 2, 2}, kX}, {"W", {1, 2, 2}, {1, 0, 0, 1}}, {"R", {1, 2, 2}, {1, 0, 0, 1}}}, {"Y"},
      {make_attribute_strings("activations", {"Tanh", "Relu"})});
  EXPECT_TRUE(contains(st, "attribute 'activations' has 2 names, expected 1")) << st.message();
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
