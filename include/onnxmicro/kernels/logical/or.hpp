// SPDX-License-Identifier: MIT
// Or: y = a or b elementwise on bool tensors.
// Versions: 1 broadcasts with the legacy `broadcast`/`axis` attributes; 7 switched to numpy broadcasting.
#pragma once
#include "onnxmicro/kernels/common/elementwise.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

struct OrOp {
  static bool apply(bool a, bool b) noexcept { return a || b; }
};

// Opset 1-6: legacy broadcasting (attribute broadcast=1 repeats input B over input A at `axis`).
struct Or_1 : KernelDefaults, BinaryElementwise<OrOp, TypeList<bool>, BinaryBroadcast::legacy> {
  static constexpr std::string_view kDomain = "";
  static constexpr std::string_view kOpType = "Or";
  static constexpr int kSinceVersion = 1;
  static constexpr int kUntilVersion = 7;
};

// Opset 7+: numpy (multidirectional) broadcasting.
struct Or_7 : KernelDefaults, BinaryElementwise<OrOp, TypeList<bool>> {
  static constexpr std::string_view kDomain = "";
  static constexpr std::string_view kOpType = "Or";
  static constexpr int kSinceVersion = 7;
};

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
