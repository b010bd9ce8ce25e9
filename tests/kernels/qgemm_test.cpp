// SPDX-License-Identifier: MIT
// com.microsoft QGemm against a straightforward reference written here (exact sums wrapped to int32 plus the
// int32 bias C, the float32 multiplier (a_scale * b_scale) * alpha / y_scale, the product in float64 rounded
// half to even; float output acc * (a_scale * b_scale * alpha) in float32), randomized over transA/transB,
// alpha, per-tensor/per-column b, int8/uint8 mixes, C broadcasts, fused clamps, constant vs run-time B and constant
// vs run-time scales.
// Plus hand-worked values that onnxruntime's QGemm gives too.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "onnxmicro/onnxmicro.hpp"
#include "quantized_kernel_driver.hpp"
#include "support/kernel_harness.hpp"
#include "support/proto_writer.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

namespace om = onnxmicro;
using om::DataType;
using om::Shape;
using onnxmicro_test::make;
using onnxmicro_test::make_attribute_float;
using onnxmicro_test::make_attribute_int;
using onnxmicro_test::ProtoWriter;
using onnxmicro_test::TestTensor;
using onnxmicro_test::values_of;

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

onnxmicro_test::DriverResult qgemm(const std::vector<TestTensor>& inputs, const std::vector<ProtoWriter>& attributes,
                                   const om::kernels::FusedClamp& clamp = {}) {
  return onnxmicro_test::run_quantized(om::all_kernels_registry(), "com.microsoft", "QGemm", 1, inputs, attributes,
                                       clamp);
}

