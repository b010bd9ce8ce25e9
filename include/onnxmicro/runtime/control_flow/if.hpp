// SPDX-License-Identifier: MIT
// If: runs then_branch or else_branch by a bool condition; the node's outputs are the branch's outputs.
// Versions 1, 11, 13, 16, 19, 21, 23, 24 and 25 only widened the dtype lists (16: optional and sequence values,
// which this build does not have), so one kernel serves them all.
// With the condition known at prepare time only the chosen branch is prepared (the other may even be invalid
// for these shapes). Otherwise both are prepared and must produce the same dtypes and shapes, since every output
// shape is fixed at prepare time (branches of different shapes need the condition when planning).
#pragma once
#include "onnxmicro/runtime/control_flow/subgraph.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

namespace if_detail {

/// The implementation of If (see the file comment).
struct IfImpl : KernelDefaults {
  static constexpr std::string_view kOpType = "If";
  static constexpr int kCond = 0;

  struct State {
    detail::Subgraph branches[2];  ///< then, else
    int fixed_branch;              ///< 0/1 when the condition was known at prepare, -1 otherwise
  };

  static Status prepare(PrepareContext& ctx) noexcept {
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kCond));
    const TensorInfo& cond = ctx.input(kCond);
    if (cond.dtype != DataType::boolean) return ctx.unsupported_input_dtype(kCond);
    if (cond.shape.element_count() != 1) {
      return ctx.input_error(kCond) << " must hold one bool, got shape " << cond.shape;
    }
    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
    state->fixed_branch = -1;
    if (cond.is_constant) state->fixed_branch = *static_cast<const bool*>(cond.const_data) ? 0 : 1;
    const char* names[2] = {"then_branch", "else_branch"};
    std::size_t scratch_bytes = 0;
    for (int b = 0; b < 2; ++b) {
      if (state->fixed_branch >= 0 && state->fixed_branch != b) continue;
      detail::Subgraph& branch = state->branches[b];
      ONNXMICRO_RETURN_IF_ERROR(branch.load(ctx, names[b]));
      branch.place_arena_in_scratch();
      ONNXMICRO_RETURN_IF_ERROR(branch.prepare(ctx, Span<const TensorInfo>()));
      // One branch runs at a time: they share the node's scratch.
      if (branch.scratch_bytes() > scratch_bytes) scratch_bytes = branch.scratch_bytes();
      if (branch.output_count() != static_cast<std::size_t>(ctx.output_count())) {
        return Status(StatusCode::invalid_model) << "subgraph '" << names[b] << "' has " << branch.output_count()
                                                 << " outputs, the node has " << ctx.output_count();
      }
    }
    const int first = state->fixed_branch >= 0 ? state->fixed_branch : 0;
    for (int k = 0; k < ctx.output_count(); ++k) {
      const ConstTensorView out = state->branches[first].session().output(static_cast<std::size_t>(k));
      if (state->fixed_branch < 0) {
        const ConstTensorView other = state->branches[1].session().output(static_cast<std::size_t>(k));
        if (other.dtype != out.dtype || other.shape != out.shape) {
          (void)ctx.require_constant_input(kCond);  // a bound condition makes this work: ask for it
          return ctx.output_error(k, {}, StatusCode::unsupported)
                 << ": then_branch gives " << dtype_name(out.dtype) << " " << out.shape << ", else_branch "
                 << dtype_name(other.dtype) << " " << other.shape
                 << "; branches of different shapes need the condition's value when planning (offer the input it "
                    "comes from in SessionOptions::input_values, as Session::run(inputs) does)";
        }
      }
      ctx.set_output(k, out.dtype, out.shape);
    }
    ctx.request_scratch(scratch_bytes);
    return {};
  }

  static Status run(RunContext& ctx) noexcept {
    State& state = ctx.state<State>();
    const int b = state.fixed_branch >= 0 ? state.fixed_branch : (*ctx.input(kCond).data_as<bool>() ? 0 : 1);
    detail::Subgraph& branch = state.branches[b];
    ONNXMICRO_RETURN_IF_ERROR(branch.bind_outer(ctx));
    ONNXMICRO_RETURN_IF_ERROR(branch.run());
    for (int k = 0; k < ctx.output_count(); ++k) {
      if (ctx.has_output(k)) detail::copy_tensor(ctx.output(k), branch.session().output(static_cast<std::size_t>(k)));
    }
    return {};
  }
};

}  // namespace if_detail

// Opset 1+: one kernel for every version (see the file comment).
using If_1 = VersionedKernel<if_detail::IfImpl, 1>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
