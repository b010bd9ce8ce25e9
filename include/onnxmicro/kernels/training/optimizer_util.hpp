// SPDX-License-Identifier: MIT
// What the ai.onnx.preview.training optimizers (Adagrad, Adam, Momentum) share. Their inputs are
// [R, T, X_1..X_n, G_1..G_n, <state group 1>_1..n, ...]: a scalar learning rate R (float/double), a scalar
// update count T (int64), then `input_groups` groups of n tensors (X, G, and the optimizer's state tensors), all
// of one dtype (float/double); outputs are `output_groups` groups of n tensors ([X_new_1..n, <state>_new_1..n]),
// each of the shape and dtype of its X. Tensor i of group k is input 2 + k * n + i and output k * n + i.
#pragma once
#include <cstdint>
#include <cstring>

#include "onnxmicro/kernels/kernel_api.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

namespace optimizer_util {

constexpr std::string_view kDomain = "ai.onnx.preview.training";
constexpr int kRateInput = 0;
constexpr int kCountInput = 1;
constexpr int kFirstTensorInput = 2;

/// Shape facts fixed in prepare().
struct Plan {
  int tensors = 0;  ///< n
  bool rate_is_double = false;
  DataType dtype = DataType::undefined;  ///< of every X, G and state tensor
};

/// Checks R, T and the tensor groups (every tensor of index i has X_i's shape) and sets the outputs.
inline Status prepare(PrepareContext& ctx, int input_groups, int output_groups, Plan& plan) noexcept {
  ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kRateInput));
  ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kCountInput));
  const TensorInfo& rate = ctx.input(kRateInput);
  const TensorInfo& count = ctx.input(kCountInput);
  if (rate.dtype != DataType::float32 && rate.dtype != DataType::float64) {
    return ctx.input_error(kRateInput, "R", StatusCode::unsupported)
           << " has dtype " << dtype_name(rate.dtype) << ", expected float or double";
  }
  if (count.dtype != DataType::int64) {
    return ctx.input_error(kCountInput, "T") << " has dtype " << dtype_name(count.dtype) << ", expected int64";
  }
  for (int i = 0; i < 2; ++i) {
    if (ctx.input(i).shape.element_count() != 1) {
      return ctx.input_error(i) << " must be a scalar, got shape " << ctx.input(i).shape;
    }
  }
  plan.rate_is_double = rate.dtype == DataType::float64;
  const int tensor_inputs = ctx.input_count() - kFirstTensorInput;
  if (tensor_inputs < input_groups || tensor_inputs % input_groups != 0) {
    return Status(StatusCode::invalid_model)
           << "expected R, T and " << input_groups << " groups of n >= 1 tensors each, got " << ctx.input_count()
           << " inputs";
  }
  plan.tensors = tensor_inputs / input_groups;
  if (ctx.output_count() != output_groups * plan.tensors) {
    return Status(StatusCode::invalid_model)
           << "expected " << output_groups * plan.tensors << " outputs (" << output_groups << " groups of "
           << plan.tensors << "), got " << ctx.output_count();
  }
  plan.dtype = ctx.input(kFirstTensorInput).dtype;
  if (plan.dtype != DataType::float32 && plan.dtype != DataType::float64) {
    return ctx.unsupported_input_dtype(kFirstTensorInput);
  }
  for (int i = 0; i < plan.tensors; ++i) {
    const int x = kFirstTensorInput + i;
    for (int k = 0; k < input_groups; ++k) {
      const int index = x + k * plan.tensors;
      ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(index));
      ONNXMICRO_RETURN_IF_ERROR(ctx.require_same_dtype(kFirstTensorInput, index));
      if (!ctx.input(index).shape.is_static() || ctx.input(index).shape != ctx.input(x).shape) {
        return ctx.input_error(index) << " has shape " << ctx.input(index).shape << ", expected the shape "
                                      << ctx.input(x).shape << " of input " << x << " '" << ctx.input(x).name << "'";
      }
    }
    for (int k = 0; k < output_groups; ++k) {
      const int index = k * plan.tensors + i;
      if (!ctx.has_output(index)) {
        return Status(StatusCode::unsupported) << "output " << index << " is omitted; every output is required";
      }
      ctx.set_output(index, plan.dtype, ctx.input(x).shape);
    }
  }
  return {};
}

