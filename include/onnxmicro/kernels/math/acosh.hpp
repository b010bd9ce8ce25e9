// SPDX-License-Identifier: MIT
// Acosh: y = arcosh(x) (NaN below 1). Versions 9 and 22 (bfloat16 added) compute the same thing: one kernel serves
// all.
#pragma once
#include <cmath>

#include "onnxmicro/kernels/common/elementwise.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

/// The function of Acosh, on compute types (float for float16/bfloat16).
struct AcoshOp {
  static constexpr std::string_view kOpType = "Acosh";
  using Params = NoParams;
  template <typename C>
  static C apply(C x, const Params&) noexcept {
    return std::acosh(x);
  }
};

// Opset 9+: unchanged semantics (22 added bfloat16).
using Acosh_9 = VersionedKernel<UnaryElementwise<AcoshOp, FloatTypes>, 9>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
