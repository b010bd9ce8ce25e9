// SPDX-License-Identifier: MIT
// QLinearConv (opset 10, the only version): N-D convolution of quantized x and w, plus an optional int32 bias,
// requantized to y:
//   y = saturate(round((sum (x - x_zero) * (w - w_zero[m]) + B[m]) * (x_scale * w_scale[m] / y_scale)) + y_zero)
// x_scale/x_zero_point and y_scale/y_zero_point per tensor; w_scale/w_zero_point per tensor or per output channel.
// As the ONNX reference: the integer sum wraps in int32, the multiplier is float32 (x_scale * w_scale, then
// / y_scale), the product and zero point float64, rounding half to even. Without y_zero_point, y has x's dtype.
// Attributes and output shape as Conv. Reference loops; a fused fast path comes with a later issue.
#pragma once
#include <cstdint>

#include "onnxmicro/kernels/kernel_api.hpp"
#include "onnxmicro/kernels/quantization/quant_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

// Opset 10: the only version.
struct QLinearConv_10 : KernelDefaults {
  static constexpr std::string_view kDomain = "";
  static constexpr std::string_view kOpType = "QLinearConv";
  static constexpr int kSinceVersion = 10;
  static constexpr int kX = 0;
  static constexpr int kXScale = 1;
  static constexpr int kXZeroPoint = 2;
  static constexpr int kW = 3;
  static constexpr int kWScale = 4;
  static constexpr int kWZeroPoint = 5;
  static constexpr int kYScale = 6;
  static constexpr int kYZeroPoint = 7;
  static constexpr int kB = 8;
  static constexpr int kY = 0;

  struct State {
    quant_util::ConvPlan plan;
    quant_util::LoadElement load_x, load_w, load_y;
    quant_util::Requantizer requantize;
    bool per_channel_scale, per_channel_zero;
  };

  static Status prepare(PrepareContext& ctx) noexcept {
    for (int i : {kX, kXScale, kW, kWScale, kYScale}) ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(i));
    for (int i : {kX, kW, kYZeroPoint}) {
      if (ctx.has_input(i) && ctx.input(i).dtype != DataType::int8 && ctx.input(i).dtype != DataType::uint8) {
        return ctx.unsupported_input_dtype(i);
      }
    }
    if (ctx.has_input(kXZeroPoint)) ONNXMICRO_RETURN_IF_ERROR(ctx.require_same_dtype(kX, kXZeroPoint));
    if (ctx.has_input(kWZeroPoint)) ONNXMICRO_RETURN_IF_ERROR(ctx.require_same_dtype(kW, kWZeroPoint));
    for (int i : {kXScale, kWScale, kYScale}) {
      ONNXMICRO_RETURN_IF_ERROR(quant_util::require_dtype(ctx, i, DataType::float32, "scale"));
    }
    if (ctx.has_input(kB)) ONNXMICRO_RETURN_IF_ERROR(quant_util::require_dtype(ctx, kB, DataType::int32, "B"));

    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
    ONNXMICRO_RETURN_IF_ERROR(quant_util::plan_conv(ctx, kX, kW, state->plan));
    const std::int64_t m = state->plan.out_channels;
    for (int i : {kXScale, kXZeroPoint, kYScale, kYZeroPoint}) {
      ONNXMICRO_RETURN_IF_ERROR(quant_util::check_scalar_param(ctx, i));
    }
    ONNXMICRO_RETURN_IF_ERROR(quant_util::check_channel_param(ctx, kWScale, m));
    ONNXMICRO_RETURN_IF_ERROR(quant_util::check_channel_param(ctx, kWZeroPoint, m));
    if (ctx.has_input(kB)) {
      const TensorInfo& b = ctx.input(kB);
      if (b.shape.rank() != 1 || b.shape[0] != m) {
        return Status(StatusCode::invalid_model)
               << "input 8 '" << b.name << "' (B) has shape " << b.shape << ", expected [" << static_cast<long long>(m)
               << "] (one bias per output channel)";
      }
    }
    const DataType output = ctx.has_input(kYZeroPoint) ? ctx.input(kYZeroPoint).dtype : ctx.input(kX).dtype;
    state->load_x = quant_util::loader_for(ctx.input(kX).dtype);
    state->load_w = quant_util::loader_for(ctx.input(kW).dtype);
    state->load_y = quant_util::loader_for(output);
    state->requantize = quant_util::Requantizer(output);
    state->per_channel_scale = ctx.input(kWScale).shape.element_count() > 1;
    state->per_channel_zero = ctx.has_input(kWZeroPoint) && ctx.input(kWZeroPoint).shape.element_count() > 1;
    ctx.set_output(kY, output, state->plan.output);
    return {};
  }

  static Status run(RunContext& ctx) noexcept {
    const State& s = ctx.state<State>();
    using quant_util::Precision;
    using quant_util::round_to;
    const quant_util::LoadElement load_w = s.load_w;
    const double x_zero = ctx.has_input(kXZeroPoint) ? s.load_x(ctx.input(kXZeroPoint).data, 0) : 0.0;
    const double y_zero = ctx.has_input(kYZeroPoint) ? s.load_y(ctx.input(kYZeroPoint).data, 0) : 0.0;
    const float* x_scale = static_cast<const float*>(ctx.input(kXScale).data);
    const float* w_scale = static_cast<const float*>(ctx.input(kWScale).data);
    const float* y_scale = static_cast<const float*>(ctx.input(kYScale).data);
    const void* w_zero = ctx.has_input(kWZeroPoint) ? ctx.input(kWZeroPoint).data : nullptr;
    const std::int32_t* bias = ctx.has_input(kB) ? static_cast<const std::int32_t*>(ctx.input(kB).data) : nullptr;
    void* y = ctx.output(kY).data;
    s.plan.for_each_sum(
        s.load_x, ctx.input(kX).data, x_zero, load_w, ctx.input(kW).data,
        [&](std::int64_t m) { return w_zero ? load_w(w_zero, s.per_channel_zero ? m : 0) : 0.0; },
        [&](std::int64_t i, double sum, std::int64_t m) {
          const double ws = w_scale[s.per_channel_scale ? m : 0];
          const double multiplier =
              round_to(Precision::float32, round_to(Precision::float32, x_scale[0] * ws) / y_scale[0]);
          const std::int32_t total = quant_util::wrap_int32(sum + (bias ? bias[m] : 0));
          s.requantize(y, i, total * multiplier, y_zero);
        });
    return {};
  }
};

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
