// SPDX-License-Identifier: MIT
// Helpers shared by the quantization kernels (QuantizeLinear, DequantizeLinear, DynamicQuantizeLinear,
// QLinearMatMul, QLinearConv, ConvInteger, MatMulInteger):
//  - element access: any quantized or real dtype (packed int2/int4, float4/float6, float8, e8m0, integers, float
//    types) read as an exact double, and quantized values written back (saturating integers, rounding minifloats);
//  - arithmetic in a numpy dtype (float32, float16, bfloat16, float64), as the ONNX reference computes;
//  - the scale/zero-point layout of QuantizeLinear/DequantizeLinear (per tensor, per axis, blocked) with its checks;
//  - integer matrix products and convolutions on zero-point-shifted operands (reference loops; fused fast integer
//    paths come with a later issue).
// The minifloat encoders/decoders are the float_formats engine's (kernels/common/float_formats.hpp).
#pragma once
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>

#include "onnxmicro/kernels/common/float_formats.hpp"
#include "onnxmicro/kernels/common/shape_util.hpp"
#include "onnxmicro/kernels/common/sliding_window.hpp"
#include "onnxmicro/kernels/kernel_api.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {
namespace quant_util {

// ---- element access -----------------------------------------------------------------------------------------

/// float6 formats (ONNX opset 28); like float4e2m1 they have no inf and no NaN. Cast does not support them yet.
constexpr float_formats::MiniFloat kFloat6E2M3{2, 3, 1, float_formats::MiniFloat::Specials::none, 0x1F, 7.5};
constexpr float_formats::MiniFloat kFloat6E3M2{3, 2, 3, float_formats::MiniFloat::Specials::none, 0x1F, 28.0};

/// Reads element `index` of a tensor as a double (exact for every dtype below).
using LoadElement = double (*)(const void* data, std::int64_t index) noexcept;

template <typename T>
double load_native(const void* data, std::int64_t index) noexcept {
  return static_cast<double>(static_cast<const T*>(data)[index]);
}
template <typename T>  // float16_t, bfloat16_t
double load_half(const void* data, std::int64_t index) noexcept {
  return static_cast<double>(T::from_bits(static_cast<const std::uint16_t*>(data)[index]).to_float());
}
template <const float_formats::MiniFloat& Format>
double load_float8(const void* data, std::int64_t index) noexcept {
  return float_formats::decode_minifloat(Format, static_cast<const std::uint8_t*>(data)[index]);
}
template <const float_formats::MiniFloat& Format, unsigned Bits>
double load_packed_float(const void* data, std::int64_t index) noexcept {
  return float_formats::decode_minifloat(Format, shape_util::get_packed(data, index, Bits));
}
template <unsigned Bits, bool Signed>
double load_packed_integer(const void* data, std::int64_t index) noexcept {
  const int v = shape_util::get_packed(data, index, Bits);
  constexpr int kHalf = 1 << (Bits - 1);
  return static_cast<double>(Signed && v >= kHalf ? v - 2 * kHalf : v);  // sign extension
}
inline double load_e8m0(const void* data, std::int64_t index) noexcept {
  return float_formats::decode_e8m0(static_cast<const std::uint8_t*>(data)[index]);
}

/// The loader of `dtype`, or nullptr for dtypes no quantization op reads.
inline LoadElement loader_for(DataType dtype) noexcept {
  switch (compiled_dtype(dtype)) {
    case DataType::float32: return &load_native<float>;
    case DataType::float64: return &load_native<double>;
    case DataType::float16: return &load_half<float16_t>;
    case DataType::bfloat16: return &load_half<bfloat16_t>;
    case DataType::int8: return &load_native<std::int8_t>;
    case DataType::uint8: return &load_native<std::uint8_t>;
    case DataType::int16: return &load_native<std::int16_t>;
    case DataType::uint16: return &load_native<std::uint16_t>;
    case DataType::int32: return &load_native<std::int32_t>;
    case DataType::float8e4m3fn: return &load_float8<float_formats::kFloat8E4M3FN>;
    case DataType::float8e4m3fnuz: return &load_float8<float_formats::kFloat8E4M3FNUZ>;
    case DataType::float8e5m2: return &load_float8<float_formats::kFloat8E5M2>;
    case DataType::float8e5m2fnuz: return &load_float8<float_formats::kFloat8E5M2FNUZ>;
    case DataType::float8e8m0: return &load_e8m0;
    case DataType::float4e2m1: return &load_packed_float<float_formats::kFloat4E2M1, 4>;
    case DataType::float6e2m3: return &load_packed_float<kFloat6E2M3, 6>;
    case DataType::float6e3m2: return &load_packed_float<kFloat6E3M2, 6>;
    case DataType::int4: return &load_packed_integer<4, true>;
    case DataType::uint4: return &load_packed_integer<4, false>;
    case DataType::int2: return &load_packed_integer<2, true>;
    case DataType::uint2: return &load_packed_integer<2, false>;
    default: return nullptr;
  }
}

/// True for the quantized types whose values are integers (saturated to their range on quantization).
constexpr bool is_integer_quantized(DataType t) noexcept {
  return t == DataType::int8 || t == DataType::uint8 || t == DataType::int16 || t == DataType::uint16 ||
         t == DataType::int4 || t == DataType::uint4 || t == DataType::int2 || t == DataType::uint2 ||
         t == DataType::int32;
}
/// True for the float8 kinds (which have a 'saturate' choice on overflow).
constexpr bool is_float8(DataType t) noexcept {
  return t == DataType::float8e4m3fn || t == DataType::float8e4m3fnuz || t == DataType::float8e5m2 ||
         t == DataType::float8e5m2fnuz;
}

/// Range of an integer quantized type.
inline void integer_range(DataType t, double& low, double& high) noexcept {
  switch (t) {
    case DataType::int8: low = -128, high = 127; return;
    case DataType::uint8: low = 0, high = 255; return;
    case DataType::int16: low = -32768, high = 32767; return;
    case DataType::uint16: low = 0, high = 65535; return;
    case DataType::int4: low = -8, high = 7; return;
    case DataType::uint4: low = 0, high = 15; return;
    case DataType::int2: low = -2, high = 1; return;
    case DataType::uint2: low = 0, high = 3; return;
    default: low = -2147483648.0, high = 2147483647.0; return;  // int32
  }
}

/// Writes element `index` of a quantized tensor. Integer types get an integral value already in range; float
/// types get the real value and round it to nearest even, overflowing per `saturate` (Cast's rules).
using StoreQuantized = void (*)(void* data, std::int64_t index, double value, bool saturate) noexcept;

template <typename T>
void store_integer(void* data, std::int64_t index, double value, bool) noexcept {
  static_cast<T*>(data)[index] = static_cast<T>(value);
}
template <unsigned Bits>
void store_packed_integer(void* data, std::int64_t index, double value, bool) noexcept {
  // Two's complement low bits: -1 in int4 is 0xF.
  shape_util::set_packed(data, index, Bits, static_cast<std::uint8_t>(static_cast<int>(value) & ((1 << Bits) - 1)));
}
template <const float_formats::MiniFloat& Format>
void store_float8(void* data, std::int64_t index, double value, bool saturate) noexcept {
  static_cast<std::uint8_t*>(data)[index] = float_formats::encode_minifloat(Format, value, saturate);
}
template <const float_formats::MiniFloat& Format, unsigned Bits>
void store_packed_float(void* data, std::int64_t index, double value, bool) noexcept {
  // No NaN in these formats: ml_dtypes (the reference) gives the sign-only pattern for NaN and 0 for -NaN.
  std::uint8_t bits = 0;
  if (value != value) {
    bits = std::signbit(value) ? 0 : static_cast<std::uint8_t>(1u << (Bits - 1));
  } else {
    bits = float_formats::encode_minifloat(Format, value, true);  // always saturates: there is no inf
  }
  shape_util::set_packed(data, index, Bits, bits);
}

/// The storer of a quantized output dtype, or nullptr.
inline StoreQuantized storer_for(DataType dtype) noexcept {
  switch (dtype) {
    case DataType::int8: return &store_integer<std::int8_t>;
    case DataType::uint8: return &store_integer<std::uint8_t>;
    case DataType::int16: return &store_integer<std::int16_t>;
    case DataType::uint16: return &store_integer<std::uint16_t>;
    case DataType::int4:
    case DataType::uint4: return &store_packed_integer<4>;
    case DataType::int2:
    case DataType::uint2: return &store_packed_integer<2>;
    case DataType::float8e4m3fn: return &store_float8<float_formats::kFloat8E4M3FN>;
    case DataType::float8e4m3fnuz: return &store_float8<float_formats::kFloat8E4M3FNUZ>;
    case DataType::float8e5m2: return &store_float8<float_formats::kFloat8E5M2>;
    case DataType::float8e5m2fnuz: return &store_float8<float_formats::kFloat8E5M2FNUZ>;
    case DataType::float4e2m1: return &store_packed_float<float_formats::kFloat4E2M1, 4>;
    case DataType::float6e2m3: return &store_packed_float<kFloat6E2M3, 6>;
    case DataType::float6e3m2: return &store_packed_float<kFloat6E3M2, 6>;
    default: return nullptr;
  }
}

/// First opset version of QuantizeLinear/DequantizeLinear whose quantized type list has `t`; 0 when none has.
constexpr int quantized_dtype_since(DataType t) noexcept {
  switch (t) {
    case DataType::int8:
    case DataType::uint8: return 10;
    case DataType::float8e4m3fn:
    case DataType::float8e4m3fnuz:
    case DataType::float8e5m2:
    case DataType::float8e5m2fnuz: return 19;
    case DataType::int16:
    case DataType::uint16:
    case DataType::int4:
    case DataType::uint4: return 21;
    case DataType::float4e2m1: return 23;
    case DataType::int2:
    case DataType::uint2: return 25;
    case DataType::float6e2m3:
    case DataType::float6e3m2: return 28;
    default: return 0;
  }
}

/// Appends " (it needs opset N)" to an unsupported-dtype error when a later opset has the dtype (`since` > 0).
inline Status with_needed_opset(Status status, int since) noexcept {
  if (since > 0) status << " (it needs opset " << since << ")";
  return status;
}

/// Quantizes an already scaled value to an integer type: round half to even, add the zero point, saturate.
/// NaN (0/0 scales) gives the zero point.
inline double round_and_saturate(double scaled, double zero_point, double low, double high) noexcept {
  double v = scaled != scaled ? zero_point : std::nearbyint(scaled) + zero_point;
  return v < low ? low : (v > high ? high : v);
}

/// Writes requantized outputs (QLinearMatMul, QLinearConv): y = saturate(round(scaled) + zero) for integer
/// outputs, y = float8(scaled + zero) (saturating) for float8 outputs.
struct Requantizer {
  StoreQuantized store = nullptr;
  bool integer = true;
  double low = 0, high = 0;