TEST(QGemmTest, RandomizedAgainstReference) {
  std::mt19937 rng(777);
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  for (int iteration = 0; iteration < 150; ++iteration) {
    const std::int64_t m = pick(1, 19), k = pick(1, 45), n = pick(1, 23);
    const bool trans_a = pick(0, 1) == 1, trans_b = pick(0, 1) == 1;
    const bool a_signed = pick(0, 1) == 1, b_signed = pick(0, 1) == 1, y_signed = pick(0, 1) == 1;
    const bool per_column = pick(0, 1) == 1, constant = pick(0, 2) != 0;
    const bool constant_scales = pick(0, 1) == 1;  // all three: the multipliers made at prepare
    const int output_kind = pick(0, 2);            // 0 float, 1 quantized with y_zero_point, 2 quantized without
    const int c_kind = pick(0, 4);                 // 0 none, 1 [N], 2 [M, N], 3 [M, 1], 4 scalar
    const float alpha = pick(0, 1) == 1 ? 1.0f : 0.75f;
    const std::vector<int> a = random_ints(rng, a_signed, static_cast<std::size_t>(m * k));
    const std::vector<int> b = random_ints(rng, b_signed, static_cast<std::size_t>(k * n));
    const std::size_t params = per_column ? static_cast<std::size_t>(n) : 1;
    const std::vector<int> a_zero = random_ints(rng, a_signed, 1), b_zero = random_ints(rng, b_signed, params);
    const bool out_signed = output_kind == 2 ? a_signed : y_signed;
    std::vector<int> y_zero = output_kind == 1 ? random_ints(rng, y_signed, 1) : std::vector<int>{0};
    std::uniform_real_distribution<float> scale_d(0.001f, 0.05f);
    const float a_scale = scale_d(rng), y_scale = scale_d(rng) * 4.0f;
    std::vector<float> b_scale(params);
    for (float& v : b_scale) v = scale_d(rng);
    Shape c_shape;
    if (c_kind == 1) c_shape = Shape{n};
    if (c_kind == 2) c_shape = Shape{m, n};
    if (c_kind == 3) c_shape = Shape{m, 1};
    std::vector<std::int32_t> c(static_cast<std::size_t>(c_kind == 0 ? 0 : c_shape.element_count()));
    for (std::int32_t& v : c) v = pick(-5000, 5000);
    om::kernels::FusedClamp clamp;
    const int clamp_kind = pick(0, 2);
    clamp.has_min = clamp_kind >= 1;
    clamp.has_max = clamp_kind == 2;
    clamp.max = 0.5f;

    const Shape param_shape = per_column ? Shape{n} : Shape{};
    auto maybe_constant = [&](TestTensor t) { return constant ? t.as_constant() : t; };
    auto scale = [&](TestTensor t) { return constant_scales ? t.as_constant() : t; };
    std::vector<TestTensor> inputs = {
        quantized(a_signed, trans_a ? Shape{k, m} : Shape{m, k}, a),
        scale(make(Shape{}, std::vector<float>{a_scale})),
        quantized(a_signed, Shape{}, a_zero),
        maybe_constant(quantized(b_signed, trans_b ? Shape{n, k} : Shape{k, n}, b)),
        constant_scales ? make(param_shape, b_scale).as_constant() : maybe_constant(make(param_shape, b_scale)),
        maybe_constant(quantized(b_signed, param_shape, b_zero)),
        c_kind == 0 ? onnxmicro_test::kOmitted : make(c_shape, c),
        output_kind == 0 ? onnxmicro_test::kOmitted : scale(make(Shape{}, std::vector<float>{y_scale})),
        output_kind == 1 ? quantized(y_signed, Shape{}, y_zero) : onnxmicro_test::kOmitted};
    onnxmicro_test::DriverResult r =
        qgemm(inputs,
              {make_attribute_int("transA", trans_a), make_attribute_int("transB", trans_b),
               make_attribute_float("alpha", alpha)},
              clamp);
    ASSERT_TRUE(r.status.ok()) << r.status.message();
    ASSERT_EQ(r.output.shape, (Shape{m, n}));
    std::int32_t low = out_signed ? -128 : 0, high = out_signed ? 127 : 255;
    if (output_kind != 0) onnxmicro_test::reference_clamp_bounds(clamp, y_scale, y_zero[0], low, high);
    std::vector<float> expected;
    for (std::int64_t i = 0; i < m; ++i) {
      for (std::int64_t j = 0; j < n; ++j) {
        const std::size_t pj = per_column ? static_cast<std::size_t>(j) : 0;
        std::int64_t sum = 0;
        for (std::int64_t p = 0; p < k; ++p) {
          const int av = a[static_cast<std::size_t>(trans_a ? p * m + i : i * k + p)];
          const int bv = b[static_cast<std::size_t>(trans_b ? j * k + p : p * n + j)];
          sum += static_cast<std::int64_t>(av - a_zero[0]) * (bv - b_zero[pj]);
        }
        if (c_kind == 1) sum += c[static_cast<std::size_t>(j)];
        if (c_kind == 2) sum += c[static_cast<std::size_t>(i * n + j)];
        if (c_kind == 3) sum += c[static_cast<std::size_t>(i)];
        if (c_kind == 4) sum += c[0];
        const std::int32_t total = onnxmicro_test::wrap32(sum);
        const float scale = (a_scale * b_scale[pj]) * alpha;
        if (output_kind == 0) {
          float v = static_cast<float>(total) * scale;
          if (clamp.has_min && v < clamp.min) v = clamp.min;
          if (clamp.has_max && v > clamp.max) v = clamp.max;
          expected.push_back(v);
        } else {
          expected.push_back(static_cast<float>(
              onnxmicro_test::reference_requantize(total, scale, 1.0f, y_scale, y_zero[0], low, high)));
        }
      }
    }
    std::vector<float> actual;
    if (output_kind == 0) {
      ASSERT_EQ(r.output.dtype, DataType::float32);
      actual = values_of<float>(r.output);
    } else if (out_signed) {
      ASSERT_EQ(r.output.dtype, DataType::int8);
      for (std::int8_t v : values_of<std::int8_t>(r.output)) actual.push_back(v);
    } else {
      ASSERT_EQ(r.output.dtype, DataType::uint8);
      for (std::uint8_t v : values_of<std::uint8_t>(r.output)) actual.push_back(v);
    }
    ASSERT_EQ(actual, expected) << "iteration " << iteration;
  }
}

