// SPDX-License-Identifier: MIT
// QGemm (com.microsoft, since 1; onnxruntime's contrib op): quantized Gemm.
//   acc = sum_k (A'(m, k) - a_zero) * (B'(k, n) - b_zero[n]) + C(m, n)     (int32, wrapping)
//   y   = saturate(round(acc * alpha * a_scale * b_scale[n] / y_scale) + y_zero)   with y_scale
//   y   = acc * (a_scale * b_scale[n] * alpha)   (float32)                         without y_scale
// A' = transA ? A^T : A, B' = transB ? B^T : B (2-D). a_scale/a_zero_point per tensor, b_scale/b_zero_point per
// tensor or per column ([N]); C is an optional int32 bias broadcast to [M, N]. The multiplier is computed in
// float32 ((a_scale * b_scale) * alpha, then / y_scale), the product with acc in float64 rounded half to even
// (onnxruntime rounds a float32 product, which can differ by one on near-ties). Without y_zero_point a quantized
// y has A's dtype. A Relu/Clip fused by the session (PrepareContext::fused_clamp) clamps the output to
// [quantize(min), quantize(max)] (float output: to [min, max]).
// Method: the integer GEMM core (common/integer_gemm.hpp) on y^T = B'^T A'^T: B packed once at prepare when constant,
// A packed per tile into scratch. Constant int8 B with zero point 0 (onnxruntime's quantizer's weights) and A read
// by rows take the quad layout where it runs (AVX-512 VNNI): half the bytes of B to read, which is all a batch-1
// classifier's time.
#pragma once
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "onnxmicro/kernels/common/integer_gemm.hpp"
#include "onnxmicro/kernels/common/scratch.hpp"
#include "onnxmicro/kernels/kernel_api.hpp"
#include "onnxmicro/kernels/quantization/quant_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

namespace qgemm_detail {

/// The implementation of QGemm (see the file comment).
struct QGemmImpl : KernelDefaults {
  static constexpr std::string_view kDomain = "com.microsoft";
  static constexpr std::string_view kOpType = "QGemm";
  static constexpr int kA = 0;
  static constexpr int kAScale = 1;
  static constexpr int kAZeroPoint = 2;
  static constexpr int kB = 3;
  static constexpr int kBScale = 4;
  static constexpr int kBZeroPoint = 5;
  static constexpr int kC = 6;
  static constexpr int kYScale = 7;
  static constexpr int kYZeroPoint = 8;
  static constexpr int kY = 0;

  struct State {
    void (*compute)(const State&, RunContext&) noexcept;
    Isa isa;  ///< the session's instruction set: the integer GEMM's tiles
    std::int64_t m, n, k;
    bool trans_a, trans_b, per_column;
    float alpha;
    std::int64_t c_row_stride, c_col_stride;  ///< C(m, n) = C[m * row + n * col] (0 on broadcast axes)
    std::int64_t tile;
    const std::int16_t* weights;  ///< packed B'^T, or nullptr: packed at run into scratch
    /// B'^T in the quad layout (runs_quads), with its row sums (for A's zero point's term), or nullptr.
    const std::int8_t* quad_weights;
    const std::int32_t* weight_sums;
    /// The multipliers, made at prepare when the scales are constants, or nullptr: made at every run into scratch.
    const integer_gemm::Requant* requant;
    FusedClamp clamp;
    std::size_t weights_offset, requant_offset, packed_offset, rows_offset;
  };

