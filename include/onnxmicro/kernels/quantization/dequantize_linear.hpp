// SPDX-License-Identifier: MIT
// DequantizeLinear: y = (x - x_zero_point) * x_scale, with a scale (and zero point) per tensor, per axis
// (opset 13) or per block along an axis (opset 21, 'block_size'). The output dtype is float (10, 13), x_scale's
// (19, 21), or 'output_dtype' (23) when given.
// Arithmetic follows the ONNX reference (numpy): x - x_zero_point in float32 (float64 for int32 x with a zero
// point; x itself is first rounded to float32), times x_scale in float32 (float64 on that int32 path), then one
// rounding to the output dtype. float8 and float4 zero points are subtracted as the spec's formula says (the
// reference requires a float8 one to be 0 and ignores a float4 one; both agree for 0).
#pragma once
#include <cstdint>

#include "onnxmicro/kernels/kernel_api.hpp"
#include "onnxmicro/kernels/quantization/quant_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {
namespace dequantize_linear_detail {

constexpr int kX = 0;
constexpr int kScale = 1;
constexpr int kZeroPoint = 2;
constexpr int kY = 0;

/// What a version defines.
struct Rules {
  quant_util::ParamRules params;
  bool float_scales = false;  ///< x_scale may be float16/bfloat16 and decides the output dtype (19)
  bool output_dtype = false;  ///< 'output_dtype' attribute (23)
};

struct State {
  quant_util::ParamLayout layout;
  quant_util::LoadElement load_x, load_scale, load_zero_point;  ///< load_zero_point: nullptr when absent
  DataType output;
  bool in_float64;  ///< int32 x with a zero point: numpy computes in float64
  bool fast_8bit;   ///< int8/uint8 x, one float32 scale, float32 output: the loop below without loaders
};

inline Status check_dtypes(const PrepareContext& ctx, const Rules& rules, DataType& output) noexcept {
  const TensorInfo& x = ctx.input(kX);
  const TensorInfo& scale = ctx.input(kScale);
  const std::int64_t opset = ctx.opset_version();
  const int since = x.dtype == DataType::int32 ? 10 : quant_util::quantized_dtype_since(x.dtype);
  if (since == 0 || since > opset) {
    return quant_util::with_needed_opset(ctx.input_error(kX, {}, StatusCode::unsupported)
                                             << " has dtype " << dtype_name(x.dtype) << ", which DequantizeLinear-"
                                             << opset << " does not support",
                                         since);
  }
  if (ctx.has_input(kZeroPoint))
    ONNXMICRO_RETURN_IF_ERROR(quant_util::require_dtype(ctx, kZeroPoint, x.dtype, "x_zero_point, same dtype as x"));
  if (!rules.float_scales) {
    ONNXMICRO_RETURN_IF_ERROR(quant_util::require_dtype(ctx, kScale, DataType::float32, "x_scale"));
    output = DataType::float32;
    return {};
  }
  const bool e8m0 = scale.dtype == DataType::float8e8m0 && opset >= 24;
  if (!is_floating(scale.dtype) && !e8m0) {
    return ctx.input_error(kScale, "x_scale")
           << " has dtype " << dtype_name(scale.dtype) << ", expected float, float16 or bfloat16"
           << (opset >= 24 ? " or float8e8m0" : "");
  }
  output = scale.dtype;
  DataType attribute = DataType::undefined;
  if (rules.output_dtype) ONNXMICRO_RETURN_IF_ERROR(quant_util::read_dtype_attribute(ctx, "output_dtype", attribute));
  if (attribute != DataType::undefined) output = attribute;
  if (!(output == DataType::float32 || output == DataType::float16 || output == DataType::bfloat16)) {
    return Status(StatusCode::invalid_model)
           << "the output dtype is " << dtype_name(output)
           << (attribute != DataType::undefined ? " (attribute 'output_dtype')" : " (that of input 1 'x_scale')")
           << ", expected float, float16 or bfloat16" << (e8m0 ? ": set 'output_dtype' for float8e8m0 scales" : "");
  }
  return {};
}

inline Status prepare(PrepareContext& ctx, const Rules& rules) noexcept {
  ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kX));
  ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kScale));
  ONNXMICRO_RETURN_IF_ERROR(quant_util::check_constant_scale_positive(ctx, kScale, "x_scale"));
  State* state = nullptr;
  ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
  ONNXMICRO_RETURN_IF_ERROR(check_dtypes(ctx, rules, state->output));
  ONNXMICRO_RETURN_IF_ERROR(quant_util::plan_params(ctx, kScale, kZeroPoint, rules.params, state->layout));
  const TensorInfo& x = ctx.input(kX);
  state->load_x = quant_util::loader_for(x.dtype);
  state->load_scale = quant_util::loader_for(ctx.input(kScale).dtype);
  state->load_zero_point = ctx.has_input(kZeroPoint) ? quant_util::loader_for(x.dtype) : nullptr;
  state->in_float64 = x.dtype == DataType::int32 && ctx.has_input(kZeroPoint);
  state->fast_8bit = (x.dtype == DataType::int8 || x.dtype == DataType::uint8) &&
                     ctx.input(kScale).dtype == DataType::float32 && ctx.input(kScale).shape.element_count() == 1 &&
                     state->output == DataType::float32;
  ctx.set_output(kY, state->output, x.shape);
  return {};
}

