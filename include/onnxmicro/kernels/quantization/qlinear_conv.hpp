// SPDX-License-Identifier: MIT
// QLinearConv (opset 10, the only version): N-D convolution of quantized x and w, plus an optional int32 bias,
// requantized to y:
//   y = saturate(round((sum (x - x_zero) * (w - w_zero[m]) + B[m]) * (x_scale * w_scale[m] / y_scale)) + y_zero)
// x_scale/x_zero_point and y_scale/y_zero_point per tensor; w_scale/w_zero_point per tensor or per output channel.
// As the ONNX reference: the integer sum wraps in int32, the multiplier is float32 (x_scale * w_scale, then
// / y_scale), the product and zero point float64, rounding half to even. Without y_zero_point, y has x's dtype.
// Attributes and output shape as Conv. A Relu/Clip fused by the session (PrepareContext::fused_clamp) narrows
// the output range to [quantize(min), quantize(max)].
//
// Method: integer arithmetic throughout. W - w_zero is packed once at prepare (when W and its zero point are
// constants; otherwise into scratch at every run) for the integer GEMM core (common/integer_gemm.hpp); per (image,
// group), a tile of output positions is gathered as int16 x - x_zero (0 in the padding, im2col), packed and
// multiplied on the tiles of the session's instruction set; each register tile is requantised with multipliers
// precomputed at prepare (at run for run-time scales). Depthwise convolutions (one input channel per group) use a
// direct loop over a zero-padded int16 copy of each channel instead. Both split over the session's threads (column
// tiles, else output channels; depthwise: channels), each task with scratch of its own, bit-identical to one thread.
// Stride-1 3x3 convs with constant weights and 16 or more channels run as Winograd F(2x2, 3x3) on integers where the
// session allows it (kernels/common/integer_winograd.hpp): exact, 2.25x fewer multiply-adds, the same bits.
// Pointwise convs with int8 weights of zero point 0 run on integer_gemm's quad layout where the CPU has AVX-512 VNNI
// (the input bytes as they are, vpdpbusd): exact too, the same bits.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>

#include "onnxmicro/kernels/common/gemm.hpp"
#include "onnxmicro/kernels/common/integer_gemm.hpp"
#include "onnxmicro/kernels/common/integer_winograd.hpp"
#include "onnxmicro/kernels/common/scratch.hpp"
#include "onnxmicro/kernels/common/sliding_window.hpp"
#include "onnxmicro/kernels/common/window_rows.hpp"
#include "onnxmicro/kernels/kernel_api.hpp"
#include "onnxmicro/kernels/quantization/quant_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {
namespace qlinear_conv_detail {

/// Fills `count` columns (output positions first..first+count) of one group's column matrix of `depth` rows
/// (channels per group * kernel size), row stride `count`: row (c, tap) holds x - x_zero as each output
/// position sees it through that tap, 0 in padding. Shared with ConvInteger.
template <typename TX>
inline void im2col(const quant_util::ConvPlan& plan, std::int64_t depth, const TX* x, int x_zero, std::int64_t first,
                   std::int64_t count, std::int16_t* col) noexcept {
  const sliding_window::WindowGeometry& g = plan.geometry;
  const int last = g.rank - 1;
  std::int64_t tap[sliding_window::kMaxSpatialRank] = {};
  std::int64_t start_index[sliding_window::kMaxSpatialRank] = {};
  std::int64_t rest = first;
  for (int d = last; d >= 0; --d) {
    start_index[d] = rest % g.output[d];
    rest /= g.output[d];
  }
  for (std::int64_t row = 0; row < depth; ++row) {
    const TX* plane = x + (row / plan.kernel_size) * plan.in_spatial;
    std::int16_t* dst = col + row * count;
    std::int64_t out[sliding_window::kMaxSpatialRank];
    for (int d = 0; d <= last; ++d) out[d] = start_index[d];
    std::int64_t done = 0;
    while (done < count) {
      std::int64_t run_length = g.output[last] - out[last];
      if (run_length > count - done) run_length = count - done;
      bool inside = true;
      std::int64_t base = 0;
      for (int d = 0; d < last; ++d) {
        const std::int64_t coordinate = out[d] * g.stride[d] + tap[d] * g.dilation[d] - g.pad_begin[d];
        inside = inside && coordinate >= 0 && coordinate < g.input[d];
        base = base * g.input[d] + coordinate;
      }
      std::int16_t* segment = dst + done;
      if (!inside) {
        for (std::int64_t q = 0; q < run_length; ++q) segment[q] = 0;
      } else {
        const TX* line = plane + base * g.input[last];
        const std::int64_t stride = g.stride[last];
        const std::int64_t start = out[last] * stride + tap[last] * g.dilation[last] - g.pad_begin[last];
        std::int64_t lo = 0, hi = 0;  // positions whose input coordinate is inside the line
        sliding_window::valid_taps(start, stride, run_length, 0, g.input[last], lo, hi);
        for (std::int64_t q = 0; q < lo; ++q) segment[q] = 0;
        if (stride == 1) {
          integer_gemm::widen_row(line + start + lo, hi - lo, x_zero, segment + lo);
        } else {
          for (std::int64_t q = lo; q < hi; ++q) {
            segment[q] = static_cast<std::int16_t>(line[start + q * stride] - x_zero);
          }
        }
        for (std::int64_t q = hi; q < run_length; ++q) segment[q] = 0;
      }
      done += run_length;
      out[last] += run_length;
      for (int d = last; d > 0 && out[d] == g.output[d]; --d) {  // carry into the outer axes
        out[d] = 0;
        ++out[d - 1];
      }
    }
    for (int d = last; d >= 0; --d) {  // next kernel tap (wraps into the next channel)
      if (++tap[d] < g.kernel[d]) break;
      tap[d] = 0;
    }
  }
}

}  // namespace qlinear_conv_detail

namespace qlinear_conv_detail {

/// The implementation of QLinearConv (see the file comment).
struct QLinearConvImpl : KernelDefaults {
  static constexpr std::string_view kOpType = "QLinearConv";
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

  /// Bytes of packed activations per GEMM tile (the im2col tile and its packed copy take about twice this).
  static constexpr std::int64_t kTileBytes = 48 * 1024;
  /// The same on the quad layout, whose tall tiles read B from L2 half as often: wider tiles pass the weights by
  /// fewer times. ResNet-18's 3x3 layers, 1 thread, ms, 48 / 96 KiB: 64 channels 0.79 / 0.70, 128 0.76 / 0.68,
  /// 256 0.75 / 0.68; 96, 160 and 320 KiB within the host's noise of each other.
  static constexpr std::int64_t kQuadTileBytes = 160 * 1024;

  struct State {
    void (*compute)(const State&, RunContext&) noexcept;
    Isa isa;  ///< the session's instruction set: the integer GEMM's tiles
    quant_util::ConvPlan plan;
    bool depthwise;  ///< one input channel per group: direct loop
    bool pointwise;  ///< 1x1 kernel, unit strides, no pads: the input rows are the column matrix
    /// 2-D, strides of 1 or 2 (kernel above 1x1): the column matrix is read in place from a zero-padded int16 copy of
    /// the input (the "grid"), each tap a shifted window of it, and the products are computed at every grid column of
    /// the output rows (grid_columns), those past an output row discarded. With stride s along an axis the grid
    /// holds s phases of the padded input along it (every s-th row or column), so each tap still reads one window
    /// at unit stride: per channel, stride_h x stride_w phase planes of grid_rows x grid_cols.
    bool grid;
    const std::int32_t* grid_offsets;   ///< per GEMM depth row (channel, tap): its window's offset in the grid
    std::int64_t grid_columns;          ///< (out_h - 1) * grid_cols + out_w
    std::int64_t grid_rows, grid_cols;  ///< a phase plane: ceil(padded rows / stride_h) x ceil(padded cols / stride_w)
    std::size_t grid_offset;            ///< scratch: the grid of one image (shared by the tasks)
    std::size_t rows_offset;            ///< scratch per task: a row panel's sums, then one row's outputs
    /// Requantise whole rows of a tile (multiply_rows), not each register tile: fast paths only (firmware keeps the
    /// smaller scratch; the grid needs it).
    bool whole_rows;
    bool per_channel_scale;                 ///< w_scale has M values
    bool per_channel_zero;                  ///< w_zero_point has M values
    std::int64_t depth;                     ///< GEMM depth: group_channels * kernel_size
    std::int64_t tile;                      ///< output positions per GEMM tile (multiple of integer_gemm::kColumns)
    std::int64_t padded_rows, padded_cols;  ///< depthwise: the zero-padded plane (2-D)
    std::int64_t group_weights;             ///< int16 elements of one group's packed weights
    const std::int16_t* weights;            ///< packed at prepare, or nullptr: packed at run into scratch
    /// Pointwise convs on the quad layout (runs_quads): the int8 weights as integer_gemm::pack_a_quads packs them and
    /// each output channel's weight sum; else nullptr.
    const std::int8_t* quad_weights;
    const std::int32_t* weight_sums;
    const integer_gemm::Requant* requant;  ///< one per output channel, or nullptr: computed at run into scratch
    FusedClamp clamp;
    std::size_t weights_offset, requant_offset, column_offset, packed_offset, accumulator_offset;
    /// Depthwise through the float plane loops (weights known at prepare, at most kMaxFloatTaps taps): w - w_zero as
    /// floats, M x kernel; else nullptr. Per task: the input plane, the padded plane and the output plane as floats.
    const float* float_weights;
    std::size_t float_planes_offset;
    std::int64_t padded_floats;
    /// Depthwise float loops over phase planes (2-D, strides 1 and 2 as the grid; AVX2 and up): each tap's offset in
    /// them (grid_rows, grid_cols and grid_columns as the grid's), else nullptr; per task, the planes at
    /// float_planes_offset and the sums of grid_columns outputs past them.
    const std::int64_t* tap_offsets;
#if ONNXMICRO_ENABLE_FAST_PATHS
    /// Winograd F(2x2, 3x3) (kernels/common/integer_winograd.hpp): the packed transformed filters (else nullptr) and
    /// the tile rows per block; each task's packed V at packed_offset, its working memory at column_offset (int16)
    /// and rows_offset (int32).
    const std::int16_t* winograd_filters;
    std::int64_t winograd_rows;
#endif
  };

