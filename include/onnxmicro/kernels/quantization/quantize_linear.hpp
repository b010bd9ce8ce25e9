// SPDX-License-Identifier: MIT
// QuantizeLinear: y = saturate(round(x / y_scale) + y_zero_point), rounding half to even, with a scale (and zero
// point) per tensor, per axis (opset 13) or per block along an axis (opset 21, 'block_size').
//  - Integer outputs (int8/uint8, int16/uint16, int4/uint4, int2/uint2) saturate to their range; NaN (a 0/0
//    division) gives the zero point.
//  - float8 outputs round to nearest even and overflow per 'saturate' (opset 19); float4e2m1/float6 always
//    saturate (no inf). The ONNX reference ignores the zero point for float8 (the spec adds it, and says it is
//    usually 0): a zero zero-point is not added, so -0 stays -0 as in the reference; a nonzero one is added.
//  - The division runs in the dtype numpy gives x / y_scale (the reference's; the spec says "y_scale's type"):
//    float32 for float32 or mixed float types, float16/bfloat16 when both are, float64 when either is int32;
//    'precision' (opset 23) rounds both operands to that dtype and divides in it.
// Sub-byte outputs are packed, low bits first.
#pragma once
#include <cstdint>
#include <limits>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "onnxmicro/kernels/kernel_api.hpp"
#include "onnxmicro/kernels/quantization/quant_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {
namespace quantize_linear_detail {

constexpr int kX = 0;
constexpr int kScale = 1;
constexpr int kZeroPoint = 2;
constexpr int kY = 0;

/// What a version defines.
struct Rules {
  quant_util::ParamRules params;
  bool saturate = false;         ///< 'saturate' attribute (19)
  bool output_dtype = false;     ///< 'output_dtype' attribute (21)
  bool precision = false;        ///< 'precision' attribute (23)
  bool scale_same_as_x = false;  ///< y_scale has x's dtype (19, 21); 10 and 13: float32; 23: its own list
};

struct State {
  quant_util::ParamLayout layout;
  quant_util::LoadElement load_x, load_scale, load_zero_point;  ///< load_zero_point: nullptr when absent
  quant_util::StoreQuantized store;
  quant_util::Precision division;
  DataType output;
  bool integer;  ///< integer output: saturate to [low, high]
  double low, high;
  bool saturate;    ///< float8 overflow rule
  int output_bits;  ///< packed outputs: bits per element, else 0
  bool fast_8bit;   ///< float32 x and scale, one scale, int8/uint8 output: the loop below without loaders
};

inline Status check_x_and_scale(const PrepareContext& ctx, const Rules& rules) noexcept {
  const TensorInfo& x = ctx.input(kX);
  const TensorInfo& scale = ctx.input(kScale);
  const std::int64_t opset = ctx.opset_version();
  const bool half_x = x.dtype == DataType::float16 || x.dtype == DataType::bfloat16;
  if (!(x.dtype == DataType::float32 || x.dtype == DataType::int32 || (half_x && opset >= 19))) {
    return ctx.unsupported_input_dtype(kX);
  }
  if (rules.scale_same_as_x) return quant_util::require_dtype(ctx, kScale, x.dtype, "y_scale, same dtype as x");
  if (!rules.precision) return quant_util::require_dtype(ctx, kScale, DataType::float32, "y_scale");
  switch (compiled_dtype(scale.dtype)) {
    case DataType::float32:
    case DataType::float16:
    case DataType::bfloat16:
    case DataType::int32: return {};
    case DataType::float8e8m0:
      if (opset >= 24) return {};
      break;
    default: break;
  }
  return ctx.input_error(kScale, "y_scale")
         << " has dtype " << dtype_name(scale.dtype) << ", expected float, float16, bfloat16 or int32"
         << (opset >= 24 ? " or float8e8m0" : "");
}

/// The output dtype: y_zero_point's, else 'output_dtype' (opset 21), else uint8.
inline Status output_dtype(const PrepareContext& ctx, const Rules& rules, DataType& out) noexcept {
  DataType attribute = DataType::undefined;
  if (rules.output_dtype) ONNXMICRO_RETURN_IF_ERROR(quant_util::read_dtype_attribute(ctx, "output_dtype", attribute));
  out = attribute == DataType::undefined ? DataType::uint8 : attribute;
  if (ctx.has_input(kZeroPoint)) {
    const TensorInfo& zp = ctx.input(kZeroPoint);
    if (attribute != DataType::undefined && attribute != zp.dtype) {
      return Status(StatusCode::invalid_model)
             << "attribute 'output_dtype' is " << dtype_name(attribute) << " but input 2 '" << zp.name
             << "' (y_zero_point) has dtype " << dtype_name(zp.dtype) << "; they must agree";
    }
    out = zp.dtype;
  }
  const int since = quant_util::quantized_dtype_since(out);
  if (since == 0 || since > ctx.opset_version()) {
    return quant_util::with_needed_opset(Status(StatusCode::unsupported)
                                             << "output dtype " << dtype_name(out)
                                             << (ctx.has_input(kZeroPoint) ? " (from input 2 'y_zero_point')" : "")
                                             << " is not a quantized type of QuantizeLinear-" << ctx.opset_version(),
                                         since);
  }
  return {};
}

inline Status prepare(PrepareContext& ctx, const Rules& rules) noexcept {
  ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kX));
  ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kScale));
  ONNXMICRO_RETURN_IF_ERROR(quant_util::check_constant_scale_positive(ctx, kScale, "y_scale"));
  ONNXMICRO_RETURN_IF_ERROR(check_x_and_scale(ctx, rules));
  State* state = nullptr;
  ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
  ONNXMICRO_RETURN_IF_ERROR(output_dtype(ctx, rules, state->output));
  ONNXMICRO_RETURN_IF_ERROR(quant_util::plan_params(ctx, kScale, kZeroPoint, rules.params, state->layout));

  const TensorInfo& x = ctx.input(kX);
  state->division = quant_util::promote(x.dtype, ctx.input(kScale).dtype);
  if (rules.precision) {
    DataType precision = DataType::undefined;
    ONNXMICRO_RETURN_IF_ERROR(quant_util::read_dtype_attribute(ctx, "precision", precision));
    if (precision != DataType::undefined) {
      if (!is_floating(precision)) {
        return Status(StatusCode::unsupported) << "attribute 'precision' is " << dtype_name(precision)
                                               << "; only float, float16, bfloat16 and double are supported";
      }
      state->division = quant_util::precision_of(precision);
    }
  }
  std::int64_t saturate = 1;
  if (rules.saturate) ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("saturate", saturate, 1));
  if (saturate != 0 && saturate != 1) {
    return Status(StatusCode::invalid_model) << "attribute 'saturate' is " << saturate << ", expected 0 or 1";
  }
  state->saturate = saturate == 1;
  state->load_x = quant_util::loader_for(x.dtype);
  state->load_scale = quant_util::loader_for(ctx.input(kScale).dtype);
  state->load_zero_point = ctx.has_input(kZeroPoint) ? quant_util::loader_for(state->output) : nullptr;
  state->store = quant_util::storer_for(state->output);
  state->integer = quant_util::is_integer_quantized(state->output);
  quant_util::integer_range(state->output, state->low, state->high);
  state->output_bits = dtype_bits(state->output);
  state->fast_8bit = x.dtype == DataType::float32 && ctx.input(kScale).dtype == DataType::float32 &&
                     state->division == quant_util::Precision::float32 &&
                     ctx.input(kScale).shape.element_count() == 1 &&
                     (state->output == DataType::int8 || state->output == DataType::uint8);
  ctx.set_output(kY, state->output, x.shape);
  return {};
}

