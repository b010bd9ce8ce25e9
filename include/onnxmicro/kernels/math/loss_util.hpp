// SPDX-License-Identifier: MIT
// What NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss share: the input/target/weight checks, the
// `reduction` and `ignore_index` attributes, and the weighted gather-and-reduce over log-probabilities.
//
// Both ops see the scores as [N, C, D] (D = product of the trailing dims d1..dk, 1 when there are none) and the
// target as [N, D]. Per position, loss[n, d] = -w[t] * logp[n, t, d] with t = target[n, d] and w the weight
// input (all ones when omitted); positions whose target equals ignore_index contribute 0 and weigh 0.
// reduction: "none" keeps the [N, d1..dk] losses, "sum" adds them, "mean" divides that sum by the sum of the
// weights of the positions not ignored (so NaN when every position is ignored, as in the spec).
#pragma once
#include <cstdint>
#include <string_view>

#include "onnxmicro/kernels/common/elementwise.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

enum class LossReduction : std::uint8_t { none, sum, mean };

/// Shape and attribute facts both loss kernels fill in prepare().
struct LossPlan {
  std::int64_t batch = 0;    ///< N
  std::int64_t classes = 0;  ///< C
  std::int64_t inner = 1;    ///< D = d1 * ... * dk
  LossReduction reduction = LossReduction::mean;
  bool has_ignore_index = false;
  std::int64_t ignore_index = 0;
  bool has_weight = false;
};

namespace loss_util {

constexpr int kScoresInput = 0;
constexpr int kTargetInput = 1;
constexpr int kWeightInput = 2;
constexpr int kLossOutput = 0;

/// Checks scores [N, C, d1..dk] (rank >= 2), target [N, d1..dk] (int32/int64) and the optional weight [C]
/// (scores' dtype), reads `reduction` and `ignore_index`, and sets output 0 (the loss) to the scores' dtype with
/// the target's shape ("none") or a scalar. `scores_role` names input 0 in errors.
inline Status prepare_plan(PrepareContext& ctx, std::string_view scores_role, LossPlan& plan) noexcept {
  ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kScoresInput));
  ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kTargetInput));
  const TensorInfo& scores = ctx.input(kScoresInput);
  const TensorInfo& target = ctx.input(kTargetInput);
  if (!scores.shape.is_static() || !target.shape.is_static()) {
    return Status(StatusCode::unsupported)
           << "inputs 0 and 1 must have shapes known at prepare time, got " << scores.shape << " and " << target.shape;
  }
  if (scores.shape.rank() < 2) {
    return ctx.input_error(kScoresInput, scores_role)
           << " must have rank >= 2 ([N, C, d1..dk]), got shape " << scores.shape;
  }
  if (target.dtype != DataType::int32 && target.dtype != DataType::int64) {
    return ctx.input_error(kTargetInput, "target")
           << " has dtype " << dtype_name(target.dtype) << ", expected int32 or int64";
  }
  bool target_matches = target.shape.rank() == scores.shape.rank() - 1 && target.shape[0] == scores.shape[0];
  for (int i = 1; target_matches && i < target.shape.rank(); ++i)
    target_matches = target.shape[i] == scores.shape[i + 1];
  if (!target_matches) {
    return ctx.input_error(kTargetInput, "target") << " has shape " << target.shape << ", expected input 0's shape "
                                                   << scores.shape << " without its class dimension 1";
  }
  plan.batch = scores.shape[0];
  plan.classes = scores.shape[1];
  plan.inner = 1;
  for (int i = 2; i < scores.shape.rank(); ++i) plan.inner *= scores.shape[i];

  plan.has_weight = ctx.has_input(kWeightInput);
  if (plan.has_weight) {
    const TensorInfo& weight = ctx.input(kWeightInput);
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_same_dtype(kScoresInput, kWeightInput));
    if (weight.shape.rank() != 1 || weight.shape[0] != plan.classes) {
      return ctx.input_error(kWeightInput, "weight")
             << " has shape " << weight.shape << ", expected [" << plan.classes << "] (one weight per class)";
    }
  }

  std::string_view reduction;
  ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("reduction", reduction, "mean"));
  if (reduction == "none") {
    plan.reduction = LossReduction::none;
  } else if (reduction == "sum") {
    plan.reduction = LossReduction::sum;
  } else if (reduction == "mean") {
    plan.reduction = LossReduction::mean;
  } else {
    return Status(StatusCode::invalid_model)
           << "attribute 'reduction' is '" << reduction << "', expected 'none', 'sum' or 'mean'";
  }
  plan.has_ignore_index = ctx.has_attribute("ignore_index");
  ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("ignore_index", plan.ignore_index, 0));

  if (plan.reduction == LossReduction::none) {
    ctx.set_output(kLossOutput, scores.dtype, target.shape);
  } else {
    ctx.set_output(kLossOutput, scores.dtype, Shape{});
  }
  return {};
}

