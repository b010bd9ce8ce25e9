// SPDX-License-Identifier: MIT
// Unary math kernels (Abs ... Atanh, Round, Sign, Erf, IsNaN, IsInf, Not, BitwiseNot) beyond the ONNX node suite:
// exact rounding rules, integer wrap-around, NaN/infinity/-0, float16/bfloat16/float8 inputs, in-place runs,
// unsupported dtypes, attribute validation and version resolution.
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

const float kNaN = std::numeric_limits<float>::quiet_NaN();
const float kInf = std::numeric_limits<float>::infinity();

const std::vector<float> kSamples = {-3.5f, -1.0f, -0.75f, -0.25f, -0.0f, 0.0f, 1e-7f, 0.5f, 0.9f, 1.0f, 2.75f, 15.0f};

// Each float function against the C library in double: catches a kernel wired to the wrong function and any
// precision loss beyond float rounding. NaN where the reference is NaN (outside the domain).
TEST(UnaryMath, FloatFunctionsMatchTheirDefinitions) {
  struct Case {
    const char* op;
    int opset;
    std::function<double(double)> reference;
  };
  const std::vector<Case> cases = {
      {"Exp", 13, [](double x) { return std::exp(x); }},     {"Log", 13, [](double x) { return std::log(x); }},
      {"Sqrt", 13, [](double x) { return std::sqrt(x); }},   {"Reciprocal", 13, [](double x) { return 1.0 / x; }},
      {"Floor", 13, [](double x) { return std::floor(x); }}, {"Ceil", 13, [](double x) { return std::ceil(x); }},
      {"Sin", 7, [](double x) { return std::sin(x); }},      {"Cos", 7, [](double x) { return std::cos(x); }},
      {"Tan", 7, [](double x) { return std::tan(x); }},      {"Asin", 7, [](double x) { return std::asin(x); }},
      {"Acos", 7, [](double x) { return std::acos(x); }},    {"Atan", 7, [](double x) { return std::atan(x); }},
      {"Sinh", 9, [](double x) { return std::sinh(x); }},    {"Cosh", 9, [](double x) { return std::cosh(x); }},
      {"Asinh", 9, [](double x) { return std::asinh(x); }},  {"Acosh", 9, [](double x) { return std::acosh(x); }},
      {"Atanh", 9, [](double x) { return std::atanh(x); }},  {"Erf", 13, [](double x) { return std::erf(x); }},
      {"Abs", 13, [](double x) { return std::fabs(x); }},    {"Neg", 13, [](double x) { return -x; }},
  };
  for (const Case& c : cases) {
    NodeResult r = run_node(c.op, c.opset, {make(Shape{static_cast<std::int64_t>(kSamples.size())}, kSamples)});
    ASSERT_TRUE(r.status.ok()) << c.op << ": " << r.status.message();
    const std::vector<float> y = values_of<float>(r.output);
    for (std::size_t i = 0; i < kSamples.size(); ++i) {
      const double want = c.reference(kSamples[i]);
      if (std::isnan(want)) {
        EXPECT_TRUE(std::isnan(y[i])) << c.op << "(" << kSamples[i] << ") = " << y[i];
      } else if (std::isinf(want)) {
        EXPECT_EQ(static_cast<double>(y[i]), want) << c.op << "(" << kSamples[i] << ")";
      } else {
        EXPECT_LE(std::fabs(y[i] - want), 2e-7 * std::fabs(want) + 1e-30)
            << c.op << "(" << kSamples[i] << ") = " << y[i] << ", want " << want;
      }
    }
  }
}

TEST(UnaryMath, DoubleInputsComputeInDouble) {
  // exp(1) and sqrt(2) to the last bit of a double: a float computation would be off from digit 8.
  NodeResult e = run_node("Exp", 13, {make(Shape{1}, std::vector<double>{1.0})});
  ASSERT_TRUE(e.status.ok()) << e.status.message();
  EXPECT_EQ(values_of<double>(e.output)[0], std::exp(1.0));
  NodeResult s = run_node("Sqrt", 6, {make(Shape{1}, std::vector<double>{2.0})});
  ASSERT_TRUE(s.status.ok()) << s.status.message();
  EXPECT_EQ(values_of<double>(s.output)[0], std::sqrt(2.0));
}

