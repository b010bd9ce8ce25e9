// SPDX-License-Identifier: MIT
// Cosh: y = cosh(x). Versions 9 and 22 (bfloat16 added) compute the same thing: one kernel serves all.
#pragma once
#include <cmath>

#include "onnxmicro/kernels/common/elementwise.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

/// The function of Cosh, on compute types (float for float16/bfloat16).
struct CoshOp {
  static constexpr std::string_view kOpType = "Cosh";
  using Params = NoParams;
  template <typename C>
  static C apply(C x, const Params&) noexcept {
    return std::cosh(x);
  }
};

// Opset 9+: unchanged semantics (22 added bfloat16).
using Cosh_9 = VersionedKernel<UnaryElementwise<CoshOp, FloatTypes>, 9>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
