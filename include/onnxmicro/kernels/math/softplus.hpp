// SPDX-License-Identifier: MIT
// Softplus: y = ln(exp(x) + 1). Versions 1 and 22 (bfloat16 added) compute the same thing: one kernel serves
// both. Also defines softplus(), shared with Mish.
#pragma once
#include <cmath>

#include "onnxmicro/kernels/common/elementwise.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

/// ln(1 + exp(x)) without overflow: for x > 0 it is x + ln(1 + exp(-x)), so exp never sees a positive argument
/// (the naive form gives inf from x ~ 89 in float). NaN stays NaN.
template <typename C>
inline C softplus(C x) noexcept {
  return x > C(0) ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x));
}

/// The function of Softplus, on compute types (float for float16/bfloat16).
struct SoftplusOp {
  static constexpr std::string_view kOpType = "Softplus";
  using Params = NoParams;
  template <typename C>
  static C apply(C x, const Params&) noexcept {
    return softplus(x);
  }
};

// Opset 1+: unchanged semantics (22 added bfloat16).
using Softplus_1 = VersionedKernel<UnaryElementwise<SoftplusOp, FloatTypes>, 1>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