// numpy.round: halves go to the even neighbour, -0.5 gives -0; values next to a half round normally.
TEST(UnaryMath, RoundHalvesToEven) {
  const std::vector<float> x = {-2.5f, -1.5f,      -0.5f,       0.5f,  1.5f,  2.5f,
                                3.5f,  2.4999998f, 0.49999997f, 1e20f, -kInf, kNaN};
  NodeResult r = run_node("Round", 11, {make(Shape{12}, x)});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  const std::vector<float> y = values_of<float>(r.output);
  const std::vector<float> want = {-2.0f, -2.0f, -0.0f, 0.0f, 2.0f, 2.0f, 4.0f, 2.0f, 0.0f, 1e20f, -kInf};
  for (std::size_t i = 0; i < want.size(); ++i) EXPECT_EQ(y[i], want[i]) << "round(" << x[i] << ")";
  EXPECT_TRUE(std::signbit(y[2])) << "round(-0.5) must be -0";
  EXPECT_TRUE(std::isnan(y[11]));

  // float16 2.5 (0x4100) -> 2 (0x4000); 3.5 (0x4300) -> 4 (0x4400); double 0.5 -> 0.
  NodeResult h = run_node("Round", 22, {make(DataType::float16, Shape{2}, std::vector<std::uint16_t>{0x4100, 0x4300})});
  ASSERT_TRUE(h.status.ok()) << h.status.message();
  EXPECT_EQ(values_of<std::uint16_t>(h.output), (std::vector<std::uint16_t>{0x4000, 0x4400}));
  NodeResult d = run_node("Round", 11, {make(Shape{2}, std::vector<double>{0.5, 4503599627370495.5})});
  ASSERT_TRUE(d.status.ok()) << d.status.message();
  EXPECT_EQ(values_of<double>(d.output), (std::vector<double>{0.0, 4503599627370496.0}));
}

TEST(UnaryMath, SignFollowsNumpy) {
  NodeResult f = run_node("Sign", 13, {make(Shape{6}, std::vector<float>{-kInf, -2.5f, -0.0f, 0.0f, 1e-30f, kNaN})});
  ASSERT_TRUE(f.status.ok()) << f.status.message();
  const std::vector<float> y = values_of<float>(f.output);
  EXPECT_EQ(y[0], -1.0f);
  EXPECT_EQ(y[1], -1.0f);
  EXPECT_EQ(y[2], 0.0f);
  EXPECT_FALSE(std::signbit(y[2])) << "numpy.sign(-0.0) is +0";
  EXPECT_EQ(y[3], 0.0f);
  EXPECT_EQ(y[4], 1.0f);
  EXPECT_TRUE(std::isnan(y[5]));
  NodeResult i = run_node("Sign", 9, {make(Shape{4}, std::vector<std::int8_t>{-128, -1, 0, 127})});
  ASSERT_TRUE(i.status.ok()) << i.status.message();
  EXPECT_EQ(values_of<std::int8_t>(i.output), (std::vector<std::int8_t>{-1, -1, 0, 1}));
  NodeResult u = run_node("Sign", 9, {make(Shape{3}, std::vector<std::uint64_t>{0, 1, ~0ull})});
  ASSERT_TRUE(u.status.ok()) << u.status.message();
  EXPECT_EQ(values_of<std::uint64_t>(u.output), (std::vector<std::uint64_t>{0, 1, 1}));
}

// numpy wraps: abs(-128) and -(-128) are -128 in int8; the kernel must get there without signed overflow
// (run under -fsanitize=undefined to prove the "without").
TEST(UnaryMath, IntegerAbsAndNegWrapLikeNumpy) {
  NodeResult a = run_node("Abs", 13, {make(Shape{4}, std::vector<std::int8_t>{-128, -127, 0, 127})});
  ASSERT_TRUE(a.status.ok()) << a.status.message();
  EXPECT_EQ(values_of<std::int8_t>(a.output), (std::vector<std::int8_t>{-128, 127, 0, 127}));
  const std::int64_t min64 = std::numeric_limits<std::int64_t>::min();
  NodeResult n = run_node("Neg", 13, {make(Shape{3}, std::vector<std::int64_t>{min64, -5, 7})});
  ASSERT_TRUE(n.status.ok()) << n.status.message();
  EXPECT_EQ(values_of<std::int64_t>(n.output), (std::vector<std::int64_t>{min64, 5, -7}));
  NodeResult u = run_node("Abs", 6, {make(Shape{2}, std::vector<std::uint32_t>{0, 0xFFFFFFFFu})});
  ASSERT_TRUE(u.status.ok()) << u.status.message();
  EXPECT_EQ(values_of<std::uint32_t>(u.output), (std::vector<std::uint32_t>{0, 0xFFFFFFFFu}));
  NodeResult z = run_node("Abs", 13, {make(Shape{2}, std::vector<float>{-0.0f, -kNaN})});
  ASSERT_TRUE(z.status.ok()) << z.status.message();
  EXPECT_FALSE(std::signbit(values_of<float>(z.output)[0]));
  EXPECT_FALSE(std::signbit(values_of<float>(z.output)[1]));
}

