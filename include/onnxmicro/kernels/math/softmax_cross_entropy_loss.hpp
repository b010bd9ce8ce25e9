// SPDX-License-Identifier: MIT
// SoftmaxCrossEntropyLoss: the NegativeLogLikelihoodLoss (kernels/math/loss_util.hpp) of log(softmax(scores))
// taken over the class dimension 1, with the optional output 1 holding those log-probabilities ([N, C, d1..dk]).
// Log-softmax is computed stably as (x - max) - log(sum(exp(x - max))) per position; float16/bfloat16 compute in
// float32 and round each output once.
#pragma once
#include <cmath>

#include "onnxmicro/kernels/math/loss_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

namespace softmax_cross_entropy_loss_detail {

/// The implementation of SoftmaxCrossEntropyLoss (see the file comment).
struct SoftmaxCrossEntropyLossImpl : KernelDefaults {
  static constexpr std::string_view kOpType = "SoftmaxCrossEntropyLoss";
  static constexpr int kLogProbOutput = 1;

  static Status prepare(PrepareContext& ctx) noexcept {
    // bfloat16: added in opset 13.
    ONNXMICRO_RETURN_IF_ERROR(loss_util::prepare_kernel<SoftmaxCrossEntropyLossImpl>(ctx, "scores", 13));
    const TensorInfo& scores = ctx.input(loss_util::kScoresInput);
    if (ctx.has_output(kLogProbOutput)) ctx.set_output(kLogProbOutput, scores.dtype, scores.shape);
    return {};
  }

  static Status run(RunContext& ctx) noexcept { return loss_util::run_kernel(ctx); }

  /// The body for scores dtype T and target dtype Index (used through loss_util::select_function).
  template <typename T, typename Index>
  static Status compute(const LossPlan& plan, const RunContext& ctx) noexcept {
    using C = compute_t<T>;
    const T* scores = static_cast<const T*>(ctx.input(loss_util::kScoresInput).data);
    const std::int64_t classes = plan.classes;
    const std::int64_t inner = plan.inner;
    // log_softmax(x)[c] = (x[c] - max) - log(sum(exp(x - max))) over the classes at position (n, d); subtracting
    // max first keeps the precision of large scores.
    struct Normaliser {
      C max;
      C log_sum;
      C log_softmax(C v) const noexcept { return (v - max) - log_sum; }
    };
    auto normaliser_at = [&](std::int64_t n, std::int64_t d) noexcept {
      const T* x = scores + n * classes * inner + d;
      C max = load_element(x[0]);
      for (std::int64_t c = 1; c < classes; ++c) {
        const C v = load_element(x[c * inner]);
        if (v > max) max = v;
      }
      C sum = 0;
      for (std::int64_t c = 0; c < classes; ++c) sum += std::exp(load_element(x[c * inner]) - max);
      return Normaliser{max, std::log(sum)};
    };
    if (ctx.has_output(kLogProbOutput) && classes > 0) {
      T* log_prob = static_cast<T*>(ctx.output(kLogProbOutput).data);
      for (std::int64_t n = 0; n < plan.batch; ++n) {
        for (std::int64_t d = 0; d < inner; ++d) {
          const Normaliser normaliser = normaliser_at(n, d);
          for (std::int64_t c = 0; c < classes; ++c) {
            const std::int64_t at = (n * classes + c) * inner + d;
            log_prob[at] = store_element<T>(normaliser.log_softmax(load_element(scores[at])));
          }
        }
      }
    }
    const T* weight = plan.has_weight ? static_cast<const T*>(ctx.input(loss_util::kWeightInput).data) : nullptr;
    return loss_util::gather_and_reduce(
        plan, static_cast<const Index*>(ctx.input(loss_util::kTargetInput).data), weight,
        static_cast<T*>(ctx.output(loss_util::kLossOutput).data),
        [&](std::int64_t n, std::int64_t c, std::int64_t d) noexcept {
          return normaliser_at(n, d).log_softmax(load_element(scores[(n * classes + c) * inner + d]));
        });
  }
};

}  // namespace softmax_cross_entropy_loss_detail

// Opset 12: first version (float16/float/double); opset 13 adds bfloat16 and nothing else, so this one kernel
// serves both.
using SoftmaxCrossEntropyLoss_12 = VersionedKernel<softmax_cross_entropy_loss_detail::SoftmaxCrossEntropyLossImpl, 12>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
