// SPDX-License-Identifier: MIT
// Tan: y = tan(x). Versions 7 and 22 (bfloat16 added) compute the same thing: one kernel serves all.
#pragma once
#include <cmath>

#include "onnxmicro/kernels/common/elementwise.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

/// The function of Tan, on compute types (float for float16/bfloat16).
struct TanOp {
  static constexpr std::string_view kOpType = "Tan";
  using Params = NoParams;
  template <typename C>
  static C apply(C x, const Params&) noexcept {
    return std::tan(x);
  }
};

// Opset 7+: unchanged semantics (22 added bfloat16).
using Tan_7 = VersionedKernel<UnaryElementwise<TanOp, FloatTypes>, 7>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
