// SPDX-License-Identifier: MIT
// QLinearAdd (com.microsoft, version 1, the only one): C = quantize(dequantize(A) + dequantize(B)) with numpy
// broadcasting, int8/uint8, per-tensor scales and optional zero points (known at prepare time). Integer only at
// run time: prepare builds one 256-entry int64 table per operand holding its contribution to C in fixed point
// (2^-24 quanta, C's zero point and the rounding half folded into A's), so an element is two lookups, an add
// and a shift, ties to even (onnxruntime computes in float32: results at most one quantum apart). A Relu/Clip
// fused by the QDQ pass narrows the output range. On AVX2, same-shape rows (residual Adds) take 8 elements at a
// time: the table entries gathered in 64-bit lanes, the same shift and ties, the same bits.
#pragma once
#include <cmath>
#include <cstdint>
#include <limits>

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
  /// Fraction bits of the tables: 2^-24 of an output quantum, far below the rounding granularity.
  static constexpr int kFraction = 24;
  static constexpr std::int64_t kMask = (std::int64_t{1} << kFraction) - 1;
  struct Params {
    /// a[byte(q)] = (q - a_zero) * a_scale / c_scale + c_zero + 1/2, b[byte(q)] = (q - b_zero) * b_scale /
    /// c_scale, both in units of 2^-kFraction: C = (a[A] + b[B]) >> kFraction, ties to even.
    std::int64_t a[256];
    std::int64_t b[256];
    /// Every entry within 2^kVectorBits in magnitude: the vector rows' bias keeps every sum positive.
    bool vectors;
  };
  static constexpr int kVectorBits = 40;
  static void fill(std::int64_t* table, DataType t, qoperator_util::QuantParams p, double ratio,
                   double offset) noexcept {
    constexpr double kUnit = static_cast<double>(std::int64_t{1} << kFraction);
    constexpr double kLimit = 4611686018427387904.0;  // 2^62: two entries still add up within int64
    const qoperator_util::QuantRange r = qoperator_util::range_of(t);
    for (std::int32_t q = r.low; q <= r.high; ++q) {
      double v = std::floor((static_cast<double>(q - p.zero_point) * ratio + offset) * kUnit + 0.5);
      v = v > kLimit ? kLimit : (v < -kLimit ? -kLimit : v);  // such ratios saturate the output anyway
      table[static_cast<std::uint8_t>(q)] = static_cast<std::int64_t>(v);
    }
  }
  static void init(Params& params, DataType t, qoperator_util::QuantParams a, qoperator_util::QuantParams b,
                   qoperator_util::QuantParams c) noexcept {
    fill(params.a, t, a, static_cast<double>(a.scale) / c.scale, c.zero_point + 0.5);
    fill(params.b, t, b, static_cast<double>(b.scale) / c.scale, 0.0);
    constexpr std::int64_t kLimit = std::int64_t{1} << kVectorBits;
    params.vectors = true;
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
  /// The sum of two gathered entries (4 lanes of 64 bits), shifted down with ties to even as round_shifted(): the
  /// bias 2^48 (a multiple of 2^kFraction, beyond any sum of entries within 2^kVectorBits) makes the sum positive
  /// for the logical shift and is taken off after it.
  __attribute__((target("avx2"), always_inline)) static __m256i round_sum(const Params& p, __m128i ia,
                                                                          __m128i ib) noexcept {
    const __m256i t = _mm256_add_epi64(_mm256_i32gather_epi64(reinterpret_cast<const long long*>(p.a), ia, 8),
                                       _mm256_i32gather_epi64(reinterpret_cast<const long long*>(p.b), ib, 8));
    constexpr std::int64_t kBias = std::int64_t{1} << 48;
    __m256i y = _mm256_srli_epi64(_mm256_add_epi64(t, _mm256_set1_epi64x(kBias)), kFraction);
    y = _mm256_sub_epi64(y, _mm256_set1_epi64x(kBias >> kFraction));
    const __m256i tie = _mm256_cmpeq_epi64(_mm256_and_si256(t, _mm256_set1_epi64x(kMask)), _mm256_setzero_si256());
    return _mm256_sub_epi64(y, _mm256_and_si256(tie, _mm256_and_si256(y, _mm256_set1_epi64x(1))));
  }

  template <typename T>
  __attribute__((target("avx2"))) static std::int64_t rows_avx2(const Params& p, qoperator_util::QuantRange r,
                                                                const T* a, const T* b, T* c, std::int64_t n) noexcept {
    const __m256i low = _mm256_set1_epi32(r.low), high = _mm256_set1_epi32(r.high);
    const __m256i low_halves = _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6);  // each 64-bit lane's low 32 bits
    std::int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
      // Table indices: the raw bytes (byte(q) for int8 too), zero-extended.
      const __m256i ia = _mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(a + i)));
      const __m256i ib = _mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(b + i)));
      const __m256i lo =
          _mm256_permutevar8x32_epi32(round_sum(p, _mm256_castsi256_si128(ia), _mm256_castsi256_si128(ib)), low_halves);
      const __m256i hi = _mm256_permutevar8x32_epi32(
          round_sum(p, _mm256_extracti128_si256(ia, 1), _mm256_extracti128_si256(ib, 1)), low_halves);
      __m256i v = _mm256_blend_epi32(lo, hi, 0xF0);  // |values| < 2^18: their low 32 bits are the values
      v = _mm256_min_epi32(_mm256_max_epi32(v, low), high);
      const __m128i words = _mm_packs_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
      const __m128i bytes =
          std::numeric_limits<T>::is_signed ? _mm_packs_epi16(words, words) : _mm_packus_epi16(words, words);
      _mm_storel_epi64(reinterpret_cast<__m128i*>(c + i), bytes);
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