/// A loss kernel's per-dtype body: reads its inputs from the run context and writes its outputs.
using LossFunction = Status (*)(const LossPlan& plan, const RunContext& ctx) noexcept;

/// Sets `out` to `&Body::template compute<T, Index>` for the scores dtype (float32/float64/float16/bfloat16;
/// the caller checks the version's dtype list) and target dtype (int32/int64); false for another scores dtype.
template <typename Body>
bool select_function(DataType scores, DataType target, LossFunction& out) noexcept {
  return visit_dtype(scores, FloatTypes{}, [&](auto tag) noexcept {
    using T = typename decltype(tag)::type;
    if (target == DataType::int32) {
      out = &Body::template compute<T, std::int32_t>;
    } else {
      out = &Body::template compute<T, std::int64_t>;
    }
  });
}

/// The state of both loss kernels.
struct LossState {
  LossPlan plan;
  LossFunction compute;
};

/// A loss kernel's prepare(): allocates a LossState, runs prepare_plan() and picks `Body::compute<T, Index>`.
/// bfloat16 scores are accepted from opset `bfloat16_since` on.
template <typename Body>
Status prepare_kernel(PrepareContext& ctx, std::string_view scores_role, int bfloat16_since) noexcept {
  LossState* state = nullptr;
  ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
  ONNXMICRO_RETURN_IF_ERROR(prepare_plan(ctx, scores_role, state->plan));
  const DataType dtype = ctx.input(kScoresInput).dtype;
  if (dtype == DataType::bfloat16 && ctx.opset_version() < bfloat16_since) {
    return ctx.unsupported_input_dtype(kScoresInput);
  }
  if (!select_function<Body>(dtype, ctx.input(kTargetInput).dtype, state->compute)) {
    return ctx.unsupported_input_dtype(kScoresInput);
  }
  return {};
}

/// A loss kernel's run().
inline Status run_kernel(RunContext& ctx) noexcept {
  const LossState& state = ctx.state<LossState>();
  return state.compute(state.plan, ctx);
}

/// Gathers -w[t] * logp(n, t, d) for every position and reduces it into `loss` (see the file comment).
/// `log_prob(n, c, d)` returns the compute-type log-probability of class c at position (n, d). Fails with
/// out_of_range when a target that is not ignore_index lies outside [0, C).
template <typename T, typename Index, typename LogProb>
Status gather_and_reduce(const LossPlan& plan, const Index* target, const T* weight, T* loss,
                         LogProb&& log_prob) noexcept {
  using C = compute_t<T>;
  C total = 0;
  C weight_total = 0;
  for (std::int64_t n = 0; n < plan.batch; ++n) {
    for (std::int64_t d = 0; d < plan.inner; ++d) {
      const std::int64_t position = n * plan.inner + d;
      const std::int64_t t = static_cast<std::int64_t>(target[position]);
      C value = 0;
      C w = 0;
      if (!plan.has_ignore_index || t != plan.ignore_index) {
        if (t < 0 || t >= plan.classes) {
          return Status(StatusCode::out_of_range) << "target value " << t << " at position " << position
                                                  << " is outside [0, " << plan.classes << ") and is not ignore_index";
        }
        w = plan.has_weight ? load_element(weight[t]) : C(1);
        value = -w * log_prob(n, t, d);
      }
      if (plan.reduction == LossReduction::none) {
        loss[position] = store_element<T>(value);
      } else {
        total += value;
        weight_total += w;
      }
    }
  }
  if (plan.reduction == LossReduction::sum) loss[0] = store_element<T>(total);
  if (plan.reduction == LossReduction::mean) loss[0] = store_element<T>(total / weight_total);
  return {};
}

}  // namespace loss_util
}  // namespace kernels
ONNXMICRO_NAMESPACE_END