  /// Taps of a depthwise window whose integer sum float32 holds exactly: each product |(x - x_zero)(w - w_zero)| is
  /// at most 255 * 255, so up to 258 of them stay below 2^24 whatever the order of the additions.
  static constexpr std::int64_t kMaxFloatTaps = 256;

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
    State& s = *state;
    ONNXMICRO_RETURN_IF_ERROR(quant_util::plan_conv(ctx, kX, kW, s.plan));
    const quant_util::ConvPlan& plan = s.plan;
    const std::int64_t m = plan.out_channels;
    for (int i : {kXScale, kXZeroPoint, kYScale, kYZeroPoint}) {
      ONNXMICRO_RETURN_IF_ERROR(quant_util::check_scalar_param(ctx, i));
    }
    ONNXMICRO_RETURN_IF_ERROR(quant_util::check_channel_param(ctx, kWScale, m));
    ONNXMICRO_RETURN_IF_ERROR(quant_util::check_channel_param(ctx, kWZeroPoint, m));
    if (ctx.has_input(kB)) {
      const TensorInfo& b = ctx.input(kB);
      if (b.shape.rank() != 1 || b.shape[0] != m) {
        return ctx.input_error(kB, "B") << " has shape " << b.shape << ", expected [" << m
                                        << "] (one bias per output channel)";
      }
    }
    const DataType x_type = ctx.input(kX).dtype;
    const DataType w_type = ctx.input(kW).dtype;
    const DataType output = ctx.has_input(kYZeroPoint) ? ctx.input(kYZeroPoint).dtype : x_type;
    s.compute = pick_compute(x_type, w_type, output);
    s.isa = ctx.isa();
    s.per_channel_scale = ctx.input(kWScale).shape.element_count() > 1;
    s.per_channel_zero = ctx.has_input(kWZeroPoint) && ctx.input(kWZeroPoint).shape.element_count() > 1;
    s.clamp = ctx.fused_clamp();
    s.depth = plan.group_channels * plan.kernel_size;

    const sliding_window::WindowGeometry& g = plan.geometry;
    bool non_negative_pads = true;
    for (int d = 0; d < g.rank; ++d) non_negative_pads = non_negative_pads && g.pad_begin[d] >= 0 && g.pad_end[d] >= 0;
    s.depthwise = plan.group_channels == 1 && plan.group > 1 && g.rank == 2 && non_negative_pads;
    s.pointwise = plan.kernel_size == 1 && !g.has_padding();
    for (int d = 0; d < g.rank; ++d) s.pointwise = s.pointwise && g.stride[d] == 1;
    s.grid = !s.depthwise && !s.pointwise && g.rank == 2 && grid_strides(g) && non_negative_pads &&
             ONNXMICRO_ENABLE_FAST_PATHS && !ctx.size_optimized();

    // Scratch: [multipliers][packed weights][im2col tile | padded plane][packed tile | accumulator row], or
    // [multipliers][Winograd blocks]
    scratch::ScratchLayout layout;
    ONNXMICRO_RETURN_IF_ERROR(plan_requant(ctx, s, layout));
#if ONNXMICRO_ENABLE_FAST_PATHS
    s.winograd_filters = nullptr;
#endif
#if ONNXMICRO_ENABLE_FAST_PATHS && ONNXMICRO_ENABLE_ISA_DISPATCH
    if (runs_winograd(ctx, s)) {
      ONNXMICRO_RETURN_IF_ERROR(plan_winograd(ctx, s, layout));
    } else
#endif
    {
      ONNXMICRO_RETURN_IF_ERROR(plan_direct(ctx, s, layout));
    }
    ctx.request_scratch(layout.bytes());
    ctx.set_output(kY, output, plan.output);
    return {};
  }

  static Status run(RunContext& ctx) noexcept {
    const State& s = ctx.state<State>();
    s.compute(s, ctx);
    return {};
  }

