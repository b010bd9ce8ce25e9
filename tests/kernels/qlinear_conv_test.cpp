// SPDX-License-Identifier: MIT
// QLinearConv's integer kernel (im2col + integer GEMM, depthwise direct loop, fixed-point requantisation)
// against a straightforward reference written here: exact integer sums wrapped to int32, the float32 multiplier
// float32(x_scale * w_scale) / y_scale, the product in float64 rounded half to even. Randomized over shapes,
// groups, depthwise, strides, pads, dilations, 1x1 kernels, per-tensor and per-channel weights, int8/uint8 mixes,
// zero points, bias, fused Relu/Clip, and constant vs run-time weights and scales. Fixed seeds.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "onnxmicro/onnxmicro.hpp"
#include "onnxmicro/runtime/std_thread_pool.hpp"
#include "quantized_kernel_driver.hpp"
#include "support/kernel_harness.hpp"
#include "support/proto_writer.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

namespace om = onnxmicro;
using om::DataType;
using om::Shape;
using onnxmicro_test::make;
using onnxmicro_test::make_attribute_int;
using onnxmicro_test::make_attribute_ints;
using onnxmicro_test::ProtoWriter;
using onnxmicro_test::TestTensor;
using onnxmicro_test::values_of;

struct ConvCase {
  std::int64_t n = 1, c = 4, h = 7, w = 6, m = 4, kh = 3, kw = 3, group = 1;
  std::int64_t sh = 1, sw = 1, dh = 1, dw = 1, pt = 0, pl = 0, pb = 0, pr = 0;
  bool x_signed = false, w_signed = true, y_signed = false;
  bool per_channel = false, bias = true, constant = true, with_zero_points = true;
  bool zero_w_zero = false;  ///< w_zero_point all 0 (as onnxruntime's quantizer writes weights) even with the others
  om::kernels::FusedClamp clamp;
};

template <typename T>
std::vector<T> random_values(std::mt19937& rng, std::size_t count) {
  std::uniform_int_distribution<int> d(std::numeric_limits<T>::min(), std::numeric_limits<T>::max());
  std::vector<T> v(count);
  for (T& e : v) e = static_cast<T>(d(rng));
  return v;
}

TestTensor quantized(bool is_signed, const Shape& shape, const std::vector<int>& values) {
  if (is_signed) {
    std::vector<std::int8_t> v(values.begin(), values.end());
    return make(shape, v);
  }
  std::vector<std::uint8_t> v(values.begin(), values.end());
  return make(shape, v);
}

std::vector<int> random_ints(std::mt19937& rng, bool is_signed, std::size_t count) {
  std::uniform_int_distribution<int> d(is_signed ? -128 : 0, is_signed ? 127 : 255);
  std::vector<int> v(count);
  for (int& e : v) e = d(rng);
  return v;
}

