// SPDX-License-Identifier: MIT
// Elu, Selu, Celu, HardSigmoid, HardSwish, Softplus, Softsign, Mish, Gelu, ThresholdedRelu and Shrink beyond the
// ONNX node suite: definitions in double with default and custom attributes, overflow-free tails, NaN, integer
// Shrink, float16 rounding, attribute errors, in-place runs and version resolution.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
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

double elu_ref(double x, double alpha) { return x < 0 ? alpha * (std::exp(x) - 1) : x; }
double selu_ref(double x, double alpha, double gamma) {
  return x > 0 ? gamma * x : gamma * (alpha * std::exp(x) - alpha);
}
double celu_ref(double x, double alpha) { return std::max(0.0, x) + std::min(0.0, alpha * (std::exp(x / alpha) - 1)); }
double hard_sigmoid_ref(double x, double alpha, double beta) { return std::max(0.0, std::min(1.0, alpha * x + beta)); }
double hard_swish_ref(double x) { return x * hard_sigmoid_ref(x, 1.0 / 6.0, 0.5); }
double softplus_ref(double x) { return std::log(std::exp(x) + 1); }
double softsign_ref(double x) { return x / (1 + std::fabs(x)); }
double mish_ref(double x) { return x * std::tanh(softplus_ref(x)); }
double gelu_ref(double x) { return 0.5 * x * (1 + std::erf(x / std::sqrt(2.0))); }
double gelu_tanh_ref(double x) {
  const double pi = 3.14159265358979323846;
  return 0.5 * x * (1 + std::tanh(std::sqrt(2 / pi) * (x + 0.044715 * x * x * x)));
}
double thresholded_relu_ref(double x, double alpha) { return x > alpha ? x : 0; }
double shrink_ref(double x, double bias, double lambd) { return x < -lambd ? x + bias : x > lambd ? x - bias : 0; }

const std::vector<float> kSamples = {-20.0f, -3.5f, -1.0f, -0.75f, -0.25f, -0.0f, 0.0f,
                                     1e-7f,  0.25f, 0.5f,  1.0f,   2.75f,  3.0f,  15.0f};
const float kNaN = std::numeric_limits<float>::quiet_NaN();

void expect_matches(const std::string& op, int opset, const std::vector<ProtoWriter>& attributes,
                    const std::function<double(double)>& reference) {
  NodeResult r = run_node(op, opset, {make(Shape{static_cast<std::int64_t>(kSamples.size())}, kSamples)}, attributes);
  ASSERT_TRUE(r.status.ok()) << op << ": " << r.status.message();
  const std::vector<float> y = values_of<float>(r.output);
  for (std::size_t i = 0; i < kSamples.size(); ++i) {
    const double want = reference(kSamples[i]);
    EXPECT_LE(std::fabs(y[i] - want), 1e-6 * std::fabs(want) + 1e-12)
        << op << "(" << kSamples[i] << ") = " << y[i] << ", want " << want;
  }
}

TEST(ActivationMore, DefaultAttributesMatchTheDefinitions) {
  const double selu_alpha = 1.67326319217681884765625, selu_gamma = 1.05070102214813232421875;
  expect_matches("Elu", 6, {}, [](double x) { return elu_ref(x, 1.0); });
  expect_matches("Selu", 6, {}, [&](double x) { return selu_ref(x, selu_alpha, selu_gamma); });
  expect_matches("Celu", 12, {}, [](double x) { return celu_ref(x, 1.0); });
  expect_matches("HardSigmoid", 6, {}, [](double x) { return hard_sigmoid_ref(x, 0.2f, 0.5); });
  expect_matches("HardSwish", 14, {}, hard_swish_ref);
  expect_matches("Softplus", 1, {}, softplus_ref);
  expect_matches("Softsign", 1, {}, softsign_ref);
  expect_matches("Mish", 18, {}, mish_ref);
  expect_matches("Gelu", 20, {}, gelu_ref);
  expect_matches("ThresholdedRelu", 10, {}, [](double x) { return thresholded_relu_ref(x, 1.0); });
  expect_matches("Shrink", 9, {}, [](double x) { return shrink_ref(x, 0.0, 0.5); });
}

