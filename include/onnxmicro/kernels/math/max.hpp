// SPDX-License-Identifier: MIT
// Max: y = the largest of x0, x1, ... elementwise over one or more inputs; NaN propagates (numpy's
// maximum, the reference's behaviour).
// Versions: 1 (with `consumed_inputs`, ignored) and 6 required equal input shapes; 8 added numpy
// broadcasting over all inputs; 12 (integers) and 13 (bfloat16) only widened the dtype list. So two kernels
// cover every version; both accept every numeric dtype.
#pragma once
#include <type_traits>

#include "onnxmicro/kernels/math/sum.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

struct MaxOp {
  static constexpr std::string_view kOpType = "Max";
  static constexpr bool kMean = false;
  template <typename C>
  static C apply(C a, C b) noexcept {
    if constexpr (std::is_floating_point_v<C>) {
      if (a != a) return a;  // NaN wins
      if (b != b) return b;
    }
    return a < b ? b : a;
  }
};

// Opset 1-7: every input has the same shape.
using Max_1 = VersionedKernel<VariadicElementwise<MaxOp, NumericTypes>, 1, 8>;

// Opset 8+: numpy broadcasting over all inputs.
using Max_8 = VersionedKernel<VariadicElementwise<MaxOp, NumericTypes>, 8>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
