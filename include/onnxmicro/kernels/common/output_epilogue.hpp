// SPDX-License-Identifier: MIT
// What a float32 MatMul applies to its output rows after the product when the session folded the nodes after it
// into it (runtime/activation_fusion.hpp, PrepareContext::fused_epilogue and fused_clamp): the bias Add, then the
// Erf form of GELU or a Relu/Clip clamp. Each step is the float operation the removed node computed, in the order
// the model wrote them (the sum, then + bias; v / divisor, erf, + addend, the two products in the model's order;
// the clamp as OutputClamp), and erf is vector_math's, which the Erf kernel uses on the same instruction set: so
// fusing never changes a number. One pass over each row, vectorised on AVX2/AVX-512 with masked tails (every
// element gets the same arithmetic wherever it sits, as in vector_math).
#pragma once
#include <cmath>
#include <cstdint>

#include "onnxmicro/kernels/common/output_clamp.hpp"
#include "onnxmicro/kernels/common/vector_math.hpp"
#include "onnxmicro/kernels/kernel_api.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

/// A value-initialised OutputEpilogue does nothing (an aggregate, like OutputClamp).
struct OutputEpilogue {
  bool bias;  ///< add bias[j] to column j
  bool gelu;
  bool scale_first;  ///< GELU's products: (v * scale) * t instead of (v * t) * scale
  float divisor, addend, scale;
  OutputClamp clamp;

  static OutputEpilogue from(const FusedEpilogue& fused, const FusedClamp& clamp) noexcept {
    return OutputEpilogue{fused.bias,   fused.gelu,  fused.scale_first,       fused.divisor,
                          fused.addend, fused.scale, OutputClamp::from(clamp)};
  }
  bool enabled() const noexcept { return bias || gelu || clamp.enabled; }

  /// The portable form of one element (column j's bias already looked up, or 0 unused).
  float apply(float v, float bias_j) const noexcept {
    if (bias) v = v + bias_j;
    if (gelu) {
      const float t = std::erf(v / divisor) + addend;
      v = scale_first ? (v * scale) * t : (v * t) * scale;
    }
    return clamp.enabled ? clamp.apply(v) : v;
  }
};

namespace output_epilogue_detail {
#if ONNXMICRO_ENABLE_ISA_DISPATCH

ONNXMICRO_DETAIL_VECTOR_MATH_AVX2 inline __m256 apply_avx2(const OutputEpilogue& e, __m256 v, __m256 bias) noexcept {
  if (e.bias) v = _mm256_add_ps(v, bias);
  if (e.gelu) {
    const __m256 scale = _mm256_set1_ps(e.scale);
    const __m256 t = _mm256_add_ps(vector_math::x86::erf_avx2(_mm256_div_ps(v, _mm256_set1_ps(e.divisor))),
                                   _mm256_set1_ps(e.addend));
    v = e.scale_first ? _mm256_mul_ps(_mm256_mul_ps(v, scale), t) : _mm256_mul_ps(_mm256_mul_ps(v, t), scale);
  }
  if (e.clamp.enabled) {
    // max(low, v) and min(high, v) return v when it is NaN and when it equals the bound: OutputClamp's order.
    v = _mm256_min_ps(_mm256_set1_ps(e.clamp.high), _mm256_max_ps(_mm256_set1_ps(e.clamp.low), v));
  }
  return v;
}

ONNXMICRO_DETAIL_VECTOR_MATH_AVX2 inline void row_avx2(const OutputEpilogue& e, const float* bias, float* y,
                                                       std::int64_t n) noexcept {
  const __m256 zero = _mm256_setzero_ps();
  std::int64_t j = 0;
  for (; j + 8 <= n; j += 8) {
    _mm256_storeu_ps(y + j, apply_avx2(e, _mm256_loadu_ps(y + j), e.bias ? _mm256_loadu_ps(bias + j) : zero));
  }
  if (j == n) return;
  const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  const __m256i mask = _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int>(n - j)), lane);
  const __m256 b = e.bias ? _mm256_maskload_ps(bias + j, mask) : zero;
  _mm256_maskstore_ps(y + j, mask, apply_avx2(e, _mm256_maskload_ps(y + j, mask), b));
}

ONNXMICRO_DETAIL_VECTOR_MATH_AVX512 inline __m512 apply_avx512(const OutputEpilogue& e, __m512 v,
                                                               __m512 bias) noexcept {
  constexpr __mmask16 kAll = vector_math::x86::kAll;
  if (e.bias) v = _mm512_add_ps(v, bias);
  if (e.gelu) {
    const __m512 scale = _mm512_set1_ps(e.scale);
    const __m512 t = _mm512_add_ps(vector_math::x86::erf_avx512(_mm512_div_ps(v, _mm512_set1_ps(e.divisor))),
                                   _mm512_set1_ps(e.addend));
    v = e.scale_first ? _mm512_mul_ps(_mm512_mul_ps(v, scale), t) : _mm512_mul_ps(_mm512_mul_ps(v, t), scale);
  }
  if (e.clamp.enabled) {
    v = _mm512_mask_max_ps(v, kAll, _mm512_set1_ps(e.clamp.low), v);
    v = _mm512_mask_min_ps(v, kAll, _mm512_set1_ps(e.clamp.high), v);
  }
  return v;
}

ONNXMICRO_DETAIL_VECTOR_MATH_AVX512 inline void row_avx512(const OutputEpilogue& e, const float* bias, float* y,
                                                           std::int64_t n) noexcept {
  const __m512 zero = _mm512_setzero_ps();
  std::int64_t j = 0;
  for (; j + 16 <= n; j += 16) {
    _mm512_storeu_ps(y + j, apply_avx512(e, _mm512_loadu_ps(y + j), e.bias ? _mm512_loadu_ps(bias + j) : zero));
  }
  if (j == n) return;
  const __mmask16 mask = static_cast<__mmask16>((1u << (n - j)) - 1u);
  const __m512 b = e.bias ? _mm512_maskz_loadu_ps(mask, bias + j) : zero;
  _mm512_mask_storeu_ps(y + j, mask, apply_avx512(e, _mm512_maskz_loadu_ps(mask, y + j), b));
}

#endif  // ONNXMICRO_ENABLE_ISA_DISPATCH
}  // namespace output_epilogue_detail

/// Applies `e` in place to the `rows` rows of `n` floats at y (row stride n); `bias` has n floats when e.bias.
inline void apply_epilogue_rows(Isa isa, const OutputEpilogue& e, const float* bias, float* y, std::int64_t rows,
                                std::int64_t n) noexcept {
  for (std::int64_t r = 0; r < rows; ++r) {
    float* row = y + r * n;
#if ONNXMICRO_ENABLE_ISA_DISPATCH
    if (isa == Isa::avx512) {
      output_epilogue_detail::row_avx512(e, bias, row, n);
      continue;
    }
    if (isa == Isa::avx2) {
      output_epilogue_detail::row_avx2(e, bias, row, n);
      continue;
    }
#endif
    static_cast<void>(isa);
    for (std::int64_t j = 0; j < n; ++j) row[j] = e.apply(row[j], e.bias ? bias[j] : 0.0f);
  }
}

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