  explicit Requantizer(DataType output = DataType::uint8) noexcept
      : store(storer_for(output)), integer(is_integer_quantized(output)) {
    integer_range(output, low, high);
  }
  void operator()(void* y, std::int64_t index, double scaled, double zero) const noexcept {
    store(y, index, integer ? round_and_saturate(scaled, zero, low, high) : scaled + zero, true);
  }
};

// ---- arithmetic in a numpy dtype ----------------------------------------------------------------------------

/// The dtype numpy would compute a binary operation in (the ONNX reference's precision).
enum class Precision : std::uint8_t { float32, float16, bfloat16, float64 };

/// Rounds `v` to `p` (nearest even; out-of-range values become +/-inf).
inline double round_to(Precision p, double v) noexcept {
  switch (p) {
    case Precision::float32: return static_cast<double>(float_formats::double_to_float(v));
    case Precision::float16:
      return static_cast<double>(float16_t::from_bits(float_formats::double_to_float16_bits(v)).to_float());
    case Precision::bfloat16:
      return static_cast<double>(bfloat16_t::from_bits(float_formats::double_to_bfloat16_bits(v)).to_float());
    case Precision::float64: break;
  }
  return v;
}

/// numpy's result dtype for an operation between a `a` and `b` tensor (float32/float16/bfloat16/int32/e8m0 and
/// the narrow quantized types): int32 with any float gives float64; two different float types give float32.
inline Precision promote(DataType a, DataType b) noexcept {
  if (a == DataType::int32 || b == DataType::int32 || a == DataType::float64 || b == DataType::float64)
    return Precision::float64;
  if (a == b && a == DataType::float16) return Precision::float16;
  if (a == b && a == DataType::bfloat16) return Precision::bfloat16;
  return Precision::float32;
}

/// The Precision of a float dtype (float32 for anything else).
inline Precision precision_of(DataType t) noexcept {
  switch (compiled_dtype(t)) {
    case DataType::float16: return Precision::float16;
    case DataType::bfloat16: return Precision::bfloat16;
    case DataType::float64: return Precision::float64;
    default: return Precision::float32;
  }
}

/// Writes `value` (already in the output's precision, or a double to round once) as float dtype `t`.
inline void store_real(DataType t, void* data, std::int64_t index, double value) noexcept {
  switch (compiled_dtype(t)) {
    case DataType::float32: static_cast<float*>(data)[index] = float_formats::double_to_float(value); break;
    case DataType::float64: static_cast<double*>(data)[index] = value; break;
    case DataType::float16:
      static_cast<std::uint16_t*>(data)[index] = float_formats::double_to_float16_bits(value);
      break;
    case DataType::bfloat16:
      static_cast<std::uint16_t*>(data)[index] = float_formats::double_to_bfloat16_bits(value);
      break;
    default: break;
  }
}

// ---- scale / zero-point layout of QuantizeLinear and DequantizeLinear ----------------------------------------

/// Where the scale (and zero point) of element i of x is: x is viewed as [outer, axis_dim, inner] and element
/// (o, a, n) uses parameter o * outer_stride + (a / block) * axis_stride + n * inner_stride.
/// Per tensor: every stride 0. Per axis: axis_stride 1. Blocked: the parameter tensor is x with the axis
/// shrunk to ceil(axis_dim / block).
struct ParamLayout {
  std::int64_t outer = 1, axis_dim = 1, inner = 1;
  std::int64_t block = 1;
  std::int64_t outer_stride = 0, axis_stride = 0, inner_stride = 0;

