// SPDX-License-Identifier: MIT
// Sinh: y = sinh(x). Versions 9 and 22 (bfloat16 added) compute the same thing: one kernel serves all.
#pragma once
#include <cmath>

#include "onnxmicro/kernels/common/elementwise.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

/// The function of Sinh, on compute types (float for float16/bfloat16).
struct SinhOp {
  static constexpr std::string_view kOpType = "Sinh";
  using Params = NoParams;
  template <typename C>
  static C apply(C x, const Params&) noexcept {
    return std::sinh(x);
  }
};

// Opset 9+: unchanged semantics (22 added bfloat16).
using Sinh_9 = VersionedKernel<UnaryElementwise<SinhOp, FloatTypes>, 9>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
