// SPDX-License-Identifier: MIT
// ConvInteger (opset 10, the only version): N-D convolution of int8/uint8 x and w after subtracting their zero
// points (x_zero_point per tensor; w_zero_point per tensor or per output channel), into int32 (the accumulation
// wraps around in 32 bits, the only overflow the spec allows). Pads contribute zero after the shift. Attributes
// and output shape as Conv (group, kernel_shape, strides, dilations, pads, auto_pad). Reference loops; a fused
// fast path comes with a later issue.
#pragma once
#include <cstdint>

#include "onnxmicro/kernels/kernel_api.hpp"
#include "onnxmicro/kernels/quantization/quant_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

// Opset 10: the only version.
struct ConvInteger_10 : KernelDefaults {
  static constexpr std::string_view kDomain = "";
  static constexpr std::string_view kOpType = "ConvInteger";
  static constexpr int kSinceVersion = 10;
  static constexpr int kX = 0;
  static constexpr int kW = 1;
  static constexpr int kXZeroPoint = 2;
  static constexpr int kWZeroPoint = 3;
  static constexpr int kY = 0;

  struct State {
    quant_util::ConvPlan plan;
    quant_util::LoadElement load_x, load_w;
    bool per_channel_w_zero;
  };

  static Status prepare(PrepareContext& ctx) noexcept {
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kX));
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kW));
    for (int i : {kX, kW}) {
      if (ctx.input(i).dtype != DataType::int8 && ctx.input(i).dtype != DataType::uint8) {
        return ctx.unsupported_input_dtype(i);
      }
    }
    if (ctx.has_input(kXZeroPoint)) ONNXMICRO_RETURN_IF_ERROR(ctx.require_same_dtype(kX, kXZeroPoint));
    if (ctx.has_input(kWZeroPoint)) ONNXMICRO_RETURN_IF_ERROR(ctx.require_same_dtype(kW, kWZeroPoint));
    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
    ONNXMICRO_RETURN_IF_ERROR(quant_util::plan_conv(ctx, kX, kW, state->plan));
    ONNXMICRO_RETURN_IF_ERROR(quant_util::check_scalar_param(ctx, kXZeroPoint));
    ONNXMICRO_RETURN_IF_ERROR(quant_util::check_channel_param(ctx, kWZeroPoint, state->plan.out_channels));
    state->per_channel_w_zero = ctx.has_input(kWZeroPoint) && ctx.input(kWZeroPoint).shape.element_count() > 1;
    state->load_x = quant_util::loader_for(ctx.input(kX).dtype);
    state->load_w = quant_util::loader_for(ctx.input(kW).dtype);
    ctx.set_output(kY, DataType::int32, state->plan.output);
    return {};
  }

  static Status run(RunContext& ctx) noexcept {
    const State& s = ctx.state<State>();
    const quant_util::LoadElement load_w = s.load_w;
    const double x_zero = ctx.has_input(kXZeroPoint) ? s.load_x(ctx.input(kXZeroPoint).data, 0) : 0.0;
    const void* w_zero = ctx.has_input(kWZeroPoint) ? ctx.input(kWZeroPoint).data : nullptr;
    const bool per_channel = s.per_channel_w_zero;
    std::int32_t* y = static_cast<std::int32_t*>(ctx.output(kY).data);
    s.plan.for_each_sum(
        s.load_x, ctx.input(kX).data, x_zero, load_w, ctx.input(kW).data,
        [&](std::int64_t m) { return w_zero ? load_w(w_zero, per_channel ? m : 0) : 0.0; },
        [&](std::int64_t i, double sum, std::int64_t) { y[i] = quant_util::wrap_int32(sum); });
    return {};
  }
};

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
