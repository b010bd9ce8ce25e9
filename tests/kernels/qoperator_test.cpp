// SPDX-License-Identifier: MIT
// onnxruntime's com.microsoft QOperator kernels beyond the generated qoperator-ops suite (which compares them with
// onnxruntime): the Relu/Clip that QDQ fusion folds into QLinearAdd/QLinearMul, omitted zero points, and the
// errors for run-time or non-scalar scales and wrong dtypes. Expected values are worked out by hand from
// y = round(f(dequantize(x)) / y_scale) + y_zero.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "onnxmicro/onnxmicro.hpp"
#include "quantized_kernel_driver.hpp"
#include "support/kernel_harness.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

namespace om = onnxmicro;
using om::DataType;
using om::Shape;
using om::StatusCode;
using om::kernels::FusedClamp;
using onnxmicro_test::DriverResult;
using onnxmicro_test::make;
using onnxmicro_test::TestTensor;
using onnxmicro_test::values_of;

/// Prepares and runs one com.microsoft kernel, with `clamp` as the session's QDQ fusion would set it.
template <typename Kernel>
DriverResult run_qoperator(const std::vector<TestTensor>& inputs,
                           const std::vector<onnxmicro_test::ProtoWriter>& attributes = {},
                           const FusedClamp& clamp = {}) {
  return onnxmicro_test::run_quantized(om::all_kernels_registry(), Kernel::kDomain, std::string(Kernel::kOpType),
                                       Kernel::kSinceVersion, inputs, attributes, clamp);
}

TestTensor scale(float v, const char* name) { return make(Shape{}, std::vector<float>{v}).named(name).as_constant(); }
TestTensor zero_u8(std::uint8_t v, const char* name) {
  return make(Shape{}, std::vector<std::uint8_t>{v}).named(name).as_constant();
}
TestTensor data_u8(const std::vector<std::uint8_t>& v, const char* name) {
  return make(Shape{static_cast<std::int64_t>(v.size())}, v).named(name);
}

// A: scale 0.5, zero 10; B: scale 0.25, zero 0; C: scale 0.5, zero 20.
// A = [0, 10, 14, 30] -> [-5, 0, 2, 10]; B = [4, 0, 8, 40] -> [1, 0, 2, 10]; A + B = [-4, 0, 4, 20];
// C = round(sum / 0.5) + 20 = [12, 20, 28, 60].
std::vector<TestTensor> add_inputs() {
  return {data_u8({0, 10, 14, 30}, "A"), scale(0.5f, "A_scale"),     zero_u8(10, "A_zero_point"),
          data_u8({4, 0, 8, 40}, "B"),   scale(0.25f, "B_scale"),    zero_u8(0, "B_zero_point"),
          scale(0.5f, "C_scale"),        zero_u8(20, "C_zero_point")};
}

TEST(QOperatorTest, QLinearAddWithoutFusedClamp) {
  DriverResult r = run_qoperator<om::kernels::QLinearAdd_1>(add_inputs());
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.output.dtype, DataType::uint8);
  EXPECT_EQ(values_of<std::uint8_t>(r.output), (std::vector<std::uint8_t>{12, 20, 28, 60}));
}

