// SPDX-License-Identifier: MIT
// QLinearMatMul: numpy.matmul of quantized a and b, requantized to y:
//   y = saturate(round(sum_k (a - a_zero) * (b - b_zero) * (a_scale * b_scale / y_scale)) + y_zero)
// with the scale/zero point of a per tensor or per row ([M] or [.., M, 1]), of b per tensor or per column ([N] or
// [.., 1, N]), of y per tensor. As the ONNX reference: the integer sum wraps in int32, the multiplier is computed
// in the scales' dtype (a_scale * b_scale, then / y_scale), the product and the zero point in float64, rounding
// half to even. Opset 21 adds float16/bfloat16 scales and float8 a, b and y: float8 operands are summed exactly in
// float64 (no wrap) and a float8 y gets the saturated, rounded value. Without y_zero_point, y has a's dtype.
// Reference loops; a fused fast path comes with a later issue.
#pragma once
#include <cstdint>

#include "onnxmicro/kernels/kernel_api.hpp"
#include "onnxmicro/kernels/quantization/quant_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {
namespace qlinear_matmul_detail {

constexpr int kA = 0;
constexpr int kAScale = 1;
constexpr int kAZeroPoint = 2;
constexpr int kB = 3;
constexpr int kBScale = 4;
constexpr int kBZeroPoint = 5;
constexpr int kYScale = 6;
constexpr int kYZeroPoint = 7;
constexpr int kY = 0;

struct State {
  quant_util::MatMulPlan plan;
  quant_util::LoadElement load_a, load_b, load_scale, load_y;
  quant_util::Precision scale_precision;
  quant_util::Requantizer requantize;
  bool wrap;  ///< integer a and b: the sum wraps in int32
};

inline bool is_operand_dtype(DataType t, std::int64_t opset) noexcept {
  return t == DataType::int8 || t == DataType::uint8 || (opset >= 21 && quant_util::is_float8(t));
}

inline Status prepare(PrepareContext& ctx) noexcept {
  const std::int64_t opset = ctx.opset_version();
  for (int i : {kA, kAScale, kB, kBScale, kYScale}) ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(i));
  for (int i : {kA, kB, kYZeroPoint}) {
    if (ctx.has_input(i) && !is_operand_dtype(ctx.input(i).dtype, opset)) return ctx.unsupported_input_dtype(i);
  }
  if (ctx.has_input(kAZeroPoint)) ONNXMICRO_RETURN_IF_ERROR(ctx.require_same_dtype(kA, kAZeroPoint));
  if (ctx.has_input(kBZeroPoint)) ONNXMICRO_RETURN_IF_ERROR(ctx.require_same_dtype(kB, kBZeroPoint));
  const DataType scale_dtype = ctx.input(kAScale).dtype;
  const bool scale_ok = scale_dtype == DataType::float32 ||
                        (opset >= 21 && (scale_dtype == DataType::float16 || scale_dtype == DataType::bfloat16));
  if (!scale_ok) return ctx.unsupported_input_dtype(kAScale);
  ONNXMICRO_RETURN_IF_ERROR(ctx.require_same_dtype(kAScale, kBScale));
  ONNXMICRO_RETURN_IF_ERROR(ctx.require_same_dtype(kAScale, kYScale));

  State* state = nullptr;
  ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
  quant_util::MatMulPlan& plan = state->plan;
  ONNXMICRO_RETURN_IF_ERROR(quant_util::plan_matmul(ctx, kA, kB, plan));
  ONNXMICRO_RETURN_IF_ERROR(quant_util::plan_matrix_params(ctx, kAScale, kA, true, plan, plan.a_params));
  ONNXMICRO_RETURN_IF_ERROR(quant_util::require_same_shape(ctx, kAScale, kAZeroPoint));
  ONNXMICRO_RETURN_IF_ERROR(quant_util::plan_matrix_params(ctx, kBScale, kB, false, plan, plan.b_params));
  ONNXMICRO_RETURN_IF_ERROR(quant_util::require_same_shape(ctx, kBScale, kBZeroPoint));
  ONNXMICRO_RETURN_IF_ERROR(quant_util::check_scalar_param(ctx, kYScale));
  ONNXMICRO_RETURN_IF_ERROR(quant_util::check_scalar_param(ctx, kYZeroPoint));

  const DataType output = ctx.has_input(kYZeroPoint) ? ctx.input(kYZeroPoint).dtype : ctx.input(kA).dtype;
  state->load_a = quant_util::loader_for(ctx.input(kA).dtype);
  state->load_b = quant_util::loader_for(ctx.input(kB).dtype);
  state->load_scale = quant_util::loader_for(scale_dtype);
  state->load_y = quant_util::loader_for(output);
  state->scale_precision = quant_util::precision_of(scale_dtype);
  state->requantize = quant_util::Requantizer(output);
  state->wrap = !quant_util::is_float8(ctx.input(kA).dtype) && !quant_util::is_float8(ctx.input(kB).dtype);
  ctx.set_output(kY, output, plan.output);
  return {};
}

inline Status run(RunContext& ctx) noexcept {
  const State& s = ctx.state<State>();
  using quant_util::round_to;
  const quant_util::LoadElement load_a = s.load_a, load_b = s.load_b, load_scale = s.load_scale;
  const void* a_zero = ctx.has_input(kAZeroPoint) ? ctx.input(kAZeroPoint).data : nullptr;
  const void* b_zero = ctx.has_input(kBZeroPoint) ? ctx.input(kBZeroPoint).data : nullptr;
  const void* a_scale = ctx.input(kAScale).data;
  const void* b_scale = ctx.input(kBScale).data;
  const double y_scale = load_scale(ctx.input(kYScale).data, 0);
  const double y_zero = ctx.has_input(kYZeroPoint) ? s.load_y(ctx.input(kYZeroPoint).data, 0) : 0.0;
  void* y = ctx.output(kY).data;
  const quant_util::Precision p = s.scale_precision;
  s.plan.for_each_sum(
      load_a, ctx.input(kA).data, load_b, ctx.input(kB).data,
      [&](std::int64_t i) { return a_zero ? load_a(a_zero, i) : 0.0; },
      [&](std::int64_t i) { return b_zero ? load_b(b_zero, i) : 0.0; },
      [&](std::int64_t i, double sum, std::int64_t ap, std::int64_t bp) {
        const double multiplier = round_to(p, round_to(p, load_scale(a_scale, ap) * load_scale(b_scale, bp)) / y_scale);
        const double c = s.wrap ? static_cast<double>(quant_util::wrap_int32(sum)) : sum;
        s.requantize(y, i, c * multiplier, y_zero);
      });
  return {};
}

inline Status prepare_version(PrepareContext& ctx, int) noexcept { return prepare(ctx); }

inline constexpr std::string_view kOpType = "QLinearMatMul";
template <int Since, int Until>
using Kernel = quant_util::VersionedKernel<kOpType, &prepare_version, &run, Since, Until>;

}  // namespace qlinear_matmul_detail

// Opset 10: int8/uint8 operands, float scales.
struct QLinearMatMul_10 : qlinear_matmul_detail::Kernel<10, 21> {};
// Opset 21: float16/bfloat16 scales and float8 operands (checked against the node's opset).
struct QLinearMatMul_21 : qlinear_matmul_detail::Kernel<21, kOpenEnded> {};

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
