// SPDX-License-Identifier: MIT
// The clamp a Relu or Clip fused into the op before it applies to that op's outputs (runtime/activation_fusion.hpp,
// PrepareContext::fused_clamp): exactly what the removed node computed, so fusing never changes a number.
#pragma once
#include <cstdint>
#include <limits>

#include "onnxmicro/kernels/kernel_api.hpp"

#if ONNXMICRO_ENABLE_ISA_DISPATCH
#include <immintrin.h>
#endif

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

/// v < low ? low : v, then v > high ? high : v (Clip's order: high wins when low > high; NaN stays NaN, as in
/// Relu and Clip). A missing bound is -inf / +inf, as in Relu and Clip-11+ (infinities pass through).
/// A value-initialised OutputClamp is disabled (an aggregate: kernel states holding one stay zero-initialised).
struct OutputClamp {
  bool enabled;
  float low;
  float high;

  static OutputClamp from(const FusedClamp& fused) noexcept {
    constexpr float kInfinity = std::numeric_limits<float>::infinity();
    return OutputClamp{fused.present(), fused.has_min ? fused.min : -kInfinity, fused.has_max ? fused.max : kInfinity};
  }
  template <typename T>
  T apply(T v) const noexcept {
    const T lo = static_cast<T>(low), hi = static_cast<T>(high);
    v = v < lo ? lo : v;
    return v > hi ? hi : v;
  }
  /// Clamps `count` floats in place (a no-op when disabled).
  void apply_to(float* values, std::int64_t count) const noexcept {
    if (!enabled) return;
    for (std::int64_t i = 0; i < count; ++i) values[i] = apply(values[i]);
  }
};

#if ONNXMICRO_ENABLE_ISA_DISPATCH
/// OutputClamp::apply on 8 lanes, the bounds broadcast: max(low, v) then min(high, v), v where v is NaN. Every AVX2
/// kernel that fuses a clamp (GEMM tiles, depthwise rows) uses it.
__attribute__((target("avx2,fma"), always_inline)) inline __m256 clamp_lanes_avx2(__m256 v, __m256 lowest,
                                                                                  __m256 highest) noexcept {
  return _mm256_min_ps(highest, _mm256_max_ps(lowest, v));
}
#endif

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