 private:
  /// The requantisation multipliers: computed once here when the scales are constants, else scratch for them.
  static Status plan_requant(PrepareContext& ctx, State& s, scratch::ScratchLayout& layout) noexcept {
    const std::int64_t m = s.plan.out_channels;
    s.requant = nullptr;
    if (!integer_gemm::all_constant(ctx, {kXScale, kWScale, kYScale})) {
      s.requant_offset = layout.reserve<integer_gemm::Requant>(m);
      return {};
    }
    for (int i : {kXScale, kWScale, kYScale}) {
      ONNXMICRO_RETURN_IF_ERROR(quant_util::check_constant_scale_positive(ctx, i, "scale"));
    }
    Span<integer_gemm::Requant> requant;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_persistent(static_cast<std::size_t>(m), requant));
    compute_requant(s, ctx.input(kXScale).const_data, ctx.input(kWScale).const_data, ctx.input(kYScale).const_data,
                    requant.data());
    s.requant = requant.data();
    return {};
  }

  /// The direct paths (GEMM over im2col / the grid / the input rows, or depthwise): weights packed once here when
  /// constant (else scratch for them), and each task's scratch.
  static Status plan_direct(PrepareContext& ctx, State& s, scratch::ScratchLayout& layout) noexcept {
    const quant_util::ConvPlan& plan = s.plan;
    const sliding_window::WindowGeometry& g = plan.geometry;
    const TensorInfo& w = ctx.input(kW);
    const bool weights_constant = integer_gemm::constant_with_zero_point(ctx, kW, kWZeroPoint);
    const std::int64_t weights_size = weight_elements(s);
    s.padded_rows = g.rank == 2 ? g.input[0] + g.pad_begin[0] + g.pad_end[0] : 0;
    s.padded_cols = g.rank == 2 ? g.input[1] + g.pad_begin[1] + g.pad_end[1] : 0;
    if (ONNXMICRO_ENABLE_FAST_PATHS && s.grid) ONNXMICRO_RETURN_IF_ERROR(plan_grid(ctx, s, layout));  // (may drop it)
    s.weights = nullptr;
    s.quad_weights = nullptr;
    if (runs_quads(ctx, s)) {
      ONNXMICRO_RETURN_IF_ERROR(pack_quad_weights(ctx, s));
    } else if (weights_constant) {
      Span<std::int16_t> packed;
      ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_persistent(static_cast<std::size_t>(weights_size), packed));
      pack_weights(s, w.dtype, w.const_data, ctx.has_input(kWZeroPoint) ? ctx.input(kWZeroPoint).const_data : nullptr,
                   packed.data());
      s.weights = packed.data();
    } else {
      s.weights_offset = layout.reserve<std::int16_t>(weights_size);
    }
    const std::size_t slices = ctx.workers();  // one per task of a split (Workers::count())
    s.float_weights = nullptr;
    if (s.depthwise) {
      s.accumulator_offset = layout.reserve_slices<std::int32_t>(plan.out_spatial, slices);
      if (s.weights != nullptr && ONNXMICRO_ENABLE_FAST_PATHS && !ctx.size_optimized() &&
          plan.kernel_size <= kMaxFloatTaps) {
        ONNXMICRO_RETURN_IF_ERROR(plan_float_depthwise(ctx, s, layout, slices));
      } else {
        s.column_offset = layout.reserve_slices<std::int16_t>(s.padded_rows * s.padded_cols, slices);
      }
    } else {
      const std::int64_t kp = integer_gemm::packed_depth(s.depth);
      std::int64_t tile = s.quad_weights != nullptr ? kQuadTileBytes / integer_gemm::packed_quad_depth(s.depth)
                                                    : kTileBytes / static_cast<std::int64_t>(sizeof(std::int16_t)) / kp;
      tile = tile / integer_gemm::kColumns * integer_gemm::kColumns;
      if (tile < integer_gemm::kColumns) tile = integer_gemm::kColumns;
      const std::int64_t all = integer_gemm::round_up(gemm_columns(s), integer_gemm::kColumns);
      s.tile = tile < all ? tile : all;
      s.column_offset = layout.reserve_slices<std::int16_t>(s.pointwise || s.grid ? 0 : s.depth * s.tile, slices);
      s.packed_offset = layout.reserve_slices<std::int16_t>(integer_gemm::packed_b_size(s.depth, s.tile), slices);
      s.whole_rows = ONNXMICRO_ENABLE_FAST_PATHS && !ctx.size_optimized();
      s.rows_offset = layout.reserve_slices<std::int32_t>(s.whole_rows ? rows_buffer_elements(s) : 0, slices);
    }
    return {};
  }

  /// Whether the GEMM runs on the quad layout (integer_gemm's vpdpbusd tiles, twice the int16 pairs' multiply-adds per
  /// instruction): a pointwise or grid conv at a level with quad tiles, whose weights are int8 constants with zero
  /// point 0.
  static bool runs_quads(const PrepareContext& ctx, const State& s) noexcept {
    return ONNXMICRO_ENABLE_FAST_PATHS && !ctx.size_optimized() && (s.pointwise || s.grid) &&
           integer_gemm::quad_weights_fit(ctx, s.isa, kW, kWZeroPoint);
  }

  /// The quad layout's weights and weight sums, per group, into persistent memory.
  static Status pack_quad_weights(PrepareContext& ctx, State& s) noexcept {
    const std::int64_t mg = s.plan.group_out_channels, group_size = integer_gemm::packed_a_quads_size(mg, s.depth);
    Span<std::int8_t> packed;
    Span<std::int32_t> sums;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_persistent(static_cast<std::size_t>(s.plan.group * group_size), packed));
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_persistent(static_cast<std::size_t>(s.plan.out_channels), sums));
    const std::int8_t* w = static_cast<const std::int8_t*>(ctx.input(kW).const_data);
    for (std::int64_t grp = 0; grp < s.plan.group; ++grp) {
      integer_gemm::pack_a_quads(w + grp * mg * s.depth, s.depth, 1, mg, s.depth, packed.data() + grp * group_size,
                                 sums.data() + grp * mg);
    }
    s.quad_weights = packed.data();
    s.weight_sums = sums.data();
    return {};
  }

  /// Whether the grid path takes these strides: 1, or 2 where every phase holds taps (dilation 1, kernel 2 or more;
  /// a 1x1 stride-2 conv would fill four phases to read one).
  static bool grid_strides(const sliding_window::WindowGeometry& g) noexcept {
    bool ok = true;
    for (int d = 0; d < 2; ++d) {
      ok = ok && (g.stride[d] == 1 || (g.stride[d] == 2 && g.dilation[d] == 1 && g.kernel[d] >= 2));
    }
    return ok;
  }
  /// The grid's phase planes and output columns (State::grid) from the padded plane's size.
  static void set_grid_geometry(State& s) noexcept {
    const sliding_window::WindowGeometry& g = s.plan.geometry;
    s.grid_rows = (s.padded_rows + g.stride[0] - 1) / g.stride[0];
    s.grid_cols = (s.padded_cols + g.stride[1] - 1) / g.stride[1];
    s.grid_columns = (g.output[0] - 1) * s.grid_cols + g.output[1];
  }
  /// Where tap `tap` of output grid column 0 reads one channel's phase planes: padded row oh * stride + kh *
  /// dilation is row oh + (kh * dilation) / stride of phase (kh * dilation) % stride, and likewise for columns.
  static std::int64_t grid_tap_offset(const State& s, std::int64_t tap) noexcept {
    const sliding_window::WindowGeometry& g = s.plan.geometry;
    const std::int64_t dy = tap / g.kernel[1] * g.dilation[0], dx = tap % g.kernel[1] * g.dilation[1];
    const std::int64_t phase_index = dy % g.stride[0] * g.stride[1] + dx % g.stride[1];
    return phase_index * s.grid_rows * s.grid_cols + dy / g.stride[0] * s.grid_cols + dx / g.stride[1];
  }
  /// Floats of a task's depthwise phase planes, with a step of slack past them (window_rows::tap_grid reads whole
  /// steps), and of its sums (whole steps too).
  static std::int64_t phase_floats(const State& s) noexcept { return grid_plane(s) + window_rows::kPaddedGridStep; }
  /// (and the bytes of their requantised values, the grid's junk columns included, in floats' room)
  static std::int64_t phase_sums_floats(const State& s) noexcept {
    return integer_gemm::round_up(s.grid_columns, window_rows::kPaddedGridStep) + (s.grid_columns + 3) / 4;
  }

  /// int16 elements of one channel's grid: its phase planes.
  static std::int64_t grid_plane(const State& s) noexcept {
    const sliding_window::WindowGeometry& g = s.plan.geometry;
    return g.stride[0] * g.stride[1] * s.grid_rows * s.grid_cols;
  }

  /// The grid path: each depth row's window offset (persistent) and the grid of one image (scratch), with a panel's
  /// width of slack past its end, which the last tile's packing reads.
  static Status plan_grid(PrepareContext& ctx, State& s, scratch::ScratchLayout& layout) noexcept {
    set_grid_geometry(s);
    const std::int64_t plane = grid_plane(s);
    if (s.plan.group_channels * plane > std::int64_t(0x7FFFFFFF)) {  // offsets are int32: such inputs take im2col
      s.grid = false;
      return {};
    }
    Span<std::int32_t> offsets;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_persistent(static_cast<std::size_t>(s.depth), offsets));
    for (std::int64_t row = 0; row < s.depth; ++row) {
      const std::int64_t channel = row / s.plan.kernel_size, tap = row % s.plan.kernel_size;
      offsets.data()[row] = static_cast<std::int32_t>(channel * plane + grid_tap_offset(s, tap));
    }
    s.grid_offsets = offsets.data();
    s.grid_offset = layout.reserve<std::int16_t>(s.plan.channels * plane + integer_gemm::kColumns);
    return {};
  }

  /// int32 elements of a task's row buffer: kTallRows rows of a tile's sums, and a row of requantised outputs past
  /// them.
  static std::int64_t rows_buffer_elements(const State& s) noexcept {
    return (integer_gemm::kTallRows + 1) * integer_gemm::round_up(s.tile, integer_gemm::kColumns);
  }

  /// Columns of the GEMM path's product per (image, group): the grid's, or the output positions.
  static std::int64_t gemm_columns(const State& s) noexcept { return s.grid ? s.grid_columns : s.plan.out_spatial; }

  /// The float depthwise path: the packed int16 weights as floats, and each task's float planes.
  /// Stride-1 input rows at least this wide take the depthwise phase planes (State::tap_offsets): each grid row is
  /// read straight from the input. Measured in MobileNetV2 QDQ (1 thread, ms, padded planes / phase planes): 112
  /// wide 0.33 / 0.31, 56 wide 0.38 / 0.38; 28 wide 0.14 / 0.17 (per-row setup: a narrow plane's rows convert a few
  /// values each). Stride 2 keeps the padded planes, whose copy splits the phases with whole vectors, where the phase
  /// planes' rows read half-vectors twice: 112 -> 56 0.42 / 0.42, 56 -> 28 0.16-0.20 / 0.23.
  static constexpr std::int64_t kMinPhaseRow = 48;

  static Status plan_float_depthwise(PrepareContext& ctx, State& s, scratch::ScratchLayout& layout,
                                     std::size_t slices) noexcept {
    const std::int64_t count = s.plan.out_channels * s.plan.kernel_size;
    Span<float> weights;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_persistent(static_cast<std::size_t>(count), weights));
    for (std::int64_t i = 0; i < count; ++i) weights.data()[i] = static_cast<float>(s.weights[i]);
    s.float_weights = weights.data();
    s.tap_offsets = nullptr;
    const sliding_window::WindowGeometry& g = s.plan.geometry;
    if (ONNXMICRO_ENABLE_ISA_DISPATCH && s.isa != Isa::baseline && g.rank == 2 && g.stride[0] == 1 &&
        g.stride[1] == 1 && g.input[1] >= kMinPhaseRow && s.plan.kernel_size <= window_rows::kMaxPaddedTaps) {
      set_grid_geometry(s);
      Span<std::int64_t> offsets;
      ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_persistent(static_cast<std::size_t>(s.plan.kernel_size), offsets));
      for (std::int64_t tap = 0; tap < s.plan.kernel_size; ++tap) offsets.data()[tap] = grid_tap_offset(s, tap);
      s.tap_offsets = offsets.data();
      s.float_planes_offset = layout.reserve_slices<float>(phase_floats(s) + phase_sums_floats(s), slices);
      return {};
    }
    s.padded_floats = window_rows::padded_scratch_floats(window_rows::plane_of(s.plan.geometry));
    s.float_planes_offset =
        layout.reserve_slices<float>(s.plan.in_spatial + s.padded_floats + s.plan.out_spatial, slices);
    return {};
  }

  static std::int64_t weight_elements(const State& s) noexcept {
    if (s.depthwise) return s.plan.out_channels * s.plan.kernel_size;
    return s.plan.group * integer_gemm::packed_a_size(s.plan.group_out_channels, s.depth);
  }

  template <typename TW>
  static void pack_weights_as(const State& s, const TW* w, const TW* zero, std::int16_t* dst) noexcept {
    const quant_util::ConvPlan& p = s.plan;
    const std::int64_t zero_stride = s.per_channel_zero ? 1 : 0;
    if (s.depthwise) {  // [M][kernel] of w - w_zero
      for (std::int64_t m = 0; m < p.out_channels; ++m) {
        const int z = zero ? static_cast<int>(zero[m * zero_stride]) : 0;
        for (std::int64_t t = 0; t < p.kernel_size; ++t) {
          dst[m * p.kernel_size + t] = static_cast<std::int16_t>(static_cast<int>(w[m * p.kernel_size + t]) - z);
        }
      }
      return;
    }
    const std::int64_t mg = p.group_out_channels;
    const std::int64_t group_size = integer_gemm::packed_a_size(mg, s.depth);
    for (std::int64_t grp = 0; grp < p.group; ++grp) {
      const TW* group_zero = zero ? zero + grp * mg * zero_stride : nullptr;
      integer_gemm::pack_a(w + grp * mg * s.depth, s.depth, 1, mg, s.depth, group_zero, zero_stride,
                           dst + grp * group_size);
    }
  }

  static void pack_weights(const State& s, DataType w_type, const void* w, const void* zero,
                           std::int16_t* dst) noexcept {
    if (w_type == DataType::int8) {
      pack_weights_as(s, static_cast<const std::int8_t*>(w), static_cast<const std::int8_t*>(zero), dst);
    } else {
      pack_weights_as(s, static_cast<const std::uint8_t*>(w), static_cast<const std::uint8_t*>(zero), dst);
    }
  }

  static void compute_requant(const State& s, const void* x_scale, const void* w_scale, const void* y_scale,
                              integer_gemm::Requant* dst) noexcept {
    const float xs = static_cast<const float*>(x_scale)[0];
    const float ys = static_cast<const float*>(y_scale)[0];
    const float* ws = static_cast<const float*>(w_scale);
    for (std::int64_t m = 0; m < s.plan.out_channels; ++m) {
      dst[m] = integer_gemm::make_requant(integer_gemm::reference_multiplier(xs, ws[s.per_channel_scale ? m : 0], ys));
    }
  }

  /// What every task of a run reads: the inputs, the packed weights, the multipliers and the output bounds.
  template <typename TX, typename TY>
  struct Operands {
    const TX* x;
    int x_zero;
    const std::int16_t* weights;
    const integer_gemm::Requant* requant;
    const std::int32_t* bias;
    std::int32_t y_zero, low, high;
    TY* y;
  };

  template <typename TX, typename TW, typename TY>
  static void compute(const State& s, RunContext& ctx) noexcept {
    void* scratch = ctx.scratch();
    Operands<TX, TY> o;
    o.x = static_cast<const TX*>(ctx.input(kX).data);
    o.x_zero =
        ctx.has_input(kXZeroPoint) ? static_cast<int>(static_cast<const TX*>(ctx.input(kXZeroPoint).data)[0]) : 0;
    o.y_zero = ctx.has_input(kYZeroPoint)
                   ? static_cast<std::int32_t>(static_cast<const TY*>(ctx.input(kYZeroPoint).data)[0])
                   : 0;
    const float y_scale = static_cast<const float*>(ctx.input(kYScale).data)[0];
    o.bias = ctx.has_input(kB) ? static_cast<const std::int32_t*>(ctx.input(kB).data) : nullptr;
    o.y = static_cast<TY*>(ctx.output(kY).data);
    integer_gemm::output_bounds<TY>(s.clamp, y_scale, o.y_zero, o.low, o.high);

    o.requant = s.requant;
    if (o.requant == nullptr) {
      integer_gemm::Requant* computed = scratch::scratch_at<integer_gemm::Requant>(scratch, s.requant_offset);
      compute_requant(s, ctx.input(kXScale).data, ctx.input(kWScale).data, ctx.input(kYScale).data, computed);
      o.requant = computed;
    }
    o.weights = s.weights;
#if ONNXMICRO_ENABLE_FAST_PATHS && ONNXMICRO_ENABLE_ISA_DISPATCH
    if (s.winograd_filters != nullptr) {
      winograd_blocks(s, ctx, o);
      return;
    }
#endif
    if (o.weights == nullptr && s.quad_weights == nullptr) {
      std::int16_t* packed = scratch::scratch_at<std::int16_t>(scratch, s.weights_offset);
      pack_weights_as(s, static_cast<const TW*>(ctx.input(kW).data),
                      ctx.has_input(kWZeroPoint) ? static_cast<const TW*>(ctx.input(kWZeroPoint).data) : nullptr,
                      packed);
      o.weights = packed;
    }
    if (s.depthwise) {
      depthwise(s, ctx, o);
    } else {
      gemm(s, ctx, o);
    }
  }

