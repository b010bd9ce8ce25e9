// SPDX-License-Identifier: MIT
// Mish: y = x * tanh(softplus(x)) = x * tanh(ln(1 + exp(x))). Versions 18 and 22 (bfloat16 added) compute the
// same thing: one kernel serves both.
#pragma once
#include <cmath>

#include "onnxmicro/kernels/common/elementwise.hpp"
#include "onnxmicro/kernels/math/softplus.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

/// The function of Mish, on compute types (float for float16/bfloat16).
struct MishOp {
  static constexpr std::string_view kOpType = "Mish";
  using Params = NoParams;
  template <typename C>
  static C apply(C x, const Params&) noexcept {
    return x * std::tanh(softplus(x));
  }
};

// Opset 18+: unchanged semantics (22 added bfloat16).
using Mish_18 = VersionedKernel<UnaryElementwise<MishOp, FloatTypes>, 18>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