/// The common case, as the general loop computes it: (x - zero_point) is exact in float32, times the scale
/// rounded once to float32.
template <typename Q>
inline void dequantize_8bit(const Q* x, float scale, const void* zero_point, float* y, std::int64_t count) noexcept {
  const float zero = zero_point ? static_cast<float>(*static_cast<const Q*>(zero_point)) : 0.0f;
  for (std::int64_t i = 0; i < count; ++i) y[i] = (static_cast<float>(x[i]) - zero) * scale;
}
inline Status run(RunContext& ctx) noexcept {
  const State& s = ctx.state<State>();
  if (s.fast_8bit) {
    const float scale = *ctx.input(kScale).data_as<float>();
    const void* zero = s.load_zero_point ? ctx.input(kZeroPoint).data : nullptr;
    float* y = static_cast<float*>(ctx.output(kY).data);
    const std::int64_t count = ctx.input(kX).element_count();
    if (ctx.input(kX).dtype == DataType::int8) {
      dequantize_8bit(ctx.input(kX).data_as<std::int8_t>(), scale, zero, y, count);
    } else {
      dequantize_8bit(ctx.input(kX).data_as<std::uint8_t>(), scale, zero, y, count);
    }
    return {};
  }
  const void* x = ctx.input(kX).data;
  const void* scale = ctx.input(kScale).data;
  const void* zero_point = s.load_zero_point ? ctx.input(kZeroPoint).data : nullptr;
  void* y = ctx.output(kY).data;
  using quant_util::Precision;
  s.layout.for_each([&](std::int64_t i, std::int64_t p) {
    const double xv = quant_util::round_to(Precision::float32, s.load_x(x, i));  // x.astype(float32)
    const double z = zero_point ? s.load_zero_point(zero_point, p) : 0.0;
    const double sv = s.load_scale(scale, p);
    double v = 0;
    if (s.in_float64) {
      v = (xv - z) * sv;
    } else {
      v = quant_util::round_to(Precision::float32, quant_util::round_to(Precision::float32, xv - z) * sv);
    }
    quant_util::store_real(s.output, y, i, v);
  });
  return {};
}

inline Rules rules_for(int since) noexcept {
  Rules r;
  r.params.per_axis = since >= 13;
  r.params.blocked = since >= 21;
  r.float_scales = since >= 19;
  r.output_dtype = since >= 23;
  return r;
}

/// DequantizeLinear's versions share prepare and run; `since` picks the rules (VersionedKernel).
struct Impl : KernelDefaults {
  static constexpr std::string_view kOpType = "DequantizeLinear";
  static Status prepare(PrepareContext& ctx, int since) noexcept {
    return dequantize_linear_detail::prepare(ctx, rules_for(since));
  }
  static Status run(RunContext& ctx) noexcept { return dequantize_linear_detail::run(ctx); }
};

}  // namespace dequantize_linear_detail

// Opset 10: per-tensor float scale; int8/uint8/int32 x; float output.
using DequantizeLinear_10 = VersionedKernel<dequantize_linear_detail::Impl, 10, 13>;
// Opset 13: 'axis' and per-axis (1-D) scales.
using DequantizeLinear_13 = VersionedKernel<dequantize_linear_detail::Impl, 13, 19>;
// Opset 19: float8 x; float16/bfloat16 scales, which set the output dtype.
using DequantizeLinear_19 = VersionedKernel<dequantize_linear_detail::Impl, 19, 21>;
// Opset 21: blocked quantization ('block_size'), int16/uint16 and int4/uint4 x.
using DequantizeLinear_21 = VersionedKernel<dequantize_linear_detail::Impl, 21, 23>;
// Opset 23: 'output_dtype', float4e2m1 x. Opsets 24 (float8e8m0 scales), 25 (int2/uint2) and 28 (float6) only add
// dtypes, checked against the node's opset.
using DequantizeLinear_23 = VersionedKernel<dequantize_linear_detail::Impl, 23>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