  static Status prepare(PrepareContext& ctx) noexcept {
    for (int i : {kA, kAScale, kAZeroPoint, kB, kBScale}) ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(i));
    for (int i : {kA, kB, kYZeroPoint}) {
      if (ctx.has_input(i) && ctx.input(i).dtype != DataType::int8 && ctx.input(i).dtype != DataType::uint8) {
        return ctx.unsupported_input_dtype(i);
      }
    }
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_same_dtype(kA, kAZeroPoint));
    if (ctx.has_input(kBZeroPoint)) ONNXMICRO_RETURN_IF_ERROR(ctx.require_same_dtype(kB, kBZeroPoint));
    for (int i : {kAScale, kBScale, kYScale}) {
      if (ctx.has_input(i)) ONNXMICRO_RETURN_IF_ERROR(quant_util::require_dtype(ctx, i, DataType::float32, "scale"));
    }
    if (ctx.has_input(kC)) ONNXMICRO_RETURN_IF_ERROR(quant_util::require_dtype(ctx, kC, DataType::int32, "C"));
    if (ctx.has_input(kYZeroPoint) && !ctx.has_input(kYScale)) {
      return ctx.input_error(kYZeroPoint, "y_zero_point") << " is given without input 7 (y_scale)";
    }
    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
    State& s = *state;
    std::int64_t trans_a = 0, trans_b = 0;
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("transA", trans_a, 0));
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("transB", trans_b, 0));
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("alpha", s.alpha, 1.0f));
    s.trans_a = trans_a != 0;
    s.trans_b = trans_b != 0;
    const TensorInfo& a = ctx.input(kA);
    const TensorInfo& b = ctx.input(kB);
    for (int i : {kA, kB}) {
      if (ctx.input(i).shape.rank() != 2) {
        return ctx.input_error(i) << " has shape " << ctx.input(i).shape << ", expected rank 2";
      }
    }
    s.m = s.trans_a ? a.shape[1] : a.shape[0];
    s.k = s.trans_a ? a.shape[0] : a.shape[1];
    const std::int64_t kb = s.trans_b ? b.shape[1] : b.shape[0];
    s.n = s.trans_b ? b.shape[0] : b.shape[1];
    if (kb != s.k) {
      return Status(StatusCode::invalid_model) << "inner dimensions differ: input 0 '" << a.name << "' " << a.shape
                                               << " (transA=" << trans_a << ") has K=" << s.k << ", input 3 '" << b.name
                                               << "' " << b.shape << " (transB=" << trans_b << ") has K=" << kb;
    }
    for (int i : {kAScale, kAZeroPoint, kYScale, kYZeroPoint}) {
      ONNXMICRO_RETURN_IF_ERROR(quant_util::check_scalar_param(ctx, i));
    }
    ONNXMICRO_RETURN_IF_ERROR(quant_util::check_channel_param(ctx, kBScale, s.n));
    ONNXMICRO_RETURN_IF_ERROR(quant_util::check_channel_param(ctx, kBZeroPoint, s.n));
    s.per_column = ctx.input(kBScale).shape.element_count() > 1;
    if (ctx.has_input(kBZeroPoint) && (ctx.input(kBZeroPoint).shape.element_count() > 1) != s.per_column) {
      return ctx.input_error(kBZeroPoint)
             << " has shape " << ctx.input(kBZeroPoint).shape << ", expected the shape of input 4 "
             << ctx.input(kBScale).shape << " (b_scale)";
    }
    s.c_row_stride = s.c_col_stride = 0;
    if (ctx.has_input(kC)) {
      const Shape& c = ctx.input(kC).shape;
      const std::int64_t rows = c.rank() == 2 ? c[0] : 1;
      const std::int64_t cols = c.rank() >= 1 ? c[c.rank() - 1] : 1;
      if (c.rank() > 2 || (rows != 1 && rows != s.m) || (cols != 1 && cols != s.n)) {
        return ctx.input_error(kC, "C") << " has shape " << c << ", which does not broadcast to [" << s.m << "," << s.n
                                        << "]";
      }
      s.c_col_stride = cols == 1 ? 0 : 1;
      s.c_row_stride = rows == 1 ? 0 : cols;
    }
    const bool quantized = ctx.has_input(kYScale);
    const DataType output =
        !quantized ? DataType::float32 : (ctx.has_input(kYZeroPoint) ? ctx.input(kYZeroPoint).dtype : a.dtype);
    s.compute = pick_compute(a.dtype, b.dtype, output);
    s.isa = ctx.isa();
    s.clamp = ctx.fused_clamp();

    integer_gemm::ScratchLayout layout;
    const std::size_t weights_size = static_cast<std::size_t>(integer_gemm::packed_a_size(s.n, s.k));
    const bool weights_constant = integer_gemm::constant_with_zero_point(ctx, kB, kBZeroPoint);
    s.weights = nullptr;
    s.quad_weights = nullptr;
    s.tile = integer_gemm::activation_tile(s.k, s.m);
    ONNXMICRO_RETURN_IF_ERROR(plan_requant(ctx, s, layout));
    if (runs_quads(ctx, s)) {
      ONNXMICRO_RETURN_IF_ERROR(pack_quad_weights(ctx, s));
      s.packed_offset = layout.reserve(static_cast<std::size_t>(integer_gemm::packed_quad_depth(s.k) * s.tile));
      s.rows_offset = layout.reserve(static_cast<std::size_t>(integer_gemm::kTallRows * s.tile) * sizeof(std::int32_t));
      return finish_prepare(ctx, s, layout, output);
    }
    if (weights_constant) {
      Span<std::int16_t> packed;
      ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_persistent(weights_size, packed));
      pack_weights(s, b.dtype, b.const_data, ctx.has_input(kBZeroPoint) ? ctx.input(kBZeroPoint).const_data : nullptr,
                   packed.data());
      s.weights = packed.data();
    } else {
      s.weights_offset = layout.reserve(weights_size * sizeof(std::int16_t));
    }
    s.packed_offset =
        layout.reserve(static_cast<std::size_t>(integer_gemm::packed_b_size(s.k, s.tile)) * sizeof(std::int16_t));
    return finish_prepare(ctx, s, layout, output);
  }

  static Status run(RunContext& ctx) noexcept {
    const State& s = ctx.state<State>();
    s.compute(s, ctx);
    return {};
  }

 private:
  static Status finish_prepare(PrepareContext& ctx, const State& s, const integer_gemm::ScratchLayout& layout,
                               DataType output) noexcept {
    ctx.request_scratch(layout.bytes);
    Shape y_shape;
    const std::int64_t dims[2] = {s.m, s.n};
    ONNXMICRO_RETURN_IF_ERROR(y_shape.assign(dims, 2));
    ctx.set_output(kY, output, y_shape);
    return {};
  }

  /// The multipliers: made once here when the scales are constants, else scratch for them. Size-optimised builds
  /// make them at every run (N values, negligible next to the product): scratch is shared by the nodes, session
  /// metadata is not (a Cortex-M4's 10-class classifier: 248 bytes more of it).
  static Status plan_requant(PrepareContext& ctx, State& s, integer_gemm::ScratchLayout& layout) noexcept {
    s.requant = nullptr;
    const bool quantized = ctx.has_input(kYScale);
    if (ctx.size_optimized() || !integer_gemm::all_constant(ctx, {kAScale, kBScale}) ||
        (quantized && !integer_gemm::all_constant(ctx, {kYScale}))) {
      s.requant_offset = layout.reserve(static_cast<std::size_t>(s.n) * sizeof(integer_gemm::Requant));
      return {};
    }
    Span<integer_gemm::Requant> requant;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_persistent(static_cast<std::size_t>(s.n), requant));
    make_multipliers(s, static_cast<const float*>(ctx.input(kAScale).const_data)[0],
                     static_cast<const float*>(ctx.input(kBScale).const_data),
                     quantized ? static_cast<const float*>(ctx.input(kYScale).const_data) : nullptr, requant.data());
    s.requant = requant.data();
    return {};
  }

  /// requant[j] for each column j: (a_scale * b_scale[j]) * alpha in float32, divided by y_scale[0] when the output is
  /// quantized (y_scale not null; else only `real` is set).
  static void make_multipliers(const State& s, float a_scale, const float* b_scale, const float* y_scale,
                               integer_gemm::Requant* requant) noexcept {
    for (std::int64_t j = 0; j < s.n; ++j) {
      const float scale = (a_scale * b_scale[s.per_column ? j : 0]) * s.alpha;
      if (y_scale != nullptr) {
        requant[j] = integer_gemm::make_requant(static_cast<double>(scale / y_scale[0]));
      } else {
        requant[j].real = scale;
      }
    }
  }

  /// Whether B'^T runs on the quad layout: a level with quad tiles, constant int8 B whose zero point is 0 (or
  /// absent), and A read by rows (not transA), each row of A a column of the product.
  static bool runs_quads(const PrepareContext& ctx, const State& s) noexcept {
    return ONNXMICRO_ENABLE_FAST_PATHS && !s.trans_a && !ctx.size_optimized() &&
           integer_gemm::quad_weights_fit(ctx, s.isa, kB, kBZeroPoint);
  }

  /// B'^T in the quad layout and its row sums, into persistent memory: row j is B's column j (depth k).
  static Status pack_quad_weights(PrepareContext& ctx, State& s) noexcept {
    Span<std::int8_t> packed;
    ONNXMICRO_RETURN_IF_ERROR(
        ctx.allocate_persistent(static_cast<std::size_t>(integer_gemm::packed_a_quads_size(s.n, s.k)), packed));
    Span<std::int32_t> sums;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_persistent(static_cast<std::size_t>(s.n), sums));
    const std::int8_t* b = static_cast<const std::int8_t*>(ctx.input(kB).const_data);
    // B'(k, n) = transB ? B[n * K + k] : B[k * N + n].
    integer_gemm::pack_a_quads(b, s.trans_b ? s.k : 1, s.trans_b ? 1 : s.n, s.n, s.k, packed.data(), sums.data());
    s.quad_weights = packed.data();
    s.weight_sums = sums.data();
    return {};
  }

  template <typename TB>
  static void pack_weights_as(const State& s, const TB* b, const TB* zero, std::int16_t* dst) noexcept {
    // Core rows are B's columns n, depth k: B'(k, n) = transB ? B[n * K + k] : B[k * N + n].
    integer_gemm::pack_a(b, s.trans_b ? s.k : 1, s.trans_b ? 1 : s.n, s.n, s.k, zero, s.per_column ? 1 : 0, dst);
  }
  static void pack_weights(const State& s, DataType type, const void* b, const void* zero, std::int16_t* dst) noexcept {
    if (type == DataType::int8) {
      pack_weights_as(s, static_cast<const std::int8_t*>(b), static_cast<const std::int8_t*>(zero), dst);
    } else {
      pack_weights_as(s, static_cast<const std::uint8_t*>(b), static_cast<const std::uint8_t*>(zero), dst);
    }
  }

  template <typename TA, typename TB, typename TY>
  static void compute(const State& s, RunContext& ctx) noexcept {
    constexpr bool kFloat = std::is_same<TY, float>::value;
    void* scratch = ctx.scratch();
    const TA* a = static_cast<const TA*>(ctx.input(kA).data);
    const int a_zero = static_cast<int>(static_cast<const TA*>(ctx.input(kAZeroPoint).data)[0]);
    const std::int32_t* c = ctx.has_input(kC) ? static_cast<const std::int32_t*>(ctx.input(kC).data) : nullptr;
    TY* y = static_cast<TY*>(ctx.output(kY).data);
    const std::int16_t* weights = s.weights;
    if (weights == nullptr && s.quad_weights == nullptr) {
      std::int16_t* packed = scratch::scratch_at<std::int16_t>(scratch, s.weights_offset);
      pack_weights_as(s, static_cast<const TB*>(ctx.input(kB).data),
                      ctx.has_input(kBZeroPoint) ? static_cast<const TB*>(ctx.input(kBZeroPoint).data) : nullptr,
                      packed);
      weights = packed;
    }
    const float* y_scale = kFloat ? nullptr : static_cast<const float*>(ctx.input(kYScale).data);
    const integer_gemm::Requant* requant = s.requant;
    if (requant == nullptr) {
      integer_gemm::Requant* made = scratch::scratch_at<integer_gemm::Requant>(scratch, s.requant_offset);
      make_multipliers(s, static_cast<const float*>(ctx.input(kAScale).data)[0],
                       static_cast<const float*>(ctx.input(kBScale).data), y_scale, made);
      requant = made;
    }
    std::int32_t y_zero = 0, low = 0, high = 0;
    if constexpr (!kFloat) {
      y_zero = ctx.has_input(kYZeroPoint)
                   ? static_cast<std::int32_t>(static_cast<const TY*>(ctx.input(kYZeroPoint).data)[0])
                   : 0;
      integer_gemm::output_bounds<TY>(s.clamp, y_scale[0], y_zero, low, high);
    }
    // y[i, j] from the product's sum at row j (B's column), column i (A's row).
    auto store = [&](std::int64_t i, std::int64_t j, std::uint32_t total) {
      if (c) total += static_cast<std::uint32_t>(c[i * s.c_row_stride + j * s.c_col_stride]);
      const integer_gemm::Requant& q = requant[j];
      if constexpr (kFloat) {
        float v = static_cast<float>(static_cast<std::int32_t>(total)) * static_cast<float>(q.real);
        if (s.clamp.has_min && v < s.clamp.min) v = s.clamp.min;
        if (s.clamp.has_max && v > s.clamp.max) v = s.clamp.max;
        y[i * s.n + j] = v;
      } else {
        y[i * s.n + j] =
            static_cast<TY>(integer_gemm::requantize(static_cast<std::int32_t>(total), q, y_zero, low, high));
      }
    };
    if (ONNXMICRO_ENABLE_FAST_PATHS && s.quad_weights != nullptr) {  // (compiled out of firmware)
      multiply_quads(s, scratch, a, a_zero, store);
      return;
    }
    std::int16_t* packed = scratch::scratch_at<std::int16_t>(scratch, s.packed_offset);
    // A'(m, k) = transA ? A[k * M + m] : A[m * K + k]: depth stride and column (m) stride.
    integer_gemm::multiply_strided(s.isa, weights, s.n, a, s.trans_a ? s.m : 1, s.trans_a ? 1 : s.k, s.k, s.m, a_zero,
                                   s.tile, packed,
                                   [&](std::int64_t row, std::int64_t column, std::int64_t rows, std::int64_t cols,
                                       const std::int32_t(*acc)[integer_gemm::kColumns]) {
                                     for (std::int64_t r = 0; r < rows; ++r)
                                       for (std::int64_t col = 0; col < cols; ++col)
                                         store(column + col, row + r, static_cast<std::uint32_t>(acc[r][col]));
                                   });
  }

  /// The product on the quad layout: A's rows packed `tile` at a time as the quad layout's bytes, each row panel's
  /// sums to store(i, j, total) with A's zero point's term taken off.
  template <typename TA, typename Store>
  static void multiply_quads(const State& s, void* scratch, const TA* a, int a_zero, Store&& store) noexcept {
    std::uint8_t* packed = scratch::scratch_at<std::uint8_t>(scratch, s.packed_offset);
    std::int32_t* rows = scratch::scratch_at<std::int32_t>(scratch, s.rows_offset);
    const std::uint32_t zero = static_cast<std::uint8_t>(a_zero) ^ integer_gemm::quad_flip<TA>();
    const std::int64_t kq = integer_gemm::packed_quad_depth(s.k);
    for (std::int64_t first = 0; first < s.m; first += s.tile) {
      const std::int64_t count = s.m - first < s.tile ? s.m - first : s.tile;
      integer_gemm::pack_b_columns_quads(a + first * s.k, s.k, s.k, count, packed);
      integer_gemm::multiply_rows_quads(
          s.isa, s.quad_weights, s.n, packed, count, kq, rows,
          [&](std::int64_t row, std::int64_t panel_rows, const std::int32_t* sums, std::int64_t ldc) {
            for (std::int64_t r = 0; r < panel_rows; ++r) {
              const std::uint32_t term = zero * static_cast<std::uint32_t>(s.weight_sums[row + r]);
              for (std::int64_t col = 0; col < count; ++col)
                store(first + col, row + r, static_cast<std::uint32_t>(sums[r * ldc + col]) - term);
            }
          });
    }
  }

  using Compute = void (*)(const State&, RunContext&) noexcept;
  template <typename TA, typename TB>
  static Compute pick_output(DataType output) noexcept {
    if (output == DataType::float32) return &compute<TA, TB, float>;
    return output == DataType::int8 ? &compute<TA, TB, std::int8_t> : &compute<TA, TB, std::uint8_t>;
  }
  static Compute pick_compute(DataType a, DataType b, DataType output) noexcept {
    return integer_gemm::pick_8bit(
        a, b, [output](auto ta, auto tb) { return pick_output<decltype(ta), decltype(tb)>(output); });
  }
};

}  // namespace qgemm_detail

// com.microsoft version 1: the only version.
using QGemm_1 = VersionedKernel<qgemm_detail::QGemmImpl, 1>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
