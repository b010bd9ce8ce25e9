// SPDX-License-Identifier: MIT
// QLinearMatMul: numpy.matmul of quantized a and b, requantized to y:
//   y = saturate(round(sum_k (a - a_zero) * (b - b_zero) * (a_scale * b_scale / y_scale)) + y_zero)
// with the scale/zero point of a per tensor or per row ([M] or [.., M, 1]), of b per tensor or per column ([N] or
// [.., 1, N]), of y per tensor. As the ONNX reference: the integer sum wraps in int32, the multiplier is computed
// in the scales' dtype (a_scale * b_scale, then / y_scale), the product and the zero point in float64, rounding
// half to even. Opset 21 adds float16/bfloat16 scales and float8 a, b and y: float8 operands are summed exactly in
// float64 (no wrap) and a float8 y gets the saturated, rounded value. Without y_zero_point, y has a's dtype.
//
// Integer operands with float32 scales, a per tensor and b per tensor or per column run on the integer GEMM
// core (common/integer_gemm.hpp): y^T = (b - b_zero)^T (a - a_zero)^T, b packed once at prepare when it and its zero
// point are constants (else into scratch at every run), a packed per tile, fixed-point requantisation per
// column of b; fewer than 4 rows of a (GEMV) multiply b's raw rows instead. A Relu/Clip fused by the session
// (PrepareContext::fused_clamp) narrows the output range to [quantize(min), quantize(max)]. Other layouts (per-row a,
// float8, float16 scales) use the reference loops.
#pragma once
#include <cstddef>
#include <cstdint>

#include "onnxmicro/kernels/common/integer_gemm.hpp"
#include "onnxmicro/kernels/common/scratch.hpp"
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
  // Integer path (fast == true): see the file comment.
  bool fast;
  void (*compute)(const State&, RunContext&) noexcept;
  Isa isa;                               ///< the session's instruction set: the integer GEMM's tiles
  bool per_column;                       ///< b_scale / b_zero_point have N values
  std::int64_t b_matrices;               ///< distinct K x N matrices of b
  std::int64_t tile;                     ///< columns (rows of a) per packed tile
  const std::int16_t* weights;           ///< packed b, or nullptr: packed at run into scratch
  const integer_gemm::Requant* requant;  ///< one per column, or nullptr: computed at run into scratch
  FusedClamp clamp;
  std::size_t weights_offset, requant_offset, packed_offset;
  std::size_t sums_offset, row_offset;  ///< few rows of a (plan.m < kVectorRows): int32 sums, one widened row of b
};

/// Below this many rows of a, each row multiplies b directly (row by row of b) instead of through packed tiles,
/// which would pad the rows to a full register tile.
constexpr std::int64_t kVectorRows = 4;

/// y row = requantize(sum_k (a_k - a_zero) * (b(k, :) - b_zero)) for one row of a, computed as
/// sum_k a'_k * b(k, :) - b_zero * sum_k a'_k (the same value modulo 2^32), over b's raw rows.
template <typename TA, typename TB, typename TY>
void vector_row(const State& s, const TA* a, int a_zero, const TB* b, const TB* b_zero,
                const integer_gemm::Requant* requant, std::int32_t y_zero, std::int32_t low, std::int32_t high,
                std::int32_t* sums, std::int16_t* row, TY* y) noexcept {
  const std::int64_t k = s.plan.k, n = s.plan.n;
  for (std::int64_t j = 0; j < n; ++j) sums[j] = 0;
  std::uint32_t a_total = 0;
  for (std::int64_t p = 0; p < k; ++p) {
    const int av = static_cast<int>(a[p]) - a_zero;
    a_total += static_cast<std::uint32_t>(av);
    const TB* b_row = b + p * n;
    for (std::int64_t j = 0; j < n; ++j) row[j] = static_cast<std::int16_t>(b_row[j]);
    integer_gemm::multiply_add_row(sums, row, n, static_cast<std::int16_t>(av));
  }
  for (std::int64_t j = 0; j < n; ++j) {
    const std::uint32_t zero = b_zero ? static_cast<std::uint32_t>(static_cast<int>(b_zero[s.per_column ? j : 0])) : 0u;
    const std::int32_t total = static_cast<std::int32_t>(static_cast<std::uint32_t>(sums[j]) - zero * a_total);
    y[j] = static_cast<TY>(integer_gemm::requantize(total, requant[j], y_zero, low, high));
  }
}

template <typename TB>
inline void pack_weights(const State& s, const TB* b, const TB* zero, std::int16_t* dst) noexcept {
  integer_gemm::pack_matrices(b, zero, s.plan.k, s.plan.n, s.b_matrices, s.per_column, dst);
}

