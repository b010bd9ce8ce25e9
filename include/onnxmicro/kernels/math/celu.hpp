// SPDX-License-Identifier: MIT
// Celu: y = max(0, x) + min(0, alpha * (exp(x / alpha) - 1)) (attribute alpha, default 1, must not be 0).
// Version 12 allowed float only; 28 added float16, bfloat16 and double. Same formula: one kernel serves both.
#pragma once
#include <cmath>

#include "onnxmicro/kernels/common/elementwise.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

/// The function of Celu, on compute types (float for float16/bfloat16).
struct CeluOp {
  static constexpr std::string_view kOpType = "Celu";
  struct Params {
    float alpha;
    static Status parse(const PrepareContext& ctx, Params& params) noexcept {
      ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("alpha", params.alpha, 1.0f));
      if (params.alpha == 0.0f) {
        return Status(StatusCode::invalid_model) << "attribute 'alpha' is 0, expected a non-zero value (x / alpha)";
      }
      return {};
    }
  };
  template <typename C>
  static C apply(C x, const Params& params) noexcept {
    // For x >= 0 the min() term is 0 when alpha > 0; computing both terms keeps negative alpha exact too.
    if (x != x) return x;  // NaN propagates like numpy's maximum/minimum
    const C alpha = static_cast<C>(params.alpha);
    const C positive = x > C(0) ? x : C(0);
    const C curve = alpha * std::expm1(x / alpha);
    const C negative = curve < C(0) ? curve : C(0);
    return positive + negative;
  }
};

// Opset 12+: unchanged semantics (28 added float16, bfloat16 and double).
using Celu_12 = VersionedKernel<UnaryElementwise<CeluOp, FloatTypes>, 12>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
