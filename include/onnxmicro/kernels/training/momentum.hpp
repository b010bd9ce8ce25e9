// SPDX-License-Identifier: MIT
// Momentum (ai.onnx.preview.training): one step of SGD with momentum for n tensors. Inputs
// [R, T, X_1..n, G_1..n, V_1..n], outputs [X_new_1..n, V_new_1..n] (layout in
// kernels/training/optimizer_util.hpp); per element, with b = T > 0 ? beta : 1 and g = norm_coefficient * X + G:
//   V_new = alpha * V + b * g
//   mode "standard": X_new = X - R * V_new;   mode "nesterov": X_new = X - R * (g + alpha * V_new)
#pragma once
#include "onnxmicro/kernels/training/optimizer_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

/// The update rule of Momentum (see the file comment). Every attribute is required.
struct MomentumOp {
  static constexpr std::string_view kOpType = "Momentum";
  static constexpr int kInputGroups = 3;   ///< X, G, V
  static constexpr int kOutputGroups = 2;  ///< X_new, V_new
  struct Params {
    float alpha;
    float beta;
    float norm_coefficient;
    bool nesterov;
    static Status parse(const PrepareContext& ctx, Params& params) noexcept {
      ONNXMICRO_RETURN_IF_ERROR(ctx.required_attribute("alpha", params.alpha));
      ONNXMICRO_RETURN_IF_ERROR(ctx.required_attribute("beta", params.beta));
      ONNXMICRO_RETURN_IF_ERROR(ctx.required_attribute("norm_coefficient", params.norm_coefficient));
      std::string_view mode;
      ONNXMICRO_RETURN_IF_ERROR(ctx.required_attribute("mode", mode));
      if (mode != "standard" && mode != "nesterov") {
        return Status(StatusCode::invalid_model)
               << "attribute 'mode' is '" << mode << "', expected 'standard' or 'nesterov'";
      }
      params.nesterov = mode == "nesterov";
      return {};
    }
  };
  struct Step {
    double rate;
    double beta;  // 1 on the first update (T == 0)
  };
  static Step step(const Params& params, double rate, std::int64_t count) noexcept {
    return {rate, count > 0 ? static_cast<double>(params.beta) : 1.0};
  }
  /// in = {X, G, V}, out = {X_new, V_new}.
  template <typename T>
  static void update(const Params& params, const Step& step, const T* const* in, T* const* out,
                     std::int64_t count) noexcept {
    const T r = static_cast<T>(step.rate);
    const T beta = static_cast<T>(step.beta);
    const T alpha = static_cast<T>(params.alpha);
    const T norm = static_cast<T>(params.norm_coefficient);
    for (std::int64_t e = 0; e < count; ++e) {
      const T x = in[0][e];
      const T g = norm * x + in[1][e];
      const T v = alpha * in[2][e] + beta * g;
      out[0][e] = x - r * (params.nesterov ? g + alpha * v : v);
      out[1][e] = v;
    }
  }
};

// Opset 1 of ai.onnx.preview.training: first version.
using Momentum_1 = VersionedKernel<OptimizerKernel<MomentumOp>, 1>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
