// SPDX-License-Identifier: MIT
// Or: y = a or b elementwise on bool tensors.
// Versions: 1 broadcasts with the legacy `broadcast`/`axis` attributes; 7 switched to numpy broadcasting.
#pragma once
#include "onnxmicro/kernels/common/elementwise.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

struct OrOp {
  static constexpr std::string_view kOpType = "Or";
  static bool apply(bool a, bool b) noexcept { return a || b; }
};

// Opset 1-6: legacy broadcasting (attribute broadcast=1 repeats input B over input A at `axis`).
using Or_1 = VersionedKernel<BinaryElementwise<OrOp, TypeList<bool>>, 1, 7>;

// Opset 7+: numpy (multidirectional) broadcasting.
using Or_7 = VersionedKernel<BinaryElementwise<OrOp, TypeList<bool>>, 7>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