// Constant int8 B with zero point 0 (absent, per tensor or per column) and A read by rows run on the quad layout
// where it runs (AVX-512 VNNI): the reference's outputs and the int16 pairs' bits (the avx2 level) for A of either
// sign, one row (the matrix-vector tile) and several tiles of rows, depths that leave 1-3 values of a last quad,
// partial row panels and both transB; the quad weights take less metadata than the int16 pairs' (that is how the
// test knows they ran). Elsewhere both runs take the int16 pairs.
TEST(QGemmTest, QuadLayoutGivesTheReferenceAndTheInt16PairsBits) {
  std::mt19937 rng(4242);
  om::Isa isa = om::Isa::baseline;
  ASSERT_TRUE(om::effective_isa(om::Isa::best, isa));
  const bool quads = om::kernels::integer_gemm::quad_tiles_run(isa);
  int index = 0;
  for (std::int64_t m : {1, 2, 17, 70})
    for (std::int64_t k : {1, 5, 31, 300})
      for (std::int64_t n : {1, 13}) {
        const bool trans_b = index % 2 == 0, a_signed = index % 3 == 0;
        const int zero_kind = index % 3;  // 0 absent, 1 per tensor, 2 per column
        ++index;
        const std::vector<int> a = random_ints(rng, a_signed, static_cast<std::size_t>(m * k));
        const std::vector<int> b = random_ints(rng, true, static_cast<std::size_t>(k * n));
        const std::vector<int> a_zero = random_ints(rng, a_signed, 1);
        const std::size_t params = zero_kind == 2 ? static_cast<std::size_t>(n) : 1;
        const Shape param_shape = zero_kind == 2 ? Shape{n} : Shape{};
        std::vector<float> b_scale(params, 0.004f);
        std::vector<std::int32_t> c(static_cast<std::size_t>(n));
        for (std::int32_t& v : c) v = static_cast<std::int32_t>(rng() % 20001) - 10000;
        const float a_scale = 0.02f, y_scale = 0.5f;
        std::vector<TestTensor> inputs = {quantized(a_signed, Shape{m, k}, a),
                                          make(Shape{}, std::vector<float>{a_scale}),
                                          quantized(a_signed, Shape{}, a_zero),
                                          quantized(true, trans_b ? Shape{n, k} : Shape{k, n}, b).as_constant(),
                                          make(param_shape, b_scale).as_constant(),
                                          zero_kind == 0
                                              ? onnxmicro_test::kOmitted
                                              : quantized(true, param_shape, std::vector<int>(params, 0)).as_constant(),
                                          make(Shape{n}, c),
                                          make(Shape{}, std::vector<float>{y_scale}),
                                          make(Shape{}, std::vector<std::uint8_t>{128})};
        const std::vector<ProtoWriter> attributes = {make_attribute_int("transB", trans_b)};
        onnxmicro_test::DriverResult best =
            onnxmicro_test::run_quantized(om::all_kernels_registry(), "com.microsoft", "QGemm", 1, inputs, attributes);
        onnxmicro_test::HarnessSettings pairs_settings;
        pairs_settings.max_isa = om::Isa::avx2;
        onnxmicro_test::DriverResult pairs = onnxmicro_test::run_quantized(
            om::all_kernels_registry(), "com.microsoft", "QGemm", 1, inputs, attributes, {}, pairs_settings);
        ASSERT_TRUE(best.status.ok() && pairs.status.ok()) << best.status.message();
        SCOPED_TRACE(::testing::Message() << "m" << m << " k" << k << " n" << n << " transB " << trans_b);
        EXPECT_EQ(best.output.bytes, pairs.output.bytes);
        if (quads && k >= 4) {
          EXPECT_LT(best.metadata_bytes, pairs.metadata_bytes) << "the quad layout did not run";
        } else if (!quads) {
          EXPECT_EQ(best.metadata_bytes, pairs.metadata_bytes);
        }
        std::vector<std::uint8_t> expected;
        for (std::int64_t i = 0; i < m; ++i)
          for (std::int64_t j = 0; j < n; ++j) {
            std::int64_t sum = c[static_cast<std::size_t>(j)];
            for (std::int64_t p = 0; p < k; ++p)
              sum += static_cast<std::int64_t>(a[static_cast<std::size_t>(i * k + p)] - a_zero[0]) *
                     b[static_cast<std::size_t>(trans_b ? j * k + p : p * n + j)];
            expected.push_back(static_cast<std::uint8_t>(onnxmicro_test::reference_requantize(
                onnxmicro_test::wrap32(sum), a_scale * 0.004f, 1.0f, y_scale, 128, 0, 255)));
          }
        EXPECT_EQ(values_of<std::uint8_t>(best.output), expected);
      }
}

