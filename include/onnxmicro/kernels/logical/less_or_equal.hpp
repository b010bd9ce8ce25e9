// SPDX-License-Identifier: MIT
// LessOrEqual: y = (a <= b) elementwise, bool output; any comparison with NaN is false.
// Versions: 12 introduced it with numpy broadcasting; 16 only added bfloat16, so one kernel covers every version.
#pragma once
#include "onnxmicro/kernels/common/elementwise.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

struct LessOrEqualOp {
  static constexpr std::string_view kOpType = "LessOrEqual";
  template <typename C>
  static bool apply(C a, C b) noexcept {
    return a <= b;
  }
};

// Opset 12+: numpy (multidirectional) broadcasting.
using LessOrEqual_12 = VersionedKernel<BinaryElementwise<LessOrEqualOp, NumericTypes>, 12>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