/// Runs case `k` (inputs from `seed`) with `settings` and compares with the reference; returns the metadata bytes
/// the kernel's prepare allocated.
std::size_t check_case(const ConvCase& k, std::uint32_t seed, const onnxmicro_test::HarnessSettings& settings = {}) {
  std::mt19937 rng(seed);
  const std::int64_t cg = k.c / k.group, mg = k.m / k.group;
  const std::int64_t oh = (k.h + k.pt + k.pb - (k.dh * (k.kh - 1) + 1)) / k.sh + 1;
  const std::int64_t ow = (k.w + k.pl + k.pr - (k.dw * (k.kw - 1) + 1)) / k.sw + 1;
  const std::vector<int> x = random_ints(rng, k.x_signed, static_cast<std::size_t>(k.n * k.c * k.h * k.w));
  const std::vector<int> w = random_ints(rng, k.w_signed, static_cast<std::size_t>(k.m * cg * k.kh * k.kw));
  const std::size_t params = k.per_channel ? static_cast<std::size_t>(k.m) : 1;
  std::vector<int> x_zero = k.with_zero_points ? random_ints(rng, k.x_signed, 1) : std::vector<int>{0};
  std::vector<int> w_zero =
      k.with_zero_points && !k.zero_w_zero ? random_ints(rng, k.w_signed, params) : std::vector<int>(params, 0);
  std::vector<int> y_zero = k.with_zero_points ? random_ints(rng, k.y_signed, 1) : std::vector<int>{0};
  std::uniform_real_distribution<float> scale_d(0.001f, 0.05f);
  const float x_scale = scale_d(rng), y_scale = scale_d(rng) * 8.0f;
  std::vector<float> w_scale(params);
  for (float& s : w_scale) s = scale_d(rng);
  std::vector<std::int32_t> bias(static_cast<std::size_t>(k.m));
  std::uniform_int_distribution<int> bias_d(-20000, 20000);
  for (std::int32_t& b : bias) b = bias_d(rng);

  const Shape param_shape = k.per_channel ? Shape{k.m} : Shape{};
  auto maybe_constant = [&](TestTensor t) { return k.constant ? t.as_constant() : t; };
  std::vector<TestTensor> inputs = {quantized(k.x_signed, Shape{k.n, k.c, k.h, k.w}, x),
                                    maybe_constant(make(Shape{}, std::vector<float>{x_scale})),
                                    quantized(k.x_signed, Shape{}, x_zero),
                                    maybe_constant(quantized(k.w_signed, Shape{k.m, cg, k.kh, k.kw}, w)),
                                    maybe_constant(make(param_shape, w_scale)),
                                    maybe_constant(quantized(k.w_signed, param_shape, w_zero)),
                                    maybe_constant(make(Shape{}, std::vector<float>{y_scale})),
                                    quantized(k.y_signed, Shape{}, y_zero)};
  if (k.bias) inputs.push_back(maybe_constant(make(Shape{k.m}, bias)));
  std::vector<ProtoWriter> attributes = {
      make_attribute_int("group", k.group), make_attribute_ints("strides", {k.sh, k.sw}),
      make_attribute_ints("dilations", {k.dh, k.dw}), make_attribute_ints("pads", {k.pt, k.pl, k.pb, k.pr})};
  onnxmicro_test::DriverResult r = onnxmicro_test::run_quantized(om::all_kernels_registry(), "", "QLinearConv", 10,
                                                                 inputs, attributes, k.clamp, settings);
  EXPECT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.output.shape, (Shape{k.n, k.m, oh, ow}));
  if (!r.status.ok() || r.output.shape != Shape{k.n, k.m, oh, ow}) return 0;

  std::int32_t low = k.y_signed ? -128 : 0, high = k.y_signed ? 127 : 255;
  onnxmicro_test::reference_clamp_bounds(k.clamp, y_scale, y_zero[0], low, high);
  std::vector<int> expected;
  for (std::int64_t n = 0; n < k.n; ++n) {
    for (std::int64_t m = 0; m < k.m; ++m) {
      const std::int64_t g = m / mg;
      const std::size_t pm = k.per_channel ? static_cast<std::size_t>(m) : 0;
      for (std::int64_t i = 0; i < oh; ++i) {
        for (std::int64_t j = 0; j < ow; ++j) {
          std::int64_t sum = 0;
          for (std::int64_t c = 0; c < cg; ++c) {
            for (std::int64_t a = 0; a < k.kh; ++a) {
              for (std::int64_t b = 0; b < k.kw; ++b) {
                const std::int64_t yy = i * k.sh + a * k.dh - k.pt, xx = j * k.sw + b * k.dw - k.pl;
                if (yy < 0 || yy >= k.h || xx < 0 || xx >= k.w) continue;
                const int xv = x[static_cast<std::size_t>(((n * k.c + g * cg + c) * k.h + yy) * k.w + xx)];
                const int wv = w[static_cast<std::size_t>(((m * cg + c) * k.kh + a) * k.kw + b)];
                sum += static_cast<std::int64_t>(xv - x_zero[0]) * (wv - w_zero[pm]);
              }
            }
          }
          if (k.bias) sum += bias[static_cast<std::size_t>(m)];
          expected.push_back(onnxmicro_test::reference_requantize(onnxmicro_test::wrap32(sum), x_scale, w_scale[pm],
                                                                  y_scale, y_zero[0], low, high));
        }
      }
    }
  }
  std::vector<int> actual;
  if (k.y_signed) {
    for (std::int8_t v : values_of<std::int8_t>(r.output)) actual.push_back(v);
  } else {
    for (std::uint8_t v : values_of<std::uint8_t>(r.output)) actual.push_back(v);
  }
  EXPECT_EQ(actual, expected) << "seed " << seed;
  return r.metadata_bytes;
}

