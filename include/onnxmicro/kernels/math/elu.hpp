// SPDX-License-Identifier: MIT
// Elu: y = x for x >= 0, alpha * (exp(x) - 1) otherwise (attribute alpha, default 1). Versions 1 (with the
// ignored legacy `consumed_inputs`), 6 and 22 (bfloat16 added) compute the same thing: one kernel serves all.
#pragma once
#include <cmath>

#include "onnxmicro/kernels/common/elementwise.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

/// The function of Elu, on compute types (float for float16/bfloat16).
struct EluOp {
  static constexpr std::string_view kOpType = "Elu";
  struct Params {
    float alpha;
    static Status parse(const PrepareContext& ctx, Params& params) noexcept {
      return ctx.attribute("alpha", params.alpha, 1.0f);
    }
  };
  template <typename C>
  static C apply(C x, const Params& params) noexcept {
    // expm1 keeps the relative precision of exp(x) - 1 for x near 0; NaN takes the x branch.
    return x < C(0) ? static_cast<C>(params.alpha) * std::expm1(x) : x;
  }
};

// Opset 1+: unchanged semantics (6 dropped consumed_inputs, 22 added bfloat16).
using Elu_1 = VersionedKernel<UnaryElementwise<EluOp, FloatTypes>, 1>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
