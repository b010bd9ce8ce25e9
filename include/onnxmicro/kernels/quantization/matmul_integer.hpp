// SPDX-License-Identifier: MIT
// MatMulInteger (opset 10, the only version): numpy.matmul of int8/uint8 A and B after subtracting their zero
// points, into int32 (the accumulation wraps around in 32 bits, the only overflow the spec allows). a_zero_point
// is a scalar or per row of A ([M] or [.., M, 1]); b_zero_point a scalar or per column of B ([N] or [.., 1, N]).
// (The ONNX reference subtracts a 1-D a_zero_point along K, against the spec's per-row meaning; the suite only
// has one-value zero points.) Reference loops; a fused fast path comes with a later issue.
#pragma once
#include <cstdint>

#include "onnxmicro/kernels/kernel_api.hpp"
#include "onnxmicro/kernels/quantization/quant_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

// Opset 10: the only version.
struct MatMulInteger_10 : KernelDefaults {
  static constexpr std::string_view kDomain = "";
  static constexpr std::string_view kOpType = "MatMulInteger";
  static constexpr int kSinceVersion = 10;
  static constexpr int kA = 0;
  static constexpr int kB = 1;
  static constexpr int kAZeroPoint = 2;
  static constexpr int kBZeroPoint = 3;
  static constexpr int kY = 0;

  struct State {
    quant_util::MatMulPlan plan;
    quant_util::LoadElement load_a, load_b;
  };

  static Status prepare(PrepareContext& ctx) noexcept {
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kA));
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kB));
    for (int i : {kA, kB}) {
      if (ctx.input(i).dtype != DataType::int8 && ctx.input(i).dtype != DataType::uint8) {
        return ctx.unsupported_input_dtype(i);
      }
    }
    if (ctx.has_input(kAZeroPoint)) ONNXMICRO_RETURN_IF_ERROR(ctx.require_same_dtype(kA, kAZeroPoint));
    if (ctx.has_input(kBZeroPoint)) ONNXMICRO_RETURN_IF_ERROR(ctx.require_same_dtype(kB, kBZeroPoint));
    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
    ONNXMICRO_RETURN_IF_ERROR(quant_util::plan_matmul(ctx, kA, kB, state->plan));
    if (ctx.has_input(kAZeroPoint)) {
      ONNXMICRO_RETURN_IF_ERROR(
          quant_util::plan_matrix_params(ctx, kAZeroPoint, kA, true, state->plan, state->plan.a_params));
    }
    if (ctx.has_input(kBZeroPoint)) {
      ONNXMICRO_RETURN_IF_ERROR(
          quant_util::plan_matrix_params(ctx, kBZeroPoint, kB, false, state->plan, state->plan.b_params));
    }
    state->load_a = quant_util::loader_for(ctx.input(kA).dtype);
    state->load_b = quant_util::loader_for(ctx.input(kB).dtype);
    ctx.set_output(kY, DataType::int32, state->plan.output);
    return {};
  }

  static Status run(RunContext& ctx) noexcept {
    const State& s = ctx.state<State>();
    const quant_util::LoadElement load_a = s.load_a, load_b = s.load_b;
    const void* a_zero = ctx.has_input(kAZeroPoint) ? ctx.input(kAZeroPoint).data : nullptr;
    const void* b_zero = ctx.has_input(kBZeroPoint) ? ctx.input(kBZeroPoint).data : nullptr;
    std::int32_t* y = static_cast<std::int32_t*>(ctx.output(kY).data);
    s.plan.for_each_sum(
        load_a, ctx.input(kA).data, load_b, ctx.input(kB).data,
        [&](std::int64_t p) { return a_zero ? load_a(a_zero, p) : 0.0; },
        [&](std::int64_t p) { return b_zero ? load_b(b_zero, p) : 0.0; },
        [&](std::int64_t i, double sum, std::int64_t, std::int64_t) { y[i] = quant_util::wrap_int32(sum); });
    return {};
  }
};

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
