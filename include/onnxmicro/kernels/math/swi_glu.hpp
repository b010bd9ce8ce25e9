// SPDX-License-Identifier: MIT
// SwiGLU: y = Swish_alpha(A) * B elementwise (attribute alpha, default 1), A the gate and B the value. A and B
// must have the same shape and dtype (no broadcasting). New in opset 28; float16/bfloat16 compute in float32
// and round once.
#pragma once
#include "onnxmicro/kernels/math/swish.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

namespace swi_glu_detail {

/// The implementation of SwiGLU (see the file comment).
struct SwiGLUImpl : KernelDefaults {
  static constexpr std::string_view kOpType = "SwiGLU";
  static constexpr int kInPlaceInput = 0;  // y[i] is written after a[i] and b[i] are read
  static constexpr int kGateInput = 0;
  static constexpr int kValueInput = 1;
  static constexpr int kOutput = 0;

  struct State {
    SwishOp::Params params;
    void (*compute)(const void* a, const void* b, void* y, std::int64_t count, const SwishOp::Params& params) noexcept;
  };

  static Status prepare(PrepareContext& ctx) noexcept {
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kGateInput));
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kValueInput));
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_same_dtype(kGateInput, kValueInput));
    const TensorInfo& gate = ctx.input(kGateInput);
    const TensorInfo& value = ctx.input(kValueInput);
    if (gate.shape != value.shape) {
      return ctx.input_error(kValueInput, "B") << " has shape " << value.shape << ", expected input 0's shape "
                                               << gate.shape << " (SwiGLU does not broadcast)";
    }
    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
    ONNXMICRO_RETURN_IF_ERROR(SwishOp::Params::parse(ctx, state->params));
    const bool supported = visit_dtype(
        gate.dtype, FloatTypes{}, [&](auto tag) noexcept { state->compute = &compute<typename decltype(tag)::type>; });
    if (!supported) return ctx.unsupported_input_dtype(kGateInput);
    ctx.set_output(kOutput, gate.dtype, gate.shape);
    return {};
  }

  static Status run(RunContext& ctx) noexcept {
    const State& state = ctx.state<State>();
    state.compute(ctx.input(kGateInput).data, ctx.input(kValueInput).data, ctx.output(kOutput).data,
                  ctx.input(kGateInput).element_count(), state.params);
    return {};
  }

 private:
  template <typename T>
  static void compute(const void* a, const void* b, void* y, std::int64_t count,
                      const SwishOp::Params& params) noexcept {
    const T* gate = static_cast<const T*>(a);
    const T* value = static_cast<const T*>(b);
    T* out = static_cast<T*>(y);
    for (std::int64_t i = 0; i < count; ++i) {
      out[i] = store_element<T>(SwishOp::apply(load_element(gate[i]), params) * load_element(value[i]));
    }
  }
};

}  // namespace swi_glu_detail

// Opset 28: first version.
using SwiGLU_28 = VersionedKernel<swi_glu_detail::SwiGLUImpl, 28>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
