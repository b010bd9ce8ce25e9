// SPDX-License-Identifier: MIT
// Strided float copies: dst[i] = src[i * stride]. Conv's im2col gathers a strided conv's input this way, a short run
// (one 16-column strip) per call; element by element it cost four cycles a value and a third of a 7x7 stride-2 first
// conv's time. Stride 2 on AVX2 (also the AVX-512 level) de-interleaves 8 values from two loads instead.
#pragma once
#include <cstdint>
#include <cstring>

#include "onnxmicro/core/isa.hpp"

#if ONNXMICRO_ENABLE_ISA_DISPATCH
#include <immintrin.h>
#endif

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {
namespace strided_copy {

inline void copy_portable(float* dst, const float* src, std::int64_t count, std::int64_t stride) noexcept {
  for (std::int64_t i = 0; i < count; ++i) dst[i] = src[i * stride];
}

#if ONNXMICRO_ENABLE_ISA_DISPATCH
/// Stride 2: src[0], src[2], ..., src[14] from src[0..7] and src[7..14] (the second load ends at the last value it
/// needs, so no call reads past src[(count - 1) * 2]).
__attribute__((target("avx2"))) inline void copy_stride2_avx2(float* dst, const float* src,
                                                              std::int64_t count) noexcept {
  std::int64_t i = 0;
  for (; i + 8 <= count; i += 8) {
    const float* s = src + 2 * i;
    // lanes: s0 s2 s8 s10 | s4 s6 s12 s14, then the 64-bit pairs reordered
    const __m256 mixed = _mm256_shuffle_ps(_mm256_loadu_ps(s), _mm256_loadu_ps(s + 7), 0xd8);
    _mm256_storeu_ps(dst + i, _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(mixed), 0xd8)));
  }
  for (; i < count; ++i) dst[i] = src[2 * i];
}
#endif

/// dst[i] = src[i * stride] for i in [0, count), with `isa`'s vectors where it has a path for the stride.
inline void copy(Isa isa, float* dst, const float* src, std::int64_t count, std::int64_t stride) noexcept {
#if ONNXMICRO_ENABLE_ISA_DISPATCH
  if (stride == 2 && isa != Isa::baseline) {
    copy_stride2_avx2(dst, src, count);
    return;
  }
#endif
  static_cast<void>(isa);
  copy_portable(dst, src, count, stride);
}

/// One zero-padded row stored as its `stride` phases, `phase_floats` floats each (Conv's padded bands, Winograd's
/// even and odd columns): float q of phase p is line[q * stride + p - pad_begin], zero where that is outside
/// [0, width) and everywhere when `line` is null (a padding row).
inline void fill_phases(Isa isa, const float* line, std::int64_t width, std::int64_t pad_begin, std::int64_t stride,
                        std::int64_t phase_floats, float* out) noexcept {
  for (std::int64_t phase = 0; phase < stride; ++phase, out += phase_floats) {
    // Floats [lo, hi) of this phase read input columns lo * stride + shift onwards.
    const std::int64_t shift = phase - pad_begin;
    std::int64_t lo = shift >= 0 ? 0 : (-shift + stride - 1) / stride;
    std::int64_t hi = width - shift <= 0 ? 0 : (width - shift - 1) / stride + 1;
    if (hi > phase_floats) hi = phase_floats;
    if (line == nullptr) hi = 0;
    if (lo > hi) lo = hi;
    if (lo > 0) std::memset(out, 0, static_cast<std::size_t>(lo) * sizeof(float));
    if (hi > lo && stride == 1) {
      std::memcpy(out + lo, line + lo + shift, static_cast<std::size_t>(hi - lo) * sizeof(float));
    } else if (hi > lo) {
      copy(isa, out + lo, line + lo * stride + shift, hi - lo, stride);
    }
    if (phase_floats > hi) std::memset(out + hi, 0, static_cast<std::size_t>(phase_floats - hi) * sizeof(float));
  }
}

}  // namespace strided_copy
}  // namespace kernels
ONNXMICRO_NAMESPACE_END
