// SPDX-License-Identifier: MIT
// GreaterOrEqual: y = (a >= b) elementwise, bool output; any comparison with NaN is false.
// Versions: 12 introduced it with numpy broadcasting; 16 only added bfloat16, so one kernel covers every version.
#pragma once
#include "onnxmicro/kernels/common/elementwise.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

struct GreaterOrEqualOp {
  template <typename C>
  static bool apply(C a, C b) noexcept {
    return a >= b;
  }
};

// Opset 12+: numpy (multidirectional) broadcasting.
struct GreaterOrEqual_12 : KernelDefaults, BinaryElementwise<GreaterOrEqualOp, NumericTypes> {
  static constexpr std::string_view kDomain = "";
  static constexpr std::string_view kOpType = "GreaterOrEqual";
  static constexpr int kSinceVersion = 12;
};

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
