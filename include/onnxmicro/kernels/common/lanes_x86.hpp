// SPDX-License-Identifier: MIT
// Partial-vector stores for the AVX2 kernels. A masked store (vmaskmovps to memory) costs far more than a plain
// store on AMD's cores (measured on this project's EPYC: a 7x7 depthwise conv spent two thirds of its time after the
// masked store of each row's last lanes), so a row's last lanes are stored in pieces of 4, 2 and 1 floats instead;
// masked loads stay (they are cheap).
#pragma once
#include "onnxmicro/core/config.hpp"

#if ONNXMICRO_ENABLE_ISA_DISPATCH
#include <immintrin.h>

#include <cstdint>

#include "onnxmicro/core/version.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {
namespace lanes_x86 {

/// Stores lanes [0, count) of v at p (count in [0, 8]); nothing past p + count is written.
__attribute__((target("avx2,fma"))) inline void store_first(float* p, __m256 v, std::int64_t count) noexcept {
  if (count >= 8) {
    _mm256_storeu_ps(p, v);
    return;
  }
  __m128 part = _mm256_castps256_ps128(v);
  if (count >= 4) {
    _mm_storeu_ps(p, part);
    part = _mm256_extractf128_ps(v, 1);
    p += 4;
    count -= 4;
  }
  if (count >= 2) {
    _mm_storel_pi(reinterpret_cast<__m64*>(p), part);
    part = _mm_movehl_ps(part, part);
    p += 2;
    count -= 2;
  }
  if (count >= 1) _mm_store_ss(p, part);
}

}  // namespace lanes_x86
}  // namespace kernels
ONNXMICRO_NAMESPACE_END
#endif
