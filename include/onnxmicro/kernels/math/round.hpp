// SPDX-License-Identifier: MIT
// Round: y = x rounded to the nearest integer, halves to the even one (numpy's round; 2.5 -> 2, -1.5 -> -2).
// Versions 11 and 22 (bfloat16 added) compute the same thing: one kernel serves both.
#pragma once
#include <cmath>

#include "onnxmicro/kernels/common/elementwise.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

/// The function of Round, on compute types (float for float16/bfloat16).
struct RoundOp {
  static constexpr std::string_view kOpType = "Round";
  using Params = NoParams;
  template <typename C>
  static C apply(C x, const Params&) noexcept {
    // Spelled out instead of std::nearbyint so the result does not depend on the floating-point environment's
    // rounding mode. x - trunc(x) is exact, so the halfway test is too; -0.5 gives -0 like numpy.
    const C away = std::round(x);
    if (std::fabs(x - std::trunc(x)) != C(0.5)) return away;
    return C(2) * std::round(x / C(2));
  }
};

// Opset 11+: unchanged semantics (22 added bfloat16).
using Round_11 = VersionedKernel<UnaryElementwise<RoundOp, FloatTypes>, 11>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