  /// Calls visit(element_index, parameter_index) for every element of x in order.
  template <typename Visit>
  void for_each(Visit&& visit) const noexcept {
    std::int64_t i = 0;
    for (std::int64_t o = 0; o < outer; ++o)
      for (std::int64_t a = 0; a < axis_dim; ++a) {
        const std::int64_t base = o * outer_stride + (a / block) * axis_stride;
        for (std::int64_t n = 0; n < inner; ++n) visit(i++, base + n * inner_stride);
      }
  }
};

/// What a version of QuantizeLinear/DequantizeLinear allows for its parameters.
struct ParamRules {
  bool per_axis = false;  ///< opset 13+
  bool blocked = false;   ///< opset 21+ (block_size)
};

/// Checks the shapes of the scale (input `scale_index`) and the optional zero point (`zero_point_index`) against
/// input 0 and builds the layout. Reads the 'axis' and 'block_size' attributes where `rules` allows them.
inline Status plan_params(const PrepareContext& ctx, int scale_index, int zero_point_index, const ParamRules& rules,
                          ParamLayout& layout) noexcept {
  const TensorInfo& x = ctx.input(0);
  const TensorInfo& scale = ctx.input(scale_index);
  const Shape& s = scale.shape;
  if (ctx.has_input(zero_point_index)) {
    const TensorInfo& zp = ctx.input(zero_point_index);
    const bool both_single =
        zp.shape.element_count() == 1 && s.element_count() == 1;  // e.g. a 0-D scale with a [1] zero point
    if (zp.shape != s && !both_single) {
      return ctx.input_error(zero_point_index, "zero point")
             << " has shape " << zp.shape << ", expected " << s << " (the shape of input " << scale_index << " '"
             << scale.name << "')";
    }
  }
  std::int64_t axis_attr = 1;
  std::int64_t block_size = 0;
  if (rules.per_axis) ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("axis", axis_attr, 1));
  if (rules.blocked) {
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("block_size", block_size, 0));
    if (block_size < 0) {
      return Status(StatusCode::invalid_model)
             << "attribute 'block_size' is " << block_size << ", expected a positive value";
    }
  }
  layout = ParamLayout();
  layout.inner = x.shape.element_count();
  if (s.element_count() == 1) return {};  // per tensor (one value, whatever its rank, as the reference)
  if (!rules.per_axis) {
    return ctx.input_error(scale_index, "scale")
           << " has shape " << s << ", expected a scalar (per-axis scales need opset 13)";
  }
  int axis = 0;
  const bool blocked = block_size > 0;
  if (!blocked && s.rank() != 1) {
    return ctx.input_error(scale_index, "scale")
           << " has shape " << s << ", expected a scalar or a 1-D tensor"
           << (rules.blocked ? " (blocked quantization needs attribute 'block_size' > 0)" : "");
  }
  ONNXMICRO_RETURN_IF_ERROR(shape_util::normalize_axis(axis_attr, x.shape.rank(), "attribute 'axis'", true, axis));
  const std::int64_t dim = x.shape[axis];
  layout.outer = shape_util::dims_product(x.shape, 0, axis);
  layout.axis_dim = dim;
  layout.inner = shape_util::dims_product(x.shape, axis + 1, x.shape.rank());
  if (!blocked) {
    if (s[0] != dim) {
      return ctx.input_error(scale_index, "scale")
             << " has " << s[0] << " values, expected " << dim << " (dim " << axis << " of input 0 " << x.shape << ")";
    }
    layout.axis_stride = 1;
    return {};
  }
  // Blocked: the scale is x with dim `axis` replaced by ceil(dim / block_size).
  bool same_rank_and_dims = s.rank() == x.shape.rank();
  for (int d = 0; same_rank_and_dims && d < s.rank(); ++d) same_rank_and_dims = d == axis || s[d] == x.shape[d];
  if (!same_rank_and_dims) {
    return ctx.input_error(scale_index, "scale") << " has shape " << s << ", expected the shape of input 0 " << x.shape
                                                 << " except on axis " << axis << " (blocked quantization)";
  }
  const std::int64_t blocks = s[axis];
  const std::int64_t expected = (dim + block_size - 1) / block_size;
  if (blocks != expected) {
    return Status(StatusCode::invalid_model)
           << "attribute 'block_size' is " << block_size << ": axis " << axis << " of input 0 " << x.shape << " needs "
           << expected << " blocks, but input " << scale_index << " '" << scale.name << "' has " << blocks;
  }
  layout.block = block_size;
  layout.inner_stride = 1;
  layout.axis_stride = layout.inner;
  layout.outer_stride = blocks * layout.inner;
  return {};
}