TEST(ActivationMore, AttributesChangeTheResult) {
  expect_matches("Elu", 22, {make_attribute_float("alpha", 0.5f)}, [](double x) { return elu_ref(x, 0.5); });
  expect_matches("Selu", 22, {make_attribute_float("alpha", 2.0f), make_attribute_float("gamma", 3.0f)},
                 [](double x) { return selu_ref(x, 2.0, 3.0); });
  expect_matches("Celu", 12, {make_attribute_float("alpha", 2.0f)}, [](double x) { return celu_ref(x, 2.0); });
  expect_matches("HardSigmoid", 22, {make_attribute_float("alpha", 0.5f), make_attribute_float("beta", 0.25f)},
                 [](double x) { return hard_sigmoid_ref(x, 0.5, 0.25); });
  expect_matches("Gelu", 20, {onnxmicro_test::make_attribute_string("approximate", "tanh")}, gelu_tanh_ref);
  expect_matches("ThresholdedRelu", 22, {make_attribute_float("alpha", -1.0f)},
                 [](double x) { return thresholded_relu_ref(x, -1.0); });
  expect_matches("Shrink", 9, {make_attribute_float("bias", 1.5f), make_attribute_float("lambd", 0.5f)},
                 [](double x) { return shrink_ref(x, 1.5, 0.5); });
}

// ln(1 + exp(x)) overflows exp in float from x ~ 89; the kernels must give the limit instead of inf/NaN.
TEST(ActivationMore, SoftplusAndMishDoNotOverflow) {
  const std::vector<float> x = {-1000.0f, -100.0f, 100.0f, 1000.0f, 3e38f};
  NodeResult s = run_node("Softplus", 22, {make(Shape{5}, x)});
  ASSERT_TRUE(s.status.ok()) << s.status.message();
  const std::vector<float> ys = values_of<float>(s.output);
  EXPECT_EQ(ys[0], 0.0f);
  EXPECT_GT(ys[1], 0.0f);  // 3.7e-44: a float subnormal
  EXPECT_LT(ys[1], 1e-40f);
  EXPECT_EQ(ys[2], 100.0f);
  EXPECT_EQ(ys[3], 1000.0f);
  EXPECT_EQ(ys[4], 3e38f);
  NodeResult m = run_node("Mish", 18, {make(Shape{5}, x)});
  ASSERT_TRUE(m.status.ok()) << m.status.message();
  const std::vector<float> ym = values_of<float>(m.output);
  EXPECT_EQ(ym[2], 100.0f);
  EXPECT_EQ(ym[3], 1000.0f);
  EXPECT_EQ(ym[4], 3e38f);
  EXPECT_LE(std::fabs(ym[1]), 1e-40f);
  EXPECT_FALSE(std::isnan(ym[0]));
}

TEST(ActivationMore, NanPropagatesExceptThroughThresholds) {
  const std::vector<float> x = {kNaN};
  for (const char* op : {"Elu", "Selu", "Celu", "HardSigmoid", "HardSwish", "Softplus", "Softsign", "Mish", "Gelu"}) {
    NodeResult r = run_node(op, 22, {make(Shape{1}, x)});
    ASSERT_TRUE(r.status.ok()) << op << ": " << r.status.message();
    EXPECT_TRUE(std::isnan(values_of<float>(r.output)[0])) << op;
  }
  // Both compare x against a threshold and pick 0 when the comparison fails, like the reference's np.where.
  for (const char* op : {"ThresholdedRelu", "Shrink"}) {
    NodeResult r = run_node(op, 22, {make(Shape{1}, x)});
    ASSERT_TRUE(r.status.ok()) << op << ": " << r.status.message();
    EXPECT_EQ(values_of<float>(r.output)[0], 0.0f) << op;
  }
}

// The ONNX reference computes x +- bias in double and casts back with astype (truncation toward zero).
TEST(ActivationMore, ShrinkOnIntegersTruncatesLikeTheReference) {
  NodeResult r = run_node("Shrink", 9, {make(Shape{7}, std::vector<std::int8_t>{-128, -5, -1, 0, 1, 5, 127})},
                          {make_attribute_float("bias", 1.5f), make_attribute_float("lambd", 1.0f)});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(values_of<std::int8_t>(r.output), (std::vector<std::int8_t>{-126, -3, 0, 0, 0, 3, 125}));
  // Out of range saturates (a plain float -> integer cast would be undefined behaviour).
  NodeResult u = run_node("Shrink", 9, {make(Shape{2}, std::vector<std::uint8_t>{250, 0})},
                          {make_attribute_float("bias", -10.0f), make_attribute_float("lambd", 1.0f)});
  ASSERT_TRUE(u.status.ok()) << u.status.message();
  EXPECT_EQ(values_of<std::uint8_t>(u.output), (std::vector<std::uint8_t>{255, 0}));
  NodeResult big = run_node("Shrink", 9, {make(Shape{1}, std::vector<std::int64_t>{-(1LL << 62)})},
                            {make_attribute_float("bias", -1e30f)});
  ASSERT_TRUE(big.status.ok()) << big.status.message();
  EXPECT_EQ(values_of<std::int64_t>(big.output)[0], std::numeric_limits<std::int64_t>::min());
}

