// SPDX-License-Identifier: MIT
// Softsign: y = x / (1 + |x|). Versions 1 and 22 (bfloat16 added) compute the same thing: one kernel serves all.
#pragma once
#include <cmath>

#include "onnxmicro/kernels/common/elementwise.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

/// The function of Softsign, on compute types (float for float16/bfloat16).
struct SoftsignOp {
  static constexpr std::string_view kOpType = "Softsign";
  using Params = NoParams;
  template <typename C>
  static C apply(C x, const Params&) noexcept {
    return x / (C(1) + std::fabs(x));
  }
};

// Opset 1+: unchanged semantics (22 added bfloat16).
using Softsign_1 = VersionedKernel<UnaryElementwise<SoftsignOp, FloatTypes>, 1>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
