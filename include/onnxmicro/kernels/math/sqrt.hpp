// SPDX-License-Identifier: MIT
// Sqrt: y = sqrt(x) (NaN below 0, as IEEE). Versions 1 (with the ignored legacy `consumed_inputs`), 6 and 13
// (bfloat16 added) compute the same thing: one kernel serves all.
#pragma once
#include <cmath>

#include "onnxmicro/kernels/common/elementwise.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

/// The function of Sqrt, on compute types (float for float16/bfloat16).
struct SqrtOp {
  static constexpr std::string_view kOpType = "Sqrt";
  using Params = NoParams;
  template <typename C>
  static C apply(C x, const Params&) noexcept {
    return std::sqrt(x);
  }
};

// Opset 1+: unchanged semantics (6 dropped consumed_inputs, 13 added bfloat16).
using Sqrt_1 = VersionedKernel<UnaryElementwise<SqrtOp, FloatTypes>, 1>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
