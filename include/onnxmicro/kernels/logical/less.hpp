// SPDX-License-Identifier: MIT
// Less: y = (a < b) elementwise, bool output; any comparison with NaN is false.
// Versions: 1 broadcasts with the legacy `broadcast`/`axis` attributes; 7 switched to numpy broadcasting;
// 9 (integers) and 13 (bfloat16) only widened the dtype list, so two kernels cover every version.
#pragma once
#include "onnxmicro/kernels/common/elementwise.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

struct LessOp {
  static constexpr std::string_view kOpType = "Less";
  template <typename C>
  static bool apply(C a, C b) noexcept {
    return a < b;
  }
};

// Opset 1-6: legacy broadcasting (attribute broadcast=1 repeats input B over input A at `axis`).
using Less_1 = VersionedKernel<BinaryElementwise<LessOp, NumericTypes>, 1, 7>;

// Opset 7+: numpy (multidirectional) broadcasting.
using Less_7 = VersionedKernel<BinaryElementwise<LessOp, NumericTypes>, 7>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