/// Checks that input `index` has dtype `expected`; the error names the input and `role`.
inline Status require_dtype(const PrepareContext& ctx, int index, DataType expected, const char* role) noexcept {
  const TensorInfo& t = ctx.input(index);
  if (t.dtype == expected) return {};
  return ctx.input_error(index, role) << " has dtype " << dtype_name(t.dtype) << ", expected " << dtype_name(expected);
}

/// Reads the dtype attribute `name` (output_dtype, precision): 0 or absent leaves `value` undefined.
inline Status read_dtype_attribute(const PrepareContext& ctx, const char* name, DataType& value) noexcept {
  std::int64_t v = 0;
  ONNXMICRO_RETURN_IF_ERROR(ctx.attribute(name, v, 0));
  if (v < 0 || v > kMaxDataTypeValue) {
    return Status(StatusCode::invalid_model)
           << "attribute '" << name << "' is " << v << ", which is not a TensorProto.DataType";
  }
  value = static_cast<DataType>(v);
  return {};
}

// ---- integer products on zero-point-shifted operands ----------------------------------------------------------

/// Wraps an exact integer sum into int32 two's complement, as a 32-bit accumulator would (the spec lets the
/// accumulation overflow only in 32 bits).
inline std::int32_t wrap_int32(double exact_sum) noexcept {
  return static_cast<std::int32_t>(
      static_cast<std::uint32_t>(static_cast<std::uint64_t>(static_cast<std::int64_t>(exact_sum))));
}