#if ONNXMICRO_ENABLE_FAST_PATHS && ONNXMICRO_ENABLE_ISA_DISPATCH
  // ---- Winograd F(2x2, 3x3) (kernels/common/integer_winograd.hpp): exact, so the direct path's bits ----
  // Work comes in blocks of whole tile rows of one image, each block's packed V (16 x C int16 a tile) within
  // kWinogradBlockBytes, in L2, while the filters (U': 16 x M x C int16) stream past it once per block. Measured on
  // ResNet-18's layers (AVX2, 1 thread, median ms): 128 channels at 28x28 1.61 / 1.48 with one block (852 KiB) / four;
  // 256 at 14x14 1.47 / 1.56 with one block (401 KiB) / two; 64 at 56x56 the same with 256 KiB or 512 KiB blocks.
  static constexpr std::int64_t kWinogradBlockBytes = 512 * 1024;
  /// The fewest input and output channels (as the float Conv's).
  static constexpr std::int64_t kWinogradMinChannels = 16;

  /// f(w, zero, zero_stride) on the constant weights and their zero point (nullptr without one), typed.
  template <typename F>
  static auto with_constant_weights(const PrepareContext& ctx, const State& s, F&& f) noexcept {
    const void* w = ctx.input(kW).const_data;
    const void* zero = ctx.has_input(kWZeroPoint) ? ctx.input(kWZeroPoint).const_data : nullptr;
    const std::int64_t zero_stride = s.per_channel_zero ? 1 : 0;
    if (ctx.input(kW).dtype == DataType::int8) {
      return f(static_cast<const std::int8_t*>(w), static_cast<const std::int8_t*>(zero), zero_stride);
    }
    return f(static_cast<const std::uint8_t*>(w), static_cast<const std::uint8_t*>(zero), zero_stride);
  }

  /// Whether the conv runs as Winograd: the session allows it, one group, a 2-D 3x3 kernel of unit strides and
  /// dilations, the AVX2 integer tile, enough channels, and constant weights whose sums provably stay below 2^29.
  static bool runs_winograd(const PrepareContext& ctx, const State& s) noexcept {
    const quant_util::ConvPlan& p = s.plan;
    const sliding_window::WindowGeometry& g = p.geometry;
    bool unit = g.rank == 2 && p.group == 1;
    for (int d = 0; unit && d < 2; ++d) {
      unit = g.kernel[d] == 3 && g.stride[d] == 1 && g.dilation[d] == 1 && g.pad_begin[d] >= 0 && g.pad_end[d] >= 0;
    }
    if (!unit || !ctx.winograd_allowed() || (s.isa != Isa::avx2 && s.isa != Isa::avx512) ||
        p.channels < kWinogradMinChannels || p.out_channels < kWinogradMinChannels || g.output[0] < 1 ||
        g.output[1] < 1 || !integer_gemm::constant_with_zero_point(ctx, kW, kWZeroPoint)) {
      return false;
    }
    // The quad layout's tall tiles beat it wherever they run: ResNet-18's 3x3 layers, 1 thread, ms, Winograd / quads:
    // 64 channels at 56 x 56 0.86 / 0.70, 128 at 28 x 28 0.81 / 0.68.
    if (runs_quads(ctx, s)) return false;
    return with_constant_weights(ctx, s, [&](const auto* w, const auto* zero, std::int64_t zero_stride) {
      return integer_winograd::fits_exactly(w, zero, zero_stride, p.out_channels, p.channels);
    });
  }

  static winograd::Tiling winograd_tiling(const State& s) noexcept {
    const sliding_window::WindowGeometry& g = s.plan.geometry;
    return winograd::Tiling{g.input[0], g.input[1], g.output[0], g.output[1], g.pad_begin[0], g.pad_begin[1]};
  }

  /// The packed transformed filters, the block height, and each task's packed V and working memory.
  static Status plan_winograd(PrepareContext& ctx, State& s, scratch::ScratchLayout& layout) noexcept {
    const std::int64_t m = s.plan.out_channels, c = s.plan.channels;
    Span<std::int16_t> filters;
    ONNXMICRO_RETURN_IF_ERROR(
        ctx.allocate_persistent(static_cast<std::size_t>(integer_winograd::filter_elements(m, c)), filters));
    with_constant_weights(ctx, s, [&](const auto* w, const auto* zero, std::int64_t zero_stride) {
      integer_winograd::pack_filters(w, zero, zero_stride, m, c, filters.data());
      return true;
    });
    s.winograd_filters = filters.data();
    s.weights = nullptr;
    // Filters that stay in L2 beside a block cost little to read again: smaller blocks may then share out.
    const winograd::Tiling g = winograd_tiling(s);
    const bool cached = integer_winograd::filter_elements(m, c) * std::int64_t{2} <= kWinogradBlockBytes / 2;
    const std::int64_t row_bytes = winograd::kPoints * c * g.tiles_w() * std::int64_t{2};
    s.winograd_rows = winograd::block_rows(g, row_bytes, kWinogradBlockBytes, s.plan.batch,
                                           static_cast<std::int64_t>(ctx.workers()), cached);
    const std::size_t slices = ctx.workers();
    s.packed_offset =
        layout.reserve_slices<std::int16_t>(integer_winograd::packed_v_elements(g, c, s.winograd_rows), slices);
    s.column_offset =
        layout.reserve_slices<std::int16_t>(integer_winograd::input_work_elements(g, s.winograd_rows), slices);
    s.rows_offset =
        layout.reserve_slices<std::int32_t>(integer_winograd::output_work_elements(g, s.winograd_rows), slices);
    return {};
  }

  /// The (image, block) items over the workers (winograd::run_items); an item split over tasks divides its input
  /// transforms by channel pairs and its products by output channels.
  template <typename TX, typename TY>
  static void winograd_blocks(const State& s, RunContext& ctx, const Operands<TX, TY>& o) noexcept {
    const quant_util::ConvPlan& p = s.plan;
    const winograd::Tiling g = winograd_tiling(s);
    const std::int64_t rows = s.winograd_rows, blocks = (g.tiles_h() + rows - 1) / rows, items = p.batch * blocks;
    const std::int64_t c = p.channels, m = p.out_channels;
    using scratch::ScratchLayout;
    const std::size_t v_stride =
        ScratchLayout::slice_stride<std::int16_t>(integer_winograd::packed_v_elements(g, c, rows));
    const std::size_t in_stride =
        ScratchLayout::slice_stride<std::int16_t>(integer_winograd::input_work_elements(g, rows));
    const std::size_t out_stride =
        ScratchLayout::slice_stride<std::int32_t>(integer_winograd::output_work_elements(g, rows));
    void* scratch_base = ctx.scratch();
    auto run_item = [&](std::int64_t item, std::size_t task, std::size_t tasks, const Workers& split) noexcept {
      const std::int64_t n = item / blocks, first = item % blocks * rows;
      const std::int64_t count = g.tiles_h() - first < rows ? g.tiles_h() - first : rows;
      std::int16_t* packed_v = scratch::scratch_at<std::int16_t>(scratch_base, s.packed_offset + task * v_stride);
      const TX* x_n = o.x + n * c * p.in_spatial;
      TY* y_n = o.y + n * m * p.out_spatial;
      auto inputs = [&](std::size_t t) noexcept {
        const SplitRange pairs = split_range((c + 1) / 2, tasks, t);
        integer_winograd::transform_inputs(
            g, x_n, o.x_zero, c, pairs.begin, pairs.end, first, count,
            scratch::scratch_at<std::int16_t>(scratch_base, s.column_offset + (task + t) * in_stride), packed_v);
      };
      split.run(tasks, inputs);
      auto store = [&](std::int64_t channel, std::int64_t row, const std::int32_t* top,
                       const std::int32_t* bottom) noexcept {
        const std::uint32_t b = o.bias ? static_cast<std::uint32_t>(o.bias[channel]) : 0u;
        TY* out = y_n + channel * p.out_spatial + row * g.out_w;
        integer_gemm::requantize_row(s.isa, top, g.out_w, b, o.requant[channel], o.y_zero, o.low, o.high, out);
        if (bottom != nullptr) {
          integer_gemm::requantize_row(s.isa, bottom, g.out_w, b, o.requant[channel], o.y_zero, o.low, o.high,
                                       out + g.out_w);
        }
      };
      auto outputs = [&](std::size_t t) noexcept {
        const SplitRange channels = split_range(m, tasks, t, integer_gemm::kRows);
        integer_winograd::multiply_outputs(
            s.isa, g, s.winograd_filters, c, packed_v, first, count, channels.begin, channels.end,
            scratch::scratch_at<std::int32_t>(scratch_base, s.rows_offset + (task + t) * out_stride), store);
      };
      split.run(tasks, outputs);
    };
    const double work = static_cast<double>(p.batch * m) * static_cast<double>(p.out_spatial) * s.depth;
    winograd::run_items(ctx.workers(), work, kMinTaskWork, items, run_item);
  }
