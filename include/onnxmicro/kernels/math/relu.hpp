// SPDX-License-Identifier: MIT
// Relu: y = max(0, x). Versions 1, 6, 13 and 14 compute the same thing; they only widened the dtype list
// (13: bfloat16, 14: int8/16/32/64), so one kernel serves every version.
#pragma once
#include "onnxmicro/kernels/common/elementwise.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

/// The function of Relu, on compute types (float for float16/bfloat16).
struct ReluOp {
  static constexpr std::string_view kOpType = "Relu";
  using Params = NoParams;
  template <typename C>
  static C apply(C x, const Params&) noexcept {
    return x < C(0) ? C(0) : x;  // NaN stays NaN
  }
};

/// Dtypes of Relu since opset 14.
using ReluTypes = TypeList<float, double, float16_t, bfloat16_t, std::int8_t, std::int16_t, std::int32_t, std::int64_t>;

// Opset 1+: unchanged semantics (6 dropped consumed_inputs, 13 added bfloat16, 14 signed integers).
using Relu_1 = VersionedKernel<UnaryElementwise<ReluOp, ReluTypes>, 1>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
