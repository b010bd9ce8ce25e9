// SPDX-License-Identifier: MIT
// NegativeLogLikelihoodLoss: loss[n, d1..dk] = -input[n, target[n, d1..dk], d1..dk] * weight[target], with
// ignore_index and the none/sum/mean reductions of kernels/math/loss_util.hpp. Versions 12, 13 and 22 compute
// the same thing (13 only reworded the spec; 22 adds bfloat16), so one kernel serves every version.
// float16/bfloat16 compute in float32 and round the result once.
#pragma once
#include "onnxmicro/kernels/math/loss_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

namespace negative_log_likelihood_loss_detail {

/// The implementation of NegativeLogLikelihoodLoss (see the file comment).
struct NegativeLogLikelihoodLossImpl : KernelDefaults {
  static constexpr std::string_view kOpType = "NegativeLogLikelihoodLoss";

  static Status prepare(PrepareContext& ctx) noexcept {
    // bfloat16: added in opset 22.
    return loss_util::prepare_kernel<NegativeLogLikelihoodLossImpl>(ctx, "input", 22);
  }

  static Status run(RunContext& ctx) noexcept { return loss_util::run_kernel(ctx); }

  /// The body for scores dtype T and target dtype Index (used through loss_util::select_function).
  template <typename T, typename Index>
  static Status compute(const LossPlan& plan, const RunContext& ctx) noexcept {
    const T* scores = static_cast<const T*>(ctx.input(loss_util::kScoresInput).data);
    const T* weight = plan.has_weight ? static_cast<const T*>(ctx.input(loss_util::kWeightInput).data) : nullptr;
    const std::int64_t classes = plan.classes;
    const std::int64_t inner = plan.inner;
    return loss_util::gather_and_reduce(plan, static_cast<const Index*>(ctx.input(loss_util::kTargetInput).data),
                                        weight, static_cast<T*>(ctx.output(loss_util::kLossOutput).data),
                                        [&](std::int64_t n, std::int64_t c, std::int64_t d) noexcept {
                                          return load_element(scores[(n * classes + c) * inner + d]);
                                        });
  }
};

}  // namespace negative_log_likelihood_loss_detail

using NegativeLogLikelihoodLoss_12 =
    VersionedKernel<negative_log_likelihood_loss_detail::NegativeLogLikelihoodLossImpl, 12>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