TEST(QLinearConvTest, RandomizedAgainstReference) {
  std::mt19937 rng(20261121);
  int cases = 0;
  for (int iteration = 0; iteration < 160; ++iteration) {
    auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    ConvCase k;
    const int kind = iteration % 5;  // 0 dense, 1 grouped, 2 depthwise, 3 1x1, 4 depthwise with multiplier
    k.n = pick(1, 2);
    k.group = kind == 1 ? pick(2, 3) : 1;
    k.c = kind == 1 ? k.group * pick(1, 4) : pick(1, 9);
    k.m = kind == 1 ? k.group * pick(1, 5) : pick(1, 13);
    if (kind == 2 || kind == 4) {
      k.group = k.c = pick(2, 9);
      k.m = k.c * (kind == 4 ? pick(2, 3) : 1);
    }
    k.h = pick(1, 12);
    k.w = pick(1, 14);
    k.kh = kind == 3 ? 1 : pick(1, 3);
    k.kw = kind == 3 ? 1 : pick(1, 4);
    k.sh = pick(1, 2);
    k.sw = pick(1, 3);
    k.dh = kind == 3 ? 1 : pick(1, 2);
    k.dw = kind == 3 ? 1 : pick(1, 2);
    k.pt = kind == 3 ? 0 : pick(0, 2);
    k.pl = kind == 3 ? 0 : pick(0, 2);
    k.pb = kind == 3 ? 0 : pick(0, 2);
    k.pr = kind == 3 ? 0 : pick(0, 2);
    if (k.h + k.pt + k.pb < k.dh * (k.kh - 1) + 1 || k.w + k.pl + k.pr < k.dw * (k.kw - 1) + 1) continue;
    k.x_signed = pick(0, 1) == 1;
    k.w_signed = pick(0, 1) == 1;
    k.y_signed = pick(0, 1) == 1;
    k.per_channel = pick(0, 1) == 1;
    k.bias = pick(0, 3) != 0;
    k.constant = pick(0, 3) != 0;
    k.with_zero_points = pick(0, 4) != 0;
    const int clamp = pick(0, 3);
    k.clamp.has_min = clamp == 1 || clamp == 3;
    k.clamp.has_max = clamp >= 2;
    k.clamp.min = clamp == 3 ? -0.5f : 0.0f;
    k.clamp.max = 1.5f;
    SCOPED_TRACE(::testing::Message() << "iteration " << iteration << " kind " << kind);
    check_case(k, static_cast<std::uint32_t>(1000 + iteration));
    if (::testing::Test::HasFatalFailure()) return;
    ++cases;
  }
  EXPECT_GT(cases, 120);
}