#endif  // ONNXMICRO_ENABLE_FAST_PATHS && ONNXMICRO_ENABLE_ISA_DISPATCH

  /// The GEMM path split over the workers (bit-identical for any split: every output is one tile's sum). Its units
  /// are the column tiles of every (image, group); each task claims units whole, with a packed tile (and im2col
  /// tile) of its own. Fewer than two units per task that do not divide among the tasks: the tasks split the output
  /// channels instead, and each packs every tile itself (packing a 1x1 conv's tile costs about what multiplying it
  /// does, so only a real shortage of units pays for packing twice). The grid path fills an image's grid before its
  /// units.
  template <typename TX, typename TY>
  static void gemm(const State& s, RunContext& ctx, const Operands<TX, TY>& o) noexcept {
    const quant_util::ConvPlan& p = s.plan;
    const std::int64_t tiles = (gemm_columns(s) + s.tile - 1) / s.tile;
    if (!ONNXMICRO_ENABLE_FAST_PATHS || !s.grid) {  // (the grid, whole rows and float depthwise compile out without)
      gemm_units(s, ctx, o, tiles, 0, p.batch * p.group * tiles);
      return;
    }
    for (std::int64_t n = 0; n < p.batch; ++n) {
      const TX* image = o.x + n * p.channels * p.in_spatial;
      if (s.quad_weights != nullptr) {
        fill_grid_bytes(s, image, static_cast<std::uint8_t>(quad_zero(o)),
                        scratch::scratch_at<std::uint8_t>(ctx.scratch(), s.grid_offset));
      } else {
        fill_grid(s, image, o.x_zero, scratch::scratch_at<std::int16_t>(ctx.scratch(), s.grid_offset));
      }
      gemm_units(s, ctx, o, tiles, n * p.group * tiles, (n + 1) * p.group * tiles);
    }
  }

  /// Units [first, end) of the GEMM path over the workers (see gemm()).
  template <typename TX, typename TY>
  static void gemm_units(const State& s, RunContext& ctx, const Operands<TX, TY>& o, std::int64_t tiles,
                         std::int64_t first, std::int64_t end) noexcept {
    const quant_util::ConvPlan& p = s.plan;
    const std::int64_t units = end - first;
    const std::int64_t mg = p.group_out_channels;
    const Workers& workers = ctx.workers();
    const double work = static_cast<double>(units) * static_cast<double>(s.tile) * static_cast<double>(mg) *
                        static_cast<double>(s.depth);
    const std::size_t tasks = workers.tasks_for(work, kMinTaskWork, static_cast<std::int64_t>(workers.count()));
    const std::int64_t task_count = static_cast<std::int64_t>(tasks);
    const std::size_t column_stride =
        scratch::ScratchLayout::slice_stride<std::int16_t>(s.pointwise || s.grid ? 0 : s.depth * s.tile);
    const std::size_t packed_stride =
        scratch::ScratchLayout::slice_stride<std::int16_t>(integer_gemm::packed_b_size(s.depth, s.tile));
    auto column_of = [&](std::size_t task) noexcept {
      return scratch::scratch_at<std::int16_t>(ctx.scratch(), s.column_offset + task * column_stride);
    };
    auto packed_of = [&](std::size_t task) noexcept {
      return scratch::scratch_at<std::int16_t>(ctx.scratch(), s.packed_offset + task * packed_stride);
    };
    const std::size_t rows_stride = scratch::ScratchLayout::slice_stride<std::int32_t>(rows_buffer_elements(s));
    auto buffers_of = [&](std::size_t task) noexcept {
      return UnitBuffers{column_of(task), packed_of(task),
                         scratch::scratch_at<std::int32_t>(ctx.scratch(), s.rows_offset + task * rows_stride)};
    };
    const std::int16_t* grid = s.grid ? scratch::scratch_at<std::int16_t>(ctx.scratch(), s.grid_offset) : nullptr;
    if (units % task_count == 0 || units >= 2 * task_count) {
      auto units_in = [&](std::size_t task, std::int64_t begin, std::int64_t stop) noexcept {
        for (std::int64_t unit = first + begin; unit < first + stop; ++unit) {
          multiply_unit(s, o, grid, unit, tiles, SplitRange{0, mg}, buffers_of(task));
        }
      };
      workers.claim_ranges(tasks, units, 1, units_in);
      return;
    }
    auto rows_of_task = [&](std::size_t task) noexcept {
      const SplitRange rows = split_range(mg, tasks, task, integer_gemm::kRows);
      for (std::int64_t unit = first; rows.size() > 0 && unit < end; ++unit) {
        multiply_unit(s, o, grid, unit, tiles, rows, buffers_of(task));
      }
    };
    workers.run(tasks, rows_of_task);
  }

  /// The grid of one image: every channel's x - x_zero inside zeros of the padding, as its phase planes.
  template <typename TX>
  static void fill_grid(const State& s, const TX* x, int x_zero, std::int16_t* grid) noexcept {
    const sliding_window::WindowGeometry& g = s.plan.geometry;
    for (std::int64_t c = 0; c < s.plan.channels; ++c) {
      for_each_phase_row(s, x + c * g.input[0] * g.input[1], [&](const TX* line, std::int64_t shift, std::int64_t row) {
        integer_gemm::widen_phase(line, g.input[1], shift, g.stride[1], x_zero, s.grid_cols,
                                  grid + c * grid_plane(s) + row * s.grid_cols);
      });
    }
    std::memset(grid + s.plan.channels * grid_plane(s), 0, integer_gemm::kColumns * sizeof(std::int16_t));  // slack
  }

  /// fill_grid for the quad layout: x as unsigned bytes (integer_gemm::quad_flip), `pad` (the zero point's byte) in
  /// the padding.
  template <typename TX>
  static void fill_grid_bytes(const State& s, const TX* x, std::uint8_t pad, std::uint8_t* grid) noexcept {
    const sliding_window::WindowGeometry& g = s.plan.geometry;
    for (std::int64_t c = 0; c < s.plan.channels; ++c) {
      for_each_phase_row(s, x + c * g.input[0] * g.input[1], [&](const TX* line, std::int64_t shift, std::int64_t row) {
        integer_gemm::copy_phase_bytes(line, g.input[1], shift, g.stride[1], pad, s.grid_cols,
                                       grid + c * grid_plane(s) + row * s.grid_cols);
      });
    }
    std::memset(grid + s.plan.channels * grid_plane(s), 0, integer_gemm::kColumns);  // the slack
  }

  /// Calls row(line, shift, index) for every row of one channel's phase planes, in order (row `index` of them, each
  /// grid_cols values): phase (a, b) holds padded rows a, a + stride_h, ... and columns b, b + stride_w, ...; `line`
  /// is the input row a phase row reads (nullptr in the padding), `shift` the input column of its value 0
  /// (integer_gemm::widen_phase).
  template <typename TX, typename Row>
  static void for_each_phase_row(const State& s, const TX* channel, Row&& row) noexcept {
    const sliding_window::WindowGeometry& g = s.plan.geometry;
    std::int64_t index = 0;
    for (std::int64_t a = 0; a < g.stride[0]; ++a) {
      for (std::int64_t b = 0; b < g.stride[1]; ++b) {
        for (std::int64_t r = 0; r < s.grid_rows; ++r, ++index) {
          const std::int64_t iy = r * g.stride[0] + a - g.pad_begin[0];
          row(iy >= 0 && iy < g.input[0] ? channel + iy * g.input[1] : nullptr, b - g.pad_begin[1], index);
        }
      }
    }
  }

  /// A task's scratch for its units: the im2col tile, the packed tile, the row buffer (rows_buffer_elements).
  struct UnitBuffers {
    std::int16_t* col;
    std::int16_t* packed;
    std::int32_t* rows;
  };

  /// One unit of the GEMM path: output channels `rows` of its group (rows.begin a multiple of kRows) at the columns
  /// of tile `unit % tiles`: packs them (from the grid, the input rows when pointwise, else an im2col tile),
  /// multiplies a row panel at a time and requantises its rows into y (the grid's through a row of outputs).
  template <typename TX, typename TY>
  static void multiply_unit(const State& s, const Operands<TX, TY>& o, const std::int16_t* grid, std::int64_t unit,
                            std::int64_t tiles, SplitRange rows, const UnitBuffers& buffers) noexcept {
    const quant_util::ConvPlan& p = s.plan;
    const std::int64_t image_group = unit / tiles;
    const std::int64_t n = image_group / p.group, grp = image_group % p.group;
    const std::int64_t first = (unit % tiles) * s.tile;
    const std::int64_t count = gemm_columns(s) - first < s.tile ? gemm_columns(s) - first : s.tile;
    const std::int64_t mg = p.group_out_channels;
    const std::int64_t kp = integer_gemm::packed_depth(s.depth);
    const TX* x_group = o.x + (n * p.channels + grp * p.group_channels) * p.in_spatial;
    if (ONNXMICRO_ENABLE_FAST_PATHS && s.quad_weights != nullptr) {
      multiply_quads(s, o, grid, x_group, n, grp, first, count, rows, buffers);
      return;
    }
    if (ONNXMICRO_ENABLE_FAST_PATHS && s.grid) {
      const std::int16_t* group_grid = grid + grp * p.group_channels * grid_plane(s) + first;
      integer_gemm::pack_b_offsets(group_grid, s.grid_offsets, s.depth, count, buffers.packed);
    } else if (s.pointwise) {
      integer_gemm::pack_b_rows(x_group + first, p.in_spatial, s.depth, count, o.x_zero, buffers.packed);
    } else {
      qlinear_conv_detail::im2col(p, s.depth, x_group, o.x_zero, first, count, buffers.col);
      integer_gemm::pack_b(buffers.col, count, s.depth, count, buffers.packed);
    }
    const std::int64_t first_channel = grp * mg + rows.begin;
    TY* y_first = o.y + (n * p.out_channels + first_channel) * p.out_spatial;
    TY* values = row_values<TY>(s, buffers);
    const std::int16_t* weights = o.weights + grp * integer_gemm::packed_a_size(mg, s.depth) + rows.begin * kp;
    if (!ONNXMICRO_ENABLE_FAST_PATHS || !s.whole_rows) {
      integer_gemm::multiply(s.isa, weights, rows.size(), buffers.packed, count, kp,
                             [&](std::int64_t row, std::int64_t column, std::int64_t tile_rows, std::int64_t cols,
                                 const std::int32_t(*acc)[integer_gemm::kColumns]) {
                               for (std::int64_t r = 0; r < tile_rows; ++r) {
                                 const std::int64_t channel = first_channel + row + r;
                                 const std::uint32_t b = o.bias ? static_cast<std::uint32_t>(o.bias[channel]) : 0u;
                                 integer_gemm::requantize_row(s.isa, acc[r], cols, b, o.requant[channel], o.y_zero,
                                                              o.low, o.high,
                                                              y_first + (row + r) * p.out_spatial + first + column);
                               }
                             });
      return;
    }
    const UnitOutput<TY> out{first_channel, first, count, y_first, values, 0u};
    integer_gemm::multiply_rows(s.isa, weights, rows.size(), buffers.packed, count, kp, buffers.rows,
                                [&](std::int64_t row, std::int64_t panel_rows, const std::int32_t* sums,
                                    std::int64_t ldc) { requantize_panel(s, o, out, row, panel_rows, sums, ldc); });
  }

  /// Where a unit's whole rows go (multiply_rows): output channels from first_channel at positions [first, + count)
  /// (grid columns on the grid path), channel first_channel's row at y_first; `values`: a row of outputs for the
  /// grid path; `zero_term`: the quad layout's x_zero, whose product with each channel's weight sum comes off its
  /// sums (0 on the int16 pairs).
  template <typename TY>
  struct UnitOutput {
    std::int64_t first_channel, first, count;
    TY* y_first;
    TY* values;
    std::uint32_t zero_term;
  };

  /// Requantises rows [row, row + panel_rows) of a unit (sums: row r at sums + r * ldc) into y.
  template <typename TX, typename TY>
  static void requantize_panel(const State& s, const Operands<TX, TY>& o, const UnitOutput<TY>& out, std::int64_t row,
                               std::int64_t panel_rows, const std::int32_t* sums, std::int64_t ldc) noexcept {
    for (std::int64_t r = 0; r < panel_rows; ++r) {
      const std::int64_t channel = out.first_channel + row + r;
      std::uint32_t b = o.bias ? static_cast<std::uint32_t>(o.bias[channel]) : 0u;
      if (out.zero_term != 0u) b -= out.zero_term * static_cast<std::uint32_t>(s.weight_sums[channel]);
      TY* y_row = out.y_first + (row + r) * s.plan.out_spatial;
      integer_gemm::requantize_row(s.isa, sums + r * ldc, out.count, b, o.requant[channel], o.y_zero, o.low, o.high,
                                   s.grid ? out.values : y_row + out.first);
      if (s.grid) store_grid_columns(s, out.values, out.first, out.count, y_row);
    }
  }

  /// multiply_unit on the quad layout (State::quad_weights): packs the unit's columns as bytes (from the byte grid,
  /// or the input rows when pointwise) and requantises with the zero point's term taken off.
  template <typename TX, typename TY>
  static void multiply_quads(const State& s, const Operands<TX, TY>& o, const std::int16_t* grid, const TX* x_group,
                             std::int64_t n, std::int64_t grp, std::int64_t first, std::int64_t count, SplitRange rows,
                             const UnitBuffers& buffers) noexcept {
    const quant_util::ConvPlan& p = s.plan;
    const std::int64_t mg = p.group_out_channels, kq = integer_gemm::packed_quad_depth(s.depth);
    std::uint8_t* packed = reinterpret_cast<std::uint8_t*>(buffers.packed);  // (fits: a quad's bytes, a pair's int16)
    if (s.grid) {
      const std::uint8_t* bytes = reinterpret_cast<const std::uint8_t*>(grid);  // (fill_grid_bytes wrote bytes)
      integer_gemm::pack_b_offsets_quads(bytes + grp * p.group_channels * grid_plane(s) + first, s.grid_offsets,
                                         s.depth, count, packed);
    } else {
      integer_gemm::pack_b_rows_quads(x_group + first, p.in_spatial, s.depth, count, packed);
    }
    const std::int64_t first_channel = grp * mg + rows.begin;
    const UnitOutput<TY> out{first_channel,
                             first,
                             count,
                             o.y + (n * p.out_channels + first_channel) * p.out_spatial,
                             row_values<TY>(s, buffers),
                             quad_zero(o)};
    const std::int8_t* weights =
        s.quad_weights + grp * integer_gemm::packed_a_quads_size(mg, s.depth) + rows.begin * kq;
    integer_gemm::multiply_rows_quads(
        s.isa, weights, rows.size(), packed, count, kq, buffers.rows,
        [&](std::int64_t row, std::int64_t panel_rows, const std::int32_t* sums, std::int64_t ldc) {
          requantize_panel(s, o, out, row, panel_rows, sums, ldc);
        });
  }

  /// x's zero point as the quad layout's unsigned byte (integer_gemm::quad_flip).
  template <typename TX, typename TY>
  static std::uint32_t quad_zero(const Operands<TX, TY>& o) noexcept {
    return static_cast<std::uint32_t>(static_cast<std::uint8_t>(o.x_zero) ^ integer_gemm::quad_flip<TX>());
  }

  /// A task's row of requantised outputs (the grid path's), past the row panel's sums in its row buffer.
  template <typename TY>
  static TY* row_values(const State& s, const UnitBuffers& buffers) noexcept {
    // (unsigned char storage past the sums: TY is int8_t or uint8_t, which may alias it)
    return reinterpret_cast<TY*>(buffers.rows +
                                 integer_gemm::kTallRows * integer_gemm::round_up(s.tile, integer_gemm::kColumns));
  }

  /// Stores `count` values of grid columns [column, column + count) of one output channel where they are output
  /// positions (a grid row's last grid_cols - out_w columns are not).
  template <typename TY>
  static void store_grid_columns(const State& s, const TY* values, std::int64_t column, std::int64_t count,
                                 TY* y) noexcept {
    const std::int64_t pw = s.grid_cols, out_w = s.plan.geometry.output[1];
    std::int64_t oh = column / pw, ow = column % pw;
    for (std::int64_t done = 0; done < count;) {
      const std::int64_t run = count - done < pw - ow ? count - done : pw - ow;
      if (ow < out_w) {
        const std::int64_t stored = ow + run < out_w ? run : out_w - ow;
        std::memcpy(y + oh * out_w + ow, values + done, static_cast<std::size_t>(stored) * sizeof(TY));
      }
      done += run;
      ++oh;
      ow = 0;
    }
  }

  /// Depthwise 2-D: per channel, x - x_zero goes into a zero-padded int16 plane, then every output row sums its
  /// taps without bounds checks. The channels are split over the workers, each task with a plane of its own.
  template <typename TX, typename TY>
  static void depthwise(const State& s, RunContext& ctx, const Operands<TX, TY>& o) noexcept {
    const quant_util::ConvPlan& p = s.plan;
    const std::size_t plane_stride = scratch::ScratchLayout::slice_stride<std::int16_t>(s.padded_rows * s.padded_cols);
    const std::size_t acc_stride = scratch::ScratchLayout::slice_stride<std::int32_t>(p.out_spatial);
    const std::size_t float_stride = scratch::ScratchLayout::slice_stride<float>(
        s.tap_offsets != nullptr ? phase_floats(s) + phase_sums_floats(s)
                                 : p.in_spatial + s.padded_floats + p.out_spatial);
    auto channels_in = [&](std::size_t task, std::int64_t first, std::int64_t end) noexcept {
      std::int32_t* acc = scratch::scratch_at<std::int32_t>(ctx.scratch(), s.accumulator_offset + task * acc_stride);
      if (ONNXMICRO_ENABLE_FAST_PATHS && s.float_weights != nullptr) {
        float* planes = scratch::scratch_at<float>(ctx.scratch(), s.float_planes_offset + task * float_stride);
        const window_rows::PaddedPlan padded_plan =
            s.padded_floats > 0 ? window_rows::plan_padded(s.isa, window_rows::plane_of(p.geometry))
                                : window_rows::PaddedPlan{};
        for (std::int64_t image_channel = first; image_channel < end; ++image_channel) {
          depthwise_channel_float(s, o, image_channel / p.channels, image_channel % p.channels, padded_plan, planes);
        }
        return;
      }
      std::int16_t* plane = scratch::scratch_at<std::int16_t>(ctx.scratch(), s.column_offset + task * plane_stride);
      for (std::int64_t image_channel = first; image_channel < end; ++image_channel) {
        depthwise_channel(s, o, image_channel / p.channels, image_channel % p.channels, plane, acc);
      }
    };
    // A tap costs about four GEMM multiply-adds here (widening multiplies, row by row), as in the float depthwise.
    constexpr double kTapCost = 4.0;
    const double channel_work = static_cast<double>(p.group_out_channels) * static_cast<double>(p.out_spatial) *
                                static_cast<double>(p.kernel_size) * kTapCost;
    ctx.workers().for_each_task_range(p.batch * p.channels, channel_work, channels_in);
  }

  /// Depthwise through the float plane loops (kernels/common/window_rows.hpp, as the float Conv's depthwise), one
  /// input channel `c` of image `n`: every product and partial sum is an integer below 2^24 (kMaxFloatTaps), so the
  /// float sums are the exact integer sums, in any order; the bias is added in int32 as the integer path does, while
  /// the sums are requantised straight from floats (two scalar passes converting the plane and its sums cost these
  /// narrow planes about a third of their time).
  template <typename TX, typename TY>
  static void depthwise_channel_float(const State& s, const Operands<TX, TY>& o, std::int64_t n, std::int64_t c,
                                      const window_rows::PaddedPlan& padded_plan, float* planes) noexcept {
    const quant_util::ConvPlan& p = s.plan;
    if (ONNXMICRO_ENABLE_ISA_DISPATCH && s.tap_offsets != nullptr) return depthwise_channel_phases(s, o, n, c, planes);
    float* in = planes;
    float* padded = in + p.in_spatial;
    float* out = padded + s.padded_floats;
    const TX* src = o.x + (n * p.channels + c) * p.in_spatial;
    integer_gemm::widen_floats(s.isa, src, p.in_spatial, o.x_zero, in);
    const window_rows::PlaneGeometry plane = window_rows::plane_of(p.geometry);
    for (std::int64_t mm = 0; mm < p.group_out_channels; ++mm) {
      const std::int64_t m = c * p.group_out_channels + mm;
      window_rows::window_plane<window_rows::RowOp::multiply_add>(
          padded_plan, s.isa, plane, in, s.float_weights + m * p.kernel_size, 0.0f, out,
          s.padded_floats > 0 ? padded : nullptr, kernels::OutputClamp{});
      TY* y = o.y + (n * p.out_channels + m) * p.out_spatial;
      integer_gemm::requantize_float_row(s.isa, out, p.out_spatial, o.bias ? o.bias[m] : 0, o.requant[m], o.y_zero,
                                         o.low, o.high, y);
    }
  }

  /// depthwise_channel_float over phase planes (State::tap_offsets): x - x_zero as floats in the grid's phase planes
  /// (0 in the padding), every output grid column's taps summed at unit stride (a stride-2 conv's too), each output
  /// row's sums requantised straight from floats.
  template <typename TX, typename TY>
  static void depthwise_channel_phases(const State& s, const Operands<TX, TY>& o, std::int64_t n, std::int64_t c,
                                       float* planes) noexcept {
#if ONNXMICRO_ENABLE_ISA_DISPATCH  // (State::tap_offsets stays null without it)
    const quant_util::ConvPlan& p = s.plan;
    const sliding_window::WindowGeometry& g = p.geometry;
    float* sums = planes + phase_floats(s);
    // (unsigned char storage past the sums: TY is int8_t or uint8_t, which may alias it)
    TY* values = reinterpret_cast<TY*>(sums + integer_gemm::round_up(s.grid_columns, window_rows::kPaddedGridStep));
    for_each_phase_row(s, o.x + (n * p.channels + c) * p.in_spatial,
                       [&](const TX* line, std::int64_t shift, std::int64_t row) {
                         integer_gemm::float_phase_avx2(line, g.input[1], shift, g.stride[1], o.x_zero, s.grid_cols,
                                                        planes + row * s.grid_cols);
                       });
    float* slack = planes + grid_plane(s);
    for (std::int64_t i = 0; i < window_rows::kPaddedGridStep; ++i) slack[i] = 0.0f;
    for (std::int64_t mm = 0; mm < p.group_out_channels; ++mm) {
      const std::int64_t m = c * p.group_out_channels + mm;
      window_rows::tap_grid<window_rows::RowOp::multiply_add>(
          s.isa, planes, s.tap_offsets, p.kernel_size, s.float_weights + m * p.kernel_size, 0.0f, s.grid_columns, sums);
      // The grid's columns requantised as one row (rows of 7 or 14 outputs would leave the vector loops little),
      // then each output row's values copied out.
      const std::int32_t bias = o.bias ? o.bias[m] : 0;
      integer_gemm::requantize_float_row(s.isa, sums, s.grid_columns, bias, o.requant[m], o.y_zero, o.low, o.high,
                                         values);
      TY* y = o.y + (n * p.out_channels + m) * p.out_spatial;
      for (std::int64_t oy = 0; oy < g.output[0]; ++oy) {
        std::memcpy(y + oy * g.output[1], values + oy * s.grid_cols, static_cast<std::size_t>(g.output[1]));
      }
    }
#else
    static_cast<void>(s), static_cast<void>(o), static_cast<void>(n), static_cast<void>(c), static_cast<void>(planes);
#endif
  }

  /// Depthwise, one input channel `c` of image `n` and its group_out_channels outputs.
  template <typename TX, typename TY>
  static void depthwise_channel(const State& s, const Operands<TX, TY>& o, std::int64_t n, std::int64_t c,
                                std::int16_t* plane, std::int32_t* acc) noexcept {
    const quant_util::ConvPlan& p = s.plan;
    const sliding_window::WindowGeometry& g = p.geometry;
    const std::int64_t out_h = g.output[0], out_w = g.output[1];
    const std::int64_t in_h = g.input[0], in_w = g.input[1];
    const std::int64_t kh = g.kernel[0], kw = g.kernel[1];
    const std::int64_t sh = g.stride[0], sw = g.stride[1], dh = g.dilation[0], dw = g.dilation[1];
    const std::int64_t pw = s.padded_cols;
    const TX* src = o.x + (n * p.channels + c) * p.in_spatial;
    for (std::int64_t i = 0; i < s.padded_rows * pw; ++i) plane[i] = 0;
    for (std::int64_t r = 0; r < in_h; ++r) {
      integer_gemm::widen_row(src + r * in_w, in_w, o.x_zero, plane + (r + g.pad_begin[0]) * pw + g.pad_begin[1]);
    }
    for (std::int64_t mm = 0; mm < p.group_out_channels; ++mm) {
      const std::int64_t m = c * p.group_out_channels + mm;
      const std::int16_t* w = o.weights + m * p.kernel_size;
      const integer_gemm::Requant& q = o.requant[m];
      const std::uint32_t b = o.bias ? static_cast<std::uint32_t>(o.bias[m]) : 0u;
      TY* out = o.y + (n * p.out_channels + m) * p.out_spatial;
      for (std::int64_t oh = 0; oh < out_h; ++oh) {
        for (std::int64_t ow = 0; ow < out_w; ++ow) acc[ow] = static_cast<std::int32_t>(b);
        for (std::int64_t i = 0; i < kh; ++i) {
          const std::int16_t* line = plane + (oh * sh + i * dh) * pw;
          for (std::int64_t j = 0; j < kw; ++j) {
            const std::int16_t wv = w[i * kw + j];
            const std::int16_t* in = line + j * dw;
            if (sw == 1) {
              integer_gemm::multiply_add_row(acc, in, out_w, wv);
            } else {
              for (std::int64_t ow = 0; ow < out_w; ++ow) {
                acc[ow] = static_cast<std::int32_t>(static_cast<std::uint32_t>(acc[ow]) +
                                                    static_cast<std::uint32_t>(in[ow * sw] * wv));
              }
            }
          }
        }
        integer_gemm::requantize_row(s.isa, acc, out_w, 0u, q, o.y_zero, o.low, o.high, out + oh * out_w);
      }
    }
  }

  using Compute = void (*)(const State&, RunContext&) noexcept;
  template <typename TX, typename TW>
  static Compute pick_output(DataType output) noexcept {
    return output == DataType::int8 ? &compute<TX, TW, std::int8_t> : &compute<TX, TW, std::uint8_t>;
  }
  static Compute pick_compute(DataType x, DataType w, DataType output) noexcept {
    return integer_gemm::pick_8bit(
        x, w, [output](auto tx, auto tw) { return pick_output<decltype(tx), decltype(tw)>(output); });
  }
};

}  // namespace qlinear_conv_detail

// Opset 10: the only version.
using QLinearConv_10 = VersionedKernel<qlinear_conv_detail::QLinearConvImpl, 10>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
