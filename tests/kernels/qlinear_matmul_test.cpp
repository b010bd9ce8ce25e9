// SPDX-License-Identifier: MIT
// QLinearMatMul beyond the ONNX node suite: per-row scales/zero points of a and per-column ones of b (the spec's
// layouts), rounding half to even, float8 operands (opset 21 only), and shape/dtype errors. Expected values are
// worked out by hand from y = round(sum (a - a_zero)(b - b_zero) * a_scale * b_scale / y_scale) + y_zero.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
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
using onnxmicro_test::make;
using onnxmicro_test::NodeResult;
using onnxmicro_test::TestTensor;
using onnxmicro_test::values_of;

NodeResult qlinear_matmul(int opset, const std::vector<TestTensor>& inputs) {
  return onnxmicro_test::run_node(om::all_kernels_registry(), "QLinearMatMul", opset, inputs);
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

// ---- the integer path against a straightforward reference (exact sums wrapped to int32, the float32
// multiplier float32(a_scale * b_scale) / y_scale, the product in float64 rounded half to even) ----

std::vector<int> random_ints(std::mt19937& rng, bool is_signed, std::size_t count) {
  std::uniform_int_distribution<int> d(is_signed ? -128 : 0, is_signed ? 127 : 255);
  std::vector<int> v(count);
  for (int& e : v) e = d(rng);
  return v;
}
TestTensor quantized(bool is_signed, const Shape& shape, const std::vector<int>& values) {
  if (is_signed) return make(shape, std::vector<std::int8_t>(values.begin(), values.end()));
  return make(shape, std::vector<std::uint8_t>(values.begin(), values.end()));
}

TEST(QLinearMatMulTest, IntegerPathRandomizedAgainstReference) {
  std::mt19937 rng(424242);
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  for (int iteration = 0; iteration < 120; ++iteration) {
    const std::int64_t batch_a = pick(1, 3), m = pick(1, 17), k = pick(1, 40), n = pick(1, 21);
    const bool b_batched = pick(0, 1) == 1;
    const std::int64_t batch_b = b_batched ? batch_a : 1;
    const bool a_signed = pick(0, 1) == 1, b_signed = pick(0, 1) == 1, y_signed = pick(0, 1) == 1;
    const bool per_column = pick(0, 1) == 1, constant = pick(0, 3) != 0;
    const int opset = pick(0, 1) == 1 ? 21 : 10;
    std::vector<int> a = random_ints(rng, a_signed, static_cast<std::size_t>(batch_a * m * k));
    std::vector<int> b = random_ints(rng, b_signed, static_cast<std::size_t>(batch_b * k * n));
    const std::size_t params = per_column ? static_cast<std::size_t>(n) : 1;
    std::vector<int> a_zero = random_ints(rng, a_signed, 1), b_zero = random_ints(rng, b_signed, params),
                     y_zero = random_ints(rng, y_signed, 1);
    std::uniform_real_distribution<float> scale_d(0.001f, 0.05f);
    const float a_scale = scale_d(rng), y_scale = scale_d(rng) * 4.0f;
    std::vector<float> b_scale(params);
    for (float& v : b_scale) v = scale_d(rng);
    om::kernels::FusedClamp clamp;
    const int clamp_kind = pick(0, 3);
    clamp.has_min = clamp_kind == 1 || clamp_kind == 3;
    clamp.has_max = clamp_kind >= 2;
    clamp.min = clamp_kind == 3 ? -0.25f : 0.0f;
    clamp.max = 0.75f;
    const Shape param_shape = per_column ? Shape{n} : Shape{};
    auto maybe_constant = [&](TestTensor t) { return constant ? t.as_constant() : t; };
    const Shape b_shape = b_batched ? Shape{batch_b, k, n} : Shape{k, n};
    std::vector<TestTensor> inputs = {quantized(a_signed, Shape{batch_a, m, k}, a),
                                      maybe_constant(make(Shape{}, std::vector<float>{a_scale})),
                                      quantized(a_signed, Shape{}, a_zero),
                                      maybe_constant(quantized(b_signed, b_shape, b)),
                                      maybe_constant(make(param_shape, b_scale)),
                                      maybe_constant(quantized(b_signed, param_shape, b_zero)),
                                      maybe_constant(make(Shape{}, std::vector<float>{y_scale})),
                                      quantized(y_signed, Shape{}, y_zero)};
    onnxmicro_test::DriverResult r =
        onnxmicro_test::run_quantized(om::all_kernels_registry(), "", "QLinearMatMul", opset, inputs, {}, clamp);
    ASSERT_TRUE(r.status.ok()) << r.status.message();
    ASSERT_EQ(r.output.shape, (Shape{batch_a, m, n}));
    std::int32_t low = y_signed ? -128 : 0, high = y_signed ? 127 : 255;
    onnxmicro_test::reference_clamp_bounds(clamp, y_scale, y_zero[0], low, high);
    std::vector<int> expected;
    for (std::int64_t bi = 0; bi < batch_a; ++bi) {
      const std::int64_t bb = b_batched ? bi : 0;
      for (std::int64_t i = 0; i < m; ++i) {
        for (std::int64_t j = 0; j < n; ++j) {
          const std::size_t pj = per_column ? static_cast<std::size_t>(j) : 0;
          std::int64_t sum = 0;
          for (std::int64_t p = 0; p < k; ++p) {
            sum += static_cast<std::int64_t>(a[static_cast<std::size_t>((bi * m + i) * k + p)] - a_zero[0]) *
                   (b[static_cast<std::size_t>((bb * k + p) * n + j)] - b_zero[pj]);
          }
          expected.push_back(onnxmicro_test::reference_requantize(onnxmicro_test::wrap32(sum), a_scale, b_scale[pj],
                                                                  y_scale, y_zero[0], low, high));
        }
      }
    }
    std::vector<int> actual;
    if (y_signed) {
      for (std::int8_t v : values_of<std::int8_t>(r.output)) actual.push_back(v);
    } else {
      for (std::uint8_t v : values_of<std::uint8_t>(r.output)) actual.push_back(v);
    }
    ASSERT_EQ(actual, expected) << "iteration " << iteration;
  }
}

TEST(QLinearMatMulTest, MatMulIntegerIntegerPathRandomizedAgainstReference) {
  // MatMulInteger shares the integer GEMM core: int32 outputs equal the exact sums wrapped to int32.
  std::mt19937 rng(99);
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  for (int iteration = 0; iteration < 60; ++iteration) {
    const std::int64_t batch = pick(1, 3), m = pick(1, 13), k = pick(1, 50), n = pick(1, 19);
    const bool a_signed = pick(0, 1) == 1, b_signed = pick(0, 1) == 1, per_column = pick(0, 1) == 1;
    const bool b_batched = pick(0, 1) == 1, constant = pick(0, 1) == 1;
    const std::int64_t batch_b = b_batched ? batch : 1;
    const std::vector<int> a = random_ints(rng, a_signed, static_cast<std::size_t>(batch * m * k));
    const std::vector<int> b = random_ints(rng, b_signed, static_cast<std::size_t>(batch_b * k * n));
    const std::size_t params = per_column ? static_cast<std::size_t>(n) : 1;
    const std::vector<int> a_zero = random_ints(rng, a_signed, 1), b_zero = random_ints(rng, b_signed, params);
    auto maybe_constant = [&](TestTensor t) { return constant ? t.as_constant() : t; };
    NodeResult r = onnxmicro_test::run_node(
        om::all_kernels_registry(), "MatMulInteger", 10,
        {quantized(a_signed, Shape{batch, m, k}, a),
         maybe_constant(quantized(b_signed, b_batched ? Shape{batch_b, k, n} : Shape{k, n}, b)),
         quantized(a_signed, Shape{}, a_zero),
         maybe_constant(quantized(b_signed, per_column ? Shape{n} : Shape{}, b_zero))});
    ASSERT_TRUE(r.status.ok()) << r.status.message();
    std::vector<std::int32_t> expected;
    for (std::int64_t bi = 0; bi < batch; ++bi) {
      for (std::int64_t i = 0; i < m; ++i) {
        for (std::int64_t j = 0; j < n; ++j) {
          std::int64_t sum = 0;
          for (std::int64_t p = 0; p < k; ++p) {
            sum += static_cast<std::int64_t>(a[static_cast<std::size_t>((bi * m + i) * k + p)] - a_zero[0]) *
                   (b[static_cast<std::size_t>(((b_batched ? bi : 0) * k + p) * n + j)] -
                    b_zero[per_column ? static_cast<std::size_t>(j) : 0]);
          }
          expected.push_back(onnxmicro_test::wrap32(sum));
        }
      }
    }
    ASSERT_EQ(values_of<std::int32_t>(r.output), expected) << "iteration " << iteration;
  }
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
