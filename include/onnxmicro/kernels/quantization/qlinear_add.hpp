// SPDX-License-Identifier: MIT
// QLinearAdd (com.microsoft, version 1, the only one): C = quantize(dequantize(A) + dequantize(B)) with numpy
// broadcasting, int8/uint8, per-tensor scales and optional zero points (known at prepare time). Integer only at
// run time, in fixed point of 2^-24 output quanta: each operand contributes (q - zero) * M, M its scale over C's
// rounded to 2^-24 (C's zero point and the rounding half folded into A's term), and C = (sum) >> 24, ties to even.
// M's rounding moves a sum by at most 2^-17 of a quantum (onnxruntime computes in float32: results at most one
// quantum apart). Prepare tabulates both terms (256 int64 entries each): an element is two lookups, an add and a
// shift. A Relu/Clip fused by the QDQ pass narrows the output range. On AVX2, same-shape rows (residual Adds) compute
// the terms instead of looking them up, 8 elements at a time (the same integers, so the same bits).
#pragma once
#include <cmath>
#include <cstdint>
#include <limits>

#include "onnxmicro/kernels/common/integer_gemm.hpp"
#include "onnxmicro/kernels/kernel_api.hpp"
#include "onnxmicro/kernels/quantization/qoperator_util.hpp"