TEST(QGemmTest, HandWorkedQuantizedAndFloatOutputs) {
  // A - 1 = [[1, 2], [3, 4]], B - 0 = identity * 2, C = [10, 20]: acc = [[12, 24], [16, 28]].
  const std::vector<TestTensor> base = {make(Shape{2, 2}, std::vector<std::uint8_t>{2, 3, 4, 5}),
                                        make(Shape{}, std::vector<float>{0.5f}),
                                        make(Shape{}, std::vector<std::uint8_t>{1}),
                                        make(Shape{2, 2}, std::vector<std::int8_t>{2, 0, 0, 2}).as_constant(),
                                        make(Shape{}, std::vector<float>{0.25f}),
                                        make(Shape{}, std::vector<std::int8_t>{0}),
                                        make(Shape{2}, std::vector<std::int32_t>{10, 20})};
  // Float: acc * 0.125.
  onnxmicro_test::DriverResult f = qgemm(base, {});
  ASSERT_TRUE(f.status.ok()) << f.status.message();
  EXPECT_EQ(values_of<float>(f.output), (std::vector<float>{1.5f, 3.0f, 2.0f, 3.5f}));
  // Quantized with y_scale 0.25, y_zero 3: round(acc * 0.5) + 3 = [9, 15, 11, 17].
  std::vector<TestTensor> q = base;
  q.push_back(make(Shape{}, std::vector<float>{0.25f}));
  q.push_back(make(Shape{}, std::vector<std::uint8_t>{3}));
  onnxmicro_test::DriverResult r = qgemm(q, {});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(values_of<std::uint8_t>(r.output), (std::vector<std::uint8_t>{9, 15, 11, 17}));
  // A fused Clip(max = 3) caps at quantize(3) = 12 + 3 = 15.
  om::kernels::FusedClamp clip;
  clip.has_max = true;
  clip.max = 3.0f;
  onnxmicro_test::DriverResult c = qgemm(q, {}, clip);
  ASSERT_TRUE(c.status.ok()) << c.status.message();
  EXPECT_EQ(values_of<std::uint8_t>(c.output), (std::vector<std::uint8_t>{9, 15, 11, 15}));
}

TEST(QGemmTest, InnerDimensionMismatchNamesBothInputs) {
  onnxmicro_test::DriverResult r =
      qgemm({make(Shape{2, 3}, std::vector<std::uint8_t>(6, 1)).named("A"), make(Shape{}, std::vector<float>{1.f}),
             make(Shape{}, std::vector<std::uint8_t>{0}), make(Shape{2, 2}, std::vector<std::uint8_t>(4, 1)).named("B"),
             make(Shape{}, std::vector<float>{1.f}), make(Shape{}, std::vector<std::uint8_t>{0})},
            {});
  EXPECT_EQ(r.status.code(), om::StatusCode::invalid_model);
  EXPECT_NE(std::string(r.status.message()).find("input 0 'A' [2,3] (transA=0) has K=3, input 3 'B' [2,2]"),
            std::string::npos)
      << r.status.message();
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