TEST(QLinearConvTest, LargeLayersAgainstReference) {
  ConvCase k;  // deep enough for several depth pairs, wide enough for several GEMM tiles
  k.c = 37;
  k.m = 19;
  k.h = 23;
  k.w = 29;
  k.pt = k.pl = k.pb = k.pr = 1;
  k.per_channel = true;
  check_case(k, 7);
  k.constant = false;
  k.x_signed = true;
  k.y_signed = true;
  check_case(k, 8);
  ConvCase s2;  // stride 2 (the grid's phase planes): 3x3 pad 1 at odd and even sizes, then a 7x7 pad 3 first layer
  s2.c = 16;
  s2.m = 24;
  s2.h = 17;
  s2.w = 20;
  s2.sh = s2.sw = 2;
  s2.pt = s2.pl = s2.pb = s2.pr = 1;
  check_case(s2, 10);
  s2.c = 3;
  s2.m = 8;
  s2.h = s2.w = 30;
  s2.kh = s2.kw = 7;
  s2.pt = s2.pl = s2.pb = s2.pr = 3;
  s2.x_signed = true;
  check_case(s2, 13);
  ConvCase d;  // depthwise 3x3 stride 2, Relu6-like clamp
  d.c = d.m = d.group = 16;
  d.h = d.w = 17;
  d.sh = d.sw = 2;
  d.pt = d.pl = d.pb = d.pr = 1;
  d.clamp.has_min = d.clamp.has_max = true;
  d.clamp.max = 6.0f;
  check_case(d, 9);
}

TEST(QLinearConvTest, AccumulatorWrapsAndLargeSumsMatchFloat64Product) {
  // All taps at the extremes: sums far beyond 2^29 exercise the float64 path of the requantisation, and with a
  // big bias the int32 sum wraps as the spec's 32-bit accumulator does.
  ConvCase k;
  k.c = 1000;
  k.m = 3;
  k.h = k.w = 4;
  k.x_signed = false;
  k.w_signed = false;
  k.with_zero_points = false;
  k.bias = true;
  check_case(k, 11);
}

TEST(QLinearConvTest, FusedReluClampsToTheQuantizedZero) {
  // 1x1 conv, x - 0 = [1, -1] * w 1: y = round(x * 1 / 1) + y_zero 10; Relu clamps -1 to quantize(0) = 10.
  om::kernels::FusedClamp relu;
  relu.has_min = true;
  onnxmicro_test::DriverResult r = onnxmicro_test::run_quantized(
      om::all_kernels_registry(), "", "QLinearConv", 10,
      {make(Shape{1, 1, 1, 2}, std::vector<std::int8_t>{1, -1}), make(Shape{}, std::vector<float>{1.f}),
       make(Shape{}, std::vector<std::int8_t>{0}), make(Shape{1, 1, 1, 1}, std::vector<std::int8_t>{1}).as_constant(),
       make(Shape{}, std::vector<float>{1.f}), make(Shape{}, std::vector<std::int8_t>{0}),
       make(Shape{}, std::vector<float>{1.f}), make(Shape{}, std::vector<std::uint8_t>{10})},
      {}, relu);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(values_of<std::uint8_t>(r.output), (std::vector<std::uint8_t>{11, 10}));
}

