// SPDX-License-Identifier: MIT
// Helpers shared by onnxruntime's com.microsoft QOperator kernels (QLinearAdd, QLinearMul, QLinearConcat,
// QLinearAveragePool, QLinearGlobalAveragePool, QLinearLeakyRelu, QLinearSigmoid):
//  - checks of the per-tensor quantization parameters (a float32 scale and an optional zero point of the data's
//    dtype, both scalars and known at prepare time, since every requantisation is precomputed there);
//  - integer output ranges, narrowed by a QDQ-fused Relu/Clip (FusedClamp);
//  - 256-entry lookup tables for ops of one 8-bit input (table[q] = quantize(f(dequantize(q)))).
// The kernels then compute with integers only: fixed-point multipliers (common/fixed_point.hpp) or table lookups.
#pragma once
#include <cmath>
#include <cstdint>

#include "onnxmicro/kernels/common/broadcast.hpp"
#include "onnxmicro/kernels/common/fixed_point.hpp"
#include "onnxmicro/kernels/kernel_api.hpp"
#include "onnxmicro/kernels/quantization/quant_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {
namespace qoperator_util {

/// A per-tensor quantization: real = (q - zero_point) * scale.
struct QuantParams {
  float scale = 1.0f;
  std::int32_t zero_point = 0;
};

/// Fails unless input `index` has dtype int8 or uint8 (the QOperator data types).
inline Status require_8bit(const PrepareContext& ctx, int index) noexcept {
  const DataType t = ctx.input(index).dtype;
  if (t == DataType::int8 || t == DataType::uint8) return {};
  return ctx.input_error(index, {}, StatusCode::unsupported)
         << " has dtype " << dtype_name(t) << ", expected int8 or uint8";
}

/// Checks and reads the scale (input `scale_index`, required) and zero point (input `zero_index`, optional: 0)
/// of data of dtype `data`: a float32 scalar and a scalar of dtype `data`, both constant at prepare time.
inline Status read_quant_params(PrepareContext& ctx, int scale_index, int zero_index, DataType data,
                                QuantParams& out) noexcept {
  ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(scale_index));
  ONNXMICRO_RETURN_IF_ERROR(quant_util::require_dtype(ctx, scale_index, DataType::float32, "scale"));
  if (ctx.has_input(zero_index))
    ONNXMICRO_RETURN_IF_ERROR(quant_util::require_dtype(ctx, zero_index, data, "zero point"));
  for (int i : {scale_index, zero_index}) {
    if (!ctx.has_input(i)) continue;
    ONNXMICRO_RETURN_IF_ERROR(quant_util::check_scalar_param(ctx, i));
    const TensorInfo& t = ctx.input(i);
    if (!t.is_constant || t.const_data == nullptr) {
      return ctx.input_error(i, {}, StatusCode::unsupported)
             << " must be known at prepare time (an initializer or constant): this kernel precomputes its integer "
                "requantisation from the scales and zero points";
    }
  }
  ONNXMICRO_RETURN_IF_ERROR(quant_util::check_constant_scale_positive(ctx, scale_index, "scale"));
  out.scale = static_cast<const float*>(ctx.input(scale_index).const_data)[0];
  out.zero_point = 0;
  if (ctx.has_input(zero_index)) {
    const void* z = ctx.input(zero_index).const_data;
    out.zero_point = data == DataType::int8 ? static_cast<const std::int8_t*>(z)[0]
                                            : static_cast<std::int32_t>(static_cast<const std::uint8_t*>(z)[0]);
  }
  return {};
}

/// round(v * multiplier), ties to even, for run()'s per-element loops: fixed_point::apply_multiplier with the
/// shift and rounding constants precomputed (the same result for |v| < 2^31 and multipliers in [2^-31, 2^30)).
struct RoundingMultiplier {
  std::int64_t mantissa = 0;
  std::int64_t half = 0;
  std::int64_t mask = 0;  ///< the bits shifted out
  int shift = 1;