inline void compute_requant(const State& s, const void* a_scale, const void* b_scale, const void* y_scale,
                            integer_gemm::Requant* dst) noexcept {
  const float as = static_cast<const float*>(a_scale)[0];
  const float ys = static_cast<const float*>(y_scale)[0];
  const float* bs = static_cast<const float*>(b_scale);
  for (std::int64_t j = 0; j < s.plan.n; ++j) {
    dst[j] = integer_gemm::make_requant(integer_gemm::reference_multiplier(as, bs[s.per_column ? j : 0], ys));
  }
}

template <typename TA, typename TB, typename TY>
void compute_integer(const State& s, RunContext& ctx) noexcept {
  const quant_util::MatMulPlan& plan = s.plan;
  void* scratch = ctx.scratch();
  const TA* a = static_cast<const TA*>(ctx.input(kA).data);
  const int a_zero =
      ctx.has_input(kAZeroPoint) ? static_cast<int>(static_cast<const TA*>(ctx.input(kAZeroPoint).data)[0]) : 0;
  const std::int32_t y_zero = ctx.has_input(kYZeroPoint)
                                  ? static_cast<std::int32_t>(static_cast<const TY*>(ctx.input(kYZeroPoint).data)[0])
                                  : 0;
  const float y_scale = static_cast<const float*>(ctx.input(kYScale).data)[0];
  TY* y = static_cast<TY*>(ctx.output(kY).data);
  std::int32_t low = 0, high = 0;
  integer_gemm::output_bounds<TY>(s.clamp, y_scale, y_zero, low, high);
  const integer_gemm::Requant* requant = s.requant;
  if (requant == nullptr) {
    integer_gemm::Requant* computed = scratch::scratch_at<integer_gemm::Requant>(scratch, s.requant_offset);
    compute_requant(s, ctx.input(kAScale).data, ctx.input(kBScale).data, ctx.input(kYScale).data, computed);
    requant = computed;
  }
  std::int16_t* packed = scratch::scratch_at<std::int16_t>(scratch, s.packed_offset);
  const std::int64_t m = plan.m, n = plan.n, k = plan.k;
  if (m < kVectorRows) {
    const TB* b = static_cast<const TB*>(ctx.input(kB).data);
    const TB* b_zero = ctx.has_input(kBZeroPoint) ? static_cast<const TB*>(ctx.input(kBZeroPoint).data) : nullptr;
    std::int32_t* sums = scratch::scratch_at<std::int32_t>(scratch, s.sums_offset);
    std::int16_t* row = scratch::scratch_at<std::int16_t>(scratch, s.row_offset);
    integer_gemm::for_each_matrix(plan, [&](std::int64_t batch, std::int64_t a_offset, std::int64_t b_offset) {
      for (std::int64_t i = 0; i < m; ++i) {
        vector_row(s, a + a_offset + i * k, a_zero, b + b_offset, b_zero, requant, y_zero, low, high, sums, row,
                   y + (batch * m + i) * n);
      }
    });
    return;
  }
  const std::int16_t* weights = s.weights;
  if (weights == nullptr) {
    std::int16_t* packed = scratch::scratch_at<std::int16_t>(scratch, s.weights_offset);
    pack_weights(s, static_cast<const TB*>(ctx.input(kB).data),
                 ctx.has_input(kBZeroPoint) ? static_cast<const TB*>(ctx.input(kBZeroPoint).data) : nullptr, packed);
    weights = packed;
  }
  integer_gemm::multiply_matrices(s.isa, plan, weights, a, a_zero, s.tile, packed,
                                  [&](std::int64_t batch, std::int64_t row, std::int64_t column, std::int64_t rows,
                                      std::int64_t cols, const std::int32_t(*acc)[integer_gemm::kColumns]) {
                                    TY* y_batch = y + batch * m * n;
                                    for (std::int64_t r = 0; r < rows; ++r) {
                                      const integer_gemm::Requant& q = requant[row + r];
                                      TY* out = y_batch + column * n + row + r;
                                      for (std::int64_t c = 0; c < cols; ++c) {
                                        out[c * n] =
                                            static_cast<TY>(integer_gemm::requantize(acc[r][c], q, y_zero, low, high));
                                      }
                                    }
                                  });
}

template <typename TA, typename TB>
inline void (*pick_output(DataType output))(const State&, RunContext&) noexcept {
  return output == DataType::int8 ? &compute_integer<TA, TB, std::int8_t> : &compute_integer<TA, TB, std::uint8_t>;
}
inline void (*pick_compute(DataType a, DataType b, DataType output))(const State&, RunContext&) noexcept {
  return integer_gemm::pick_8bit(
      a, b, [output](auto ta, auto tb) { return pick_output<decltype(ta), decltype(tb)>(output); });
}