// QLinearAdd's AVX2 rows (8 elements a step, entries gathered from the tables) against its scalar loop (the SSE2
// level): every pair of operand values, int8 and uint8, with scales whose sums land exactly on ties (0.5, 0.25), with
// scales that round, with a fused Clip, and rows whose length leaves a scalar tail. Bits must be equal; and every
// output must lie within one quantum of round((A + B) / C_scale) + C_zero computed in double.
TEST(QOperatorTest, QLinearAddVectorRowsMatchTheScalarLoop) {
  struct Scales {
    float a, b, c;
    int a_zero, b_zero, c_zero;
  };
  const Scales cases[] = {{0.5f, 0.25f, 0.5f, 10, 0, 20},
                          {0.0137f, 0.0291f, 0.0413f, 131, 97, 3},
                          {0.02f, 0.02f, 0.01f, 0, 255, 128},
                          {1.0f, 1.0f, 1.0f, 0, 0, 0}};
  for (bool is_signed : {false, true}) {
    for (const Scales& k : cases) {
      for (bool clipped : {false, true}) {
        // Every (a, b) pair once, plus 5 more: 65541 elements, a tail of 5 past the last vector.
        std::vector<int> a_values, b_values;
        for (int i = 0; i < 65536 + 5; ++i) {
          a_values.push_back((i % 65536) / 256);
          b_values.push_back(i % 256);
        }
        auto tensor = [&](const std::vector<int>& v, const char* name) {
          const Shape shape{static_cast<std::int64_t>(v.size())};
          if (is_signed) {
            std::vector<std::int8_t> bytes;
            for (int x : v) bytes.push_back(static_cast<std::int8_t>(x - 128));
            return make(shape, bytes).named(name);
          }
          std::vector<std::uint8_t> bytes(v.begin(), v.end());
          return make(shape, bytes).named(name);
        };
        auto zero = [&](int z, const char* name) {
          return is_signed
                     ? make(Shape{}, std::vector<std::int8_t>{static_cast<std::int8_t>(z - 128)})
                           .named(name)
                           .as_constant()
                     : make(Shape{}, std::vector<std::uint8_t>{static_cast<std::uint8_t>(z)}).named(name).as_constant();
        };
        const std::vector<TestTensor> inputs = {tensor(a_values, "A"),          scale(k.a, "A_scale"),
                                                zero(k.a_zero, "A_zero_point"), tensor(b_values, "B"),
                                                scale(k.b, "B_scale"),          zero(k.b_zero, "B_zero_point"),
                                                scale(k.c, "C_scale"),          zero(k.c_zero, "C_zero_point")};
        FusedClamp clamp;
        clamp.has_min = clamp.has_max = clipped;
        clamp.min = -0.5f;
        clamp.max = 1.0f;
        const std::string op(om::kernels::QLinearAdd_1::kOpType);
        DriverResult scalar = onnxmicro_test::run_quantized(om::all_kernels_registry(), "com.microsoft", op, 1, inputs,
                                                            {}, clamp, {false, nullptr, om::Isa::baseline});
        DriverResult vector =
            onnxmicro_test::run_quantized(om::all_kernels_registry(), "com.microsoft", op, 1, inputs, {}, clamp, {});
        ASSERT_TRUE(scalar.status.ok() && vector.status.ok());
        EXPECT_EQ(vector.output.bytes, scalar.output.bytes) << "signed " << is_signed << ", scales " << k.a;
        std::int32_t low = is_signed ? -128 : 0, high = is_signed ? 127 : 255;
        onnxmicro_test::reference_clamp_bounds(clamp, k.c, k.c_zero - (is_signed ? 128 : 0), low, high);
        for (std::size_t i = 0; i < a_values.size(); i += 97) {
          const double real =
              (a_values[i] - k.a_zero) * static_cast<double>(k.a) + (b_values[i] - k.b_zero) * static_cast<double>(k.b);
          double expected = std::nearbyint(real / k.c) + k.c_zero - (is_signed ? 128 : 0);
          expected = expected < low ? low : (expected > high ? high : expected);
          const int got = is_signed ? static_cast<std::int8_t>(vector.output.bytes[i]) : vector.output.bytes[i];
          ASSERT_NEAR(got, expected, 1.0) << "element " << i;
        }
      }
    }
  }
}

TEST(QOperatorTest, QLinearAddFusedReluClampsAtQuantizedZero) {
  FusedClamp relu;
  relu.has_min = true;  // Relu: min 0 -> quantize(0) = 20
  DriverResult r = run_qoperator<om::kernels::QLinearAdd_1>(add_inputs(), {}, relu);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(values_of<std::uint8_t>(r.output), (std::vector<std::uint8_t>{20, 20, 28, 60}));
}

TEST(QOperatorTest, QLinearAddFusedClipClampsBothEnds) {
  FusedClamp clip;  // Clip(-1, 6): quantize(-1) = 18, quantize(6) = 32
  clip.has_min = clip.has_max = true;
  clip.min = -1.0f;
  clip.max = 6.0f;
  DriverResult r = run_qoperator<om::kernels::QLinearAdd_1>(add_inputs(), {}, clip);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(values_of<std::uint8_t>(r.output), (std::vector<std::uint8_t>{18, 20, 28, 32}));
}

