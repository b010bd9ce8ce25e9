// SPDX-License-Identifier: MIT
// Adagrad (ai.onnx.preview.training): one ADAGRAD step for n tensors. Inputs [R, T, X_1..n, G_1..n, H_1..n],
// outputs [X_new_1..n, H_new_1..n] (layout in kernels/training/optimizer_util.hpp); per element:
//   r = R / (1 + T * decay_factor);  g = norm_coefficient * X + G;  H_new = H + g * g;
//   X_new = X - r * g / (sqrt(H_new) + epsilon)
// The scalar r is computed in double, the elements in their own dtype (float or double).
#pragma once
#include <cmath>

#include "onnxmicro/kernels/training/optimizer_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

/// The update rule of Adagrad (see the file comment).
struct AdagradOp {
  static constexpr std::string_view kOpType = "Adagrad";
  static constexpr int kInputGroups = 3;   ///< X, G, H
  static constexpr int kOutputGroups = 2;  ///< X_new, H_new
  struct Params {
    float norm_coefficient;
    float decay_factor;
    float epsilon;
    static Status parse(const PrepareContext& ctx, Params& params) noexcept {
      ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("norm_coefficient", params.norm_coefficient, 0.0f));
      ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("decay_factor", params.decay_factor, 0.0f));
      return ctx.attribute("epsilon", params.epsilon, 1e-6f);
    }
  };
  struct Step {
    double rate;  // r
  };
  static Step step(const Params& params, double rate, std::int64_t count) noexcept {
    return {rate / (1.0 + static_cast<double>(count) * params.decay_factor)};
  }
  /// in = {X, G, H}, out = {X_new, H_new}.
  template <typename T>
  static void update(const Params& params, const Step& step, const T* const* in, T* const* out,
                     std::int64_t count) noexcept {
    const T r = static_cast<T>(step.rate);
    const T norm = static_cast<T>(params.norm_coefficient);
    const T epsilon = static_cast<T>(params.epsilon);
    for (std::int64_t e = 0; e < count; ++e) {
      const T x = in[0][e];
      const T g = norm * x + in[1][e];
      const T h = in[2][e] + g * g;
      out[0][e] = x - r * g / (std::sqrt(h) + epsilon);
      out[1][e] = h;
    }
  }
};

// Opset 1 of ai.onnx.preview.training: first version.
using Adagrad_1 = VersionedKernel<OptimizerKernel<AdagradOp>, 1>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
