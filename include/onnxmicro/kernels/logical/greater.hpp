// SPDX-License-Identifier: MIT
// Greater: y = (a > b) elementwise, bool output; any comparison with NaN is false.
// Versions: 1 broadcasts with the legacy `broadcast`/`axis` attributes; 7 switched to numpy broadcasting;
// 9 (integers) and 13 (bfloat16) only widened the dtype list, so two kernels cover every version.
#pragma once
#include "onnxmicro/kernels/common/elementwise.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

struct GreaterOp {
  template <typename C>
  static bool apply(C a, C b) noexcept {
    return a > b;
  }
};

// Opset 1-6: legacy broadcasting (attribute broadcast=1 repeats input B over input A at `axis`).
struct Greater_1 : KernelDefaults, BinaryElementwise<GreaterOp, NumericTypes, BinaryBroadcast::legacy> {
  static constexpr std::string_view kDomain = "";
  static constexpr std::string_view kOpType = "Greater";
  static constexpr int kSinceVersion = 1;
  static constexpr int kUntilVersion = 7;
};

// Opset 7+: numpy (multidirectional) broadcasting.
struct Greater_7 : KernelDefaults, BinaryElementwise<GreaterOp, NumericTypes> {
  static constexpr std::string_view kDomain = "";
  static constexpr std::string_view kOpType = "Greater";
  static constexpr int kSinceVersion = 7;
};

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