  explicit RoundingMultiplier(fixed_point::FixedPointMultiplier m = {}) noexcept {
    mantissa = m.mantissa;
    shift = 31 - m.exponent;
    if (shift < 1) {  // multiplier >= 2^30: every nonzero 8-bit-derived value saturates; keep the sign
      mantissa = (std::int64_t{1} << 31) - 1;
      shift = 1;
    } else if (shift > 62) {  // below 2^-31: drop mantissa bits so the product still shifts by at most 62
      mantissa = shift - 62 >= 31 ? 0 : mantissa >> (shift - 62);
      shift = 62;
    }
    half = std::int64_t{1} << (shift - 1);
    mask = (std::int64_t{1} << shift) - 1;
  }
  /// Exact for |v| < 2^31: |v * mantissa| < 2^62.
  std::int64_t apply(std::int32_t v) const noexcept { return round_shifted(v * mantissa + half, shift, mask); }

  /// floor(t / 2^shift) where t already holds + 2^(shift - 1), turned to ties to even: no bit shifted out means
  /// the value before the added half was exactly halfway, and then an odd result steps down.
  static std::int64_t round_shifted(std::int64_t t, int shift, std::int64_t mask) noexcept {
    const std::int64_t y = t >> shift;  // arithmetic shift floors (guaranteed since C++20, on every C++17 target)
    return y - ((t & mask) == 0 ? (y & 1) : 0);
  }
};

/// Inclusive range of quantized output values.
struct QuantRange {
  std::int32_t low = 0;
  std::int32_t high = 255;
};

inline QuantRange range_of(DataType t) noexcept {
  return t == DataType::int8 ? QuantRange{-128, 127} : QuantRange{0, 255};
}

/// quantize(real) = saturate(round_half_even(real / scale) + zero_point), in float32 as onnxruntime computes.
inline std::int32_t quantize_float(float real, QuantParams p, QuantRange r) noexcept {
  const float scaled = real / p.scale;
  if (scaled != scaled) return p.zero_point;
  const double v = std::nearbyint(static_cast<double>(scaled)) + p.zero_point;
  return v < r.low ? r.low : (v > r.high ? r.high : static_cast<std::int32_t>(v));
}

/// The output range of a dtype narrowed to [quantize(min), quantize(max)] by a fused Relu/Clip.
inline QuantRange clamped_range(DataType t, const FusedClamp& clamp, QuantParams y) noexcept {
  const QuantRange full = range_of(t);
  QuantRange r = full;
  if (clamp.has_min) {
    const std::int32_t q = quantize_float(clamp.min, y, full);
    if (q > r.low) r.low = q;
  }
  if (clamp.has_max) {
    const std::int32_t q = quantize_float(clamp.max, y, full);
    if (q < r.high) r.high = q;
  }
  if (r.high < r.low) r.high = r.low;  // min > max: Clip returns max everywhere; both quantize alike here
  return r;
}

/// Reads element i of int8/uint8 data as an integer.
template <typename T>
inline std::int32_t load_q(const void* data, std::int64_t i) noexcept {
  return static_cast<const T*>(data)[i];
}

/// A 256-entry table indexed by the raw byte of an int8/uint8 value.
struct LookupTable {
  std::uint8_t values[256];

  /// Fills values[byte(q)] = quantize(f(dequantize(q))) for every q of dtype `t`, in float32 (onnxruntime's
  /// QLinearLeakyRelu/QLinearSigmoid tables, QLinearConcat's requantisation).
  template <typename F>
  void build(DataType t, QuantParams x, QuantParams y, F&& f) noexcept {
    const QuantRange r = range_of(t);
    for (std::int32_t q = r.low; q <= r.high; ++q) {
      const float real = static_cast<float>(q - x.zero_point) * x.scale;
      values[static_cast<std::uint8_t>(q)] = static_cast<std::uint8_t>(quantize_float(f(real), y, r));
    }
  }
  /// Maps `count` bytes (int8 and uint8 alike, by their bit pattern).
  void apply(const void* in, void* out, std::int64_t count) const noexcept {
    const std::uint8_t* x = static_cast<const std::uint8_t*>(in);
    std::uint8_t* y = static_cast<std::uint8_t*>(out);
    for (std::int64_t i = 0; i < count; ++i) y[i] = values[x[i]];
  }
};

/// Fails unless the integer attribute `name` is 0 or 1 (a flag).
inline Status require_flag(const char* name, std::int64_t value) noexcept {
  if (value == 0 || value == 1) return {};
  return Status(StatusCode::invalid_model) << "attribute '" << name << "' is " << value << ", expected 0 or 1";
}

