// SPDX-License-Identifier: MIT
// Relu, LeakyRelu, Sigmoid, Tanh beyond the ONNX node suite: float16/bfloat16/double, extreme inputs, NaN and
// -0, the alpha attribute, in-place runs, unsupported dtypes, and version resolution.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "onnxmicro/onnxmicro.hpp"
#include "support/kernel_test_prelude.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

using namespace onnxmicro_test::prelude;

// ---- harness: one kernel of the build driven through prepare() and run() (support/kernel_harness.hpp) ------

using onnxmicro_test::KernelHarness;
using onnxmicro_test::run_node;

// ---- references: straight from the definitions, in double ----------------------------------------------

double sigmoid_ref(double x) { return 1.0 / (1.0 + std::exp(-x)); }
double leaky_ref(double x, double alpha) { return x < 0 ? alpha * x : x; }

const std::vector<float> kSamples = {-100.0f, -20.0f, -3.5f, -1.0f, -0.25f, -0.0f, 0.0f,
                                     1e-7f,   0.5f,   1.0f,  2.75f, 15.0f,  100.0f};

void expect_near_relative(double got, double want, double rtol, const std::string& what) {
  EXPECT_LE(std::fabs(got - want), rtol * std::fabs(want) + 1e-30) << what << ": got " << got << " want " << want;
}

TEST(Activation, SigmoidMatchesDefinitionWithoutOverflow) {
  NodeResult r = run_node("Sigmoid", 13, {make(Shape{13}, kSamples)});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  const std::vector<float> y = values_of<float>(r.output);
  for (std::size_t i = 0; i < kSamples.size(); ++i) {
    ASSERT_FALSE(std::isnan(y[i])) << "x = " << kSamples[i];
    expect_near_relative(y[i], sigmoid_ref(kSamples[i]), 1e-6, "sigmoid(" + std::to_string(kSamples[i]) + ")");
  }
  // Far in the tails the exact answer is 0 or 1, never NaN.
  NodeResult tails = run_node("Sigmoid", 13, {make(Shape{2}, std::vector<double>{-1000.0, 1000.0})});
  ASSERT_TRUE(tails.status.ok()) << tails.status.message();
  EXPECT_EQ(values_of<double>(tails.output), (std::vector<double>{0.0, 1.0}));
}

TEST(Activation, TanhMatchesDefinition) {
  NodeResult r = run_node("Tanh", 13, {make(Shape{13}, kSamples)});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  const std::vector<float> y = values_of<float>(r.output);
  for (std::size_t i = 0; i < kSamples.size(); ++i)
    expect_near_relative(y[i], std::tanh(static_cast<double>(kSamples[i])), 1e-6, "tanh");
}

TEST(Activation, LeakyReluDefaultAlphaAndAttribute) {
  NodeResult defaulted = run_node("LeakyRelu", 16, {make(Shape{13}, kSamples)});
  ASSERT_TRUE(defaulted.status.ok()) << defaulted.status.message();
  NodeResult half =
      run_node("LeakyRelu", 16, {make(Shape{13}, kSamples)}, {onnxmicro_test::make_attribute_float("alpha", 0.5f)});
  ASSERT_TRUE(half.status.ok()) << half.status.message();
  const std::vector<float> y1 = values_of<float>(defaulted.output), y2 = values_of<float>(half.output);
  for (std::size_t i = 0; i < kSamples.size(); ++i) {
    EXPECT_EQ(y1[i], static_cast<float>(leaky_ref(kSamples[i], 0.01f))) << kSamples[i];
    EXPECT_EQ(y2[i], static_cast<float>(leaky_ref(kSamples[i], 0.5))) << kSamples[i];
  }
}

TEST(Activation, LeakyReluKeepsNanInfinityAndNegativeZero) {
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  NodeResult r = run_node("LeakyRelu", 6, {make(Shape{5}, std::vector<float>{nan, -nan, -inf, inf, -0.0f})},
                          {onnxmicro_test::make_attribute_float("alpha", 0.1f)});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  const std::vector<float> y = values_of<float>(r.output);
  EXPECT_TRUE(std::isnan(y[0]));
  EXPECT_TRUE(std::isnan(y[1]));
  EXPECT_EQ(y[2], -inf);
  EXPECT_EQ(y[3], inf);
  EXPECT_EQ(y[4], 0.0f);
  EXPECT_TRUE(std::signbit(y[4]));
}

