// SPDX-License-Identifier: MIT
// ThresholdedRelu: y = x for x > alpha, 0 otherwise (attribute alpha, default 1). Versions 10 and 22 (bfloat16
// added) compute the same thing: one kernel serves both.
#pragma once
#include "onnxmicro/kernels/common/elementwise.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

/// The function of ThresholdedRelu, on compute types (float for float16/bfloat16).
struct ThresholdedReluOp {
  static constexpr std::string_view kOpType = "ThresholdedRelu";
  struct Params {
    float alpha;
    static Status parse(const PrepareContext& ctx, Params& params) noexcept {
      return ctx.attribute("alpha", params.alpha, 1.0f);
    }
  };
  template <typename C>
  static C apply(C x, const Params& params) noexcept {
    return x > static_cast<C>(params.alpha) ? x : C(0);  // NaN -> 0, like the reference's where(x > alpha)
  }
};

// Opset 10+: unchanged semantics (22 added bfloat16).
using ThresholdedRelu_10 = VersionedKernel<UnaryElementwise<ThresholdedReluOp, FloatTypes>, 10>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