// Values computed with numpy: np.float16(f(1.0)) for Gelu, Mish, and f(-1.0) for Elu, Selu.
TEST(ActivationMore, Float16RoundsTheFloatResult) {
  struct Case {
    const char* op;
    std::uint16_t x, y;
  };
  for (const Case c : {Case{"Gelu", 0x3C00, 0x3ABB}, Case{"Mish", 0x3C00, 0x3AEC}, Case{"Elu", 0xBC00, 0xB90F},
                       Case{"Selu", 0xBC00, 0xBC72}}) {
    NodeResult r = run_node(c.op, 22, {make(DataType::float16, Shape{1}, std::vector<std::uint16_t>{c.x})});
    ASSERT_TRUE(r.status.ok()) << c.op << ": " << r.status.message();
    EXPECT_EQ(r.output.dtype, DataType::float16);
    EXPECT_EQ(values_of<std::uint16_t>(r.output)[0], c.y) << c.op;
  }
}

TEST(ActivationMore, AttributeErrorsNameTheAttribute) {
  const std::vector<TestTensor> x = {make(Shape{1}, std::vector<float>{1})};
  NodeResult gelu = run_node("Gelu", 20, x, {onnxmicro_test::make_attribute_string("approximate", "erf")});
  ASSERT_EQ(gelu.status.code(), StatusCode::invalid_model);
  EXPECT_NE(std::string(gelu.status.message()).find("attribute 'approximate' is 'erf', expected 'none' or 'tanh'"),
            std::string::npos)
      << gelu.status.message();
  NodeResult celu = run_node("Celu", 12, x, {make_attribute_float("alpha", 0.0f)});
  ASSERT_EQ(celu.status.code(), StatusCode::invalid_model);
  EXPECT_NE(std::string(celu.status.message()).find("attribute 'alpha' is 0"), std::string::npos)
      << celu.status.message();
  NodeResult elu = run_node("Elu", 6, x, {onnxmicro_test::make_attribute_int("alpha", 1)});
  ASSERT_FALSE(elu.status.ok());
  EXPECT_NE(std::string(elu.status.message()).find("attribute 'alpha'"), std::string::npos) << elu.status.message();
}

TEST(ActivationMore, IntegerInputsAreRejectedWhereTheSchemaHasNone) {
  for (const char* op :
       {"Elu", "Selu", "Celu", "HardSigmoid", "HardSwish", "Softplus", "Softsign", "Mish", "Gelu", "ThresholdedRelu"}) {
    NodeResult r = run_node(op, 22, {make(Shape{1}, std::vector<std::int32_t>{1})});
    ASSERT_EQ(r.status.code(), StatusCode::unsupported) << op;
    EXPECT_NE(std::string(r.status.message()).find("input 0 'X' has dtype int32"), std::string::npos)
        << r.status.message();
  }
}

TEST(ActivationMore, InPlaceRunsMatchSeparateBuffers) {
  for (const char* op : {"Elu", "Selu", "Celu", "HardSigmoid", "HardSwish", "Softplus", "Softsign", "Mish", "Gelu",
                         "ThresholdedRelu", "Shrink"}) {
    NodeResult separate = run_node(op, 22, {make(Shape{14}, kSamples)});
    NodeResult aliased = run_node(op, 22, {make(Shape{14}, kSamples)}, {}, /*in_place=*/true);
    ASSERT_TRUE(separate.status.ok() && aliased.status.ok()) << op;
    EXPECT_EQ(values_of<float>(separate.output), values_of<float>(aliased.output)) << op;
  }
}

TEST(ActivationMore, EveryOpsetFromTheFirstVersionResolves) {
  struct Op {
    const char* name;
    int first;
  };
  for (const Op op : {Op{"Elu", 1},
                      {"Selu", 1},
                      {"Celu", 12},
                      {"HardSigmoid", 1},
                      {"HardSwish", 14},
                      {"Softplus", 1},
                      {"Softsign", 1},
                      {"Mish", 18},
                      {"Gelu", 20},
                      {"ThresholdedRelu", 10},
                      {"Shrink", 9}}) {
    const auto registry = om::all_kernels_registry();
    EXPECT_EQ(om::find_kernel(registry, "", op.name, op.first - 1), nullptr) << op.name << " before " << op.first;
    for (int opset = op.first; opset <= ONNXMICRO_MAX_OPSET + 2; ++opset)
      EXPECT_NE(om::find_kernel(registry, "", op.name, opset), nullptr) << op.name << " " << opset;
  }
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