/// The common case (a model's float input quantized per tensor), as the general loop computes it: x / scale
/// in float32, round half to even, add the zero point, saturate (NaN gives the zero point). With SSE2, 16 values at
/// a time: the same division, clamped to [low - zero, high - zero] first (integers, so clamping before rounding
/// gives the same result, and cvtps2dq never overflows), rounded by cvtps2dq in the default mode (half to even).
template <typename Q>
inline void quantize_8bit(const State& s, const float* x, float scale, const void* zero_point, Q* y,
                          std::int64_t count) noexcept {
  const int zero_int = zero_point ? static_cast<int>(*static_cast<const Q*>(zero_point)) : 0;
  std::int64_t i = 0;
#if defined(__SSE2__)
  const __m128 divisor = _mm_set1_ps(scale);
  const __m128 lowest = _mm_set1_ps(static_cast<float>(s.low - zero_int));
  const __m128 highest = _mm_set1_ps(static_cast<float>(s.high - zero_int));
  const __m128i zero16 = _mm_set1_epi16(static_cast<std::int16_t>(zero_int));
  auto scaled = [&](const float* p) noexcept {
    __m128 q = _mm_div_ps(_mm_loadu_ps(p), divisor);
    q = _mm_and_ps(q, _mm_cmpord_ps(q, q));  // NaN -> 0, i.e. the zero point
    return _mm_cvtps_epi32(_mm_min_ps(_mm_max_ps(q, lowest), highest));
  };
  for (; i + 16 <= count; i += 16) {
    const __m128i lo = _mm_add_epi16(_mm_packs_epi32(scaled(x + i), scaled(x + i + 4)), zero16);
    const __m128i hi = _mm_add_epi16(_mm_packs_epi32(scaled(x + i + 8), scaled(x + i + 12)), zero16);
    const __m128i bytes = std::numeric_limits<Q>::is_signed ? _mm_packs_epi16(lo, hi) : _mm_packus_epi16(lo, hi);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(y + i), bytes);
  }
