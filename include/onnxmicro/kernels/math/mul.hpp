// SPDX-License-Identifier: MIT
// Mul: y = a * b elementwise. Integers wrap around like numpy.
// Versions: 1 and 6 broadcast only with the legacy `broadcast`/`axis` attributes (1 also had
// `consumed_inputs`, ignored); 7 switched to numpy broadcasting; 13 (bfloat16) and 14 (8/16-bit integers)
// only widened the dtype list, so two kernels cover every version; both accept every numeric dtype.
#pragma once
#include "onnxmicro/kernels/common/elementwise.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

/// The arithmetic of Mul, on compute types (float for float16/bfloat16).
struct MulOp {
  static constexpr std::string_view kOpType = "Mul";
  template <typename C>
  static C apply(C a, C b) noexcept {
    if constexpr (std::is_integral_v<C>) {
      return wrapping_mul(a, b);
    } else {
      return a * b;
    }
  }
};

// Opset 1-6: legacy broadcasting (attribute broadcast=1 repeats input B over input A at `axis`).
using Mul_1 = VersionedKernel<BinaryElementwise<MulOp, NumericTypes>, 1, 7>;

// Opset 7+: numpy (multidirectional) broadcasting.
using Mul_7 = VersionedKernel<BinaryElementwise<MulOp, NumericTypes>, 7>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
