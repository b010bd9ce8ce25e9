// SPDX-License-Identifier: MIT
// Floor: y = the largest integer <= x. Versions 1 (with the ignored legacy `consumed_inputs`), 6 and 13 (bfloat16
// added) compute the same thing: one kernel serves all.
#pragma once
#include <cmath>

#include "onnxmicro/kernels/common/elementwise.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

/// The function of Floor, on compute types (float for float16/bfloat16).
struct FloorOp {
  static constexpr std::string_view kOpType = "Floor";
  using Params = NoParams;
  template <typename C>
  static C apply(C x, const Params&) noexcept {
    return std::floor(x);
  }
};

// Opset 1+: unchanged semantics (6 dropped consumed_inputs, 13 added bfloat16).
using Floor_1 = VersionedKernel<UnaryElementwise<FloorOp, FloatTypes>, 1>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