/// Per-row (for A) or per-column (for B) parameters (zero points, scales) of a matrix product: the parameter of
/// output batch index b and row/column r is sum(batch_stride[axis] * b[axis]) + stride * r; all 0 per tensor.
struct MatrixParams {
  std::int64_t batch_stride[kMaxRank] = {};
  std::int64_t stride = 0;
};

/// The shapes of a numpy-style matrix product of inputs `a_index` and `b_index` (int8/uint8 or float8), with
/// the batch odometer and the parameter layouts of A's rows and B's columns.
struct MatMulPlan {
  std::int64_t m = 0, n = 0, k = 0;
  int batch_rank = 0;
  std::int64_t batch_dims[kMaxRank] = {};
  std::int64_t a_batch_stride[kMaxRank] = {};
  std::int64_t b_batch_stride[kMaxRank] = {};
  std::int64_t batch_count = 1;
  MatrixParams a_params, b_params;
  Shape output;

  /// Calls emit(y_index, sum, a_param_index, b_param_index) for every output element, where
  /// sum = sum_k (a(.., m, k) - a_zero(m)) * (b(.., k, n) - b_zero(n)) in double: exact for integer operands
  /// (sums below 2^53). a_zero/b_zero(p) give the zero point of parameter p.
  template <typename AZero, typename BZero, typename Emit>
  void for_each_sum(LoadElement load_a, const void* a, LoadElement load_b, const void* b, AZero&& a_zero,
                    BZero&& b_zero, Emit&& emit) const noexcept {
    std::int64_t index[kMaxRank] = {};
    std::int64_t a_offset = 0, b_offset = 0, ap_offset = 0, bp_offset = 0;
    std::int64_t y = 0;
    for (std::int64_t batch = 0; batch < batch_count; ++batch) {
      for (std::int64_t row = 0; row < m; ++row) {
        const std::int64_t ap = ap_offset + row * a_params.stride;
        const double za = a_zero(ap);
        for (std::int64_t col = 0; col < n; ++col) {
          const std::int64_t bp = bp_offset + col * b_params.stride;
          const double zb = b_zero(bp);
          double sum = 0;
          for (std::int64_t i = 0; i < k; ++i) {
            sum += (load_a(a, a_offset + row * k + i) - za) * (load_b(b, b_offset + i * n + col) - zb);
          }
          emit(y++, sum, ap, bp);
        }
      }
      for (int axis = batch_rank - 1; axis >= 0; --axis) {  // odometer over the output batch axes
        a_offset += a_batch_stride[axis];
        b_offset += b_batch_stride[axis];
        ap_offset += a_params.batch_stride[axis];
        bp_offset += b_params.batch_stride[axis];
        if (++index[axis] < batch_dims[axis]) break;
        a_offset -= a_batch_stride[axis] * batch_dims[axis];
        b_offset -= b_batch_stride[axis] * batch_dims[axis];
        ap_offset -= a_params.batch_stride[axis] * batch_dims[axis];
        bp_offset -= b_params.batch_stride[axis] * batch_dims[axis];
        index[axis] = 0;
      }
    }
  }
};

