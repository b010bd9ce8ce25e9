// SPDX-License-Identifier: MIT
// Equal: y = (a == b) elementwise, bool output.
// Versions: 1 broadcasts with the legacy `broadcast`/`axis` attributes; 7 switched to numpy broadcasting;
// 11 (floats, 8/16-bit and unsigned integers) and 13 (bfloat16) only widened the dtype list; 19 added string
// (compared by bytes).
#pragma once
#include "onnxmicro/kernels/common/elementwise.hpp"
#include "onnxmicro/kernels/logical/type_list_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

struct EqualOp {
  static constexpr std::string_view kOpType = "Equal";
  template <typename C>
  static bool apply(C a, C b) noexcept {
    return a == b;  // NaN == NaN is false, as in numpy
  }
};

// Opset 1-6: legacy broadcasting (attribute broadcast=1 repeats input B over input A at `axis`).
using Equal_1 = VersionedKernel<BinaryElementwise<EqualOp, BoolAndNumericTypes>, 1, 7>;

// Opset 7-18: numpy (multidirectional) broadcasting.
using Equal_7 = VersionedKernel<BinaryElementwise<EqualOp, BoolAndNumericTypes>, 7, 19>;

// Opset 19+: string tensors too.
using Equal_19 = VersionedKernel<BinaryElementwise<EqualOp, BoolNumericAndStringTypes>, 19>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
