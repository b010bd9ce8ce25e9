// SPDX-License-Identifier: MIT
// Strided float copies: dst[i] = src[i * stride]. Conv's im2col gathers a strided conv's input this way, a short run
// (one 16-column strip) per call; element by element it cost four cycles a value and a third of a 7x7 stride-2 first
// conv's time. Stride 2 on AVX2 (also the AVX-512 level) de-interleaves 8 values from two loads instead.
#pragma once
#include <cstdint>

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

}  // namespace strided_copy
}  // namespace kernels
ONNXMICRO_NAMESPACE_END