/// Plans numpy.matmul of inputs `a_index` [.., M, K] and `b_index` [.., K, N] (1-D operands as numpy does).
inline Status plan_matmul(const PrepareContext& ctx, int a_index, int b_index, MatMulPlan& plan) noexcept {
  const TensorInfo& a = ctx.input(a_index);
  const TensorInfo& b = ctx.input(b_index);
  const Shape& sa = a.shape;
  const Shape& sb = b.shape;
  if (sa.rank() < 1 || sb.rank() < 1) {
    const int bad = sa.rank() < 1 ? a_index : b_index;
    return ctx.input_error(bad) << " is a scalar; a matrix product needs rank >= 1";
  }
  const int ra = sa.rank(), rb = sb.rank();
  plan = MatMulPlan();
  plan.m = ra >= 2 ? sa[ra - 2] : 1;
  plan.k = sa[ra - 1];
  const std::int64_t kb = rb >= 2 ? sb[rb - 2] : sb[0];
  plan.n = rb >= 2 ? sb[rb - 1] : 1;
  if (plan.k != kb) {
    return Status(StatusCode::invalid_model)
           << "inner dimensions differ: input " << a_index << " '" << a.name << "' " << sa << " has K=" << plan.k
           << ", input " << b_index << " '" << b.name << "' " << sb << " has K=" << kb;
  }
  const int a_batch = ra > 2 ? ra - 2 : 0;
  const int b_batch = rb > 2 ? rb - 2 : 0;
  plan.batch_rank = a_batch > b_batch ? a_batch : b_batch;
  std::int64_t a_stride = plan.m * plan.k, b_stride = plan.k * plan.n;
  for (int i = plan.batch_rank - 1; i >= 0; --i) {
    const int ia = i - (plan.batch_rank - a_batch);
    const int ib = i - (plan.batch_rank - b_batch);
    const std::int64_t da = ia >= 0 ? sa[ia] : 1;
    const std::int64_t db = ib >= 0 ? sb[ib] : 1;
    if (da != db && da != 1 && db != 1) {
      return Status(StatusCode::invalid_model)
             << "batch axes do not broadcast: input " << a_index << " '" << a.name << "' " << sa << " and input "
             << b_index << " '" << b.name << "' " << sb;
    }
    plan.batch_dims[i] = da == 1 ? db : da;
    plan.a_batch_stride[i] = da == 1 ? 0 : a_stride;
    plan.b_batch_stride[i] = db == 1 ? 0 : b_stride;
    a_stride *= da;
    b_stride *= db;
    plan.batch_count *= plan.batch_dims[i];
  }
  std::int64_t dims[kMaxRank] = {};
  int rank = 0;
  for (int i = 0; i < plan.batch_rank; ++i) dims[rank++] = plan.batch_dims[i];
  if (ra >= 2) dims[rank++] = plan.m;
  if (rb >= 2) dims[rank++] = plan.n;
  return plan.output.assign(dims, static_cast<std::size_t>(rank));
}

