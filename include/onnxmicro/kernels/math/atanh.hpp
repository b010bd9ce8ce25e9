// SPDX-License-Identifier: MIT
// Atanh: y = artanh(x) (NaN outside [-1, 1], +-inf at +-1). Versions 9 and 22 (bfloat16 added) compute the same
// thing: one kernel serves all.
#pragma once
#include <cmath>

#include "onnxmicro/kernels/common/elementwise.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

/// The function of Atanh, on compute types (float for float16/bfloat16).
struct AtanhOp {
  static constexpr std::string_view kOpType = "Atanh";
  using Params = NoParams;
  template <typename C>
  static C apply(C x, const Params&) noexcept {
    return std::atanh(x);
  }
};

// Opset 9+: unchanged semantics (22 added bfloat16).
using Atanh_9 = VersionedKernel<UnaryElementwise<AtanhOp, FloatTypes>, 9>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
