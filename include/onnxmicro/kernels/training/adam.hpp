// SPDX-License-Identifier: MIT
// Adam (ai.onnx.preview.training): one Adam step for n tensors. Inputs [R, T, X_1..n, G_1..n, V_1..n, H_1..n],
// outputs [X_new_1..n, V_new_1..n, H_new_1..n] (layout in kernels/training/optimizer_util.hpp); per element:
//   g = norm_coefficient * X + G;  V_new = alpha * V + (1 - alpha) * g;  H_new = beta * H + (1 - beta) * g * g;
//   r = T > 0 ? R * sqrt(1 - beta^T) / (1 - alpha^T) : R;
//   X_new = (1 - norm_coefficient_post) * (X - r * V_new / (sqrt(H_new) + epsilon))
// The scalar r is computed in double, the elements in their own dtype (float or double).
#pragma once
#include <cmath>

#include "onnxmicro/kernels/training/optimizer_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

/// The update rule of Adam (see the file comment).
struct AdamOp {
  static constexpr std::string_view kOpType = "Adam";
  static constexpr int kInputGroups = 4;   ///< X, G, V, H
  static constexpr int kOutputGroups = 3;  ///< X_new, V_new, H_new
  struct Params {
    float alpha;
    float beta;
    float epsilon;
    float norm_coefficient;
    float norm_coefficient_post;
    static Status parse(const PrepareContext& ctx, Params& params) noexcept {
      ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("alpha", params.alpha, 0.9f));
      ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("beta", params.beta, 0.999f));
      ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("epsilon", params.epsilon, 1e-6f));
      ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("norm_coefficient", params.norm_coefficient, 0.0f));
      return ctx.attribute("norm_coefficient_post", params.norm_coefficient_post, 0.0f);
    }
  };
  struct Step {
    double rate;  // r, bias-corrected after the first step
  };
  static Step step(const Params& params, double rate, std::int64_t count) noexcept {
    if (count <= 0) return {rate};
    const double steps = static_cast<double>(count);
    return {rate * std::sqrt(1.0 - std::pow(static_cast<double>(params.beta), steps)) /
            (1.0 - std::pow(static_cast<double>(params.alpha), steps))};
  }
  /// in = {X, G, V, H}, out = {X_new, V_new, H_new}.
  template <typename T>
  static void update(const Params& params, const Step& step, const T* const* in, T* const* out,
                     std::int64_t count) noexcept {
    const T r = static_cast<T>(step.rate);
    const T alpha = static_cast<T>(params.alpha);
    const T beta = static_cast<T>(params.beta);
    const T epsilon = static_cast<T>(params.epsilon);
    const T norm = static_cast<T>(params.norm_coefficient);
    const T keep = T(1) - static_cast<T>(params.norm_coefficient_post);
    for (std::int64_t e = 0; e < count; ++e) {
      const T x = in[0][e];
      const T g = norm * x + in[1][e];
      const T v = alpha * in[2][e] + (T(1) - alpha) * g;
      const T h = beta * in[3][e] + (T(1) - beta) * g * g;
      out[0][e] = keep * (x - r * v / (std::sqrt(h) + epsilon));
      out[1][e] = v;
      out[2][e] = h;
    }
  }
};

// Opset 1 of ai.onnx.preview.training: first version.
using Adam_1 = VersionedKernel<OptimizerKernel<AdamOp>, 1>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