TEST(QOperatorTest, QLinearAddFusedClipMaxOnlyAndBroadcastScalar) {
  // B is one value 8 -> 2; A + 2 = [-3, 2, 4, 12] -> [14, 24, 28, 44]; Clip max 5 -> quantize(5) = 30.
  std::vector<TestTensor> inputs = add_inputs();
  inputs[3] = make(Shape{}, std::vector<std::uint8_t>{8}).named("B");
  FusedClamp clip;
  clip.has_max = true;
  clip.max = 5.0f;
  DriverResult r = run_qoperator<om::kernels::QLinearAdd_1>(inputs, {}, clip);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(values_of<std::uint8_t>(r.output), (std::vector<std::uint8_t>{14, 24, 28, 30}));
}

TEST(QOperatorTest, QLinearMulFusedReluAndOmittedZeroPoints) {
  // int8 without zero points: A = [-4, 3, 2] * 0.5 = [-2, 1.5, 1]; B = [2, 2, -3] * 1 -> products [-4, 3, -3];
  // C scale 0.25: [-16, 12, -12]; Relu -> quantize(0) = 0.
  std::vector<TestTensor> inputs = {make(Shape{3}, std::vector<std::int8_t>{-4, 3, 2}).named("A"),
                                    scale(0.5f, "A_scale"),
                                    onnxmicro_test::kOmitted,
                                    make(Shape{3}, std::vector<std::int8_t>{2, 2, -3}).named("B"),
                                    scale(1.0f, "B_scale"),
                                    onnxmicro_test::kOmitted,
                                    scale(0.25f, "C_scale")};
  DriverResult plain = run_qoperator<om::kernels::QLinearMul_1>(inputs);
  ASSERT_TRUE(plain.status.ok()) << plain.status.message();
  EXPECT_EQ(values_of<std::int8_t>(plain.output), (std::vector<std::int8_t>{-16, 12, -12}));
  FusedClamp relu;
  relu.has_min = true;
  DriverResult r = run_qoperator<om::kernels::QLinearMul_1>(inputs, {}, relu);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(values_of<std::int8_t>(r.output), (std::vector<std::int8_t>{0, 12, 0}));
}

TEST(QOperatorTest, RunTimeScaleIsAClearError) {
  std::vector<TestTensor> inputs = add_inputs();
  inputs[4].constant = false;  // B_scale as a graph input
  DriverResult r = run_qoperator<om::kernels::QLinearAdd_1>(inputs);
  EXPECT_EQ(r.status.code(), StatusCode::unsupported);
  EXPECT_NE(std::string(r.status.message()).find("input 4 'B_scale' must be known at prepare time"), std::string::npos)
      << r.status.message();
}

TEST(QOperatorTest, PerChannelScaleIsRejected) {
  std::vector<TestTensor> inputs = add_inputs();
  inputs[1] = make(Shape{2}, std::vector<float>{0.5f, 0.25f}).named("A_scale").as_constant();
  DriverResult r = run_qoperator<om::kernels::QLinearAdd_1>(inputs);
  EXPECT_EQ(r.status.code(), StatusCode::invalid_model);
  EXPECT_NE(std::string(r.status.message()).find("input 1 'A_scale' has shape [2], expected a scalar"),
            std::string::npos)
      << r.status.message();
}

TEST(QOperatorTest, WrongDtypesAreNamed) {
  std::vector<TestTensor> inputs = add_inputs();
  inputs[0] = make(Shape{4}, std::vector<std::int16_t>{0, 1, 2, 3}).named("A");
  DriverResult r = run_qoperator<om::kernels::QLinearAdd_1>(inputs);
  EXPECT_EQ(r.status.code(), StatusCode::unsupported);
  EXPECT_NE(std::string(r.status.message()).find("input 0 'A' has dtype int16, expected int8 or uint8"),
            std::string::npos)
      << r.status.message();

  inputs = add_inputs();
  inputs[2] = make(Shape{}, std::vector<std::int8_t>{1}).named("A_zero_point").as_constant();
  r = run_qoperator<om::kernels::QLinearAdd_1>(inputs);
  EXPECT_EQ(r.status.code(), StatusCode::invalid_model);
  EXPECT_NE(std::string(r.status.message()).find("input 2 'A_zero_point' (zero point) has dtype int8, expected uint8"),
            std::string::npos)
      << r.status.message();

  inputs = add_inputs();
  inputs[1] = make(Shape{}, std::vector<double>{0.5}).named("A_scale").as_constant();
  r = run_qoperator<om::kernels::QLinearAdd_1>(inputs);
  EXPECT_NE(std::string(r.status.message()).find("input 1 'A_scale' (scale) has dtype double, expected float"),
            std::string::npos)
      << r.status.message();
}

