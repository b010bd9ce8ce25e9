// SPDX-License-Identifier: MIT
// BitwiseXor: y = a ^ b (bitwise XOR) elementwise on integer tensors, numpy broadcasting.
// Versions: 18 introduced it, unchanged since.
#pragma once
#include "onnxmicro/kernels/common/elementwise.hpp"
#include "onnxmicro/kernels/logical/type_list_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

struct BitwiseXorOp {
  template <typename C>
  static C apply(C a, C b) noexcept {
    return static_cast<C>(a ^ b);
  }
};

// Opset 18+.
struct BitwiseXor_18 : KernelDefaults, BinaryElementwise<BitwiseXorOp, IntegerTypes> {
  static constexpr std::string_view kDomain = "";
  static constexpr std::string_view kOpType = "BitwiseXor";
  static constexpr int kSinceVersion = 18;
  static constexpr int kInPlaceInput = 0;
};

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