/// Sets up the integer path when the node qualifies (see the file comment); leaves s.fast false otherwise.
inline Status prepare_integer(PrepareContext& ctx, State& s, DataType output) noexcept {
  const auto is_int = [](DataType t) { return t == DataType::int8 || t == DataType::uint8; };
  const quant_util::MatMulPlan& plan = s.plan;
  bool b_params_flat = true;
  for (int i = 0; i < plan.batch_rank; ++i) b_params_flat = b_params_flat && plan.b_params.batch_stride[i] == 0;
  s.fast = is_int(ctx.input(kA).dtype) && is_int(ctx.input(kB).dtype) && is_int(output) &&
           ctx.input(kAScale).dtype == DataType::float32 && ctx.input(kAScale).shape.element_count() == 1 &&
           b_params_flat && plan.k > 0;
  if (!s.fast) return {};
  s.per_column = ctx.input(kBScale).shape.element_count() > 1;
  // The zero point's layout follows its own shape (it may be per tensor while the scale is per column).
  if (ctx.has_input(kBZeroPoint) && (ctx.input(kBZeroPoint).shape.element_count() > 1) != s.per_column) {
    s.fast = false;
    return {};
  }
  s.compute = pick_compute(ctx.input(kA).dtype, ctx.input(kB).dtype, output);
  s.isa = ctx.isa();
  s.clamp = ctx.fused_clamp();
  const std::int64_t k = plan.k, n = plan.n;
  s.b_matrices = k * n == 0 ? 1 : ctx.input(kB).shape.element_count() / (k * n);
  s.tile = integer_gemm::activation_tile(k, plan.m);
  integer_gemm::ScratchLayout layout;
  const std::size_t weights_size = static_cast<std::size_t>(s.b_matrices * integer_gemm::packed_a_size(n, k));
  const bool weights_constant = integer_gemm::constant_with_zero_point(ctx, kB, kBZeroPoint);
  s.weights = nullptr;
  if (plan.m < kVectorRows) {
    // Rows of a are multiplied with b's raw rows: no packed weights, no packed tile.
    s.sums_offset = layout.reserve(static_cast<std::size_t>(n) * sizeof(std::int32_t));
    s.row_offset = layout.reserve(static_cast<std::size_t>(n) * sizeof(std::int16_t));
  } else if (weights_constant) {
    ONNXMICRO_RETURN_IF_ERROR(
        integer_gemm::pack_constant_matrices(ctx, kB, kBZeroPoint, k, n, s.b_matrices, s.per_column, s.weights));
  } else {
    s.weights_offset = layout.reserve(weights_size * sizeof(std::int16_t));
  }
  const bool scales_constant = integer_gemm::all_constant(ctx, {kAScale, kBScale, kYScale});
  s.requant = nullptr;
  if (scales_constant) {
    Span<integer_gemm::Requant> requant;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_persistent(static_cast<std::size_t>(n), requant));
    compute_requant(s, ctx.input(kAScale).const_data, ctx.input(kBScale).const_data, ctx.input(kYScale).const_data,
                    requant.data());
    s.requant = requant.data();
  } else {
    s.requant_offset = layout.reserve(static_cast<std::size_t>(n) * sizeof(integer_gemm::Requant));
  }
  if (plan.m >= kVectorRows) {
    s.packed_offset =
        layout.reserve(static_cast<std::size_t>(integer_gemm::packed_b_size(k, s.tile)) * sizeof(std::int16_t));
  }
  ctx.request_scratch(layout.bytes);
  return {};
}

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
  ONNXMICRO_RETURN_IF_ERROR(prepare_integer(ctx, *state, output));
  if (!state->fast && ctx.fused_clamp().present()) {
    return Status(StatusCode::unsupported) << "a fused Relu/Clip needs int8/uint8 a, b and y with float32 scales, a "
                                              "per tensor and b per tensor or per column";
  }
  ctx.set_output(kY, output, plan.output);
  return {};
}

inline Status run(RunContext& ctx) noexcept {
  const State& s = ctx.state<State>();
  if (s.fast) {
    s.compute(s, ctx);
    return {};
  }
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

/// QLinearMatMul's versions differ only in dtypes, which prepare checks against the node's opset.
struct Impl : KernelDefaults {
  static constexpr std::string_view kOpType = "QLinearMatMul";
  static Status prepare(PrepareContext& ctx, int /*since: only dtypes changed*/) noexcept {
    return qlinear_matmul_detail::prepare(ctx);
  }
  static Status run(RunContext& ctx) noexcept { return qlinear_matmul_detail::run(ctx); }
};

}  // namespace qlinear_matmul_detail

// Opset 10: int8/uint8 operands, float scales.
using QLinearMatMul_10 = VersionedKernel<qlinear_matmul_detail::Impl, 10, 21>;
// Opset 21: float16/bfloat16 scales and float8 operands (checked against the node's opset).
using QLinearMatMul_21 = VersionedKernel<qlinear_matmul_detail::Impl, 21>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
