// SPDX-License-Identifier: MIT
// exp, sigmoid, tanh and erf over float arrays, on the session's instruction set (core/isa.hpp): AVX2+FMA (8 lanes) and
// AVX-512F (16 lanes) compiled with per-function target attributes; the portable path calls std::exp/std::tanh.
// exp is Cephes' expf (range reduction by ln 2 in two parts, a degree-6 polynomial, the exponent set by integer
// shift): within 2 ulp of the correctly rounded value over [-87, 88]. tanh takes Cephes' odd polynomial below
// |x| = 0.625 (no cancellation near 0) and 1 - 2 / (exp(2|x|) + 1) above. erf takes its Maclaurin series (10 terms)
// below |x| = 0.9 and Abramowitz-Stegun 7.1.26 (1 - t P(t) exp(-x^2), t = 1 / (1 + p|x|), error below 1.5e-7)
// above (within 4 ulp, 2.2e-7 absolute; sigmoid and tanh within 2 ulp). NaN stays NaN. The last elements of an
// array use masked loads and stores, so every element gets the same arithmetic wherever it sits.
#pragma once
#include <cmath>
#include <cstdint>

#include "onnxmicro/core/config.hpp"
#include "onnxmicro/core/isa.hpp"

#if ONNXMICRO_ENABLE_ISA_DISPATCH
#include <immintrin.h>
#endif

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {
namespace vector_math {

// Cephes expf's constants.
constexpr float kExpHigh = 88.3762626647949f, kExpLow = -87.3365447504f;
constexpr float kLog2e = 1.44269504088896341f, kLn2High = 0.693359375f, kLn2Low = -2.12194440e-4f;
constexpr float kExpP[6] = {1.9875691500e-4f, 1.3981999507e-3f, 8.3334519073e-3f,
                            4.1665795894e-2f, 1.6666665459e-1f, 5.0000001201e-1f};
// Cephes tanhf's odd polynomial for |x| < 0.625: tanh(x) = x + x * z * P(z), z = x * x.
constexpr float kTanhSmall = 0.625f;
constexpr float kTanhP[5] = {-5.70498872745e-3f, 2.06390887954e-2f, -5.37397155531e-2f, 1.33314422036e-1f,
                             -3.33332819422e-1f};

// erf's Maclaurin series below |x| = 0.9: x * sum(kErfSeries[k] * x^(2k)), 2/sqrt(pi) * (-1)^k / (k! (2k + 1)).
constexpr float kErfSmall = 0.9f;
constexpr int kErfTerms = 10;
constexpr float kErfSeries[kErfTerms] = {1.128379167e+00f, -3.761263890e-01f, 1.128379167e-01f, -2.686617065e-02f,
                                         5.223977625e-03f, -8.548327023e-04f, 1.205533298e-04f, -1.492565036e-05f,
                                         1.646211437e-06f, -1.636584469e-07f};
// Abramowitz-Stegun 7.1.26 above it: erf(x) = 1 - t (a1 + t (a2 + t (a3 + t (a4 + t a5)))) exp(-x^2).
constexpr float kErfP = 0.3275911f;
constexpr float kErfA[5] = {0.254829592f, -0.284496736f, 1.421413741f, -1.453152027f, 1.061405429f};

#if ONNXMICRO_ENABLE_ISA_DISPATCH
namespace x86 {

#define ONNXMICRO_DETAIL_VECTOR_MATH_AVX2 __attribute__((target("avx2,fma")))
#define ONNXMICRO_DETAIL_VECTOR_MATH_AVX512 __attribute__((target("avx512f")))

ONNXMICRO_DETAIL_VECTOR_MATH_AVX2 inline __m256 exp_avx2(__m256 x) noexcept {
  x = _mm256_min_ps(_mm256_max_ps(x, _mm256_set1_ps(kExpLow)), _mm256_set1_ps(kExpHigh));
  const __m256 n =
      _mm256_round_ps(_mm256_mul_ps(x, _mm256_set1_ps(kLog2e)), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  __m256 r = _mm256_fnmadd_ps(n, _mm256_set1_ps(kLn2High), x);
  r = _mm256_fnmadd_ps(n, _mm256_set1_ps(kLn2Low), r);
  __m256 p = _mm256_set1_ps(kExpP[0]);
  for (int i = 1; i < 6; ++i) p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(kExpP[i]));
  p = _mm256_fmadd_ps(p, _mm256_mul_ps(r, r), _mm256_add_ps(r, _mm256_set1_ps(1.0f)));
  const __m256i scale = _mm256_slli_epi32(_mm256_add_epi32(_mm256_cvtps_epi32(n), _mm256_set1_epi32(127)), 23);
  return _mm256_mul_ps(p, _mm256_castsi256_ps(scale));
}

ONNXMICRO_DETAIL_VECTOR_MATH_AVX2 inline __m256 sigmoid_avx2(__m256 x) noexcept {
  const __m256 one = _mm256_set1_ps(1.0f);
  const __m256 y = _mm256_div_ps(one, _mm256_add_ps(one, exp_avx2(_mm256_sub_ps(_mm256_setzero_ps(), x))));
  return _mm256_blendv_ps(y, x, _mm256_cmp_ps(x, x, _CMP_UNORD_Q));  // NaN in, NaN out
}

ONNXMICRO_DETAIL_VECTOR_MATH_AVX2 inline __m256 tanh_avx2(__m256 x) noexcept {
  const __m256 sign = _mm256_set1_ps(-0.0f);
  const __m256 magnitude = _mm256_andnot_ps(sign, x);
  const __m256 z = _mm256_mul_ps(x, x);
  __m256 p = _mm256_set1_ps(kTanhP[0]);
  for (int i = 1; i < 5; ++i) p = _mm256_fmadd_ps(p, z, _mm256_set1_ps(kTanhP[i]));
  const __m256 small = _mm256_fmadd_ps(_mm256_mul_ps(p, z), x, x);
  const __m256 one = _mm256_set1_ps(1.0f);
  const __m256 e = exp_avx2(_mm256_add_ps(magnitude, magnitude));
  __m256 large = _mm256_sub_ps(one, _mm256_div_ps(_mm256_set1_ps(2.0f), _mm256_add_ps(e, one)));
  large = _mm256_or_ps(large, _mm256_and_ps(x, sign));
  const __m256 y = _mm256_blendv_ps(large, small, _mm256_cmp_ps(magnitude, _mm256_set1_ps(kTanhSmall), _CMP_LT_OQ));
  return _mm256_blendv_ps(y, x, _mm256_cmp_ps(x, x, _CMP_UNORD_Q));
}

ONNXMICRO_DETAIL_VECTOR_MATH_AVX2 inline __m256 erf_avx2(__m256 x) noexcept {
  const __m256 sign = _mm256_set1_ps(-0.0f);
  const __m256 magnitude = _mm256_andnot_ps(sign, x);
  const __m256 z = _mm256_mul_ps(x, x);
  __m256 series = _mm256_set1_ps(kErfSeries[kErfTerms - 1]);
  for (int i = kErfTerms - 2; i >= 0; --i) series = _mm256_fmadd_ps(series, z, _mm256_set1_ps(kErfSeries[i]));
  const __m256 small = _mm256_mul_ps(series, x);
  const __m256 one = _mm256_set1_ps(1.0f);
  const __m256 t = _mm256_div_ps(one, _mm256_fmadd_ps(_mm256_set1_ps(kErfP), magnitude, one));
  __m256 p = _mm256_set1_ps(kErfA[4]);
  for (int i = 3; i >= 0; --i) p = _mm256_fmadd_ps(p, t, _mm256_set1_ps(kErfA[i]));
  const __m256 tail = _mm256_mul_ps(_mm256_mul_ps(p, t), exp_avx2(_mm256_sub_ps(_mm256_setzero_ps(), z)));
  const __m256 large = _mm256_or_ps(_mm256_sub_ps(one, tail), _mm256_and_ps(x, sign));
  const __m256 y = _mm256_blendv_ps(large, small, _mm256_cmp_ps(magnitude, _mm256_set1_ps(kErfSmall), _CMP_LT_OQ));
  return _mm256_blendv_ps(y, x, _mm256_cmp_ps(x, x, _CMP_UNORD_Q));
}

ONNXMICRO_DETAIL_VECTOR_MATH_AVX2 inline __m256 exp_or_nan_avx2(__m256 x) noexcept {
  return _mm256_blendv_ps(exp_avx2(x), x, _mm256_cmp_ps(x, x, _CMP_UNORD_Q));
}

template <__m256 (*F)(__m256) noexcept>
ONNXMICRO_DETAIL_VECTOR_MATH_AVX2 inline void apply_avx2(const float* x, float* y, std::int64_t n) noexcept {
  std::int64_t i = 0;
  for (; i + 8 <= n; i += 8) _mm256_storeu_ps(y + i, F(_mm256_loadu_ps(x + i)));
  if (i == n) return;
  const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  const __m256i mask = _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int>(n - i)), lane);
  _mm256_maskstore_ps(y + i, mask, F(_mm256_maskload_ps(x + i, mask)));
}

// The masked forms throughout: GCC 12's unmasked AVX-512 intrinsics start from an "undefined" vector that
// -Wmaybe-uninitialized reports.
constexpr __mmask16 kAll = 0xffff;

ONNXMICRO_DETAIL_VECTOR_MATH_AVX512 inline __m512 exp_avx512(__m512 x) noexcept {
  x = _mm512_mask_max_ps(x, kAll, x, _mm512_set1_ps(kExpLow));
  x = _mm512_mask_min_ps(x, kAll, x, _mm512_set1_ps(kExpHigh));
  __m512 n = _mm512_mul_ps(x, _mm512_set1_ps(kLog2e));
  n = _mm512_mask_roundscale_ps(n, kAll, n, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  __m512 r = _mm512_fnmadd_ps(n, _mm512_set1_ps(kLn2High), x);
  r = _mm512_fnmadd_ps(n, _mm512_set1_ps(kLn2Low), r);
  __m512 p = _mm512_set1_ps(kExpP[0]);
  for (int i = 1; i < 6; ++i) p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(kExpP[i]));
  p = _mm512_fmadd_ps(p, _mm512_mul_ps(r, r), _mm512_add_ps(r, _mm512_set1_ps(1.0f)));
  const __m512i bias = _mm512_set1_epi32(127);
  __m512i scale = _mm512_add_epi32(_mm512_mask_cvtps_epi32(bias, kAll, n), bias);
  scale = _mm512_mask_slli_epi32(scale, kAll, scale, 23);
  return _mm512_mul_ps(p, _mm512_castsi512_ps(scale));
}

ONNXMICRO_DETAIL_VECTOR_MATH_AVX512 inline __m512 sigmoid_avx512(__m512 x) noexcept {
  const __m512 one = _mm512_set1_ps(1.0f);
  const __m512 y = _mm512_div_ps(one, _mm512_add_ps(one, exp_avx512(_mm512_sub_ps(_mm512_setzero_ps(), x))));
  return _mm512_mask_blend_ps(_mm512_cmp_ps_mask(x, x, _CMP_UNORD_Q), y, x);
}

ONNXMICRO_DETAIL_VECTOR_MATH_AVX512 inline __m512 tanh_avx512(__m512 x) noexcept {
  const __m512i sign = _mm512_set1_epi32(static_cast<int>(0x80000000u));
  const __m512i bits = _mm512_castps_si512(x);
  const __m512 magnitude = _mm512_castsi512_ps(_mm512_mask_andnot_epi32(bits, kAll, sign, bits));
  const __m512 z = _mm512_mul_ps(x, x);
  __m512 p = _mm512_set1_ps(kTanhP[0]);
  for (int i = 1; i < 5; ++i) p = _mm512_fmadd_ps(p, z, _mm512_set1_ps(kTanhP[i]));
  const __m512 small = _mm512_fmadd_ps(_mm512_mul_ps(p, z), x, x);
  const __m512 one = _mm512_set1_ps(1.0f);
  const __m512 e = exp_avx512(_mm512_add_ps(magnitude, magnitude));
  const __m512i unsigned_large =
      _mm512_castps_si512(_mm512_sub_ps(one, _mm512_div_ps(_mm512_set1_ps(2.0f), _mm512_add_ps(e, one))));
  const __m512i x_sign = _mm512_mask_and_epi32(bits, kAll, bits, sign);
  const __m512 large = _mm512_castsi512_ps(_mm512_mask_or_epi32(x_sign, kAll, unsigned_large, x_sign));
  const __m512 y =
      _mm512_mask_blend_ps(_mm512_cmp_ps_mask(magnitude, _mm512_set1_ps(kTanhSmall), _CMP_LT_OQ), large, small);
  return _mm512_mask_blend_ps(_mm512_cmp_ps_mask(x, x, _CMP_UNORD_Q), y, x);
}

ONNXMICRO_DETAIL_VECTOR_MATH_AVX512 inline __m512 erf_avx512(__m512 x) noexcept {
  const __m512i sign = _mm512_set1_epi32(static_cast<int>(0x80000000u));
  const __m512i bits = _mm512_castps_si512(x);
  const __m512 magnitude = _mm512_castsi512_ps(_mm512_mask_andnot_epi32(bits, kAll, sign, bits));
  const __m512 z = _mm512_mul_ps(x, x);
  __m512 series = _mm512_set1_ps(kErfSeries[kErfTerms - 1]);
  for (int i = kErfTerms - 2; i >= 0; --i) series = _mm512_fmadd_ps(series, z, _mm512_set1_ps(kErfSeries[i]));
  const __m512 small = _mm512_mul_ps(series, x);
  const __m512 one = _mm512_set1_ps(1.0f);
  const __m512 t = _mm512_div_ps(one, _mm512_fmadd_ps(_mm512_set1_ps(kErfP), magnitude, one));
  __m512 p = _mm512_set1_ps(kErfA[4]);
  for (int i = 3; i >= 0; --i) p = _mm512_fmadd_ps(p, t, _mm512_set1_ps(kErfA[i]));
  const __m512 tail = _mm512_mul_ps(_mm512_mul_ps(p, t), exp_avx512(_mm512_sub_ps(_mm512_setzero_ps(), z)));
  const __m512i x_sign = _mm512_mask_and_epi32(bits, kAll, bits, sign);
  const __m512i unsigned_large = _mm512_castps_si512(_mm512_sub_ps(one, tail));
  const __m512 large = _mm512_castsi512_ps(_mm512_mask_or_epi32(x_sign, kAll, unsigned_large, x_sign));
  const __m512 y =
      _mm512_mask_blend_ps(_mm512_cmp_ps_mask(magnitude, _mm512_set1_ps(kErfSmall), _CMP_LT_OQ), large, small);
  return _mm512_mask_blend_ps(_mm512_cmp_ps_mask(x, x, _CMP_UNORD_Q), y, x);
}

ONNXMICRO_DETAIL_VECTOR_MATH_AVX512 inline __m512 exp_or_nan_avx512(__m512 x) noexcept {
  return _mm512_mask_blend_ps(_mm512_cmp_ps_mask(x, x, _CMP_UNORD_Q), exp_avx512(x), x);
}

template <__m512 (*F)(__m512) noexcept>
ONNXMICRO_DETAIL_VECTOR_MATH_AVX512 inline void apply_avx512(const float* x, float* y, std::int64_t n) noexcept {
  std::int64_t i = 0;
  for (; i + 16 <= n; i += 16) _mm512_storeu_ps(y + i, F(_mm512_loadu_ps(x + i)));
  if (i == n) return;
  const __mmask16 mask = static_cast<__mmask16>((1u << (n - i)) - 1u);
  _mm512_mask_storeu_ps(y + i, mask, F(_mm512_maskz_loadu_ps(mask, x + i)));
}

}  // namespace x86
#endif  // ONNXMICRO_ENABLE_ISA_DISPATCH