TEST(Activation, LeakyReluAlphaOfTheWrongTypeIsNamed) {
  NodeResult r = run_node("LeakyRelu", 16, {make(Shape{1}, std::vector<float>{1})},
                          {onnxmicro_test::make_attribute_int("alpha", 1)});
  ASSERT_FALSE(r.status.ok());
  EXPECT_NE(std::string(r.status.message()).find("attribute 'alpha'"), std::string::npos) << r.status.message();
}

TEST(Activation, ReluAcceptsSignedIntegers) {
  NodeResult r = run_node("Relu", 14, {make(Shape{4}, std::vector<std::int8_t>{-128, -1, 0, 127})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(values_of<std::int8_t>(r.output), (std::vector<std::int8_t>{0, 0, 0, 127}));
  NodeResult wide = run_node("Relu", 14, {make(Shape{2}, std::vector<std::int64_t>{-(1LL << 40), 1LL << 40})});
  ASSERT_TRUE(wide.status.ok()) << wide.status.message();
  EXPECT_EQ(values_of<std::int64_t>(wide.output), (std::vector<std::int64_t>{0, 1LL << 40}));
}

// float16 inputs compute in float and round once on store: sigmoid(0) = 0.5 exactly, sigmoid(2) =
// 0.880797... whose nearest half is 0x3B0C (0.880859375), tanh(1) = 0.761594... -> 0x3A18 (0.76171875).
TEST(Activation, Float16RoundsTheFloatResult) {
  const std::vector<std::uint16_t> x = {0x0000 /* 0 */, 0x4000 /* 2 */, 0x3C00 /* 1 */};
  NodeResult s = run_node("Sigmoid", 13, {make(DataType::float16, Shape{3}, x)});
  ASSERT_TRUE(s.status.ok()) << s.status.message();
  EXPECT_EQ(s.output.dtype, DataType::float16);
  const std::vector<std::uint16_t> ys = values_of<std::uint16_t>(s.output);
  EXPECT_EQ(ys[0], 0x3800);  // 0.5
  EXPECT_EQ(ys[1], 0x3B0C);
  NodeResult t = run_node("Tanh", 13, {make(DataType::float16, Shape{3}, x)});
  ASSERT_TRUE(t.status.ok()) << t.status.message();
  EXPECT_EQ(values_of<std::uint16_t>(t.output)[2], 0x3A18);
}

// bfloat16 tanh(1) = 0.761594 -> nearest bfloat16 is 0x3F43 (0.76171875); LeakyRelu(-1) with the default
// alpha = -0.01 -> 0xBC24 (-0.010009765625).
TEST(Activation, Bfloat16RoundsTheFloatResult) {
  NodeResult t = run_node("Tanh", 13, {make(DataType::bfloat16, Shape{1}, std::vector<std::uint16_t>{0x3F80})});
  ASSERT_TRUE(t.status.ok()) << t.status.message();
  EXPECT_EQ(values_of<std::uint16_t>(t.output)[0], 0x3F43);
  NodeResult l = run_node("LeakyRelu", 16, {make(DataType::bfloat16, Shape{1}, std::vector<std::uint16_t>{0xBF80})});
  ASSERT_TRUE(l.status.ok()) << l.status.message();
  EXPECT_EQ(values_of<std::uint16_t>(l.output)[0], 0xBC24);
}

TEST(Activation, InPlaceRunsMatchSeparateBuffers) {
  for (const char* op : {"Relu", "LeakyRelu", "Sigmoid", "Tanh"}) {
    NodeResult separate = run_node(op, 16, {make(Shape{13}, kSamples)});
    NodeResult aliased = run_node(op, 16, {make(Shape{13}, kSamples)}, {}, /*in_place=*/true);
    ASSERT_TRUE(separate.status.ok() && aliased.status.ok()) << op;
    EXPECT_EQ(values_of<float>(separate.output), values_of<float>(aliased.output)) << op;
  }
}

TEST(Activation, IntegerInputsAreRejectedWhereTheSchemaHasNone) {
  for (const char* op : {"Sigmoid", "Tanh", "LeakyRelu"}) {
    NodeResult r = run_node(op, 16, {make(Shape{1}, std::vector<std::int32_t>{1})});
    ASSERT_EQ(r.status.code(), StatusCode::unsupported) << op;
    EXPECT_NE(std::string(r.status.message()).find("input 0 'X' has dtype int32"), std::string::npos)
        << r.status.message();
  }
}

TEST(Activation, EveryOpsetResolves) {
  for (const char* op : {"Relu", "LeakyRelu", "Sigmoid", "Tanh"}) {
    for (int opset = 1; opset <= ONNXMICRO_MAX_OPSET + 2; ++opset)
      EXPECT_NE(om::find_kernel(om::all_kernels_registry(), "", op, opset), nullptr) << op << " " << opset;
  }
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
