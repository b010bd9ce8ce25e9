// SPDX-License-Identifier: MIT
// Selu: y = gamma * x for x > 0, gamma * (alpha * exp(x) - alpha) otherwise (attributes alpha, default
// 1.67326319217681884765625, and gamma, default 1.05070102214813232421875: the float32 values of the
// self-normalising constants). Versions 1 (with the ignored legacy `consumed_inputs`), 6 and 22 (bfloat16 added)
// compute the same thing: one kernel serves all.
#pragma once
#include <cmath>

#include "onnxmicro/kernels/common/elementwise.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

/// The function of Selu, on compute types (float for float16/bfloat16).
struct SeluOp {
  static constexpr std::string_view kOpType = "Selu";
  struct Params {
    float alpha;
    float gamma;
    static Status parse(const PrepareContext& ctx, Params& params) noexcept {
      ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("alpha", params.alpha, 1.67326319217681884765625f));
      return ctx.attribute("gamma", params.gamma, 1.05070102214813232421875f);
    }
  };
  template <typename C>
  static C apply(C x, const Params& params) noexcept {
    const C gamma = static_cast<C>(params.gamma);
    return x > C(0) ? gamma * x : gamma * (static_cast<C>(params.alpha) * std::expm1(x));  // NaN: exp branch, NaN
  }
};

// Opset 1+: unchanged semantics (6 dropped consumed_inputs, 22 added bfloat16).
using Selu_1 = VersionedKernel<UnaryElementwise<SeluOp, FloatTypes>, 1>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