/// y[i] = exp(x[i]) for i < n (y may be x). On AVX2/AVX-512 arguments beyond [-87.34, 88.38] saturate (to
/// 1.2e-38 and 2.4e38: no denormals, no infinity), which callers such as Softmax (arguments <= 0) never notice.
inline void exp(Isa isa, const float* x, float* y, std::int64_t n) noexcept {
#if ONNXMICRO_ENABLE_ISA_DISPATCH
  if (isa == Isa::avx512) return x86::apply_avx512<x86::exp_or_nan_avx512>(x, y, n);
  if (isa == Isa::avx2) return x86::apply_avx2<x86::exp_or_nan_avx2>(x, y, n);
#endif
  static_cast<void>(isa);
  for (std::int64_t i = 0; i < n; ++i) y[i] = std::exp(x[i]);
}

/// y[i] = 1 / (1 + exp(-x[i])) for i < n (y may be x).
inline void sigmoid(Isa isa, const float* x, float* y, std::int64_t n) noexcept {
#if ONNXMICRO_ENABLE_ISA_DISPATCH
  if (isa == Isa::avx512) return x86::apply_avx512<x86::sigmoid_avx512>(x, y, n);
  if (isa == Isa::avx2) return x86::apply_avx2<x86::sigmoid_avx2>(x, y, n);
#endif
  static_cast<void>(isa);
  for (std::int64_t i = 0; i < n; ++i) y[i] = 1.0f / (1.0f + std::exp(-x[i]));
}

/// y[i] = tanh(x[i]) for i < n (y may be x).
inline void tanh(Isa isa, const float* x, float* y, std::int64_t n) noexcept {
#if ONNXMICRO_ENABLE_ISA_DISPATCH
  if (isa == Isa::avx512) return x86::apply_avx512<x86::tanh_avx512>(x, y, n);
  if (isa == Isa::avx2) return x86::apply_avx2<x86::tanh_avx2>(x, y, n);
#endif
  static_cast<void>(isa);
  for (std::int64_t i = 0; i < n; ++i) y[i] = std::tanh(x[i]);
}

/// y[i] = erf(x[i]) for i < n (y may be x).
inline void erf(Isa isa, const float* x, float* y, std::int64_t n) noexcept {
#if ONNXMICRO_ENABLE_ISA_DISPATCH
  if (isa == Isa::avx512) return x86::apply_avx512<x86::erf_avx512>(x, y, n);
  if (isa == Isa::avx2) return x86::apply_avx2<x86::erf_avx2>(x, y, n);
#endif
  static_cast<void>(isa);
  for (std::int64_t i = 0; i < n; ++i) y[i] = std::erf(x[i]);
}

}  // namespace vector_math
}  // namespace kernels
ONNXMICRO_NAMESPACE_END