TEST(QOperatorTest, ZeroScaleIsRejected) {
  DriverResult r = run_qoperator<om::kernels::QLinearSigmoid_1>({data_u8({1, 2}, "X"), scale(0.0f, "X_scale"),
                                                                 zero_u8(0, "X_zero_point"), scale(0.5f, "Y_scale"),
                                                                 zero_u8(0, "Y_zero_point")});
  EXPECT_EQ(r.status.code(), StatusCode::invalid_model);
  EXPECT_NE(std::string(r.status.message()).find("a quantization scale must be positive and finite"), std::string::npos)
      << r.status.message();
}

TEST(QOperatorTest, QLinearLeakyReluTable) {
  // X scale 0.5, zero 128: [120, 128, 130] -> [-4, 0, 1]; alpha 0.5 -> [-2, 0, 1]; Y scale 0.25, zero 128.
  DriverResult r = run_qoperator<om::kernels::QLinearLeakyRelu_1>(
      {data_u8({120, 128, 130}, "X"), scale(0.5f, "X_scale"), zero_u8(128, "X_zero_point"), scale(0.25f, "Y_scale"),
       zero_u8(128, "Y_zero_point")},
      {onnxmicro_test::make_attribute_float("alpha", 0.5f)});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(values_of<std::uint8_t>(r.output), (std::vector<std::uint8_t>{120, 128, 132}));
}

TEST(QOperatorTest, QLinearConcatCopiesMatchingInputsAndRequantizesOthers) {
  // Y: scale 1, zero 0. X0 quantized like Y (copied): [1, 2]; X1 scale 2, zero 1: [3, 5] -> [4, 8].
  DriverResult r = run_qoperator<om::kernels::QLinearConcat_1>(
      {scale(1.0f, "Y_scale"), zero_u8(0, "Y_zero_point"), data_u8({1, 2}, "X0"), scale(1.0f, "X0_scale"),
       zero_u8(0, "X0_zero_point"), data_u8({3, 5}, "X1"), scale(2.0f, "X1_scale"), zero_u8(1, "X1_zero_point")},
      {onnxmicro_test::make_attribute_int("axis", 0)});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.output.shape, (Shape{4}));
  EXPECT_EQ(values_of<std::uint8_t>(r.output), (std::vector<std::uint8_t>{1, 2, 4, 8}));
}

TEST(QOperatorTest, QLinearConcatInputDtypeMustMatchYZeroPoint) {
  DriverResult r = run_qoperator<om::kernels::QLinearConcat_1>(
      {scale(1.0f, "Y_scale"), zero_u8(0, "Y_zero_point"), make(Shape{1}, std::vector<std::int8_t>{1}).named("X0"),
       scale(1.0f, "X0_scale"), make(Shape{}, std::vector<std::int8_t>{0}).named("X0_zero_point").as_constant()},
      {onnxmicro_test::make_attribute_int("axis", 0)});
  EXPECT_EQ(r.status.code(), StatusCode::invalid_model);
  EXPECT_NE(std::string(r.status.message()).find("input 2 'X0' has dtype int8, expected uint8"), std::string::npos)
      << r.status.message();
}

TEST(QOperatorTest, QLinearGlobalAveragePoolChannelsLast) {
  // (N=1, H=1, W=2, C=2): channel 0 = [1, 4] -> 2.5 -> round half to even 2; channel 1 = [3, 8] -> 5.5 -> 6.
  DriverResult r = run_qoperator<om::kernels::QLinearGlobalAveragePool_1>(
      {make(Shape{1, 1, 2, 2}, std::vector<std::uint8_t>{1, 3, 4, 8}).named("X"), scale(1.0f, "x_scale"),
       zero_u8(0, "x_zero_point"), scale(1.0f, "y_scale"), zero_u8(0, "y_zero_point")},
      {onnxmicro_test::make_attribute_int("channels_last", 1)});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.output.shape, (Shape{1, 1, 1, 2}));
  EXPECT_EQ(values_of<std::uint8_t>(r.output), (std::vector<std::uint8_t>{2, 6}));
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
