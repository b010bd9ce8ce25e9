// SPDX-License-Identifier: MIT
// BitwiseAnd: y = a & b (bitwise AND) elementwise on integer tensors, numpy broadcasting.
// Versions: 18 introduced it, unchanged since.
#pragma once
#include "onnxmicro/kernels/common/elementwise.hpp"
#include "onnxmicro/kernels/logical/type_list_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

struct BitwiseAndOp {
  static constexpr std::string_view kOpType = "BitwiseAnd";
  template <typename C>
  static C apply(C a, C b) noexcept {
    return static_cast<C>(a & b);
  }
};

// Opset 18+.
using BitwiseAnd_18 = VersionedKernel<BinaryElementwise<BitwiseAndOp, IntegerTypes>, 18>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
