// SPDX-License-Identifier: MIT
// HardSigmoid: y = max(0, min(1, alpha * x + beta)) (attributes alpha, default 0.2, and beta, default 0.5).
// Versions 1 (with the ignored legacy `consumed_inputs`), 6 and 22 (bfloat16 added) compute the same thing: one
// kernel serves all. Also defines hard_sigmoid(), shared with HardSwish.
#pragma once
#include "onnxmicro/kernels/common/elementwise.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

/// max(0, min(1, alpha * x + beta)); NaN stays NaN (as numpy's clip), which std::min/std::max would not keep.
template <typename C>
inline C hard_sigmoid(C x, C alpha, C beta) noexcept {
  const C v = alpha * x + beta;
  if (v < C(0)) return C(0);
  if (v > C(1)) return C(1);
  return v;
}

/// The function of HardSigmoid, on compute types (float for float16/bfloat16).
struct HardSigmoidOp {
  static constexpr std::string_view kOpType = "HardSigmoid";
  struct Params {
    float alpha;
    float beta;
    static Status parse(const PrepareContext& ctx, Params& params) noexcept {
      ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("alpha", params.alpha, 0.2f));
      return ctx.attribute("beta", params.beta, 0.5f);
    }
  };
  template <typename C>
  static C apply(C x, const Params& params) noexcept {
    return hard_sigmoid(x, static_cast<C>(params.alpha), static_cast<C>(params.beta));
  }
};

// Opset 1+: unchanged semantics (6 dropped consumed_inputs, 22 added bfloat16).
using HardSigmoid_1 = VersionedKernel<UnaryElementwise<HardSigmoidOp, FloatTypes>, 1>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
