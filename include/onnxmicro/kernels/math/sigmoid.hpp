// SPDX-License-Identifier: MIT
// Sigmoid: y = 1 / (1 + exp(-x)). Versions 1 (with the ignored legacy `consumed_inputs`), 6 and 13
// (bfloat16 added) compute the same thing: one kernel serves all.
#pragma once
#include <cmath>

#include "onnxmicro/kernels/common/elementwise.hpp"
#include "onnxmicro/kernels/common/vector_math.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

/// The function of Sigmoid, on compute types (float for float16/bfloat16).
struct SigmoidOp {
  static constexpr std::string_view kOpType = "Sigmoid";
  using Params = NoParams;
  /// float32 arrays on AVX2/AVX-512 (vector_math: within 2 ulp of the correctly rounded value).
  static void apply_float(Isa isa, const float* x, float* y, std::int64_t n) noexcept {
    vector_math::sigmoid(isa, x, y, n);
  }
  template <typename C>
  static C apply(C x, const Params&) noexcept {
    // exp of a non-positive argument only: no overflow, and full relative precision for large |x|.
    if (x >= C(0)) return C(1) / (C(1) + std::exp(-x));
    const C e = std::exp(x);
    return e / (C(1) + e);
  }
};

// Opset 1+: unchanged semantics (6 dropped consumed_inputs, 13 added bfloat16).
using Sigmoid_1 = VersionedKernel<UnaryElementwise<SigmoidOp, FloatTypes>, 1>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
