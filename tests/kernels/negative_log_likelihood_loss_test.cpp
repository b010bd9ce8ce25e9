// SPDX-License-Identifier: MIT
// NegativeLogLikelihoodLoss beyond the ONNX node suite: every reduction against a double reference with weights,
// ignore_index and int32 targets, the mean of an all-ignored batch (NaN), float16, targets out of range, and the
// shape/attribute/dtype errors with the opset that admits bfloat16.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "onnxmicro/onnxmicro.hpp"
#include "support/kernel_test_prelude.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

using namespace onnxmicro_test::prelude;

NodeResult run_nll(int opset, const std::vector<TestTensor>& inputs, const std::vector<ProtoWriter>& attributes = {}) {
  return onnxmicro_test::run_node(om::all_kernels_registry(), "NegativeLogLikelihoodLoss", opset, inputs, attributes);
}
// x: [N=2, C=3, D=2]; per position the loss is -w[t] * x[n, t, d].
const std::vector<float> kScores = {0.5f, -1.0f, 2.0f, 0.25f, -3.0f, 1.5f, 4.0f, -0.5f, 0.75f, 2.5f, -2.0f, 1.0f};
const std::vector<float> kWeight = {0.2f, 1.0f, 3.0f};
const std::vector<std::int64_t> kTarget = {2, 0, 1, 2};

// The per-position losses and weights, in double, independent of the kernel's code path.
void reference(const std::vector<std::int64_t>& target, bool weighted, bool ignore, std::int64_t ignore_index,
               std::vector<double>& losses, std::vector<double>& weights) {
  losses.clear();
  weights.clear();
  for (int n = 0; n < 2; ++n) {
    for (int d = 0; d < 2; ++d) {
      const std::int64_t t = target[static_cast<std::size_t>(n * 2 + d)];
      if (ignore && t == ignore_index) {
        losses.push_back(0);
        weights.push_back(0);
        continue;
      }
      const double w = weighted ? kWeight[static_cast<std::size_t>(t)] : 1.0;
      losses.push_back(-w * kScores[static_cast<std::size_t>((n * 3 + t) * 2 + d)]);
      weights.push_back(w);
    }
  }
}

TEST(NegativeLogLikelihoodLoss, EveryReductionWithWeightAndIgnoreIndexMatchesReference) {
  const std::vector<std::int64_t> target = {2, 0, 1, 0};  // class 0 is ignored below
  for (bool weighted : {false, true}) {
    for (bool ignore : {false, true}) {
      std::vector<double> losses, weights;
      reference(target, weighted, ignore, 0, losses, weights);
      double sum = 0, weight_sum = 0;
      for (std::size_t i = 0; i < losses.size(); ++i) {
        sum += losses[i];
        weight_sum += weights[i];
      }
      std::vector<TestTensor> inputs = {make<float>({2, 3, 2}, kScores), make<std::int64_t>({2, 2}, target)};
      if (weighted) inputs.push_back(make<float>({3}, kWeight));
      for (const char* reduction : {"none", "sum", "mean"}) {
        std::vector<ProtoWriter> attributes = {onnxmicro_test::make_attribute_string("reduction", reduction)};
        if (ignore) attributes.push_back(onnxmicro_test::make_attribute_int("ignore_index", 0));
        NodeResult r = run_nll(13, inputs, attributes);
        ASSERT_TRUE(r.status.ok()) << r.status.message();
        const std::vector<float> y = values_of<float>(r.output);
        SCOPED_TRACE(std::string(reduction) + (weighted ? " weighted" : "") + (ignore ? " ignore" : ""));
        if (std::string(reduction) == "none") {
          EXPECT_EQ(r.output.shape, (om::Shape{2, 2}));
          ASSERT_EQ(y.size(), 4u);
          for (std::size_t i = 0; i < 4; ++i) EXPECT_NEAR(y[i], losses[i], 1e-6);
        } else {
          EXPECT_EQ(r.output.shape.rank(), 0);
          ASSERT_EQ(y.size(), 1u);
          EXPECT_NEAR(y[0], std::string(reduction) == "sum" ? sum : sum / weight_sum, 1e-6);
        }
      }
    }
  }
}