/// The inputs of the QOperator ops of one 8-bit input and output (lookup-table ops, the average pools).
struct UnaryInputs {
  static constexpr int kX = 0;
  static constexpr int kXScale = 1;
  static constexpr int kXZeroPoint = 2;
  static constexpr int kYScale = 3;
  static constexpr int kYZeroPoint = 4;
  static constexpr int kY = 0;

  /// Checks X (int8 or uint8) and reads X's and Y's per-tensor parameters.
  static Status read_params(PrepareContext& ctx, QuantParams& x, QuantParams& y) noexcept {
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kX));
    ONNXMICRO_RETURN_IF_ERROR(require_8bit(ctx, kX));
    const DataType t = ctx.input(kX).dtype;
    ONNXMICRO_RETURN_IF_ERROR(read_quant_params(ctx, kXScale, kXZeroPoint, t, x));
    ONNXMICRO_RETURN_IF_ERROR(read_quant_params(ctx, kYScale, kYZeroPoint, t, y));
    return {};
  }
};

/// Shared shape of the QOperator ops that map one 8-bit input through a function of its real value: the table
/// is built once at prepare, run() is one lookup per element.
struct LookupTableKernel : UnaryInputs {
  struct State {
    LookupTable table;
    std::int64_t count;
  };

  template <typename F>
  static Status prepare(PrepareContext& ctx, F&& f) noexcept {
    QuantParams xq, yq;
    ONNXMICRO_RETURN_IF_ERROR(read_params(ctx, xq, yq));
    const TensorInfo& x = ctx.input(kX);
    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
    // A Relu/Clip the QDQ fusion folded in (a standalone one arrives as LeakyRelu with alpha 0 or 1):
    // clamping the real value before quantizing equals clamping the quantized one, quantization being monotone.
    const FusedClamp clamp = ctx.fused_clamp();
    state->table.build(x.dtype, xq, yq, [&f, clamp](float v) {
      float r = f(v);
      if (clamp.has_min && r < clamp.min) r = clamp.min;
      if (clamp.has_max && r > clamp.max) r = clamp.max;
      return r;
    });
    state->count = x.shape.element_count();
    ctx.set_output(kY, x.dtype, x.shape);
    return {};
  }

  static Status run(RunContext& ctx) noexcept {
    const State& s = ctx.state<State>();
    s.table.apply(ctx.input(kX).data, ctx.output(kY).data, s.count);
    return {};
  }
};

/// Shared shape of QLinearAdd and QLinearMul: A, A_scale, A_zero_point, B, B_scale, B_zero_point, C_scale,
/// C_zero_point, numpy broadcasting of A and B, per-tensor parameters, and a QDQ-fused Relu/Clip on the output.
/// `Op` names the op and supplies the integer arithmetic:
///   static constexpr std::string_view kDomain = "com.microsoft", kOpType = "QLinearAdd";
///   struct Params;                                                       // precomputed at prepare
///   static void init(Params&, DataType, QuantParams a, QuantParams b, QuantParams c);
///   static std::int64_t apply(const Params&, std::int32_t a, std::int32_t b);  // round(real / C_scale) + C_zero
///   static constexpr bool kVectorRows;  // and, when true, the vector loop of same-shape rows, which returns how
///   template <typename T>               // many leading elements it wrote (the rest take apply()):
///   static std::int64_t vector_rows(Isa, const Params&, QuantRange, const T* a, const T* b, T* c, std::int64_t n);
/// A kernel is `using QLinearAdd_1 = VersionedKernel<QLinearBinaryKernel<Op>, 1>;` (version 1, the only one).
template <typename Op>
struct QLinearBinaryKernel : KernelDefaults {
  static constexpr std::string_view kDomain = Op::kDomain;
  static constexpr std::string_view kOpType = Op::kOpType;
  static constexpr int kA = 0;
  static constexpr int kAScale = 1;
  static constexpr int kAZeroPoint = 2;
  static constexpr int kB = 3;
  static constexpr int kBScale = 4;
  static constexpr int kBZeroPoint = 5;
  static constexpr int kCScale = 6;
  static constexpr int kCZeroPoint = 7;
  static constexpr int kC = 0;