/// Plans the per-row (`rows`: input A) or per-column (input B) parameter input `param_index` of matrix input
/// `matrix_index`: a scalar (or one value), a 1-D tensor of M rows / N columns, or an N-D tensor [.., M, 1] /
/// [.., 1, N] whose batch axes broadcast like the matrix's.
inline Status plan_matrix_params(const PrepareContext& ctx, int param_index, int matrix_index, bool rows,
                                 const MatMulPlan& plan, MatrixParams& out) noexcept {
  out = MatrixParams();
  const TensorInfo& info = ctx.input(param_index);
  const Shape& matrix = ctx.input(matrix_index).shape;
  Shape p = info.shape;
  if (p.element_count() == 1) return {};  // per tensor
  const std::int64_t extent = rows ? plan.m : plan.n;
  if (p.rank() == 1 && rows) {  // [M] means [M, 1]
    p.resize(2);
    p[1] = 1;
  }
  bool ok = p.rank() >= 1 && p.rank() <= (matrix.rank() > 2 ? matrix.rank() : 2);
  const int r = p.rank();
  if (ok && r == 1) {
    ok = p[0] == extent;
  } else if (ok) {
    ok = (rows ? p[r - 1] == 1 && (p[r - 2] == extent || p[r - 2] == 1)
               : p[r - 2] == 1 && (p[r - 1] == extent || p[r - 1] == 1));
  }
  const int matrix_batch = matrix.rank() > 2 ? matrix.rank() - 2 : 0;
  const int param_batch = r > 2 ? r - 2 : 0;
  for (int j = 0; ok && j < param_batch; ++j) {
    const std::int64_t md = matrix[matrix_batch - param_batch + j];
    ok = p[j] == 1 || p[j] == md;
  }
  if (!ok) {
    return ctx.input_error(param_index) << " has shape " << info.shape << ", expected a scalar, [" << extent << "] or "
                                        << (rows ? "[..., M, 1]" : "[..., 1, N]") << " (per "
                                        << (rows ? "row" : "column") << " of input " << matrix_index << " " << matrix
                                        << ")";
  }
  std::int64_t stride = 1;
  const int own_axis = r == 1 ? 0 : (rows ? r - 2 : r - 1);  // the axis of M (rows) or N (columns)
  for (int d = r - 1; d >= 0; --d) {
    const std::int64_t s = p[d] == 1 ? 0 : stride;
    if (d == own_axis) {
      out.stride = s;
    } else if (d < r - 2) {
      out.batch_stride[plan.batch_rank - param_batch + d] = s;
    }
    stride *= p[d];
  }
  return {};
}

/// Checks that the optional input `other` (a zero point) has the shape of input `index` (its scale).
inline Status require_same_shape(const PrepareContext& ctx, int index, int other) noexcept {
  if (!ctx.has_input(other)) return {};
  const TensorInfo& a = ctx.input(index);
  const TensorInfo& b = ctx.input(other);
  if (a.shape == b.shape || (a.shape.element_count() == 1 && b.shape.element_count() == 1)) return {};
  return ctx.input_error(other) << " has shape " << b.shape << ", expected " << a.shape << " (the shape of input "
                                << index << " '" << a.name << "')";
}

// ---- integer convolution on zero-point-shifted operands -------------------------------------------------------

/// Geometry of an N-D convolution of X (N, C, D1..) with W (M, C/group, k1..).
struct ConvPlan {
  sliding_window::WindowGeometry geometry;
  std::int64_t batch = 0, channels = 0, out_channels = 0, group = 1;
  std::int64_t group_channels = 0, group_out_channels = 0;
  std::int64_t in_spatial = 0, out_spatial = 0, kernel_size = 0;
  Shape output;

  /// Calls emit(y_index, sum, m) for every output element, where sum = sum over the window of
  /// (x - x_zero) * (w(m, ..) - w_zero(m)), exact for integer operands; taps in the padding add nothing.
  template <typename WZero, typename Emit>
  void for_each_sum(LoadElement load_x, const void* x, double x_zero, LoadElement load_w, const void* w, WZero&& w_zero,
                    Emit&& emit) const noexcept {
    const sliding_window::WindowGeometry& g = geometry;
    std::int64_t y = 0;
    for (std::int64_t image = 0; image < batch; ++image) {
      for (std::int64_t m = 0; m < out_channels; ++m) {
        const double zw = w_zero(m);
        const std::int64_t first_channel = (m / group_out_channels) * group_channels;
        std::int64_t out[sliding_window::kMaxSpatialRank] = {};
        for (std::int64_t position = 0; position < out_spatial; ++position) {
          double sum = 0;
          for (std::int64_t c = 0; c < group_channels; ++c) {
            const std::int64_t x_plane = (image * channels + first_channel + c) * in_spatial;
            const std::int64_t w_plane = (m * group_channels + c) * kernel_size;
            std::int64_t tap[sliding_window::kMaxSpatialRank] = {};
            for (std::int64_t t = 0; t < kernel_size; ++t) {
              bool inside = true;
              std::int64_t offset = 0;
              for (int d = 0; d < g.rank; ++d) {
                const std::int64_t coordinate = out[d] * g.stride[d] + tap[d] * g.dilation[d] - g.pad_begin[d];
                inside = inside && coordinate >= 0 && coordinate < g.input[d];
                offset = offset * g.input[d] + coordinate;
              }
              if (inside) sum += (load_x(x, x_plane + offset) - x_zero) * (load_w(w, w_plane + t) - zw);
              for (int d = g.rank - 1; d >= 0; --d) {  // next kernel tap
                if (++tap[d] < g.kernel[d]) break;
                tap[d] = 0;
              }
            }
          }
          emit(y++, sum, m);
          for (int d = g.rank - 1; d >= 0; --d) {  // next output position
            if (++out[d] < g.output[d]) break;
            out[d] = 0;
          }
        }
      }
    }
  }
};

