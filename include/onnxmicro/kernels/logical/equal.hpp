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
  template <typename C>
  static bool apply(C a, C b) noexcept {
    return a == b;  // NaN == NaN is false, as in numpy
  }
};

// Opset 1-6: legacy broadcasting (attribute broadcast=1 repeats input B over input A at `axis`).
struct Equal_1 : KernelDefaults, BinaryElementwise<EqualOp, BoolAndNumericTypes, BinaryBroadcast::legacy> {
  static constexpr std::string_view kDomain = "";
  static constexpr std::string_view kOpType = "Equal";
  static constexpr int kSinceVersion = 1;
  static constexpr int kUntilVersion = 7;
};

// Opset 7-18: numpy (multidirectional) broadcasting.
struct Equal_7 : KernelDefaults, BinaryElementwise<EqualOp, BoolAndNumericTypes> {
  static constexpr std::string_view kDomain = "";
  static constexpr std::string_view kOpType = "Equal";
  static constexpr int kSinceVersion = 7;
  static constexpr int kUntilVersion = 19;
};

// Opset 19+: string tensors too.
struct Equal_19 : KernelDefaults, BinaryElementwise<EqualOp, BoolNumericAndStringTypes> {
  static constexpr std::string_view kDomain = "";
  static constexpr std::string_view kOpType = "Equal";
  static constexpr int kSinceVersion = 19;
};

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