  struct State {
    BroadcastPlan<2> plan;
    typename Op::Params params;
    QuantRange range;
    Isa isa;  ///< the session's instruction set (Op::vector_rows)
    void (*compute)(const State&, RunContext&) noexcept;
  };

  static Status prepare(PrepareContext& ctx) noexcept {
    for (int i : {kA, kB}) {
      ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(i));
      ONNXMICRO_RETURN_IF_ERROR(require_8bit(ctx, i));
    }
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_same_dtype(kA, kB));
    const DataType t = ctx.input(kA).dtype;
    QuantParams a, b, c;
    ONNXMICRO_RETURN_IF_ERROR(read_quant_params(ctx, kAScale, kAZeroPoint, t, a));
    ONNXMICRO_RETURN_IF_ERROR(read_quant_params(ctx, kBScale, kBZeroPoint, t, b));
    ONNXMICRO_RETURN_IF_ERROR(read_quant_params(ctx, kCScale, kCZeroPoint, t, c));
    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
    Shape out;
    ONNXMICRO_RETURN_IF_ERROR(broadcast_input_shapes(ctx, {kA, kB}, out));
    ONNXMICRO_RETURN_IF_ERROR(make_broadcast_plan({&ctx.input(kA).shape, &ctx.input(kB).shape}, out, state->plan));
    Op::init(state->params, t, a, b, c);
    state->range = clamped_range(t, ctx.fused_clamp(), c);
    state->isa = ctx.isa();
    state->compute = t == DataType::int8 ? &compute<std::int8_t> : &compute<std::uint8_t>;
    ctx.set_output(kC, t, out);
    return {};
  }

  static Status run(RunContext& ctx) noexcept {
    const State& s = ctx.state<State>();
    s.compute(s, ctx);
    return {};
  }

 private:
  /// An element's work in the multiply-adds Workers::tasks_for counts: measured on this project's EPYC, ResNet-18's
  /// first residual QLinearAdd (200 K elements) takes ~0.5 ms, what the GEMM does with ~25 M multiply-adds; 32 is a
  /// cautious share of that which still splits every Add of 64 K elements or more.
  static constexpr double kElementCost = 32.0;

  /// One broadcast row: the operands' inner strides (0 or 1) are template arguments, so the loop compiles to
  /// straight-line code for same-shape and scalar-broadcast rows.
  template <typename T, int AStep, int BStep>
  static void row(const State& s, const T* a, const T* b, T* c, std::int64_t n) noexcept {
    const QuantRange r = s.range;
    std::int64_t i = 0;
    if constexpr (Op::kVectorRows && AStep == 1 && BStep == 1) i = Op::vector_rows(s.isa, s.params, r, a, b, c, n);
    for (; i < n; ++i) {
      const std::int64_t v = Op::apply(s.params, a[i * AStep], b[i * BStep]);
      c[i] = static_cast<T>(v < r.low ? r.low : (v > r.high ? r.high : v));
    }
  }

  template <typename T>
  static void compute(const State& s, RunContext& ctx) noexcept {
    const T* a = static_cast<const T*>(ctx.input(kA).data);
    const T* b = static_cast<const T*>(ctx.input(kB).data);
    T* c = static_cast<T*>(ctx.output(kC).data);
    if (s.plan.is_elementwise()) {  // same shapes (a residual Add): ranges of the one row split over the workers
      auto range = [&](std::int64_t first, std::int64_t end) noexcept {
        row<T, 1, 1>(s, a + first, b + first, c + first, end - first);
      };
      ctx.workers().for_each_range(s.plan.output_count, kElementCost, range);
      return;
    }
    const int steps = static_cast<int>(s.plan.inner_stride(0) * 2 + s.plan.inner_stride(1));
    s.plan.for_each_row([&](const std::int64_t* in, std::int64_t out, std::int64_t n) {
      switch (steps) {
        case 3: row<T, 1, 1>(s, a + in[0], b + in[1], c + out, n); break;
        case 2: row<T, 1, 0>(s, a + in[0], b + in[1], c + out, n); break;
        case 1: row<T, 0, 1>(s, a + in[0], b + in[1], c + out, n); break;
        default: row<T, 0, 0>(s, a + in[0], b + in[1], c + out, n); break;
      }
    });
  }
};

}  // namespace qoperator_util
}  // namespace kernels
ONNXMICRO_NAMESPACE_END
