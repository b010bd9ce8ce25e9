// SPDX-License-Identifier: MIT
// Erf: y = erf(x), the Gauss error function. Version 9 also allows integers (the result, in [-1, 1], is
// truncated back to the integer type like the ONNX reference's astype: 0, or +-1 once erf rounds to +-1 in
// double); version 13 dropped them and added bfloat16. The formula is the same, so one kernel serves both.
#pragma once
#include <cmath>
#include <type_traits>

#include "onnxmicro/kernels/common/elementwise.hpp"
#include "onnxmicro/kernels/common/vector_math.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

/// The function of Erf, on compute types (float for float16/bfloat16, the integer type itself for integers).
struct ErfOp {
  static constexpr std::string_view kOpType = "Erf";
  using Params = NoParams;
  /// float32 arrays on AVX2/AVX-512 (vector_math: within 4 ulp of the correctly rounded value).
  static void apply_float(Isa isa, const float* x, float* y, std::int64_t n) noexcept {
    vector_math::erf(isa, x, y, n);
  }
  template <typename C>
  static C apply(C x, const Params&) noexcept {
    if constexpr (std::is_floating_point_v<C>) {
      return std::erf(x);
    } else {
      return static_cast<C>(std::erf(static_cast<double>(x)));  // in [-1, 1]: the conversion is defined
    }
  }
};

// Opset 9+: same formula (13 dropped the integer types and added bfloat16).
using Erf_9 = VersionedKernel<UnaryElementwise<ErfOp, NumericTypes>, 9>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
