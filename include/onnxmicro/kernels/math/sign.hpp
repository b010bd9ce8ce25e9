// SPDX-License-Identifier: MIT
// Sign: y = -1, 0 or 1 by the sign of x, like numpy.sign: NaN stays NaN and -0 gives +0. Versions 9 and 13
// (bfloat16 added) compute the same thing: one kernel serves both.
#pragma once
#include <type_traits>

#include "onnxmicro/kernels/common/elementwise.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

/// The function of Sign, on compute types (float for float16/bfloat16).
struct SignOp {
  static constexpr std::string_view kOpType = "Sign";
  using Params = NoParams;
  template <typename C>
  static C apply(C x, const Params&) noexcept {
    if constexpr (std::is_floating_point_v<C>) {
      if (x > C(0)) return C(1);
      if (x < C(0)) return C(-1);
      return x == C(0) ? C(0) : x;  // NaN falls through the comparisons and is returned as is
    } else if constexpr (std::is_signed_v<C>) {
      return static_cast<C>((x > C(0)) - (x < C(0)));
    } else {
      return static_cast<C>(x != C(0));
    }
  }
};

// Opset 9+: unchanged semantics (13 added bfloat16).
using Sign_9 = VersionedKernel<UnaryElementwise<SignOp, NumericTypes>, 9>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
