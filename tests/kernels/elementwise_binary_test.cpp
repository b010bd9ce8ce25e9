// SPDX-License-Identifier: MIT
// Add, Sub, Mul, Div: what the ONNX node suite does not cover: every integer width with numpy wraparound,
// integer division semantics (truncation, x / 0, MIN / -1), float16/bfloat16 rounding, the legacy
// broadcast/axis attributes of opset 1-6, error messages, and which kernel each opset version resolves to.
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

// Binary nodes name their inputs A and B, as the schema does.
NodeResult run_binary(const std::string& op, int opset, std::vector<TestTensor> inputs,
                      const std::vector<ProtoWriter>& attributes = {}, bool in_place = false) {
  for (std::size_t i = 0; i < inputs.size(); ++i) inputs[i].name = i == 0 ? "A" : "B";
  return run_node(op, opset, inputs, attributes, in_place);
}

// ---- numpy broadcasting ----------------------------------------------------------------------------------

TEST(ElementwiseBinary, AddSameShapeFloat) {
  const std::vector<float> a = {1.5f, -2.0f, 3.25f, 0.0f, 1e30f, -7.0f};
  const std::vector<float> b = {0.5f, 2.0f, -1.0f, -0.0f, 1e30f, 0.125f};
  NodeResult r = run_binary("Add", 14, {make(Shape{2, 3}, a), make(Shape{2, 3}, b)});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.output.shape, (Shape{2, 3}));
  EXPECT_EQ(values_of<float>(r.output), (std::vector<float>{2.0f, 0.0f, 2.25f, 0.0f, 2e30f, -6.875f}));
}

// Reference: index arithmetic written out for [2,3,2] - [3,1].
TEST(ElementwiseBinary, SubBroadcastsBothWays) {
  std::vector<double> a(12), b = {10, 20, 30};
  for (int i = 0; i < 12; ++i) a[i] = i;
  NodeResult r = run_binary("Sub", 14, {make(Shape{2, 3, 2}, a), make(Shape{3, 1}, b)});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  ASSERT_EQ(r.output.shape, (Shape{2, 3, 2}));
  const std::vector<double> y = values_of<double>(r.output);
  for (int n = 0; n < 2; ++n)
    for (int c = 0; c < 3; ++c)
      for (int w = 0; w < 2; ++w) EXPECT_EQ(y[n * 6 + c * 2 + w], a[n * 6 + c * 2 + w] - b[c]);
}

TEST(ElementwiseBinary, ScalarOnEitherSide) {
  NodeResult left =
      run_binary("Div", 14, {make(Shape{}, std::vector<float>{12.0f}), make(Shape{3}, std::vector<float>{1, 2, 4})});
  ASSERT_TRUE(left.status.ok()) << left.status.message();
  EXPECT_EQ(values_of<float>(left.output), (std::vector<float>{12.0f, 6.0f, 3.0f}));
  NodeResult right =
      run_binary("Div", 14, {make(Shape{3}, std::vector<float>{1, 2, 4}), make(Shape{}, std::vector<float>{4.0f})});
  ASSERT_TRUE(right.status.ok()) << right.status.message();
  EXPECT_EQ(values_of<float>(right.output), (std::vector<float>{0.25f, 0.5f, 1.0f}));
  NodeResult both =
      run_binary("Mul", 14, {make(Shape{}, std::vector<float>{3.0f}), make(Shape{1, 1}, std::vector<float>{-2.0f})});
  ASSERT_TRUE(both.status.ok()) << both.status.message();
  EXPECT_EQ(both.output.shape, (Shape{1, 1}));
  EXPECT_EQ(values_of<float>(both.output), (std::vector<float>{-6.0f}));
}

