// SPDX-License-Identifier: MIT
// Swish: y = x * sigmoid(alpha * x) (attribute alpha, default 1). New in opset 24; float16/bfloat16 compute in
// float32 and round once.
#pragma once
#include <cmath>

#include "onnxmicro/kernels/common/elementwise.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

/// The function of Swish, on compute types (float for float16/bfloat16); SwiGLU gates with it too.
struct SwishOp {
  static constexpr std::string_view kOpType = "Swish";
  struct Params {
    float alpha;
    static Status parse(const PrepareContext& ctx, Params& params) noexcept {
      return ctx.attribute("alpha", params.alpha, 1.0f);
    }
  };
  template <typename C>
  static C apply(C x, const Params& params) noexcept {
    return x * (C(1) / (C(1) + std::exp(-static_cast<C>(params.alpha) * x)));
  }
};

// Opset 24: first version.
using Swish_24 = VersionedKernel<UnaryElementwise<SwishOp, FloatTypes>, 24>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
