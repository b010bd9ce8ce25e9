// SPDX-License-Identifier: MIT
// SoftmaxCrossEntropyLoss beyond the ONNX node suite: loss and the optional log_prob output together against a
// double reference (weights, ignore_index, trailing dims), stability for large scores, float16, and the dtype
// admitted per opset (bfloat16 from 13).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "onnxmicro/onnxmicro.hpp"
#include "support/kernel_test_prelude.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

using namespace onnxmicro_test::prelude;

// x: [N=2, C=3, D=2].
const std::vector<float> kScores = {0.5f, -1.0f, 2.0f, 0.25f, -3.0f, 1.5f, 4.0f, -0.5f, 0.75f, 2.5f, -2.0f, 1.0f};
const std::vector<float> kWeight = {0.2f, 1.0f, 3.0f};
const std::vector<std::int64_t> kTarget = {2, 1, 1, 2};

double log_softmax(int n, int c, int d) {
  double sum = 0;
  for (int k = 0; k < 3; ++k) sum += std::exp(double(kScores[static_cast<std::size_t>((n * 3 + k) * 2 + d)]));
  return double(kScores[static_cast<std::size_t>((n * 3 + c) * 2 + d)]) - std::log(sum);
}

// Loss and log_prob outputs of one SoftmaxCrossEntropyLoss node run through Model + Session.
struct TwoOutputs {
  om::Status status;
  std::vector<float> loss;
  std::vector<float> log_prob;
  om::Shape log_prob_shape;
};
TwoOutputs run_with_log_prob(const std::vector<std::int64_t>& target, const std::vector<ProtoWriter>& attributes) {
  using namespace onnxmicro_test;
  std::vector<ProtoWriter> outputs;
  for (const char* name : {"loss", "log_prob"}) {
    ProtoWriter v;
    v.string_field(1, name);
    v.message_field(2, make_tensor_type(DataType::float32, {}, false));
    outputs.push_back(v);
  }
  const std::vector<unsigned char> bytes =
      make_model(
          make_graph(
              "g", {make_node("SoftmaxCrossEntropyLoss", {"x", "t", "w"}, {"loss", "log_prob"}, attributes)},
              {make_value_info("x", DataType::float32, {2, 3, 2}), make_value_info("t", DataType::int64, {2, 2})},
              outputs, {make_float_tensor("w", {3}, kWeight)}),
          13)
          .bytes();
  TwoOutputs result;
  om::Model model;
  om::Session session;
  result.status = model.load(om::ByteSpan(bytes.data(), bytes.size()));
  if (result.status.ok()) result.status = session.prepare(model, om::all_kernels_registry());
  if (result.status.ok()) {
    result.status = session.set_input("x", om::ConstTensorView(DataType::float32, {2, 3, 2}, kScores.data()));
  }
  if (result.status.ok())
    result.status = session.set_input("t", om::ConstTensorView(DataType::int64, {2, 2}, target.data()));
  if (result.status.ok()) result.status = session.run();
  if (!result.status.ok()) return result;
  for (int i = 0; i < 2; ++i) {
    const om::ConstTensorView v = session.output(static_cast<std::size_t>(i));
    std::vector<float>& out = i == 0 ? result.loss : result.log_prob;
    out.resize(static_cast<std::size_t>(v.element_count()));
    std::memcpy(out.data(), v.data, out.size() * sizeof(float));
    if (i == 1) result.log_prob_shape = v.shape;
  }
  return result;
}

TEST(SoftmaxCrossEntropyLoss, LossAndLogProbMatchReferenceWithWeightAndIgnoreIndex) {
  const std::vector<std::int64_t> target = {2, 1, 1, 1};
  for (const char* reduction : {"none", "sum", "mean"}) {
    SCOPED_TRACE(reduction);
    TwoOutputs r = run_with_log_prob(target, {onnxmicro_test::make_attribute_string("reduction", reduction),
                                              onnxmicro_test::make_attribute_int("ignore_index", 2)});
    ASSERT_TRUE(r.status.ok()) << r.status.message();
    EXPECT_EQ(r.log_prob_shape, (om::Shape{2, 3, 2}));
    ASSERT_EQ(r.log_prob.size(), 12u);
    for (int n = 0; n < 2; ++n)
      for (int c = 0; c < 3; ++c)
        for (int d = 0; d < 2; ++d)
          EXPECT_NEAR(r.log_prob[static_cast<std::size_t>((n * 3 + c) * 2 + d)], log_softmax(n, c, d), 1e-5);
    std::vector<double> losses;
    double sum = 0, weight_sum = 0;
    for (int n = 0; n < 2; ++n) {
      for (int d = 0; d < 2; ++d) {
        const std::int64_t t = target[static_cast<std::size_t>(n * 2 + d)];
        const double w = t == 2 ? 0.0 : kWeight[static_cast<std::size_t>(t)];
        losses.push_back(t == 2 ? 0.0 : -w * log_softmax(n, static_cast<int>(t), d));
        sum += losses.back();
        weight_sum += w;
      }
    }
    if (std::string(reduction) == "none") {
      ASSERT_EQ(r.loss.size(), 4u);
      for (std::size_t i = 0; i < 4; ++i) EXPECT_NEAR(r.loss[i], losses[i], 1e-5);
    } else {
      ASSERT_EQ(r.loss.size(), 1u);
      EXPECT_NEAR(r.loss[0], std::string(reduction) == "sum" ? sum : sum / weight_sum, 1e-5);
    }
  }
}