TEST(ElementwiseBinary, EmptyOutputRuns) {
  NodeResult r =
      run_binary("Add", 14, {make(Shape{0, 3}, std::vector<float>{}), make(Shape{3}, std::vector<float>{1, 2, 3})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.output.shape, (Shape{0, 3}));
}

TEST(ElementwiseBinary, IncompatibleShapesNameTheInputs) {
  NodeResult r =
      run_binary("Mul", 14, {make(Shape{2, 3}, std::vector<float>(6)), make(Shape{2}, std::vector<float>(2))});
  ASSERT_EQ(r.status.code(), StatusCode::invalid_model);
  EXPECT_NE(std::string(r.status.message()).find("input 0 'A' with shape [2,3] and input 1 'B' with shape [2]"),
            std::string::npos)
      << r.status.message();
}

// The session lets the output reuse A's buffer when A dies here and has the output's byte size.
TEST(ElementwiseBinary, InPlaceOnInputAMatchesSeparateBuffers) {
  std::vector<float> a(24), b = {1.5f, -2.0f, 4.0f, 0.25f};
  for (int i = 0; i < 24; ++i) a[i] = static_cast<float>(i) * 0.75f - 3.0f;
  for (const char* op : {"Add", "Sub", "Mul", "Div"}) {
    NodeResult separate = run_binary(op, 14, {make(Shape{2, 3, 4}, a), make(Shape{4}, b)});
    NodeResult aliased = run_binary(op, 14, {make(Shape{2, 3, 4}, a), make(Shape{4}, b)}, {}, /*in_place=*/true);
    ASSERT_TRUE(separate.status.ok() && aliased.status.ok()) << op;
    EXPECT_EQ(values_of<float>(separate.output), values_of<float>(aliased.output)) << op;
  }
  // Add(x, x): both inputs are the aliased buffer.
  KernelHarness twice("Add", 14,
                      {make(Shape{3}, std::vector<std::int32_t>{1, -2, 3}).named("A"),
                       make(Shape{3}, std::vector<std::int32_t>{1, -2, 3}).named("A")});
  ASSERT_TRUE(twice.prepare_status.ok());
  TestTensor y;
  ASSERT_TRUE(twice.run(y, /*in_place=*/true).ok());
  EXPECT_EQ(values_of<std::int32_t>(y), (std::vector<std::int32_t>{2, -4, 6}));
}

// ---- dtypes ----------------------------------------------------------------------------------------------

// Each integer width, with values that overflow: results wrap modulo 2^bits like numpy. The expectation is
// computed in 64-bit (or unsigned 64-bit) arithmetic and cast, independent of the kernel's code path.
template <typename T>
void expect_integer_arithmetic() {
  using L = std::numeric_limits<T>;
  const std::vector<T> a = {L::max(), L::min(), T(7), T(100), T(L::max() - 1)};
  const std::vector<T> b = {T(1), T(L::is_signed ? -1 : 1), T(3), T(L::max()), T(2)};
  const DataType dtype = om::dtype_of<T>::value;
  for (const char* op : {"Add", "Sub", "Mul"}) {
    NodeResult r = run_binary(op, 14, {make(Shape{5}, a), make(Shape{5}, b)});
    ASSERT_TRUE(r.status.ok()) << op << " " << om::dtype_name(dtype) << ": " << r.status.message();
    ASSERT_EQ(r.output.dtype, dtype);
    const std::vector<T> y = values_of<T>(r.output);
    for (std::size_t i = 0; i < a.size(); ++i) {
      const std::uint64_t ua = static_cast<std::uint64_t>(a[i]), ub = static_cast<std::uint64_t>(b[i]);
      const std::uint64_t wide = op[0] == 'A' ? ua + ub : op[0] == 'S' ? ua - ub : ua * ub;
      EXPECT_EQ(y[i], static_cast<T>(wide)) << op << " " << om::dtype_name(dtype) << " element " << i;
    }
  }
}

TEST(ElementwiseBinary, EveryIntegerWidthWrapsAround) {
  expect_integer_arithmetic<std::int8_t>();
  expect_integer_arithmetic<std::uint8_t>();
  expect_integer_arithmetic<std::int16_t>();
  expect_integer_arithmetic<std::uint16_t>();
  expect_integer_arithmetic<std::int32_t>();
  expect_integer_arithmetic<std::uint32_t>();
  expect_integer_arithmetic<std::int64_t>();
  expect_integer_arithmetic<std::uint64_t>();
}

TEST(ElementwiseBinary, Uint16MultiplyDoesNotOverflowThroughIntPromotion) {
  NodeResult r = run_binary(
      "Mul", 14,
      {make(Shape{1}, std::vector<std::uint16_t>{65535}), make(Shape{1}, std::vector<std::uint16_t>{65535})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(values_of<std::uint16_t>(r.output)[0], 1);  // 65535^2 = 1 (mod 2^16)
}

TEST(ElementwiseBinary, IntegerDivisionTruncatesTowardZero) {
  NodeResult r = run_binary("Div", 14,
                            {make(Shape{6}, std::vector<std::int32_t>{-7, 7, -7, 7, 6, -1}),
                             make(Shape{6}, std::vector<std::int32_t>{2, -2, -2, 2, 3, 2})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(values_of<std::int32_t>(r.output), (std::vector<std::int32_t>{-3, -3, 3, 3, 2, 0}));
}

TEST(ElementwiseBinary, IntegerDivisionEdgeCasesAreDefined) {
  // x / 0 is 0 (instead of a trap); MIN / -1 wraps to MIN like the other integer ops.
  NodeResult s32 =
      run_binary("Div", 14,
                 {make(Shape{3}, std::vector<std::int32_t>{5, std::numeric_limits<std::int32_t>::min(), 0}),
                  make(Shape{3}, std::vector<std::int32_t>{0, -1, 0})});
  ASSERT_TRUE(s32.status.ok()) << s32.status.message();
  EXPECT_EQ(values_of<std::int32_t>(s32.output),
            (std::vector<std::int32_t>{0, std::numeric_limits<std::int32_t>::min(), 0}));
  NodeResult s8 = run_binary(
      "Div", 14, {make(Shape{2}, std::vector<std::int8_t>{-128, 9}), make(Shape{2}, std::vector<std::int8_t>{-1, 0})});
  ASSERT_TRUE(s8.status.ok()) << s8.status.message();
  EXPECT_EQ(values_of<std::int8_t>(s8.output), (std::vector<std::int8_t>{-128, 0}));
  NodeResult u64 = run_binary(
      "Div", 14,
      {make(Shape{2}, std::vector<std::uint64_t>{~0ULL, 9}), make(Shape{2}, std::vector<std::uint64_t>{~0ULL, 0})});
  ASSERT_TRUE(u64.status.ok()) << u64.status.message();
  EXPECT_EQ(values_of<std::uint64_t>(u64.output), (std::vector<std::uint64_t>{1, 0}));
}

TEST(ElementwiseBinary, FloatDivisionByZeroFollowsIeee) {
  NodeResult r = run_binary(
      "Div", 14, {make(Shape{3}, std::vector<float>{1, -1, 0}), make(Shape{3}, std::vector<float>{0, 0, 0})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  const std::vector<float> y = values_of<float>(r.output);
  EXPECT_EQ(y[0], std::numeric_limits<float>::infinity());
  EXPECT_EQ(y[1], -std::numeric_limits<float>::infinity());
  EXPECT_TRUE(std::isnan(y[2]));
}

// float16: 1 + 2^-11 is halfway between 1 and the next half (1 + 2^-10): ties go to the even mantissa (1);
// 1 + 3 * 2^-11 is halfway between 1 + 2^-10 (odd) and 1 + 2^-9 (even) and goes up.
TEST(ElementwiseBinary, Float16ComputesInFloatAndRoundsToNearestEven) {
  const std::uint16_t one = 0x3C00, tiny = 0x1000 /* 2^-11 */, three_tiny = 0x1600 /* 3 * 2^-11 */;
  NodeResult r = run_binary("Add", 14,
                            {make(DataType::float16, Shape{2}, std::vector<std::uint16_t>{one, one}),
                             make(DataType::float16, Shape{2}, std::vector<std::uint16_t>{tiny, three_tiny})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.output.dtype, DataType::float16);
  EXPECT_EQ(values_of<std::uint16_t>(r.output), (std::vector<std::uint16_t>{0x3C00, 0x3C02}));
}

// bfloat16 keeps 7 mantissa bits: 1 + 2^-8 ties to 1, 1 + 3 * 2^-8 ties up to 1 + 2^-6.
TEST(ElementwiseBinary, Bfloat16ComputesInFloatAndRoundsToNearestEven) {
  const std::uint16_t one = 0x3F80, tiny = 0x3B80 /* 2^-8 */, three_tiny = 0x3C40 /* 3 * 2^-8 */;
  NodeResult r = run_binary("Add", 14,
                            {make(DataType::bfloat16, Shape{2}, std::vector<std::uint16_t>{one, one}),
                             make(DataType::bfloat16, Shape{2}, std::vector<std::uint16_t>{tiny, three_tiny})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(values_of<std::uint16_t>(r.output), (std::vector<std::uint16_t>{0x3F80, 0x3F82}));
}

TEST(ElementwiseBinary, MismatchedDtypesNameBothInputs) {
  NodeResult r = run_binary("Add", 14, {make(Shape{1}, std::vector<float>{1}), make(Shape{1}, std::vector<double>{1})});
  ASSERT_EQ(r.status.code(), StatusCode::invalid_model);
  EXPECT_NE(std::string(r.status.message()).find("input 1 'B' has dtype double, expected float"), std::string::npos)
      << r.status.message();
}

TEST(ElementwiseBinary, UnsupportedDtypeIsAClearStatus) {
  const TestTensor flag = make(DataType::boolean, Shape{1}, std::vector<std::uint8_t>{1});
  NodeResult r = run_binary("Sub", 14, {flag, flag});
  ASSERT_EQ(r.status.code(), StatusCode::unsupported);
  EXPECT_NE(std::string(r.status.message()).find("input 0 'A' has dtype bool"), std::string::npos)
      << r.status.message();
}

// ---- opset 1-6: legacy broadcasting ------------------------------------------------------------------------

TEST(ElementwiseBinaryLegacy, BroadcastAtAxis) {
  std::vector<float> a(24);
  for (int i = 0; i < 24; ++i) a[i] = static_cast<float>(i);
  const std::vector<float> b = {100, 200, 300};
  NodeResult r =
      run_binary("Add", 6, {make(Shape{2, 3, 4}, a), make(Shape{3}, b)},
                 {onnxmicro_test::make_attribute_int("broadcast", 1), onnxmicro_test::make_attribute_int("axis", 1)});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  ASSERT_EQ(r.output.shape, (Shape{2, 3, 4}));
  const std::vector<float> y = values_of<float>(r.output);
  for (int n = 0; n < 2; ++n)
    for (int c = 0; c < 3; ++c)
      for (int w = 0; w < 4; ++w) EXPECT_EQ(y[n * 12 + c * 4 + w], a[n * 12 + c * 4 + w] + b[c]);
}

TEST(ElementwiseBinaryLegacy, BroadcastDefaultsToSuffixAndScalars) {
  const std::vector<float> a = {1, 2, 3, 4, 5, 6};
  NodeResult suffix = run_binary("Mul", 1, {make(Shape{2, 3}, a), make(Shape{3}, std::vector<float>{1, 10, 100})},
                                 {onnxmicro_test::make_attribute_int("broadcast", 1)});
  ASSERT_TRUE(suffix.status.ok()) << suffix.status.message();
  EXPECT_EQ(values_of<float>(suffix.output), (std::vector<float>{1, 20, 300, 4, 50, 600}));
  NodeResult scalar = run_binary("Sub", 6, {make(Shape{2, 3}, a), make(Shape{1}, std::vector<float>{1})},
                                 {onnxmicro_test::make_attribute_int("broadcast", 1)});
  ASSERT_TRUE(scalar.status.ok()) << scalar.status.message();
  EXPECT_EQ(values_of<float>(scalar.output), (std::vector<float>{0, 1, 2, 3, 4, 5}));
}

TEST(ElementwiseBinaryLegacy, WithoutBroadcastShapesMustMatch) {
  // Numpy would broadcast this, opset 6 without broadcast=1 must not.
  NodeResult r =
      run_binary("Add", 6, {make(Shape{2, 3}, std::vector<float>(6)), make(Shape{3}, std::vector<float>(3))});
  ASSERT_EQ(r.status.code(), StatusCode::invalid_model);
  EXPECT_NE(std::string(r.status.message()).find("attribute 'broadcast' is 0"), std::string::npos)
      << r.status.message();
  NodeResult same =
      run_binary("Add", 6, {make(Shape{3}, std::vector<float>{1, 2, 3}), make(Shape{3}, std::vector<float>{1, 1, 1})});
  ASSERT_TRUE(same.status.ok()) << same.status.message();
  EXPECT_EQ(values_of<float>(same.output), (std::vector<float>{2, 3, 4}));
}

TEST(ElementwiseBinaryLegacy, RejectsMisplacedOperand) {
  NodeResult r =
      run_binary("Div", 6, {make(Shape{2, 3, 4}, std::vector<float>(24)), make(Shape{3}, std::vector<float>(3))},
                 {onnxmicro_test::make_attribute_int("broadcast", 1), onnxmicro_test::make_attribute_int("axis", 2)});
  ASSERT_EQ(r.status.code(), StatusCode::invalid_model);
  EXPECT_NE(std::string(r.status.message()).find("at axis 2"), std::string::npos) << r.status.message();
  r = run_binary("Div", 6, {make(Shape{2, 3, 4}, std::vector<float>(24)), make(Shape{3}, std::vector<float>(3))},
                 {onnxmicro_test::make_attribute_int("broadcast", 1), onnxmicro_test::make_attribute_int("axis", 3)});
  ASSERT_EQ(r.status.code(), StatusCode::invalid_model);
  EXPECT_NE(std::string(r.status.message()).find("attribute 'axis' is 3"), std::string::npos) << r.status.message();
  r = run_binary("Div", 6, {make(Shape{3}, std::vector<float>(3)), make(Shape{3}, std::vector<float>(3))},
                 {onnxmicro_test::make_attribute_int("broadcast", 2)});
  ASSERT_EQ(r.status.code(), StatusCode::invalid_model);
  EXPECT_NE(std::string(r.status.message()).find("attribute 'broadcast' is 2"), std::string::npos)
      << r.status.message();
}

// ---- version resolution -----------------------------------------------------------------------------------

TEST(ElementwiseBinary, EveryOpsetResolvesToTheRightKernel) {
  for (const char* op : {"Add", "Sub", "Mul", "Div"}) {
    for (int opset = 1; opset <= ONNXMICRO_MAX_OPSET + 2; ++opset) {
      const om::KernelEntry* k = om::find_kernel(om::all_kernels_registry(), "", op, opset);
      ASSERT_NE(k, nullptr) << op << " opset " << opset;
      EXPECT_EQ(k->since_version, opset < 7 ? 1 : 7) << op << " opset " << opset;
    }
  }
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