/// Checks X (input `x_index`) and W (input `w_index`) of an integer convolution and parses the window
/// attributes (group, kernel_shape, strides, dilations, pads, auto_pad) like Conv.
inline Status plan_conv(const PrepareContext& ctx, int x_index, int w_index, ConvPlan& plan) noexcept {
  const TensorInfo& x = ctx.input(x_index);
  const TensorInfo& w = ctx.input(w_index);
  if (x.shape.rank() < 3) {
    return ctx.input_error(x_index, "x") << " has shape " << x.shape << ", expected rank >= 3 (N, C, spatial...)";
  }
  if (w.shape.rank() != x.shape.rank()) {
    return ctx.input_error(w_index, "w") << " has shape " << w.shape << ", expected rank " << x.shape.rank()
                                         << " like input " << x_index << " " << x.shape << " (M, C/group, kernel...)";
  }
  for (int i = 2; i < w.shape.rank(); ++i) {
    if (w.shape[i] < 1) {
      return ctx.input_error(w_index, "w") << " has shape " << w.shape << ": kernel dims must be >= 1";
    }
  }
  plan = ConvPlan();
  ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("group", plan.group, 1));
  plan.batch = x.shape[0];
  plan.channels = x.shape[1];
  plan.out_channels = w.shape[0];
  if (plan.group < 1 || plan.channels % plan.group != 0 || plan.out_channels % plan.group != 0) {
    return Status(StatusCode::invalid_model)
           << "attribute 'group' is " << plan.group << ", expected >= 1 and dividing both the " << plan.channels
           << " input channels and the " << plan.out_channels << " output channels";
  }
  plan.group_channels = plan.channels / plan.group;
  plan.group_out_channels = plan.out_channels / plan.group;
  if (w.shape[1] != plan.group_channels) {
    return ctx.input_error(w_index, "w") << " has shape " << w.shape << ": dim 1 is " << w.shape[1]
                                         << ", expected C / group = " << plan.group_channels;
  }
  sliding_window::WindowRules rules;
  rules.weight_kernel = w.shape.data() + 2;
  ONNXMICRO_RETURN_IF_ERROR(sliding_window::parse_window(ctx, x.shape, rules, plan.geometry));
  plan.in_spatial = plan.geometry.input_size();
  plan.out_spatial = plan.geometry.output_size();
  plan.kernel_size = plan.geometry.kernel_size();
  plan.output = sliding_window::window_output_shape(x.shape, plan.out_channels, plan.geometry);
  return {};
}

/// Checks a per-output-channel parameter (w_scale, w_zero_point): a scalar, one value, or a 1-D tensor of M.
inline Status check_channel_param(const PrepareContext& ctx, int index, std::int64_t out_channels) noexcept {
  if (!ctx.has_input(index)) return {};
  const TensorInfo& p = ctx.input(index);
  if (p.shape.element_count() == 1 && p.shape.rank() <= 1) return {};
  if (p.shape.rank() == 1 && p.shape[0] == out_channels) return {};
  return ctx.input_error(index) << " has shape " << p.shape << ", expected a scalar or [" << out_channels
                                << "] (one value per output channel)";
}

/// Checks a per-tensor parameter (x_scale, y_zero_point, ...): a scalar or a single value.
inline Status check_scalar_param(const PrepareContext& ctx, int index) noexcept {
  if (!ctx.has_input(index)) return {};
  const TensorInfo& p = ctx.input(index);
  if (p.shape.element_count() == 1 && p.shape.rank() <= 1) return {};
  return ctx.input_error(index) << " has shape " << p.shape << ", expected a scalar (per-tensor quantization)";
}

/// A scale known at prepare time must be positive and finite everywhere: x / 0 or a negative scale is a broken
/// model (ONNX defines quantization for scale > 0), not a value to saturate silently. Run-time scales are not
/// checked (run() stays branch-free per element).
inline Status check_constant_scale_positive(const PrepareContext& ctx, int index, const char* role) noexcept {
  const TensorInfo& scale = ctx.input(index);
  const LoadElement load = loader_for(scale.dtype);
  if (!scale.is_constant || scale.const_data == nullptr || load == nullptr) return {};
  const std::int64_t count = scale.shape.element_count();
  for (std::int64_t i = 0; i < count; ++i) {
    const double v = load(scale.const_data, i);
    if (!(v > 0.0) || v > 1.7976931348623157e308) {  // rejects NaN, zero, negative and infinite scales
      return ctx.input_error(index, role)
             << " element " << i << " is " << v << "; a quantization scale must be positive and finite";
    }
  }
  return {};
}

}  // namespace quant_util
}  // namespace kernels
ONNXMICRO_NAMESPACE_END