TEST(SoftmaxCrossEntropyLoss, LargeScoresStayFinite) {
  // exp(1000) overflows float; the max-shifted log-softmax does not.
  NodeResult r = onnxmicro_test::run_node(om::all_kernels_registry(), "SoftmaxCrossEntropyLoss", 13,
                                          {make<float>({1, 2}, {1000.0f, 999.0f}), make<std::int64_t>({1}, {1})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_NEAR(values_of<float>(r.output)[0], std::log1p(std::exp(1.0)), 1e-5);
}

TEST(SoftmaxCrossEntropyLoss, Float16AndTheOpsetThatAdmitsBfloat16) {
  std::vector<om::float16_t> half;
  std::vector<om::bfloat16_t> brain;
  for (float v : kScores) {
    half.push_back(om::float16_t::from_float(v));
    brain.push_back(om::bfloat16_t::from_float(v));
  }
  double expected = 0;
  for (int n = 0; n < 2; ++n)
    for (int d = 0; d < 2; ++d)
      expected -= log_softmax(n, static_cast<int>(kTarget[static_cast<std::size_t>(n * 2 + d)]), d);
  expected /= 4;
  NodeResult r = onnxmicro_test::run_node(om::all_kernels_registry(), "SoftmaxCrossEntropyLoss", 12,
                                          {make<om::float16_t>({2, 3, 2}, half), make<std::int64_t>({2, 2}, kTarget)});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_NEAR(values_of<om::float16_t>(r.output)[0].to_float(), expected, 2e-3);

  const std::vector<TestTensor> inputs = {make<om::bfloat16_t>({2, 3, 2}, brain), make<std::int64_t>({2, 2}, kTarget)};
  r = onnxmicro_test::run_node(om::all_kernels_registry(), "SoftmaxCrossEntropyLoss", 12, inputs);
  EXPECT_EQ(r.status.code(), StatusCode::unsupported);
  EXPECT_TRUE(contains(r.status, "has dtype bfloat16")) << r.status.message();
  r = onnxmicro_test::run_node(om::all_kernels_registry(), "SoftmaxCrossEntropyLoss", 13, inputs);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_NEAR(values_of<om::bfloat16_t>(r.output)[0].to_float(), expected, 0.03);
}

TEST(SoftmaxCrossEntropyLoss, ErrorsNameTheCulprit) {
  NodeResult r =
      onnxmicro_test::run_node(om::all_kernels_registry(), "SoftmaxCrossEntropyLoss", 13,
                               {make<float>({2, 3, 2}, kScores), make<std::int64_t>({2, 3}, {0, 0, 0, 0, 0, 0})});
  EXPECT_EQ(r.status.code(), StatusCode::invalid_model);
  EXPECT_TRUE(contains(r.status, "(target) has shape [2,3]")) << r.status.message();
  r = onnxmicro_test::run_node(om::all_kernels_registry(), "SoftmaxCrossEntropyLoss", 13,
                               {make<float>({2, 3, 2}, kScores), make<std::int64_t>({2, 2}, {0, -1, 1, 1})});
  EXPECT_EQ(r.status.code(), StatusCode::out_of_range);
  EXPECT_TRUE(contains(r.status, "target value -1 at position 1")) << r.status.message();
  r = onnxmicro_test::run_node(om::all_kernels_registry(), "SoftmaxCrossEntropyLoss", 13,
                               {make<float>({3}, {1, 2, 3}), make<std::int64_t>({}, {0})});
  EXPECT_TRUE(contains(r.status, "input 0 'X' (scores) must have rank >= 2")) << r.status.message();
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
