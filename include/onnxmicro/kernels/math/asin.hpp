// SPDX-License-Identifier: MIT
// Asin: y = arcsin(x) (NaN outside [-1, 1]). Versions 7 and 22 (bfloat16 added) compute the same thing: one kernel
// serves all.
#pragma once
#include <cmath>

#include "onnxmicro/kernels/common/elementwise.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

/// The function of Asin, on compute types (float for float16/bfloat16).
struct AsinOp {
  static constexpr std::string_view kOpType = "Asin";
  using Params = NoParams;
  template <typename C>
  static C apply(C x, const Params&) noexcept {
    return std::asin(x);
  }
};

// Opset 7+: unchanged semantics (22 added bfloat16).
using Asin_7 = VersionedKernel<UnaryElementwise<AsinOp, FloatTypes>, 7>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