#endif
  const double zero = static_cast<double>(zero_int);
  for (; i < count; ++i) {
    const float q = x[i] / scale;
    y[i] = static_cast<Q>(quant_util::round_and_saturate(q, zero, s.low, s.high));
  }
}
inline Status run(RunContext& ctx) noexcept {
  const State& s = ctx.state<State>();
  if (s.fast_8bit) {
    const float* x = ctx.input(kX).data_as<float>();
    const float scale = *ctx.input(kScale).data_as<float>();
    const void* zero = s.load_zero_point ? ctx.input(kZeroPoint).data : nullptr;
    const std::int64_t count = ctx.input(kX).element_count();
    if (s.output == DataType::int8) {
      quantize_8bit(s, x, scale, zero, static_cast<std::int8_t*>(ctx.output(kY).data), count);
    } else {
      quantize_8bit(s, x, scale, zero, static_cast<std::uint8_t*>(ctx.output(kY).data), count);
    }
    return {};
  }
  const void* x = ctx.input(kX).data;
  const void* scale = ctx.input(kScale).data;
  const void* zero_point = s.load_zero_point ? ctx.input(kZeroPoint).data : nullptr;
  void* y = ctx.output(kY).data;
  const bool float8 = quant_util::is_float8(s.output);
  s.layout.for_each([&](std::int64_t i, std::int64_t p) {
    const double q = quant_util::round_to(s.division, quant_util::round_to(s.division, s.load_x(x, i)) /
                                                          quant_util::round_to(s.division, s.load_scale(scale, p)));
    const double z = zero_point ? s.load_zero_point(zero_point, p) : 0.0;
    double v = 0;
    if (s.integer) {
      v = quant_util::round_and_saturate(q, z, s.low, s.high);
    } else if (float8 && z == 0) {
      v = q;  // see the file comment: the reference does not add a float8 zero point
    } else {
      v = quant_util::round_to(s.division, q + z);
    }
    s.store(y, i, v, s.saturate);
  });
  if (s.output_bits != 0) {
    shape_util::clear_padding_bits(y, ctx.output(kY).element_count(), static_cast<std::size_t>(s.output_bits));
  }
  return {};
}

inline Rules rules_for(int since) noexcept {
  Rules r;
  r.params.per_axis = since >= 13;
  r.params.blocked = since >= 21;
  r.saturate = since >= 19;
  r.output_dtype = since >= 21;
  r.precision = since >= 23;
  r.scale_same_as_x = since == 19 || since == 21;
  return r;
}

/// QuantizeLinear's versions share prepare and run; `since` picks the rules (VersionedKernel).
struct Impl : KernelDefaults {
  static constexpr std::string_view kOpType = "QuantizeLinear";
  static Status prepare(PrepareContext& ctx, int since) noexcept {
    return quantize_linear_detail::prepare(ctx, rules_for(since));
  }
  static Status run(RunContext& ctx) noexcept { return quantize_linear_detail::run(ctx); }
};

}  // namespace quantize_linear_detail

// Opset 10: per-tensor scale (float) and zero point (int8/uint8).
using QuantizeLinear_10 = VersionedKernel<quantize_linear_detail::Impl, 10, 13>;
// Opset 13: 'axis' and per-axis (1-D) scales.
using QuantizeLinear_13 = VersionedKernel<quantize_linear_detail::Impl, 13, 19>;
// Opset 19: float8 outputs with 'saturate'; float16/bfloat16 x, y_scale of x's dtype.
using QuantizeLinear_19 = VersionedKernel<quantize_linear_detail::Impl, 19, 21>;
// Opset 21: blocked quantization ('block_size'), 'output_dtype', int16/uint16 and int4/uint4 outputs.
using QuantizeLinear_21 = VersionedKernel<quantize_linear_detail::Impl, 21, 23>;
// Opset 23: y_scale's dtype independent of x's, 'precision', float4e2m1 outputs. Opsets 24 (float8e8m0 scales),
// 25 (int2/uint2) and 28 (float6e2m3/float6e3m2) only add dtypes, checked against the node's opset.
using QuantizeLinear_23 = VersionedKernel<quantize_linear_detail::Impl, 23>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
