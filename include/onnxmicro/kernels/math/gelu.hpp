// SPDX-License-Identifier: MIT
// Gelu (opset 20, unchanged since): y = 0.5 * x * (1 + erf(x / sqrt(2))), or with attribute
// approximate = "tanh": y = 0.5 * x * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 * x^3))).
#pragma once
#include <cmath>
#include <string_view>

#include "onnxmicro/kernels/common/elementwise.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

/// The function of Gelu, on compute types (float for float16/bfloat16).
struct GeluOp {
  static constexpr std::string_view kOpType = "Gelu";
  struct Params {
    bool tanh_approximation;
    static Status parse(const PrepareContext& ctx, Params& params) noexcept {
      std::string_view approximate;
      ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("approximate", approximate, "none"));
      if (approximate != "none" && approximate != "tanh") {
        return Status(StatusCode::invalid_model)
               << "attribute 'approximate' is '" << approximate << "', expected 'none' or 'tanh'";
      }
      params.tanh_approximation = approximate == "tanh";
      return {};
    }
  };
  template <typename C>
  static C apply(C x, const Params& params) noexcept {
    // Both forms avoid 1 + f(x) for negative x, where it cancels (float loses ~5 digits at x = -3.5):
    // 1 + erf(z) = erfc(-z), and 1 + tanh(u) = 2 / (1 + exp(-2u)).
    if (params.tanh_approximation) {
      const C sqrt_2_over_pi = C(0.79788456080286535587989211986876);
      const C u = sqrt_2_over_pi * (x + C(0.044715) * x * x * x);
      return x / (C(1) + std::exp(C(-2) * u));  // exp overflow to inf gives the right limit, -0
    }
    const C one_over_sqrt_2 = C(0.70710678118654752440084436210485);
    return C(0.5) * x * std::erfc(-x * one_over_sqrt_2);
  }
};

// Opset 20+: the first version.
using Gelu_20 = VersionedKernel<UnaryElementwise<GeluOp, FloatTypes>, 20>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