TEST(UnaryMath, NegRejectsUnsignedIntegers) {
  NodeResult r = run_node("Neg", 13, {make(Shape{1}, std::vector<std::uint8_t>{1})});
  ASSERT_EQ(r.status.code(), StatusCode::unsupported);
  EXPECT_NE(std::string(r.status.message()).find("input 0 'X' has dtype uint8"), std::string::npos)
      << r.status.message();
}

// Erf-9 allows integers: erf in [-1, 1] truncated back, as the ONNX reference's astype does.
TEST(UnaryMath, ErfOfIntegersTruncates) {
  NodeResult r = run_node("Erf", 9, {make(Shape{5}, std::vector<std::int32_t>{-10, -1, 0, 1, 10})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(values_of<std::int32_t>(r.output), (std::vector<std::int32_t>{-1, 0, 0, 0, 1}));
}

TEST(UnaryMath, Float16AndBfloat16RoundTheFloatResult) {
  // exp(1) = 2.71828... -> float16 0x4170 (2.71875); sqrt(2) = 1.41421... -> bfloat16 0x3FB5 (1.4140625).
  NodeResult e = run_node("Exp", 13, {make(DataType::float16, Shape{1}, std::vector<std::uint16_t>{0x3C00})});
  ASSERT_TRUE(e.status.ok()) << e.status.message();
  EXPECT_EQ(e.output.dtype, DataType::float16);
  EXPECT_EQ(values_of<std::uint16_t>(e.output)[0], 0x4170);
  NodeResult s = run_node("Sqrt", 13, {make(DataType::bfloat16, Shape{1}, std::vector<std::uint16_t>{0x4000})});
  ASSERT_TRUE(s.status.ok()) << s.status.message();
  EXPECT_EQ(s.output.dtype, DataType::bfloat16);
  EXPECT_EQ(values_of<std::uint16_t>(s.output)[0], 0x3FB5);
}

// std::vector<bool> is packed, so bool tensors go through bytes.
TestTensor make_bools(Shape shape, const std::vector<bool>& values) {
  std::vector<std::uint8_t> bytes(values.begin(), values.end());
  return make(DataType::boolean, shape, bytes);
}
std::vector<bool> bools_of(const TestTensor& t) {
  std::vector<bool> out;
  for (unsigned char b : t.bytes) out.push_back(b != 0);
  return out;
}

TEST(UnaryMath, IsNaNAndIsInfClassifyEveryFloatType) {
  const std::vector<float> x = {kNaN, -kInf, kInf, 0.0f, -1e30f};
  NodeResult nan = run_node("IsNaN", 13, {make(Shape{5}, x)});
  ASSERT_TRUE(nan.status.ok()) << nan.status.message();
  EXPECT_EQ(nan.output.dtype, DataType::boolean);
  EXPECT_EQ(nan.output.shape, (Shape{5}));
  EXPECT_EQ(bools_of(nan.output), (std::vector<bool>{true, false, false, false, false}));
  NodeResult inf = run_node("IsInf", 10, {make(Shape{5}, x)});
  ASSERT_TRUE(inf.status.ok()) << inf.status.message();
  EXPECT_EQ(bools_of(inf.output), (std::vector<bool>{false, true, true, false, false}));
  // double, and bfloat16 (0x7FC0 NaN, 0xFF80 -inf, 0x7F80 +inf, 0x3F80 one)
  NodeResult d = run_node("IsNaN", 9, {make(Shape{2}, std::vector<double>{std::nan(""), 1e300})});
  ASSERT_TRUE(d.status.ok()) << d.status.message();
  EXPECT_EQ(bools_of(d.output), (std::vector<bool>{true, false}));
  const std::vector<std::uint16_t> bf = {0x7FC0, 0xFF80, 0x7F80, 0x3F80};
  NodeResult bn = run_node("IsNaN", 20, {make(DataType::bfloat16, Shape{4}, bf)});
  ASSERT_TRUE(bn.status.ok()) << bn.status.message();
  EXPECT_EQ(bools_of(bn.output), (std::vector<bool>{true, false, false, false}));
  NodeResult bi = run_node("IsInf", 20, {make(DataType::bfloat16, Shape{4}, bf)});
  ASSERT_TRUE(bi.status.ok()) << bi.status.message();
  EXPECT_EQ(bools_of(bi.output), (std::vector<bool>{false, true, true, false}));
}

// float8 encodings (onnx.numpy_helper / the float8 paper): e4m3fn NaN = S.1111.111, no infinity; e5m2 has
// IEEE infinities (0x7C, 0xFC) and NaNs; the *fnuz types have one NaN (0x80) and no infinity.
TEST(UnaryMath, IsNaNAndIsInfReadFloat8Bits) {
  struct Case {
    DataType dtype;
    std::vector<std::uint8_t> bits;
    std::vector<bool> nan, inf;
  };
  const std::vector<Case> cases = {
      {DataType::float8e4m3fn,
       {0x7F, 0xFF, 0x7E, 0x80, 0x00},
       {true, true, false, false, false},
       {false, false, false, false, false}},
      {DataType::float8e4m3fnuz, {0x80, 0x7F, 0xFF, 0x00}, {true, false, false, false}, {false, false, false, false}},
      {DataType::float8e5m2,
       {0x7C, 0xFC, 0x7D, 0xFF, 0x7B, 0x80},
       {false, false, true, true, false, false},
       {true, true, false, false, false, false}},
      {DataType::float8e5m2fnuz, {0x80, 0x7F, 0xFF, 0x00}, {true, false, false, false}, {false, false, false, false}},
  };
  for (const Case& c : cases) {
    const Shape shape{static_cast<std::int64_t>(c.bits.size())};
    NodeResult nan = run_node("IsNaN", 20, {make(c.dtype, shape, c.bits)});
    ASSERT_TRUE(nan.status.ok()) << om::dtype_name(c.dtype) << ": " << nan.status.message();
    EXPECT_EQ(bools_of(nan.output), c.nan) << om::dtype_name(c.dtype);
    NodeResult inf = run_node("IsInf", 20, {make(c.dtype, shape, c.bits)});
    ASSERT_TRUE(inf.status.ok()) << om::dtype_name(c.dtype) << ": " << inf.status.message();
    EXPECT_EQ(bools_of(inf.output), c.inf) << om::dtype_name(c.dtype);
  }
}

TEST(UnaryMath, IsInfDetectFlags) {
  const std::vector<double> x = {-INFINITY, INFINITY, NAN, 0.0};
  NodeResult neg =
      run_node("IsInf", 10, {make(Shape{4}, x)}, {onnxmicro_test::make_attribute_int("detect_positive", 0)});
  ASSERT_TRUE(neg.status.ok()) << neg.status.message();
  EXPECT_EQ(bools_of(neg.output), (std::vector<bool>{true, false, false, false}));
  NodeResult pos =
      run_node("IsInf", 10, {make(Shape{4}, x)}, {onnxmicro_test::make_attribute_int("detect_negative", 0)});
  ASSERT_TRUE(pos.status.ok()) << pos.status.message();
  EXPECT_EQ(bools_of(pos.output), (std::vector<bool>{false, true, false, false}));
  NodeResult none = run_node("IsInf", 10, {make(Shape{4}, x)},
                             {onnxmicro_test::make_attribute_int("detect_negative", 0),
                              onnxmicro_test::make_attribute_int("detect_positive", 0)});
  ASSERT_TRUE(none.status.ok()) << none.status.message();
  EXPECT_EQ(bools_of(none.output), (std::vector<bool>{false, false, false, false}));
  NodeResult bad =
      run_node("IsInf", 10, {make(Shape{4}, x)}, {onnxmicro_test::make_attribute_int("detect_negative", 2)});
  ASSERT_EQ(bad.status.code(), StatusCode::invalid_model);
  EXPECT_NE(std::string(bad.status.message()).find("attribute 'detect_negative' is 2"), std::string::npos)
      << bad.status.message();
}

TEST(UnaryMath, IsNaNRejectsIntegers) {
  NodeResult r = run_node("IsNaN", 20, {make(Shape{1}, std::vector<std::int32_t>{1})});
  ASSERT_EQ(r.status.code(), StatusCode::unsupported);
  EXPECT_NE(std::string(r.status.message()).find("dtype int32"), std::string::npos) << r.status.message();
}

TEST(UnaryMath, NotAndBitwiseNot) {
  NodeResult n = run_node("Not", 1, {make_bools(Shape{2, 2}, {true, false, false, true})});
  ASSERT_TRUE(n.status.ok()) << n.status.message();
  EXPECT_EQ(n.output.dtype, DataType::boolean);
  EXPECT_EQ(bools_of(n.output), (std::vector<bool>{false, true, true, false}));
  NodeResult u = run_node("BitwiseNot", 18, {make(Shape{3}, std::vector<std::uint16_t>{0, 0x00FF, 0xFFFF})});
  ASSERT_TRUE(u.status.ok()) << u.status.message();
  EXPECT_EQ(values_of<std::uint16_t>(u.output), (std::vector<std::uint16_t>{0xFFFF, 0xFF00, 0}));
  NodeResult s = run_node("BitwiseNot", 18, {make(Shape{3}, std::vector<std::int64_t>{0, -1, 41})});
  ASSERT_TRUE(s.status.ok()) << s.status.message();
  EXPECT_EQ(values_of<std::int64_t>(s.output), (std::vector<std::int64_t>{-1, 0, -42}));
  NodeResult bad = run_node("Not", 1, {make(Shape{1}, std::vector<std::int32_t>{1})});
  EXPECT_EQ(bad.status.code(), StatusCode::unsupported);
  NodeResult bad_float = run_node("BitwiseNot", 18, {make(Shape{1}, std::vector<float>{1})});
  EXPECT_EQ(bad_float.status.code(), StatusCode::unsupported);
}

TEST(UnaryMath, InPlaceRunsMatchSeparateBuffers) {
  for (const char* op :
       {"Abs", "Neg", "Exp",  "Log",  "Sqrt", "Reciprocal", "Floor", "Ceil",  "Round", "Sign",  "Sin",
        "Cos", "Tan", "Asin", "Acos", "Atan", "Sinh",       "Cosh",  "Asinh", "Acosh", "Atanh", "Erf"}) {
    NodeResult separate = run_node(op, 22, {make(Shape{12}, kSamples)});
    NodeResult aliased = run_node(op, 22, {make(Shape{12}, kSamples)}, {}, /*in_place=*/true);
    ASSERT_TRUE(separate.status.ok() && aliased.status.ok()) << op;
    EXPECT_EQ(std::memcmp(separate.output.bytes.data(), aliased.output.bytes.data(), separate.output.bytes.size()), 0)
        << op;
  }
  NodeResult n = run_node("Not", 1, {make_bools(Shape{2}, {true, false})}, {}, /*in_place=*/true);
  ASSERT_TRUE(n.status.ok()) << n.status.message();
  EXPECT_EQ(bools_of(n.output), (std::vector<bool>{false, true}));
}

TEST(UnaryMath, EveryOpsetFromTheFirstVersionResolves) {
  struct Op {
    const char* name;
    int first;
  };
  for (const Op op :
       {Op{"Abs", 1}, {"Neg", 1},    {"Exp", 1},    {"Log", 1},  {"Sqrt", 1},       {"Reciprocal", 1}, {"Floor", 1},
        {"Ceil", 1},  {"Round", 11}, {"Sign", 9},   {"Sin", 7},  {"Cos", 7},        {"Tan", 7},        {"Asin", 7},
        {"Acos", 7},  {"Atan", 7},   {"Sinh", 9},   {"Cosh", 9}, {"Asinh", 9},      {"Acosh", 9},      {"Atanh", 9},
        {"Erf", 9},   {"IsNaN", 9},  {"IsInf", 10}, {"Not", 1},  {"BitwiseNot", 18}}) {
    const auto registry = om::all_kernels_registry();
    EXPECT_EQ(om::find_kernel(registry, "", op.name, op.first - 1), nullptr) << op.name << " before " << op.first;
    for (int opset = op.first; opset <= ONNXMICRO_MAX_OPSET + 2; ++opset)
      EXPECT_NE(om::find_kernel(registry, "", op.name, opset), nullptr) << op.name << " " << opset;
  }
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
