// SPDX-License-Identifier: MIT
// Div: y = a / b elementwise. Integer division truncates toward zero (like C); see DivOp for x / 0.
// Versions: 1 and 6 broadcast only with the legacy `broadcast`/`axis` attributes (1 also had
// `consumed_inputs`, ignored); 7 switched to numpy broadcasting; 13 (bfloat16) and 14 (8/16-bit integers)
// only widened the dtype list, so two kernels cover every version; both accept every numeric dtype.
#pragma once
#include "onnxmicro/kernels/common/elementwise.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

/// The arithmetic of Div, on compute types (float for float16/bfloat16). Floats follow IEEE 754 (x / 0 is
/// inf or NaN). Integer division truncates toward zero as ONNX specifies; the cases C leaves undefined get
/// defined results instead of a crash: x / 0 = 0, and MIN / -1 wraps to MIN (like the other integer ops).
struct DivOp {
  static constexpr std::string_view kOpType = "Div";
  template <typename C>
  static C apply(C a, C b) noexcept {
    if constexpr (std::is_integral_v<C>) {
      if (b == 0) return C(0);
      if constexpr (std::is_signed_v<C>) {
        if (b == C(-1)) return wrapping_sub(C(0), a);
      }
      return static_cast<C>(a / b);
    } else {
      return a / b;
    }
  }
};

// Opset 1-6: legacy broadcasting (attribute broadcast=1 repeats input B over input A at `axis`).
using Div_1 = VersionedKernel<BinaryElementwise<DivOp, NumericTypes>, 1, 7>;

// Opset 7+: numpy (multidirectional) broadcasting.
using Div_7 = VersionedKernel<BinaryElementwise<DivOp, NumericTypes>, 7>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