TEST(QLinearConvTest, TiesRoundHalfToEvenInVectorAndScalarColumns) {
  // 1x1 conv, w = 1, multiplier 1 * 0.5 / 1: y = round(x / 2) + 0 with ties to even, over 19 positions (full
  // register tiles and a partial one).
  std::vector<std::int8_t> x;
  std::vector<std::int8_t> expected;
  for (int v = -9; v <= 9; ++v) {
    x.push_back(static_cast<std::int8_t>(v));
    expected.push_back(static_cast<std::int8_t>(std::nearbyint(v * 0.5)));
  }
  onnxmicro_test::DriverResult r = onnxmicro_test::run_quantized(
      om::all_kernels_registry(), "", "QLinearConv", 10,
      {make(Shape{1, 1, 1, 19}, x), make(Shape{}, std::vector<float>{1.f}).as_constant(),
       make(Shape{}, std::vector<std::int8_t>{0}), make(Shape{1, 1, 1, 1}, std::vector<std::int8_t>{1}).as_constant(),
       make(Shape{}, std::vector<float>{0.5f}).as_constant(), make(Shape{}, std::vector<std::int8_t>{0}),
       make(Shape{}, std::vector<float>{1.f}).as_constant(), make(Shape{}, std::vector<std::int8_t>{0})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(values_of<std::int8_t>(r.output), expected);
  EXPECT_EQ(expected[8], 0);   // -0.5 -> -0
  EXPECT_EQ(expected[12], 2);  // 1.5 -> 2
}

TEST(QLinearConvTest, ConvIntegerSharesTheIntegerPath) {
  // ConvInteger runs QLinearConv's im2col + integer GEMM without requantisation: int32 outputs equal the exact
  // sums wrapped to int32, over groups, strides, pads, dilations and per-channel weight zero points.
  std::mt19937 rng(31337);
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  for (int iteration = 0; iteration < 60; ++iteration) {
    const std::int64_t group = pick(1, 3), cg = pick(1, 4), mg = pick(1, 5);
    const std::int64_t c = group * cg, m = group * mg, h = pick(3, 9), w = pick(3, 11), kh = pick(1, 3),
                       kw = pick(1, 3);
    const std::int64_t s = pick(1, 2), d = pick(1, 2), pad = pick(0, 1);
    const std::int64_t oh = (h + 2 * pad - (d * (kh - 1) + 1)) / s + 1, ow = (w + 2 * pad - (d * (kw - 1) + 1)) / s + 1;
    if (oh < 1 || ow < 1) continue;
    const bool x_signed = pick(0, 1) == 1, w_signed = pick(0, 1) == 1, per_channel = pick(0, 1) == 1;
    const bool constant = pick(0, 1) == 1;
    const std::vector<int> x = random_ints(rng, x_signed, static_cast<std::size_t>(c * h * w));
    const std::vector<int> wt = random_ints(rng, w_signed, static_cast<std::size_t>(m * cg * kh * kw));
    const std::vector<int> x_zero = random_ints(rng, x_signed, 1);
    const std::vector<int> w_zero = random_ints(rng, w_signed, per_channel ? static_cast<std::size_t>(m) : 1);
    auto maybe_constant = [&](TestTensor t) { return constant ? t.as_constant() : t; };
    onnxmicro_test::DriverResult r = onnxmicro_test::run_quantized(
        om::all_kernels_registry(), "", "ConvInteger", 10,
        {quantized(x_signed, Shape{1, c, h, w}, x), maybe_constant(quantized(w_signed, Shape{m, cg, kh, kw}, wt)),
         quantized(x_signed, Shape{}, x_zero),
         maybe_constant(quantized(w_signed, per_channel ? Shape{m} : Shape{}, w_zero))},
        {make_attribute_int("group", group), make_attribute_ints("strides", {s, s}),
         make_attribute_ints("dilations", {d, d}), make_attribute_ints("pads", {pad, pad, pad, pad})});
    ASSERT_TRUE(r.status.ok()) << r.status.message();
    std::vector<std::int32_t> expected;
    for (std::int64_t mm = 0; mm < m; ++mm) {
      for (std::int64_t i = 0; i < oh; ++i) {
        for (std::int64_t j = 0; j < ow; ++j) {
          std::int64_t sum = 0;
          for (std::int64_t ci = 0; ci < cg; ++ci) {
            for (std::int64_t a = 0; a < kh; ++a) {
              for (std::int64_t b = 0; b < kw; ++b) {
                const std::int64_t yy = i * s + a * d - pad, xx = j * s + b * d - pad;
                if (yy < 0 || yy >= h || xx < 0 || xx >= w) continue;
                sum += static_cast<std::int64_t>(
                           x[static_cast<std::size_t>(((mm / mg) * cg + ci) * h * w + yy * w + xx)] - x_zero[0]) *
                       (wt[static_cast<std::size_t>(((mm * cg + ci) * kh + a) * kw + b)] -
                        w_zero[per_channel ? static_cast<std::size_t>(mm) : 0]);
              }
            }
          }
          expected.push_back(onnxmicro_test::wrap32(sum));
        }
      }
    }
    ASSERT_EQ(values_of<std::int32_t>(r.output), expected) << "iteration " << iteration;
  }
}

// Pointwise and grid convs (2-D, strides 1 and 2) with int8 weights of zero point 0 run on the integer GEMM's quad
// layout (input bytes as they are, vpdpbusd) where the CPU has AVX-512 VNNI, and on the int16 pairs elsewhere and
// under the avx2 cap: both must give the reference's outputs, on 1 and 2 threads. The cases cover depths that leave
// 1-3 rows of a last quad, output channels that leave a partial row panel, column tails, pads on every side (the
// zero point's byte in the grid), groups, uint8 and int8 inputs with their zero points, per-channel scales, bias and
// a fused Relu/Clip (GemmIsa.QuadTilesGiveTheWrappingSumsExactly has sums that wrap). Where the quad tiles run, the
// int8 weights take less metadata than the int16 pairs: that is how the test knows they ran.
TEST(QLinearConvTest, Int8WeightsOnTheQuadLayoutGiveTheReferenceOutputs) {
  struct Quads {
    std::int64_t n, c, h, w, m, group, kh, kw, stride, pad;
  };
  const Quads cases[] = {
      {1, 37, 7, 7, 19, 1, 1, 1, 1, 0},   {2, 64, 5, 13, 16, 1, 1, 1, 1, 0}, {1, 3, 9, 9, 5, 1, 1, 1, 1, 0},
      {1, 300, 4, 4, 33, 1, 1, 1, 1, 0},  {1, 24, 6, 11, 12, 2, 1, 1, 1, 0}, {1, 5, 1, 1, 1, 1, 1, 1, 1, 0},
      {1, 96, 14, 14, 24, 1, 1, 1, 1, 0}, {1, 16, 9, 11, 20, 1, 3, 3, 1, 1}, {2, 7, 8, 13, 6, 1, 3, 3, 2, 1},
      {1, 32, 15, 14, 17, 1, 3, 3, 2, 1}, {1, 3, 30, 29, 8, 1, 7, 7, 2, 3},  {1, 12, 10, 9, 8, 2, 3, 2, 1, 2},
      {1, 64, 7, 7, 64, 1, 3, 3, 1, 1},
  };
  om::StdThreadPool pool(2);
  om::Isa isa = om::Isa::baseline;
  ASSERT_TRUE(om::effective_isa(om::Isa::best, isa));
  const bool quads = om::kernels::integer_gemm::quad_tiles_run(isa);
  int index = 0;
  for (const Quads& shape : cases) {
    ConvCase k;
    k.n = shape.n, k.c = shape.c, k.h = shape.h, k.w = shape.w, k.m = shape.m, k.group = shape.group;
    k.kh = shape.kh, k.kw = shape.kw, k.sh = k.sw = shape.stride;
    k.pt = k.pl = k.pb = k.pr = shape.pad;
    k.pr = shape.pad > 0 ? shape.pad - 1 : 0;  // uneven pads
    k.w_signed = true;
    k.zero_w_zero = true;
    k.x_signed = index % 2 == 1;
    k.y_signed = index % 3 == 0;
    k.per_channel = index % 2 == 0;
    k.bias = index != 2;
    k.clamp.has_min = index % 3 == 1;
    k.clamp.max = 2.0f;
    SCOPED_TRACE(::testing::Message() << "case " << index);
    const std::uint32_t seed = static_cast<std::uint32_t>(700 + index);
    const std::size_t best = check_case(k, seed);
    check_case(k, seed, {false, &pool});
    onnxmicro_test::HarnessSettings pairs;
    pairs.max_isa = om::Isa::avx2;
    const std::size_t int16_pairs = check_case(k, seed, pairs);
    if (quads && k.c * k.kh * k.kw >= 16) {
      EXPECT_LT(best, int16_pairs) << "the quad layout did not run";
    } else if (!quads) {
      EXPECT_EQ(best, int16_pairs);
    }
    ++index;
  }
  // With Winograd allowed, a 3x3 stride-1 conv still takes the quad layout where it runs (its tall tiles beat
  // Winograd's int16 products); the int16 pairs take Winograd.
  ConvCase big;
  big.c = big.m = 256;
  big.h = big.w = 6;
  big.pt = big.pl = big.pb = big.pr = 1;
  big.zero_w_zero = true;
  big.w_signed = true;
  big.per_channel = true;
  const std::size_t direct = check_case(big, 790);
  const std::size_t allowed = check_case(big, 790, {true, nullptr});
  if (quads) {
    EXPECT_EQ(allowed, direct) << "Winograd ran beside the quad layout";
  } else if (isa == om::Isa::avx2 || isa == om::Isa::avx512) {
    EXPECT_GT(allowed, direct) << "Winograd did not run";
  }
}

// Depthwise convs with constant weights sum their taps as floats, over phase planes at stride 1 (AVX2 and up: every
// tap a unit-stride read) and the padded planes elsewhere, and requantise the float sums: the reference's outputs at
// every level, 3x3 and 5x5 kernels, strides 1 and 2, channel multipliers, uneven pads, dilation at stride 1, outputs
// a step long and not, on 1 and 2 threads, input rows of 48 or more (narrower ones keep the plane loops). The tap
// table takes metadata the plane loops do not: that is how the test knows the phase planes ran.
TEST(QLinearConvTest, DepthwisePhasePlanesGiveTheReferenceOutputs) {
  struct Depthwise {
    std::int64_t c, multiplier, h, w, k, stride, dilation, pad;
  };
  const Depthwise cases[] = {{16, 1, 9, 50, 3, 2, 1, 1}, {8, 1, 12, 56, 3, 1, 1, 1}, {6, 2, 13, 49, 3, 2, 1, 1},
                             {5, 1, 10, 52, 5, 1, 1, 2}, {4, 1, 11, 55, 5, 2, 1, 2}, {3, 1, 12, 60, 3, 1, 2, 2},
                             {9, 1, 4, 48, 3, 2, 1, 0},  {7, 1, 7, 7, 3, 1, 1, 1}};
  om::StdThreadPool pool(2);
  om::Isa isa = om::Isa::baseline;
  ASSERT_TRUE(om::effective_isa(om::Isa::best, isa));
  int index = 0;
  for (const Depthwise& d : cases) {
    ConvCase k;
    k.c = k.group = d.c;
    k.m = d.c * d.multiplier;
    k.h = d.h, k.w = d.w, k.kh = k.kw = d.k, k.sh = k.sw = d.stride, k.dh = k.dw = d.dilation;
    k.pt = k.pl = d.pad;
    k.pb = k.pr = d.pad > 0 ? d.pad - 1 : 0;
    k.x_signed = index % 2 == 1;
    k.w_signed = index % 3 != 2;
    k.y_signed = index % 2 == 0;
    k.per_channel = index % 2 == 0;
    k.clamp.has_min = index % 3 == 0;
    k.clamp.has_max = index % 4 == 1;
    k.clamp.max = 3.0f;
    SCOPED_TRACE(::testing::Message() << "case " << index);
    const std::uint32_t seed = static_cast<std::uint32_t>(900 + index);
    const std::size_t best = check_case(k, seed);
    check_case(k, seed, {false, &pool});
    onnxmicro_test::HarnessSettings baseline;
    baseline.max_isa = om::Isa::baseline;
    const std::size_t loops = check_case(k, seed, baseline);
    if (isa != om::Isa::baseline && d.w >= 48 && d.stride == 1) {
      EXPECT_GT(best, loops) << "the phase planes did not run";
    } else {
      EXPECT_EQ(best, loops) << "stride 2 and rows narrower than 48 keep the plane loops";
    }
    ++index;
  }
}

// Winograd F(2x2, 3x3) on integers (kernels/common/integer_winograd.hpp) for stride-1 3x3 convs with constant weights
// and 16 or more channels: exact, so every output must equal the reference's, on 1 and 2 threads and with it turned
// off. The shapes cover odd output sizes (tiles partly outside), asymmetric and no pads, a batch, an odd channel
// count (a lone last depth pair), output channels that leave a partial row panel, rows wide enough for the vector
// loops and their tails, several blocks of tile rows (claimed by two threads), and filters too large for the cache
// (one block, split over two threads); int8 and uint8 operands, per-channel zero points, bias, a fused Relu/Clip.
// Where the AVX2 integer tile runs, the packed transformed filters (16 points of M x C) take more metadata than the
// direct path's (9 taps): that is how the test knows Winograd ran.
TEST(QLinearConvTest, WinogradGivesTheDirectSumsExactly) {
  struct Shape4 {
    std::int64_t n, c, h, w, m, pt, pl, pb, pr;
  };
  const Shape4 shapes[] = {
      {1, 16, 9, 11, 16, 1, 1, 1, 1}, {2, 32, 14, 14, 42, 1, 1, 1, 1}, {1, 17, 8, 21, 17, 0, 2, 1, 0},
      {1, 16, 5, 5, 16, 0, 0, 0, 0},  {1, 24, 75, 37, 20, 1, 1, 1, 1}, {1, 160, 5, 6, 128, 1, 1, 1, 1},
  };
  om::StdThreadPool pool(2);
  om::Isa isa = om::Isa::baseline;
  ASSERT_TRUE(om::effective_isa(om::Isa::best, isa));
  const bool runs = isa == om::Isa::avx2 || isa == om::Isa::avx512;
  int index = 0;
  for (const Shape4& shape : shapes) {
    ConvCase k;
    k.n = shape.n, k.c = shape.c, k.h = shape.h, k.w = shape.w, k.m = shape.m;
    k.pt = shape.pt, k.pl = shape.pl, k.pb = shape.pb, k.pr = shape.pr;
    k.x_signed = index % 2 == 1;
    k.w_signed = index % 3 != 1;
    k.y_signed = index % 2 == 0;
    k.per_channel = index % 2 == 0;
    k.bias = index != 2;
    k.clamp.has_min = index % 3 == 0;
    k.clamp.has_max = index == 3;
    k.clamp.max = 2.0f;
    SCOPED_TRACE(::testing::Message() << "shape " << index);
    const std::uint32_t seed = static_cast<std::uint32_t>(500 + index);
    const std::size_t direct = check_case(k, seed);
    const std::size_t winograd = check_case(k, seed, {true, nullptr});
    check_case(k, seed, {true, &pool});
    if (runs) {
      EXPECT_GT(winograd, direct) << "Winograd did not run";
    } else {
      EXPECT_EQ(winograd, direct);
    }
    ++index;
  }
}

// Weights whose sums could pass 2^29 (255 x the sum of |w - w_zero| over a channel's 9 C taps) would make Winograd's
// 4 x sum wrap beyond what / 4 recovers: such convs keep the direct path, and give the reference's (wrapped) sums.
TEST(QLinearConvTest, WinogradLeavesConvsWhoseSumsCouldWrap) {
  ConvCase k;
  k.c = 3000;
  k.m = 16;
  k.h = k.w = 4;
  k.pt = k.pl = k.pb = k.pr = 1;
  k.x_signed = false;
  k.w_signed = false;
  k.with_zero_points = false;  // w in [0, 255]: sums of |w| about 27000 x 127, past 2^29 / 255
  const std::size_t direct = check_case(k, 12);
  EXPECT_EQ(check_case(k, 12, {true, nullptr}), direct);
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
