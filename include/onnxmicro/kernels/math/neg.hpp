// SPDX-License-Identifier: MIT
// Neg: y = -x. Versions 1 (floats, with the ignored legacy `consumed_inputs`), 6 (signed integers added) and 13
// (bfloat16 added) compute the same thing: one kernel serves all. Signed integers wrap like numpy
// (-INT_MIN = INT_MIN), without signed-overflow UB.
#pragma once
#include <cstdint>
#include <type_traits>

#include "onnxmicro/kernels/common/elementwise.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

/// The function of Neg, on compute types (float for float16/bfloat16).
struct NegOp {
  static constexpr std::string_view kOpType = "Neg";
  using Params = NoParams;
  template <typename C>
  static C apply(C x, const Params&) noexcept {
    if constexpr (std::is_floating_point_v<C>) {
      return -x;
    } else {
      return wrapping_sub(C(0), x);
    }
  }
};

/// Neg's dtypes: the floats and the signed integers (the schema has no unsigned ones).
using NegTypes = TypeList<float, double, float16_t, bfloat16_t, std::int8_t, std::int16_t, std::int32_t, std::int64_t>;

// Opset 1+: unchanged semantics (6 dropped consumed_inputs and added signed integers, 13 added bfloat16).
using Neg_1 = VersionedKernel<UnaryElementwise<NegOp, NegTypes>, 1>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
