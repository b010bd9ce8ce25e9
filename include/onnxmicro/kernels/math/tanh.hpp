// SPDX-License-Identifier: MIT
// Tanh: y = tanh(x). Versions 1 (with the ignored legacy `consumed_inputs`), 6 and 13 (bfloat16 added)
// compute the same thing: one kernel serves all.
#pragma once
#include <cmath>

#include "onnxmicro/kernels/common/elementwise.hpp"
#include "onnxmicro/kernels/common/vector_math.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

/// The function of Tanh, on compute types (float for float16/bfloat16).
struct TanhOp {
  static constexpr std::string_view kOpType = "Tanh";
  using Params = NoParams;
  /// float32 arrays on AVX2/AVX-512 (vector_math: within 2 ulp of the correctly rounded value).
  static void apply_float(Isa isa, const float* x, float* y, std::int64_t n) noexcept {
    vector_math::tanh(isa, x, y, n);
  }
  template <typename C>
  static C apply(C x, const Params&) noexcept {
    return std::tanh(x);
  }
};

// Opset 1+: unchanged semantics (6 dropped consumed_inputs, 13 added bfloat16).
using Tanh_1 = VersionedKernel<UnaryElementwise<TanhOp, FloatTypes>, 1>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
