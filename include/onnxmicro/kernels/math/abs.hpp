// SPDX-License-Identifier: MIT
// Abs: y = |x|. Versions 1 (floats, with the ignored legacy `consumed_inputs`), 6 (integers added) and 13
// (bfloat16 added) compute the same thing: one kernel serves all. Signed integers wrap like numpy
// (|INT_MIN| = INT_MIN), without signed-overflow UB.
#pragma once
#include <cmath>
#include <type_traits>

#include "onnxmicro/kernels/common/elementwise.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

/// The function of Abs, on compute types (float for float16/bfloat16).
struct AbsOp {
  static constexpr std::string_view kOpType = "Abs";
  using Params = NoParams;
  template <typename C>
  static C apply(C x, const Params&) noexcept {
    if constexpr (std::is_floating_point_v<C>) {
      return std::fabs(x);  // clears the sign of -0 and NaN too
    } else if constexpr (std::is_signed_v<C>) {
      return x < C(0) ? wrapping_sub(C(0), x) : x;
    } else {
      return x;
    }
  }
};

// Opset 1+: unchanged semantics (6 dropped consumed_inputs and added integers, 13 added bfloat16).
using Abs_1 = VersionedKernel<UnaryElementwise<AbsOp, NumericTypes>, 1>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
