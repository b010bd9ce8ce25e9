// SPDX-License-Identifier: MIT
// QLinearMatMul beyond the ONNX node suite: per-row scales/zero points of a and per-column ones of b (the spec's
// layouts), rounding half to even, float8 operands (opset 21 only), and shape/dtype errors. Expected values are
// worked out by hand from y = round(sum (a - a_zero)(b - b_zero) * a_scale * b_scale / y_scale) + y_zero.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "onnxmicro/kernels/quantization/quantization_kernels.hpp"
#include "support/kernel_harness.hpp"

namespace {

namespace om = onnxmicro;
using om::DataType;
using om::Shape;
using om::StatusCode;
using onnxmicro_test::make;
using onnxmicro_test::NodeResult;
using onnxmicro_test::TestTensor;
using onnxmicro_test::values_of;

NodeResult qlinear_matmul(int opset, const std::vector<TestTensor>& inputs) {
  return onnxmicro_test::run_node(om::kernels::QuantizationKernels::registry(), "QLinearMatMul", opset, inputs);
}
TestTensor scalar(float v) { return make(Shape{}, std::vector<float>{v}); }

TEST(QLinearMatMulTest, PerRowScalesAndZeroPointsOfA) {
  // Row 0: ([1, 2] - 0) * 1; row 1: ([3, 4] - 1) * 2; b is the identity.
  NodeResult r = qlinear_matmul(
      10, {make(Shape{2, 2}, std::vector<std::int8_t>{1, 2, 3, 4}), make(Shape{2}, std::vector<float>{1.f, 2.f}),
           make(Shape{2}, std::vector<std::int8_t>{0, 1}), make(Shape{2, 2}, std::vector<std::uint8_t>{1, 0, 0, 1}),
           scalar(1.f), make(Shape{}, std::vector<std::uint8_t>{0}), scalar(1.f),
           make(Shape{}, std::vector<std::int8_t>{0})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(values_of<std::int8_t>(r.output), (std::vector<std::int8_t>{1, 2, 4, 6}));
}

TEST(QLinearMatMulTest, PerColumnScalesOfBRoundHalfToEven) {
  // b - b_zero per column = [[1, 3], [0, 5]]; a = [[1, 1], [0, 1]]: sums [[1, 8], [0, 5]]; multipliers [1, 0.5]:
  // [[1, 4], [0, 2.5 -> 2]].
  NodeResult r = qlinear_matmul(
      10, {make(Shape{2, 2}, std::vector<std::uint8_t>{1, 1, 0, 1}), scalar(1.f),
           make(Shape{}, std::vector<std::uint8_t>{0}), make(Shape{2, 2}, std::vector<std::uint8_t>{1, 4, 0, 6}),
           make(Shape{2}, std::vector<float>{1.f, 0.5f}), make(Shape{2}, std::vector<std::uint8_t>{0, 1}), scalar(1.f),
           make(Shape{}, std::vector<std::uint8_t>{0})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(values_of<std::uint8_t>(r.output), (std::vector<std::uint8_t>{1, 4, 0, 2}));
}

TEST(QLinearMatMulTest, PerRowScaleLengthMustBeM) {
  NodeResult r = qlinear_matmul(
      10, {make(Shape{2, 2}, std::vector<std::int8_t>{1, 2, 3, 4}),
           make(Shape{3}, std::vector<float>{1.f, 2.f, 3.f}).named("AS"), make(Shape{}, std::vector<std::int8_t>{0}),
           make(Shape{2, 2}, std::vector<std::int8_t>{1, 0, 0, 1}), scalar(1.f),
           make(Shape{}, std::vector<std::int8_t>{0}), scalar(1.f), make(Shape{}, std::vector<std::int8_t>{0})});
  EXPECT_EQ(r.status.code(), StatusCode::invalid_model);
  EXPECT_NE(std::string(r.status.message()).find("input 1 'AS' has shape [3], expected a scalar, [2] or [..., M, 1]"),
            std::string::npos)
      << r.status.message();
}

TEST(QLinearMatMulTest, Float8OperandsFromOpset21) {
  // a = [1, 2] (e4m3fn 0x38, 0x40), b = [0.5, 1.5] (0x30, 0x3C): 0.5 + 3 = 3.5 -> e4m3fn 0x46.
  const std::vector<TestTensor> inputs = {
      make(DataType::float8e4m3fn, Shape{1, 2}, std::vector<std::uint8_t>{0x38, 0x40}),
      scalar(1.f),
      make(DataType::float8e4m3fn, Shape{}, std::vector<std::uint8_t>{0}),
      make(DataType::float8e4m3fn, Shape{2, 1}, std::vector<std::uint8_t>{0x30, 0x3C}),
      scalar(1.f),
      make(DataType::float8e4m3fn, Shape{}, std::vector<std::uint8_t>{0}),
      scalar(1.f),
      make(DataType::float8e4m3fn, Shape{}, std::vector<std::uint8_t>{0})};
  NodeResult r = qlinear_matmul(21, inputs);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.output.dtype, DataType::float8e4m3fn);
  EXPECT_EQ(values_of<std::uint8_t>(r.output), (std::vector<std::uint8_t>{0x46}));
  EXPECT_EQ(qlinear_matmul(10, inputs).status.code(), StatusCode::unsupported);
}

}  // namespace
