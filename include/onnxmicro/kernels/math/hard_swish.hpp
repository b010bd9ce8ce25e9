// SPDX-License-Identifier: MIT
// HardSwish: y = x * max(0, min(1, x / 6 + 0.5)). Versions 14 and 22 (bfloat16 added) compute the same thing:
// one kernel serves both.
#pragma once
#include "onnxmicro/kernels/common/elementwise.hpp"
#include "onnxmicro/kernels/math/hard_sigmoid.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

/// The function of HardSwish, on compute types (float for float16/bfloat16).
struct HardSwishOp {
  static constexpr std::string_view kOpType = "HardSwish";
  using Params = NoParams;
  template <typename C>
  static C apply(C x, const Params&) noexcept {
    return x * hard_sigmoid(x, C(1) / C(6), C(0.5));
  }
};

// Opset 14+: unchanged semantics (22 added bfloat16).
using HardSwish_14 = VersionedKernel<UnaryElementwise<HardSwishOp, FloatTypes>, 14>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