#if ONNXMICRO_ENABLE_ISA_DISPATCH
#include <immintrin.h>
#endif

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {
namespace qlinear_add_detail {

struct QuantizedAdd {
  static constexpr std::string_view kDomain = "com.microsoft";
  static constexpr std::string_view kOpType = "QLinearAdd";
  /// Fraction bits of the sums: 2^-24 of an output quantum, far below the rounding granularity.
  static constexpr int kFraction = 24;
  static constexpr std::int64_t kMask = (std::int64_t{1} << kFraction) - 1;
  struct Params {
    /// a[byte(q)] = (q - a_zero) * a_step + (c_zero + 1/2) 2^kFraction, b[byte(q)] = (q - b_zero) * b_step:
    /// C = (a[A] + b[B]) >> kFraction, ties to even.
    std::int64_t a[256];
    std::int64_t b[256];
    /// The steps: an operand's scale over C's in units of 2^-kFraction, rounded; and a[] + b[] at byte 0 of the
    /// operands' unsigned form (the byte itself for uint8, with its sign bit flipped for int8), so that
    /// a[x] + b[y] = u(x) a_step + u(y) b_step + base.
    std::int64_t a_step, b_step, base;
    /// Every entry within 2^kVectorBits in magnitude and both steps within 2^31: the vector rows' products fit
    /// vpmuldq and their bias keeps every sum positive.
    bool vectors;
  };
  static constexpr int kVectorBits = 40;
  /// An operand's step: ratio (its scale over C's) in units of 2^-kFraction, kept within 2^52 (such ratios saturate
  /// the output anyway, and 255 steps plus a zero point's still add up within int64).
  static std::int64_t step_of(double ratio) noexcept {
    constexpr double kUnit = static_cast<double>(std::int64_t{1} << kFraction);
    constexpr double kLimit = 4503599627370496.0;  // 2^52
    double v = std::floor(ratio * kUnit + 0.5);
    v = v > kLimit ? kLimit : (v < -kLimit ? -kLimit : v);
    return v == v ? static_cast<std::int64_t>(v) : 0;  // (NaN: 0)
  }
  static void fill(std::int64_t* table, DataType t, qoperator_util::QuantParams p, std::int64_t step,
                   std::int64_t offset) noexcept {
    const qoperator_util::QuantRange r = qoperator_util::range_of(t);
    for (std::int32_t q = r.low; q <= r.high; ++q) {
      table[static_cast<std::uint8_t>(q)] = static_cast<std::int64_t>(q - p.zero_point) * step + offset;
    }
  }
  static void init(Params& params, DataType t, qoperator_util::QuantParams a, qoperator_util::QuantParams b,
                   qoperator_util::QuantParams c) noexcept {
    params.a_step = step_of(static_cast<double>(a.scale) / c.scale);
    params.b_step = step_of(static_cast<double>(b.scale) / c.scale);
    const std::int64_t half = std::int64_t{1} << (kFraction - 1);
    fill(params.a, t, a, params.a_step,
         static_cast<std::int64_t>(c.zero_point) * (std::int64_t{1} << kFraction) + half);
    fill(params.b, t, b, params.b_step, 0);
    const std::uint8_t unsigned_zero = t == DataType::int8 ? 0x80 : 0;  // the byte whose unsigned form is 0
    params.base = params.a[unsigned_zero] + params.b[unsigned_zero];
    constexpr std::int64_t kLimit = std::int64_t{1} << kVectorBits;
    constexpr std::int64_t kStepLimit = std::int64_t{1} << 31;
    params.vectors = params.a_step >= -kStepLimit && params.a_step < kStepLimit && params.b_step >= -kStepLimit &&
                     params.b_step < kStepLimit;
    for (int i = 0; i < 256; ++i) {
      params.vectors = params.vectors && params.a[i] <= kLimit && params.a[i] >= -kLimit && params.b[i] <= kLimit &&
                       params.b[i] >= -kLimit;
    }
  }
  static std::int64_t apply(const Params& p, std::int32_t a, std::int32_t b) noexcept {
    return qoperator_util::RoundingMultiplier::round_shifted(
        p.a[static_cast<std::uint8_t>(a)] + p.b[static_cast<std::uint8_t>(b)], kFraction, kMask);
  }

  static constexpr bool kVectorRows = ONNXMICRO_ENABLE_ISA_DISPATCH != 0;
  /// apply() and the clamp to `r` for the leading multiple of 8 of n elements, on AVX2 (returns 0 elsewhere).
  template <typename T>
  static std::int64_t vector_rows(Isa isa, const Params& p, qoperator_util::QuantRange r, const T* a, const T* b, T* c,
                                  std::int64_t n) noexcept {
#if ONNXMICRO_ENABLE_ISA_DISPATCH
    if (p.vectors && (isa == Isa::avx2 || isa == Isa::avx512)) return rows_avx2(p, r, a, b, c, n);
#endif
    static_cast<void>(isa), static_cast<void>(p), static_cast<void>(r), static_cast<void>(a), static_cast<void>(b);
    static_cast<void>(c), static_cast<void>(n);
    return 0;
  }

#if ONNXMICRO_ENABLE_ISA_DISPATCH
  /// round_shifted() of 4 sums t in 64-bit lanes, each given as t + 2^48 (a multiple of 2^kFraction, beyond any sum
  /// of entries within 2^kVectorBits): positive for the logical shift, taken off after it.
  __attribute__((target("avx2"), always_inline)) static __m256i round_biased_sums(__m256i biased) noexcept {
    constexpr std::int64_t kBias = std::int64_t{1} << 48;
    __m256i y = _mm256_sub_epi64(_mm256_srli_epi64(biased, kFraction), _mm256_set1_epi64x(kBias >> kFraction));
    const __m256i tie = _mm256_cmpeq_epi64(_mm256_and_si256(biased, _mm256_set1_epi64x(kMask)), _mm256_setzero_si256());
    return _mm256_sub_epi64(y, _mm256_and_si256(tie, _mm256_and_si256(y, _mm256_set1_epi64x(1))));
  }

  /// 4 elements' terms: u(a) a_step + u(b) b_step + base + 2^48 in 64-bit lanes, from 4 unsigned-form bytes each.
  __attribute__((target("avx2"), always_inline)) static __m256i biased_sums(__m128i ua, __m128i ub, __m256i a_step,
                                                                            __m256i b_step, __m256i base) noexcept {
    const __m256i ta = _mm256_mul_epi32(_mm256_cvtepu8_epi64(ua), a_step);  // (vpmuldq: |step| < 2^31)
    const __m256i tb = _mm256_mul_epi32(_mm256_cvtepu8_epi64(ub), b_step);
    return _mm256_add_epi64(_mm256_add_epi64(ta, tb), base);
  }

  template <typename T>
  __attribute__((target("avx2"))) static std::int64_t rows_avx2(const Params& p, qoperator_util::QuantRange r,
                                                                const T* a, const T* b, T* c, std::int64_t n) noexcept {
    const __m256i low = _mm256_set1_epi32(r.low), high = _mm256_set1_epi32(r.high);
    const __m256i low_halves = _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6);  // each 64-bit lane's low 32 bits
    const __m256i a_step = _mm256_set1_epi64x(p.a_step), b_step = _mm256_set1_epi64x(p.b_step);
    const __m256i base = _mm256_set1_epi64x(p.base + (std::int64_t{1} << 48));
    const __m128i flip = _mm_set1_epi8(std::numeric_limits<T>::is_signed ? static_cast<char>(0x80) : 0);
    std::int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
      const __m128i ua = _mm_xor_si128(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(a + i)), flip);
      const __m128i ub = _mm_xor_si128(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(b + i)), flip);
      const __m256i lo =
          _mm256_permutevar8x32_epi32(round_biased_sums(biased_sums(ua, ub, a_step, b_step, base)), low_halves);
      const __m256i hi = _mm256_permutevar8x32_epi32(
          round_biased_sums(biased_sums(_mm_srli_si128(ua, 4), _mm_srli_si128(ub, 4), a_step, b_step, base)),
          low_halves);
      __m256i v = _mm256_blend_epi32(lo, hi, 0xF0);  // |values| < 2^18: their low 32 bits are the values
      integer_gemm::store_saturated_avx2(_mm256_min_epi32(_mm256_max_epi32(v, low), high), c + i);
    }
    return i;
  }
#endif
};

}  // namespace qlinear_add_detail

// Version 1: the only version.
using QLinearAdd_1 = VersionedKernel<qoperator_util::QLinearBinaryKernel<qlinear_add_detail::QuantizedAdd>, 1>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
