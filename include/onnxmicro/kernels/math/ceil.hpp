// SPDX-License-Identifier: MIT
// Ceil: y = the smallest integer >= x. Versions 1 (with the ignored legacy `consumed_inputs`), 6 and 13 (bfloat16
// added) compute the same thing: one kernel serves all.
#pragma once
#include <cmath>

#include "onnxmicro/kernels/common/elementwise.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

/// The function of Ceil, on compute types (float for float16/bfloat16).
struct CeilOp {
  using Params = NoParams;
  template <typename C>
  static C apply(C x, const Params&) noexcept {
    return std::ceil(x);
  }
};

// Opset 1+: unchanged semantics (6 dropped consumed_inputs, 13 added bfloat16).
struct Ceil_1 : KernelDefaults, UnaryElementwise<CeilOp, FloatTypes> {
  static constexpr std::string_view kDomain = "";
  static constexpr std::string_view kOpType = "Ceil";
  static constexpr int kSinceVersion = 1;
  static constexpr int kInPlaceInput = 0;
};

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