TEST(NegativeLogLikelihoodLoss, Int32TargetsAndNoTrailingDims) {
  // x: [N=3, C=2]; mean over the three targets.
  NodeResult r =
      run_nll(22, {make<double>({3, 2}, {1.0, 2.0, 3.0, 4.0, 5.0, 6.0}), make<std::int32_t>({3}, {1, 0, 1})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_DOUBLE_EQ(values_of<double>(r.output)[0], -(2.0 + 3.0 + 6.0) / 3.0);
}

TEST(NegativeLogLikelihoodLoss, MeanOfAllIgnoredPositionsIsNaN) {
  NodeResult r = run_nll(13, {make<float>({2, 3, 2}, kScores), make<std::int64_t>({2, 2}, {-1, -1, -1, -1})},
                         {onnxmicro_test::make_attribute_int("ignore_index", -1)});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_TRUE(std::isnan(values_of<float>(r.output)[0]));
}

TEST(NegativeLogLikelihoodLoss, Float16ComputesInFloatAndRoundsOnce) {
  std::vector<om::float16_t> x;
  for (float v : kScores) x.push_back(om::float16_t::from_float(v));
  NodeResult r = run_nll(13, {make<om::float16_t>({2, 3, 2}, x), make<std::int64_t>({2, 2}, kTarget)},
                         {onnxmicro_test::make_attribute_string("reduction", "sum")});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  std::vector<double> losses, weights;
  reference(kTarget, false, false, 0, losses, weights);
  const double sum = losses[0] + losses[1] + losses[2] + losses[3];
  EXPECT_EQ(values_of<om::float16_t>(r.output)[0].to_float(),
            om::float16_t::from_float(static_cast<float>(sum)).to_float());
}

TEST(NegativeLogLikelihoodLoss, TargetOutsideTheClassesFailsAtRun) {
  NodeResult r = run_nll(13, {make<float>({2, 3, 2}, kScores), make<std::int64_t>({2, 2}, {0, 3, 1, 1})});
  EXPECT_EQ(r.status.code(), StatusCode::out_of_range);
  EXPECT_TRUE(contains(r.status, "target value 3 at position 1")) << r.status.message();
}

TEST(NegativeLogLikelihoodLoss, ShapeAttributeAndDtypeErrorsNameTheCulprit) {
  NodeResult r = run_nll(13, {make<float>({2, 3, 2}, kScores), make<std::int64_t>({2, 3}, {0, 0, 0, 0, 0, 0})});
  EXPECT_EQ(r.status.code(), StatusCode::invalid_model);
  EXPECT_TRUE(contains(r.status, "(target) has shape [2,3], expected input 0's shape [2,3,2]")) << r.status.message();

  r = run_nll(13, {make<float>({2, 3, 2}, kScores), make<std::int64_t>({2, 2}, kTarget), make<float>({2}, {1, 1})});
  EXPECT_TRUE(contains(r.status, "(weight) has shape [2], expected [3]")) << r.status.message();

  r = run_nll(13, {make<float>({2, 3, 2}, kScores), make<std::int64_t>({2, 2}, kTarget), make<double>({3}, {1, 1, 1})});
  EXPECT_TRUE(contains(r.status, "has dtype double, expected float")) << r.status.message();

  r = run_nll(13, {make<float>({6}, {1, 2, 3, 4, 5, 6}), make<std::int64_t>({}, {0})});
  EXPECT_TRUE(contains(r.status, "must have rank >= 2")) << r.status.message();

  r = run_nll(13, {make<float>({2, 3, 2}, kScores), make<std::int64_t>({2, 2}, kTarget)},
              {onnxmicro_test::make_attribute_string("reduction", "max")});
  EXPECT_TRUE(contains(r.status, "attribute 'reduction' is 'max'")) << r.status.message();

  r = run_nll(13, {make<float>({2, 3, 2}, kScores), make<float>({2, 2}, {0, 0, 0, 0})});
  EXPECT_TRUE(contains(r.status, "(target) has dtype float, expected int32 or int64")) << r.status.message();
}

TEST(NegativeLogLikelihoodLoss, Bfloat16OnlyFromOpset22) {
  std::vector<om::bfloat16_t> x;
  for (float v : kScores) x.push_back(om::bfloat16_t::from_float(v));
  const std::vector<TestTensor> inputs = {make<om::bfloat16_t>({2, 3, 2}, x), make<std::int64_t>({2, 2}, kTarget),
                                          kOmitted};
  NodeResult r = run_nll(13, inputs);
  EXPECT_EQ(r.status.code(), StatusCode::unsupported);
  EXPECT_TRUE(contains(r.status, "has dtype bfloat16")) << r.status.message();
  r = run_nll(22, inputs);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  std::vector<double> losses, weights;
  reference(kTarget, false, false, 0, losses, weights);
  EXPECT_NEAR(values_of<om::bfloat16_t>(r.output)[0].to_float(), (losses[0] + losses[1] + losses[2] + losses[3]) / 4,
              0.02);
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