/// R as double. memcpy: a constant input may point into the model bytes, unaligned.
inline double rate(const Plan& plan, const RunContext& ctx) noexcept {
  if (plan.rate_is_double) {
    double r = 0;
    std::memcpy(&r, ctx.input(kRateInput).data, sizeof r);
    return r;
  }
  float r = 0;
  std::memcpy(&r, ctx.input(kRateInput).data, sizeof r);
  return r;
}
/// T.
inline std::int64_t update_count(const RunContext& ctx) noexcept {
  std::int64_t t = 0;
  std::memcpy(&t, ctx.input(kCountInput).data, sizeof t);
  return t;
}
}  // namespace optimizer_util

/// The kernel body the optimizers share, usable directly as a VersionedKernel's Impl:
/// `using Adam_1 = VersionedKernel<OptimizerKernel<AdamOp>, 1>;`. prepare() checks the layout
/// (optimizer_util::prepare) and parses `Op::Params`; run() reads R and T, asks `Op::step` for the per-run scalars
/// and calls `Op::update<T>` once per tensor i with the pointers of its input groups (X_i, G_i, state_i...) and
/// output groups. Op provides:
///   static constexpr std::string_view kOpType = "Adam";
///   static constexpr int kInputGroups = 4, kOutputGroups = 3;  // X, G and the state tensors in; X_new, state out
///   struct Params { ...; static Status parse(const PrepareContext&, Params&) noexcept; };
///   struct Step { ... };  static Step step(const Params&, double rate, std::int64_t count) noexcept;
///   template <typename T> static void update(const Params&, const Step&, const T* const* in, T* const* out,
///                                            std::int64_t count) noexcept;
template <typename Op>
struct OptimizerKernel : KernelDefaults {
  static constexpr std::string_view kDomain = optimizer_util::kDomain;
  static constexpr std::string_view kOpType = Op::kOpType;
  static constexpr int kInputGroups = Op::kInputGroups;
  static constexpr int kOutputGroups = Op::kOutputGroups;

  struct State {
    optimizer_util::Plan plan;
    typename Op::Params params;
    void (*update)(const State& state, const RunContext& ctx) noexcept;
  };

  static Status prepare(PrepareContext& ctx) noexcept {
    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
    ONNXMICRO_RETURN_IF_ERROR(optimizer_util::prepare(ctx, kInputGroups, kOutputGroups, state->plan));
    ONNXMICRO_RETURN_IF_ERROR(Op::Params::parse(ctx, state->params));
    state->update = state->plan.dtype == DataType::float64 ? &update_all<double> : &update_all<float>;
    return {};
  }

  static Status run(RunContext& ctx) noexcept {
    const State& state = ctx.state<State>();
    state.update(state, ctx);
    return {};
  }

 private:
  template <typename T>
  static void update_all(const State& state, const RunContext& ctx) noexcept {
    const int n = state.plan.tensors;
    const typename Op::Step step =
        Op::step(state.params, optimizer_util::rate(state.plan, ctx), optimizer_util::update_count(ctx));
    for (int i = 0; i < n; ++i) {
      const T* in[kInputGroups];
      T* out[kOutputGroups];
      for (int k = 0; k < kInputGroups; ++k) {
        in[k] = static_cast<const T*>(ctx.input(optimizer_util::kFirstTensorInput + k * n + i).data);
      }
      for (int k = 0; k < kOutputGroups; ++k) out[k] = static_cast<T*>(ctx.output(k * n + i).data);
      Op::update(state.params, step, in, out, ctx.input(optimizer_util::kFirstTensorInput + i).element_count());
    }
  }
};

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
