// SPDX-License-Identifier: MIT
// Conv: N-dimensional convolution (1D/2D/3D/...) with pads, strides, dilations, groups (depthwise included),
// auto_pad and an optional bias. Versions 1, 11 and 22 compute the same thing: 11 only documented that
// kernel_shape is inferred from W and that SAME pads give ceil(in / stride) outputs (what every version
// computes here), 22 added bfloat16. So one kernel serves every version.
//
// Method (size-optimised builds and sessions: compute_direct below): per (image, group), the input patch of each output
// position is gathered into a column matrix (im2col, a tile of output positions at a time, in scratch) and multiplied
// by the group's weights with the blocked GEMM (with packed float32 weights, the column matrix is written in the
// micro-kernels' column strips, so each depth panel the GEMM reads is one block in L1); wide 2-D convs on
// AVX2 read the GEMM's rows straight from a zero-padded copy of their input rows instead (compute_bands: an implicit
// GEMM); a 1x1 stride-1 unpadded kernel uses the input as the column matrix directly (except on small maps and for
// tall, deep products: stripes_pointwise); float depthwise convs (one input
// channel per group, 1-D/2-D) skip the column matrix and run each plane directly (kernels/common/window_rows.hpp).
// Stride-1 3x3 convs with packed weights run as Winograd F(2x2, 3x3) where the session allows it
// (kernels/common/winograd.hpp: 2.25x fewer multiply-adds, other rounding; reported per node).
// float16/bfloat16 are converted to float32 while gathering and rounded once when stored. The GEMM and depthwise loops
// use the session's instruction set (State::isa).
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "onnxmicro/kernels/common/compute_type.hpp"
#include "onnxmicro/kernels/common/gemm.hpp"
#include "onnxmicro/kernels/common/output_clamp.hpp"
#include "onnxmicro/kernels/common/scratch.hpp"
#include "onnxmicro/kernels/common/sliding_window.hpp"
#include "onnxmicro/kernels/common/strided_copy.hpp"
#include "onnxmicro/kernels/common/window_rows.hpp"
#include "onnxmicro/kernels/common/winograd.hpp"
#include "onnxmicro/kernels/kernel_api.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {
namespace conv_detail {

/// Implementation of Conv (every version).
struct ConvImpl : kernels::KernelDefaults {
  static constexpr std::string_view kOpType = "Conv";
  using RunContext = kernels::RunContext;
  static constexpr int kX = 0;
  static constexpr int kW = 1;
  static constexpr int kB = 2;
  static constexpr int kY = 0;

  /// Bytes of one im2col tile: at most kMaxColumnTileBytes (wide enough for an efficient GEMM, still cache
  /// friendly), and no more than the layer's own output of one image (at least kMinColumnTileBytes), so small
  /// layers on small targets do not double their memory for scratch.
  static constexpr std::int64_t kMaxColumnTileBytes = 256 * 1024;
  static constexpr std::int64_t kMinColumnTileBytes = 16 * 1024;
  /// Fewest output positions per tile (GEMM columns), whatever the tile bytes.
  static constexpr std::int64_t kMinTileColumns = 32;
  /// Packed weights of more bytes than this come from memory, not the cache: their tiles may reach
  /// kStreamedColumnTileBytes, so that the weights are read once or twice per run instead of once per small tile.
  static constexpr std::int64_t kStreamedWeightsBytes = 1024 * 1024;
  static constexpr std::int64_t kStreamedColumnTileBytes = 2 * 1024 * 1024;

  struct State {
    void (*compute)(const State&, RunContext&) noexcept;
    sliding_window::WindowGeometry geometry;
    std::int64_t batch, in_channels, out_channels, group;
    std::int64_t group_in_channels, group_out_channels;  ///< C / group, M / group
    std::int64_t in_spatial, out_spatial, kernel_size;
    std::int64_t column_rows;  ///< group_in_channels * kernel_size: the GEMM depth
    std::int64_t tile;         ///< output positions per im2col tile (depthwise: floats of a padded-plane slice, or 0)
    // (The flags and the clamp sit together: no padding between them, so the state is no larger than before them.)
    bool pointwise;  ///< 1x1 kernel, unit strides, no pads, read in place as the column matrix (stripes_pointwise)
    bool has_bias;
    bool weights_in_scratch;     ///< half types with a non-constant W: converted at run into scratch
    Isa isa;                     ///< the GEMM micro-kernels to use (gemm::convolution_isa of the session's)
#if ONNXMICRO_ENABLE_FAST_PATHS  // (activation fusion and bands exist only with fast paths: no state bytes without)
    kernels::OutputClamp clamp;  ///< a Relu/Clip fused into this node (PrepareContext::fused_clamp)
    std::int64_t band_rows;      ///< implicit GEMM: output rows per padded input band (else 0)
    const std::int32_t* band_offsets;  ///< implicit GEMM: each GEMM depth row's (channel, tap) offset in a band
    std::int64_t winograd_rows;        ///< Winograd: tile rows per block of work (else 0)
#endif
    /// W made at prepare, or null: in the compute type (half types, constant W), or packed for the GEMM's
    /// micro-kernels per group (float32, constant W: gemm::pack_a).
    const void* prepared_weights;
    /// Column buffers (one per worker, float/double); the accumulator: half types' float product.
    std::size_t column_offset, weights_offset, accumulator_offset;
  };

  static Status prepare(kernels::PrepareContext& ctx, int /*since: every version accepts the same*/) noexcept {
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kX));
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kW));
    const kernels::TensorInfo& x = ctx.input(kX);
    const kernels::TensorInfo& w = ctx.input(kW);
    switch (compiled_dtype(x.dtype)) {
      case DataType::float32:
      case DataType::float64:
      case DataType::float16:
      case DataType::bfloat16: break;
      default: return ctx.unsupported_input_dtype(kX);
    }
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_same_dtype(kX, kW));
    const bool has_bias = ctx.has_input(kB);
    if (has_bias) ONNXMICRO_RETURN_IF_ERROR(ctx.require_same_dtype(kX, kB));
    if (x.shape.rank() < 3) {
      return ctx.input_error(kX, "X") << " has shape " << x.shape << ", expected rank >= 3 (N, C, spatial...)";
    }
    if (w.shape.rank() != x.shape.rank()) {
      return ctx.input_error(kW, "W") << " has shape " << w.shape << ", expected rank " << x.shape.rank()
                                      << " like input 0 " << x.shape << " (M, C/group, kernel...)";
    }
    for (int i = 2; i < w.shape.rank(); ++i) {
      if (w.shape[i] < 1) {
        return ctx.input_error(kW, "W") << " has shape " << w.shape << ": kernel dims must be >= 1";
      }
    }
    std::int64_t group = 1;
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("group", group, 1));
    const std::int64_t channels = x.shape[1];
    const std::int64_t out_channels = w.shape[0];
    if (group < 1) {
      return Status(StatusCode::invalid_model) << "attribute 'group' is " << group << ", expected >= 1";
    }
    if (channels % group != 0) {
      return ctx.input_error(kX) << " has " << channels << " channels, not divisible by group = " << group;
    }
    if (out_channels % group != 0) {
      return ctx.input_error(kW, "W") << " has " << out_channels
                                      << " output channels (dim 0), not divisible by group = " << group;
    }
    if (w.shape[1] != channels / group) {
      return ctx.input_error(kW, "W") << " has shape " << w.shape << ": dim 1 is " << w.shape[1]
                                      << ", expected C / group = " << channels << " / " << group << " = "
                                      << (channels / group);
    }
    if (has_bias) {
      const Shape& b = ctx.input(kB).shape;
      if (b.rank() != 1 || b[0] != out_channels) {
        return ctx.input_error(kB, "B") << " has shape " << b << ", expected [" << out_channels
                                        << "] (one bias per output channel)";
      }
    }

    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
    sliding_window::WindowRules rules;
    rules.dilations_since = 1;
    rules.ceil_mode_since = 0;
    rules.weight_kernel = w.shape.data() + 2;
    ONNXMICRO_RETURN_IF_ERROR(sliding_window::parse_window(ctx, x.shape, rules, state->geometry));
    const sliding_window::WindowGeometry& g = state->geometry;

    state->batch = x.shape[0];
    state->in_channels = channels;
    state->out_channels = out_channels;
    state->group = group;
    state->group_in_channels = channels / group;
    state->group_out_channels = out_channels / group;
    state->in_spatial = g.input_size();
    state->out_spatial = g.output_size();
    state->kernel_size = g.kernel_size();
    state->column_rows = state->group_in_channels * state->kernel_size;
    state->has_bias = has_bias;
    if (ONNXMICRO_ENABLE_ISA_DISPATCH) state->isa = gemm::convolution_isa(ctx.isa());
#if ONNXMICRO_ENABLE_FAST_PATHS
    state->clamp = kernels::OutputClamp::from(ctx.fused_clamp());
#endif
    bool pointwise = !g.has_padding();
    for (int i = 0; i < g.rank; ++i) pointwise = pointwise && g.kernel[i] == 1 && g.stride[i] == 1;
    state->pointwise = pointwise;

    Shape y = sliding_window::window_output_shape(x.shape, out_channels, g);
    std::int64_t y_count = 0;
    ONNXMICRO_RETURN_IF_ERROR(y.checked_element_count(y_count));
    ctx.set_output(kY, x.dtype, y);

    switch (compiled_dtype(x.dtype)) {
      case DataType::float32: return plan<float>(ctx, *state);
      case DataType::float64: return plan<double>(ctx, *state);
      case DataType::float16: return plan<float16_t>(ctx, *state);
      case DataType::bfloat16: return plan<bfloat16_t>(ctx, *state);
      default: return ctx.unsupported_input_dtype(kX);
    }
  }

  static Status run(RunContext& ctx) noexcept {
    const State& state = ctx.state<State>();
    state.compute(state, ctx);
    return {};
  }

  /// The node's fused activation; always disabled in builds without fast paths (nothing fuses there).
  static kernels::OutputClamp output_clamp(const State& s) noexcept {
#if ONNXMICRO_ENABLE_FAST_PATHS
    return s.clamp;
#else
    static_cast<void>(s);
    return kernels::OutputClamp{};
#endif
  }
  /// `v` through the node's fused activation (`v` itself without one, and always without fast paths).
  template <typename T>
  static T clamped(const State& s, T v) noexcept {
#if ONNXMICRO_ENABLE_FAST_PATHS
    return s.clamp.enabled ? s.clamp.apply(v) : v;
#else
    static_cast<void>(s);
    return v;
#endif
  }

  /// Whether a 2-D conv of constant float32 weights and horizontal stride 1 or 2, its output rows `out_width` wide,
  /// reads its input through padded bands on `isa` (an implicit GEMM: plan_bands below says why and when).
  static bool bands_pay(Isa isa, std::int64_t out_width) noexcept {
    const std::int64_t strip = gemm::b_strip_columns(isa), edge = strip > 0 ? out_width % strip : 0;
    return ONNXMICRO_ENABLE_FAST_PATHS && gemm::reads_b_through_offsets(isa) && out_width >= kBandMinWidth &&
           (edge == 0 || gemm::computed_columns(isa, edge) < strip);
  }

  /// Whether a 1x1 unit-stride float32 conv with packed weights, `depth` input channels, `n` output positions and `m`
  /// output channels (per group), gathers its input into a striped column matrix on `isa` rather than reading it in
  /// place. In place, B's rows lie a map apart and a depth panel of one strip spans `depth` rows of one or two cache
  /// lines each, which the first-level cache does not keep while the row tiles pass over them; the striped panel is
  /// one contiguous block. The gather copies the input once, 1/m of the product's work. Measured on AVX2 (Zen 4, node
  /// minima in the models): 7x7 maps 10-17% faster (MobileNetV2's 960 -> 320 and 320 -> 1280, ShuffleNetV2's last
  /// conv), SqueezeNet's 512 -> 1000 conv at 13x13 5-14%; at 14x14 with 96-576 channels the copy cost 3-14%.
  static bool stripes_pointwise(Isa isa, std::int64_t depth, std::int64_t n, std::int64_t m) noexcept {
    if (gemm::b_strip_columns(isa) == 0 || depth < kMinStripedDepth) return false;
    return n <= kStripedMapColumns || (m >= kStripedTallRows && depth >= kStripedTallDepth);
  }
  static constexpr std::int64_t kStripedMapColumns = 64;  ///< output positions of a small map (7x7, 8x8)
  static constexpr std::int64_t kStripedTallRows = 512, kStripedTallDepth = 256;

 private:
  template <typename T>
  static Status plan(kernels::PrepareContext& ctx, State& state) noexcept {
    using Acc = compute_type::ComputeType<T>;
    constexpr bool kHalf = compute_type::kIsHalf<T>;
    if constexpr (!kHalf) {
      if (ctx.size_optimized()) {  // always true with ONNXMICRO_OPTIMIZE_FOR_SIZE=1: what follows is not compiled
        state.compute = &compute_direct<T>;
        return {};
      }
    }
    if constexpr (std::is_same<T, float>::value) {
      // depthwise: no column matrix, no scratch
      if (ONNXMICRO_ENABLE_FAST_PATHS && state.group_in_channels == 1 && state.geometry.rank <= 2) {
        // The windows take the session's own level: unlike the GEMM tiles (gemm::convolution_isa), they gain from
        // 512-bit vectors on CPUs that split them (Zen 4, MobileNetV2's 112 x 112 stride-1 planes: 0.32 against
        // 0.27 ms; 56 x 56: 0.40 against 0.31).
        if (ONNXMICRO_ENABLE_ISA_DISPATCH) state.isa = ctx.isa();
        state.compute = &compute_depthwise;
        return plan_depthwise_scratch(ctx, state);
      }
    }
    if constexpr (std::is_same<T, float>::value) {
#if ONNXMICRO_ENABLE_FAST_PATHS && ONNXMICRO_ENABLE_ISA_DISPATCH
      if (runs_winograd(ctx, state)) return plan_winograd(ctx, state);
#endif
      ONNXMICRO_RETURN_IF_ERROR(pack_weights(ctx, state));
#if ONNXMICRO_ENABLE_FAST_PATHS
      if (reads_padded_bands(state)) return plan_bands(ctx, state);
      if (state.pointwise && state.prepared_weights != nullptr &&
          stripes_pointwise(state.isa, state.column_rows, state.out_spatial, state.group_out_channels))
        state.pointwise = false;
#endif
    }
    scratch::ScratchLayout layout;
    const bool direct = state.pointwise && !kHalf;
    if (direct) {
      state.tile = state.out_spatial;
    } else {
      const bool packed = std::is_same<T, float>::value && state.prepared_weights != nullptr;
      state.tile = packed ? packed_column_tile(state) : column_tile(state, static_cast<std::int64_t>(sizeof(Acc)));
      const std::size_t slices = kHalf ? 1 : ctx.workers();  // (half types run on one thread)
      state.column_offset = layout.reserve_slices<Acc>(column_floats<T>(state), slices);
    }
    if constexpr (kHalf) {
      state.accumulator_offset = layout.reserve<Acc>(state.group_out_channels * state.tile);
      const kernels::TensorInfo& w = ctx.input(kW);
      const std::int64_t w_count = w.shape.element_count();
      if (w.is_constant && w_count > 0) {
        Span<Acc> converted;
        ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_persistent(static_cast<std::size_t>(w_count), converted));
        compute_type::load_floating(w.dtype, w.const_data, converted.data(), w_count);
        state.prepared_weights = converted.data();
      } else {
        state.weights_in_scratch = true;
        state.weights_offset = layout.reserve<Acc>(w_count);
      }
    }
    ctx.request_scratch(layout.bytes());
    state.compute = &compute<T>;
    return {};
  }

  /// Output positions per im2col tile (portable GEMM, half types, run-time weights): the column tile's bytes as
  /// kMaxColumnTileBytes and kMinColumnTileBytes say, whole 16-column register tiles.
  static std::int64_t column_tile(const State& state, std::int64_t element_bytes) noexcept {
    const std::int64_t row_bytes = state.column_rows * element_bytes;
    std::int64_t budget = state.out_channels * state.out_spatial * element_bytes;
    if (budget > kMaxColumnTileBytes) budget = kMaxColumnTileBytes;
    if (budget < kMinColumnTileBytes) budget = kMinColumnTileBytes;
    std::int64_t tile = row_bytes > 0 ? budget / row_bytes : state.out_spatial;
    if (tile < kMinTileColumns) tile = kMinTileColumns;
    if (tile > 16) tile -= tile % 16;  // whole register tiles of the GEMM
    tile = without_lone_column(tile, 16, state.out_spatial);
    if (tile > state.out_spatial) tile = state.out_spatial;
    return tile < 1 ? 1 : tile;
  }

  /// `tile` widened by `step` until the last tile is not a lone column: the GEMM adds one column up as a
  /// matrix-vector product, in another order than its tiles, so the constant- and run-time-weight paths (whose tiles
  /// differ) would differ in their last bits there (64 -> 20 channels at 45x37: 1665 = 13 x 128 + 1).
  static std::int64_t without_lone_column(std::int64_t tile, std::int64_t step, std::int64_t positions) noexcept {
    while (tile > 0 && tile < positions && positions % tile == 1) tile += step;
    return tile;
  }

  /// Output positions per im2col tile with packed weights (hosted micro-kernels): every tile streams all the weights
  /// once more, so weights too large for the cache (kStreamedWeightsBytes) get tiles of up to
  /// kStreamedColumnTileBytes (late layers: one tile); widths are whole 32-column strips (no half-empty AVX-512
  /// strip), shared evenly between the tiles.
  static std::int64_t packed_column_tile(const State& state) noexcept {
    const std::int64_t row_bytes = state.column_rows * static_cast<std::int64_t>(sizeof(float));
    const std::int64_t weights_bytes = state.out_channels * row_bytes;
    const std::int64_t budget = weights_bytes > kStreamedWeightsBytes ? kStreamedColumnTileBytes : kMaxColumnTileBytes;
    std::int64_t tile = row_bytes > 0 ? budget / row_bytes : state.out_spatial;
    tile = (tile + 31) / 32 * 32;
    if (tile < kMinTileColumns) tile = kMinTileColumns;
    if (tile >= state.out_spatial) return state.out_spatial < 1 ? 1 : state.out_spatial;
    const std::int64_t tiles = (state.out_spatial + tile - 1) / tile;
    const std::int64_t even = ((state.out_spatial + tiles - 1) / tiles + 31) / 32 * 32;
    tile = without_lone_column(even < tile ? even : tile, 32, state.out_spatial);
    return tile < state.out_spatial ? tile : state.out_spatial;
  }

  /// Columns per strip of the column matrix when im2col writes it striped for the GEMM (gemm::multiply_packed_striped:
  /// float32 with packed weights, not pointwise, kMinStripedDepth rows or more), else 0 (row-major, `count` columns a
  /// row).
  template <typename T>
  static std::int64_t column_strip(const State& s) noexcept {
    const bool striped = std::is_same<T, float>::value && s.prepared_weights != nullptr && !s.pointwise &&
                         s.column_rows >= kMinStripedDepth;
    return striped ? gemm::b_strip_columns(s.isa) : 0;
  }
  /// The least GEMM depth for a striped column matrix: a shallow one (a first 3x3 conv over 3 channels: 27 rows) makes
  /// the GEMM cheap and the gather dear, and striping splits the gather's runs.
  static constexpr std::int64_t kMinStripedDepth = 64;

  /// Floats of one group's packed weights.
  static std::int64_t packed_group_floats(const State& s) noexcept {
    return gemm::packed_a_floats(s.isa, s.group_out_channels, s.column_rows);
  }

  /// Elements of one column buffer: a tile's rows, the last strip padded to whole strips.
  template <typename T>
  static std::int64_t column_floats(const State& s) noexcept {
    const std::int64_t strip = column_strip<T>(s);
    return s.column_rows * (strip > 0 ? (s.tile + strip - 1) / strip * strip : s.tile);
  }

  /// A constant float32 W packed once for the session's GEMM micro-kernels (each group's rows as gemm::pack_a lays
  /// them out), so the product streams its weights; nothing without micro-kernels.
  static Status pack_weights(kernels::PrepareContext& ctx, State& state) noexcept {
    const kernels::TensorInfo& w = ctx.input(kW);
    const std::int64_t mg = state.group_out_channels, depth = state.column_rows;
    const std::int64_t group_floats = packed_group_floats(state);
    if (!w.is_constant || w.const_data == nullptr || group_floats == 0) return {};
    Span<float> packed;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_persistent(static_cast<std::size_t>(group_floats * state.group), packed));
    const float* weights = static_cast<const float*>(w.const_data);
    for (std::int64_t grp = 0; grp < state.group; ++grp) {
      const float* w_group = weights + grp * mg * depth;
      gemm::pack_a(state.isa, mg, depth, w_group, depth, 1, packed.data() + grp * group_floats);
    }
    state.prepared_weights = packed.data();
    return {};
  }

  // ---- Implicit GEMM: wide 2-D convs read B straight from a padded copy of their input ----
  // A band of output rows copies the input rows it reads, zero-padded, into scratch (channel by channel, band_plane
  // floats each); then each output row is one product whose B row (channel, tap) is the band at that row's offset,
  // plus the tap's (band_offsets), plus the column: no column matrix. A 3x3 conv at 56x56 spent 16% of its time
  // writing the column matrix, 9 floats for each input float; the band copies about one. With a horizontal stride of 2
  // each band row is stored as its two phases (even columns, then odd ones), so that a tap's values for consecutive
  // outputs are still consecutive floats (the first convs of the CNNs: 3x3 and 7x7, stride 2, over RGB). The
  // micro-kernels read the rows in the im2col path's order (channel, then tap), so the bits are the same. Rows
  // narrower than kBandMinWidth would waste the lanes of their last strip (a product per row), and so would rows whose
  // last strip needs the masked 16-column tile (9-15 columns left: SqueezeNet's first conv, 111 wide, ran 11-20%
  // slower on bands); they keep im2col.
  static constexpr std::int64_t kBandMinWidth = 48;

#if ONNXMICRO_ENABLE_FAST_PATHS
  /// Whether a float32 conv with packed weights runs on padded bands (the rules above).
  static bool reads_padded_bands(const State& s) noexcept {
    const sliding_window::WindowGeometry& g = s.geometry;
    if (s.prepared_weights == nullptr || s.pointwise || g.rank != 2 || (g.stride[1] != 1 && g.stride[1] != 2) ||
        !bands_pay(s.isa, g.output[1]) || s.group_out_channels < 2) {
      return false;
    }
    const std::int64_t plane = band_input_rows(s, 1) * band_row_floats(s);
    return s.group_in_channels * plane < (std::int64_t{1} << 30);  // (offsets as int32)
  }
  /// Floats of one phase of a band row: the output row plus the kernel's reach in that phase.
  static std::int64_t band_phase_floats(const State& s) noexcept {
    const sliding_window::WindowGeometry& g = s.geometry;
    return g.output[1] + (g.kernel[1] - 1) * g.dilation[1] / g.stride[1];
  }
  /// Floats of a band row: its phases (one per column of the horizontal stride) one after another.
  static std::int64_t band_row_floats(const State& s) noexcept { return s.geometry.stride[1] * band_phase_floats(s); }
  /// Input rows a band of `rows` output rows reads.
  static std::int64_t band_input_rows(const State& s, std::int64_t rows) noexcept {
    const sliding_window::WindowGeometry& g = s.geometry;
    return (rows - 1) * g.stride[0] + (g.kernel[0] - 1) * g.dilation[0] + 1;
  }
  static std::int64_t band_plane(const State& s) noexcept {
    return band_input_rows(s, s.band_rows) * band_row_floats(s);
  }

  /// Band height (a band's copy within kMaxColumnTileBytes, and at least 4 bands per worker so that the bands share
  /// out), the offsets of the GEMM's depth rows and one band of scratch per worker.
  static Status plan_bands(kernels::PrepareContext& ctx, State& state) noexcept {
    const sliding_window::WindowGeometry& g = state.geometry;
    const std::int64_t row_bytes = state.group_in_channels * band_row_floats(state) * std::int64_t{sizeof(float)};
    std::int64_t rows = (kMaxColumnTileBytes / row_bytes - band_input_rows(state, 1)) / g.stride[0] + 1;
    const std::int64_t shared = (g.output[0] + 4 * std::int64_t(ctx.workers()) - 1) / (4 * std::int64_t(ctx.workers()));
    if (rows > shared) rows = shared;
    state.band_rows = rows < 1 ? 1 : rows;
    Span<std::int32_t> offsets;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_persistent(static_cast<std::size_t>(state.column_rows), offsets));
    std::int64_t row = 0;
    for (std::int64_t c = 0; c < state.group_in_channels; ++c) {
      for (std::int64_t ky = 0; ky < g.kernel[0]; ++ky) {
        for (std::int64_t kx = 0; kx < g.kernel[1]; ++kx) {
          const std::int64_t reach = kx * g.dilation[1];  // phase reach % stride, reach / stride floats into it
          offsets[row++] =
              static_cast<std::int32_t>(c * band_plane(state) + ky * g.dilation[0] * band_row_floats(state) +
                                        reach % g.stride[1] * band_phase_floats(state) + reach / g.stride[1]);
        }
      }
    }
    state.band_offsets = offsets.data();
    scratch::ScratchLayout layout;
    state.column_offset = layout.reserve_slices<float>(state.group_in_channels * band_plane(state), ctx.workers());
    ctx.request_scratch(layout.bytes());
    state.compute = &compute_bands;
    return {};
  }

  /// One band row: padded input row `line` (null: a padding row) split into its phases, zeros where the padded
  /// row's column (phase + i * stride) is padding.
  static void fill_band_row(const State& s, const float* line, float* out) noexcept {
    const sliding_window::WindowGeometry& g = s.geometry;
    strided_copy::fill_phases(s.isa, line, g.input[1], g.pad_begin[1], g.stride[1], band_phase_floats(s), out);
  }

  /// Copies the input rows that output rows [first_row, first_row + rows) read into `band`, zero-padded: per channel,
  /// band_input_rows rows of band_row_floats floats.
  static void fill_band(const State& s, const float* x_group, std::int64_t first_row, std::int64_t rows,
                        float* band) noexcept {
    const sliding_window::WindowGeometry& g = s.geometry;
    const std::int64_t row_floats = band_row_floats(s), in_h = g.input[0], in_w = g.input[1];
    for (std::int64_t c = 0; c < s.group_in_channels; ++c) {
      const float* plane = x_group + c * s.in_spatial;
      float* out = band + c * band_plane(s);
      for (std::int64_t r = 0; r < band_input_rows(s, rows); ++r, out += row_floats) {
        const std::int64_t iy = first_row * g.stride[0] + r - g.pad_begin[0];
        fill_band_row(s, iy < 0 || iy >= in_h ? nullptr : plane + iy * in_w, out);
      }
    }
  }

  /// The (image, group, band) items claimed one by one by the workers: each band filled, then one product per output
  /// row (bias first, or zero then accumulated, and the clamp: as multiply_group's packed product).
  static void compute_bands(const State& s, RunContext& ctx) noexcept {
    const float* x = static_cast<const float*>(ctx.input(kX).data);
    const float* bias = s.has_bias ? static_cast<const float*>(ctx.input(kB).data) : nullptr;
    float* y = static_cast<float*>(ctx.output(kY).data);
    const std::int64_t out_h = s.geometry.output[0], out_w = s.geometry.output[1], mg = s.group_out_channels;
    const std::int64_t bands = (out_h + s.band_rows - 1) / s.band_rows, items = s.batch * s.group * bands;
    const float* packed = static_cast<const float*>(s.prepared_weights);
    const std::int64_t group_floats = packed_group_floats(s), row_step = s.geometry.stride[0] * band_row_floats(s);
    const std::size_t band_stride = scratch::ScratchLayout::slice_stride<float>(s.group_in_channels * band_plane(s));
    auto items_in = [&](std::size_t task, std::int64_t first, std::int64_t end) noexcept {
      float* band = scratch::scratch_at<float>(ctx.scratch(), s.column_offset + task * band_stride);
      for (std::int64_t item = first; item < end; ++item) {
        const std::int64_t b = item % bands, grp = item / bands % s.group, n = item / bands / s.group;
        const std::int64_t first_row = b * s.band_rows;
        const std::int64_t rows = out_h - first_row < s.band_rows ? out_h - first_row : s.band_rows;
        fill_band(s, x + (n * s.in_channels + grp * s.group_in_channels) * s.in_spatial, first_row, rows, band);
        const float* b_group = bias != nullptr ? bias + grp * mg : nullptr;
        const float* w_group = packed + grp * group_floats;
        float* y_group = y + (n * s.out_channels + grp * mg) * s.out_spatial;
        for (std::int64_t r = 0; r < rows; ++r) {
          float* y_row = y_group + (first_row + r) * out_w;
          if (b_group == nullptr) fill_bias<float>(nullptr, mg, out_w, y_row, s.out_spatial);
          gemm::multiply_packed_offsets(Workers(), s.isa, mg, out_w, s.column_rows, w_group, band + r * row_step,
                                        s.band_offsets, y_row, s.out_spatial, b_group, output_clamp(s));
        }
      }
    };
    const Workers& workers = ctx.workers();
    const double work = static_cast<double>(s.batch * s.out_channels) * s.out_spatial * s.column_rows;
    const std::size_t tasks = workers.tasks_for(work, kMinTaskWork, items);
    workers.claim_ranges(tasks, items, 1, items_in);
  }
#endif  // ONNXMICRO_ENABLE_FAST_PATHS

#if ONNXMICRO_ENABLE_FAST_PATHS && ONNXMICRO_ENABLE_ISA_DISPATCH
  // ---- Winograd F(2x2, 3x3) (kernels/common/winograd.hpp) ----
  // Work comes in blocks of whole tile rows of one image: each channel's rows transformed into V, the 16 products
  // M_xi = U_xi V_xi, then each output channel's rows transformed back. A block's V and M (16 x (C + M) floats a tile)
  // stay within kWinogradBlockBytes, in L2. Filters of more than half that (U: 16 x M x C floats) do not stay in L2
  // beside a block, so every block streams them again: they take blocks of up to kWinogradStreamedBlockBytes instead
  // (usually the whole image). Measured on AVX2, 1 thread, median ms: 64 channels at 56x56 (U 256 KiB) 2.12 / 1.70 /
  // 1.77 / 1.84 with 256 KiB / 768 KiB / 1.5 MiB / 3 MiB blocks; 128 at 28x28 (U 1 MiB) 2.17 / 1.84 / 1.80 / 1.60.
  static constexpr std::int64_t kWinogradBlockBytes = 768 * 1024;
  static constexpr std::int64_t kWinogradStreamedBlockBytes = 4 * 1024 * 1024;
  /// The fewest input and output channels: shallower products leave the transforms most of the time. (SqueezeNet's
  /// 16 -> 64 expand convs still gain: the whole model 9.3-9.8 ms with them, 9.8-10.3 without, 1 thread.)
  static constexpr std::int64_t kWinogradMinChannels = 16;

  /// Whether a float32 conv runs as Winograd F(2x2, 3x3): the session allows it, constant weights, one group, a 2-D
  /// 3x3 kernel of unit strides and dilations, the packed GEMM micro-kernels, and enough channels.
  static bool runs_winograd(const kernels::PrepareContext& ctx, const State& s) noexcept {
    const sliding_window::WindowGeometry& g = s.geometry;
    const kernels::TensorInfo& w = ctx.input(kW);
    bool unit = g.rank == 2;
    for (int d = 0; unit && d < 2; ++d) unit = g.kernel[d] == 3 && g.stride[d] == 1 && g.dilation[d] == 1;
    return unit && ctx.winograd_allowed() && s.group == 1 && w.is_constant && w.const_data != nullptr &&
           gemm::packed_tile_rows(s.isa) > 0 && s.group_in_channels >= kWinogradMinChannels &&
           s.group_out_channels >= kWinogradMinChannels && g.output[0] > 0 && g.output[1] > 0;
  }

  static winograd::Tiling winograd_tiling(const State& s) noexcept {
    const sliding_window::WindowGeometry& g = s.geometry;
    return winograd::Tiling{g.input[0], g.input[1], g.output[0], g.output[1], g.pad_begin[0], g.pad_begin[1]};
  }
  /// Floats of one point's packed filters U_xi (out x in channels).
  static std::int64_t winograd_point_floats(const State& s) noexcept {
    return gemm::packed_a_floats(s.isa, s.out_channels, s.in_channels);
  }
  /// Floats of one task's scratch for blocks of `rows` tile rows: the padded input rows, V and M.
  static std::int64_t winograd_scratch_floats(const State& s, std::int64_t rows) noexcept {
    const winograd::Tiling g = winograd_tiling(s);
    const std::int64_t tiles = rows * g.tiles_w();
    return winograd::Tiling::input_rows(rows) * g.row_floats() +
           winograd::kPoints * (s.in_channels + s.out_channels) * tiles;
  }

  /// Tile rows per block: as many as kWinogradBlockBytes (streamed filters: kWinogradStreamedBlockBytes) hold; with
  /// filters that stay in the cache and several workers, blocks in a multiple of the workers, so they share out.
  static std::int64_t winograd_block_rows(const State& s, std::size_t workers) noexcept {
    const winograd::Tiling g = winograd_tiling(s);
    const std::int64_t filter_bytes = winograd::kPoints * s.out_channels * s.in_channels * std::int64_t{4};
    const bool streamed = filter_bytes > kWinogradBlockBytes / 2;
    const std::int64_t row_bytes = winograd::kPoints * (s.in_channels + s.out_channels) * g.tiles_w() * 4;
    return winograd::block_rows(g, row_bytes, streamed ? kWinogradStreamedBlockBytes : kWinogradBlockBytes, s.batch,
                                static_cast<std::int64_t>(workers), !streamed);
  }

  /// The transformed filters packed for the GEMM (U_xi for xi = 0..15, then out_channels zeros: the products' bias),
  /// the block height and one block of scratch per worker.
  static Status plan_winograd(kernels::PrepareContext& ctx, State& state) noexcept {
    const std::int64_t m = state.out_channels, c = state.in_channels, point = winograd_point_floats(state);
    Span<float> packed;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_persistent(static_cast<std::size_t>(winograd::kPoints * point + m), packed));
    std::memset(packed.data(), 0, packed.size() * sizeof(float));
    // Row tile by row tile, channel by channel: a tile's rows at one channel are consecutive in each point's packed
    // filters, so the 16 points are written as 16 sequential streams, with one index computation per tile row.
    const float* w = static_cast<const float*>(ctx.input(kW).const_data);
    const std::int64_t tile_rows = gemm::packed_tile_rows(state.isa);
    for (std::int64_t o0 = 0; o0 < m; o0 += tile_rows) {
      for (std::int64_t i = 0; i < c; ++i) {
        float* at = packed.data() + gemm::packed_a_index(state.isa, m, c, o0, i);
        for (std::int64_t o = o0; o < m && o < o0 + tile_rows; ++o) {
          float u[winograd::kPoints];
          winograd::transform_filter(w + (o * c + i) * 9, u);
          for (std::int64_t xi = 0; xi < winograd::kPoints; ++xi) at[xi * point + (o - o0)] = u[xi];
        }
      }
    }
    state.prepared_weights = packed.data();
    state.winograd_rows = winograd_block_rows(state, ctx.workers());
    scratch::ScratchLayout layout;
    state.column_offset =
        layout.reserve_slices<float>(winograd_scratch_floats(state, state.winograd_rows), ctx.workers());
    ctx.request_scratch(layout.bytes());
    ctx.note_rounding("winograd F(2x2,3x3)");
    state.compute = &compute_winograd;
    return {};
  }

  /// The (image, block) items: claimed one by one by the workers when there are enough of them, else one after
  /// another with their transforms split by channel and their 16 products claimed one by one by the workers.
  static void compute_winograd(const State& s, RunContext& ctx) noexcept {
    const winograd::Tiling g = winograd_tiling(s);
    const float* x = static_cast<const float*>(ctx.input(kX).data);
    const float* bias = s.has_bias ? static_cast<const float*>(ctx.input(kB).data) : nullptr;
    float* y = static_cast<float*>(ctx.output(kY).data);
    const std::int64_t rows = s.winograd_rows, blocks = (g.tiles_h() + rows - 1) / rows, items = s.batch * blocks;
    const std::int64_t c_count = s.in_channels, m_count = s.out_channels, point = winograd_point_floats(s);
    const float* u = static_cast<const float*>(s.prepared_weights);
    const float* zeros = u + winograd::kPoints * point;
    const std::size_t slice = scratch::ScratchLayout::slice_stride<float>(winograd_scratch_floats(s, rows));
    const std::int64_t rows_floats = winograd::Tiling::input_rows(rows) * g.row_floats();
    auto task_scratch = [&](std::size_t task) noexcept {
      return scratch::scratch_at<float>(ctx.scratch(), s.column_offset + task * slice);
    };
    // Item `item` with task `task`'s V and M; `tasks` split its transforms by channel, `product` claims its products.
    auto run_item = [&](std::int64_t item, std::size_t task, std::size_t tasks, const Workers& product) noexcept {
      const std::int64_t n = item / blocks, first = item % blocks * rows;
      const std::int64_t count = g.tiles_h() - first < rows ? g.tiles_h() - first : rows, tiles = count * g.tiles_w();
      float* v = task_scratch(task) + rows_floats;
      float* products = v + winograd::kPoints * c_count * tiles;
      const float* x_n = x + n * c_count * s.in_spatial;
      float* y_n = y + n * m_count * s.out_spatial;
      auto inputs = [&](std::size_t t) noexcept {
        const SplitRange channels = split_range(c_count, tasks, t);
        for (std::int64_t i = channels.begin; i < channels.end; ++i)
          winograd::transform_input(s.isa, g, x_n + i * s.in_spatial, first, count, task_scratch(task + t),
                                    v + i * tiles, c_count * tiles);
      };
      ctx.workers().run(tasks, inputs);
      // The 16 products, each whole on one thread, claimed one by one: one wait for the split instead of one per
      // product, a faster core taking more of them, and each point's V read once instead of once per task.
      auto points = [&](std::size_t, std::int64_t first_point, std::int64_t end_point) noexcept {
        for (std::int64_t xi = first_point; xi < end_point; ++xi)
          gemm::multiply_packed(Workers(), s.isa, m_count, tiles, c_count, u + xi * point, v + xi * c_count * tiles,
                                tiles, products + xi * m_count * tiles, tiles, zeros);
      };
      product.claim_ranges(tasks, winograd::kPoints, 1, points);
      auto outputs = [&](std::size_t t) noexcept {
        const SplitRange channels = split_range(m_count, tasks, t);
        for (std::int64_t o = channels.begin; o < channels.end; ++o)
          winograd::transform_output(g, products + o * tiles, m_count * tiles, first, count,
                                     bias != nullptr ? bias[o] : 0.0f, output_clamp(s), y_n + o * s.out_spatial);
      };
      ctx.workers().run(tasks, outputs);
    };
    const double work = static_cast<double>(s.batch * m_count) * s.out_spatial * s.column_rows;
    winograd::run_items(ctx.workers(), work, kMinTaskWork, items, run_item);
  }
#endif  // ONNXMICRO_ENABLE_FAST_PATHS && ONNXMICRO_ENABLE_ISA_DISPATCH

  /// Depthwise scratch: one padded plane per worker where the instruction set takes the padded path (strides 1, 2).
  static Status plan_depthwise_scratch(kernels::PrepareContext& ctx, State& state) noexcept {
    const std::int64_t floats = window_rows::padded_scratch_floats(window_rows::plane_of(state.geometry));
    if (state.isa == Isa::baseline || floats == 0) return {};
    scratch::ScratchLayout layout;
    state.column_offset = layout.reserve_slices<float>(floats, ctx.workers());
    state.tile = floats;
    ctx.request_scratch(layout.bytes());
    return {};
  }

  /// Depthwise float convolution (one input channel per group, any depth multiplier; 1-D and 2-D): each output plane
  /// straight from its input plane (kernels/common/window_rows.hpp, with the task's padded-plane scratch when it has
  /// one), bias first, then the taps in the im2col path's order. The planes are split over the workers.
  static void compute_depthwise(const State& s, RunContext& ctx) noexcept {
    const window_rows::PlaneGeometry plane = window_rows::plane_of(s.geometry);
    const float* x = static_cast<const float*>(ctx.input(kX).data);
    const float* w = static_cast<const float*>(ctx.input(kW).data);
    const float* bias = s.has_bias ? static_cast<const float*>(ctx.input(kB).data) : nullptr;
    float* y = static_cast<float*>(ctx.output(kY).data);
    const std::int64_t planes = s.batch * s.out_channels;
    const window_rows::PaddedPlan padded_plan =
        s.tile > 0 ? window_rows::plan_padded(s.isa, plane) : window_rows::PaddedPlan{};
    auto planes_in = [&](std::size_t task, std::int64_t first, std::int64_t end) noexcept {
      float* padded =
          s.tile > 0 ? scratch::scratch_at<float>(
                           ctx.scratch(), s.column_offset + task * scratch::ScratchLayout::slice_stride<float>(s.tile))
                     : nullptr;
      for (std::int64_t index = first; index < end; ++index) {
        const std::int64_t n = index / s.out_channels, m = index % s.out_channels;
        const std::int64_t channel = m / s.group_out_channels;
        window_rows::window_plane<window_rows::RowOp::multiply_add>(
            padded_plan, s.isa, plane, x + (n * s.in_channels + channel) * s.in_spatial, w + m * s.kernel_size,
            bias != nullptr ? bias[m] : 0.0f, y + index * s.out_spatial, padded, output_clamp(s));
      }
    };
    // Work per plane in GEMM multiply-adds: a depthwise tap runs at about an eighth of the GEMM's rate (7-20
    // against 90-110 GFLOP/s on AVX2), so MobileNetV2's 14x14 and 28x28 layers are worth a second thread.
    constexpr double kTapCost = 8;
    ctx.workers().for_each_task_range(planes, static_cast<double>(s.out_spatial) * s.kernel_size * kTapCost, planes_in);
  }

  /// Size-optimised (PrepareContext::size_optimized(); float and double): each output is its bias plus the products
  /// over its window's taps inside the input, added in the order of the im2col path's GEMM depth (channel, then tap).
  /// No column matrix, so no scratch; the window walk is the pooling ops'.
  template <typename T>
  static void compute_direct(const State& s, RunContext& ctx) noexcept {
    const sliding_window::WindowGeometry& g = s.geometry;
    const T* x = static_cast<const T*>(ctx.input(kX).data);
    const T* w = static_cast<const T*>(ctx.input(kW).data);
    const T* bias = s.has_bias ? static_cast<const T*>(ctx.input(kB).data) : nullptr;
    T* y = static_cast<T*>(ctx.output(kY).data);
    for (std::int64_t n = 0; n < s.batch; ++n) {
      for (std::int64_t m = 0; m < s.out_channels; ++m) {
        const std::int64_t grp = m / s.group_out_channels;
        const T* x_group = x + (n * s.in_channels + grp * s.group_in_channels) * s.in_spatial;
        const T* w_m = w + m * s.column_rows;
        T* y_plane = y + (n * s.out_channels + m) * s.out_spatial;
        const T start = bias != nullptr ? bias[m] : T(0);
        sliding_window::for_each_window(g, [&](std::int64_t o, const sliding_window::WindowPlacement& placement) {
          T sum = start;
          if (placement.inside > 0) {
            for (std::int64_t c = 0; c < s.group_in_channels; ++c) {
              const T* plane = x_group + c * s.in_spatial;
              const T* filter = w_m + c * s.kernel_size;
              sliding_window::visit_window_taps(
                  g, placement, [&](std::int64_t offset, std::int64_t tap) { sum += plane[offset] * filter[tap]; });
            }
          }
          y_plane[o] = clamped(s, sum);
        });
      }
    }
  }

  /// Where im2col writes: row-major (`strip` = the tile's column count), or striped for the GEMM (strips of `strip`
  /// columns, each holding all `rows` rows of its columns: gemm::multiply_packed_striped).
  struct ColumnLayout {
    std::int64_t strip, rows;
  };

  /// A stretch of column-matrix row that is the same for every input channel of one kernel tap: `length` values at
  /// `dst` from the row's start (the row's own offset, row * strip, added when written), zeros (padding) or taken from
  /// the channel's input plane at `src` onwards, `stride` apart. Never crosses a strip.
  struct Piece {
    std::int64_t dst, src, length, stride;
    bool zeros;
  };
  static constexpr int kMaxPieces = 64;
  /// Strips one run of positions covers at most (a longer run is taken in parts), so that a run always fits.
  static constexpr std::int64_t kMaxRunStrips = 8;

  /// The pieces of one kernel tap, found once and written for every channel (a run of positions costs its placement
  /// once per tap instead of once per row).
  struct TapPieces {
    Piece pieces[kMaxPieces];
    int count = 0;
    /// Appends positions [column, column + length) of the tile, split at strip boundaries.
    void add(const ColumnLayout& layout, std::int64_t column, std::int64_t length, std::int64_t src,
             std::int64_t stride, bool zeros) noexcept {
      while (length > 0) {
        const std::int64_t offset = column % layout.strip;
        const std::int64_t part = layout.strip - offset < length ? layout.strip - offset : length;
        pieces[count++] = Piece{column / layout.strip * layout.rows * layout.strip + offset, src, part, stride, zeros};
        column += part, length -= part, src += part * stride;
      }
    }
    /// True when a run of `length` positions may not fit (3 stretches, each split at most once per strip; a run of
    /// kMaxRunStrips strips always fits in an empty list).
    bool full(const ColumnLayout& layout, std::int64_t length) const noexcept {
      return count + 3 * (length / layout.strip + 2) > kMaxPieces;
    }
  };

  /// dst[0, count) = src[0, count): whole 16-element blocks as fixed-size copies the compiler inlines as vector moves
  /// (a piece is often one 16- or 32-float strip: a library call per piece would cost more than the copy).
  template <typename Acc>
  static void copy_short(Acc* dst, const Acc* src, std::int64_t count) noexcept {
    constexpr std::int64_t kBlock = 16;
    std::int64_t q = 0;
    for (; q + kBlock <= count; q += kBlock) std::memcpy(dst + q, src + q, kBlock * sizeof(Acc));
    for (; q < count; ++q) dst[q] = src[q];
  }

  /// Writes the pieces into the rows of kernel tap `tap` for the channels whose rows lie in [row_begin, row_end).
  template <typename T, typename Acc>
  static void write_pieces(const State& s, const TapPieces& found, std::int64_t tap, const T* x, std::int64_t row_begin,
                           std::int64_t row_end, const ColumnLayout& layout, Acc* col) noexcept {
    for (std::int64_t c = row_begin / s.kernel_size; c * s.kernel_size < row_end; ++c) {
      const std::int64_t row = c * s.kernel_size + tap;
      if (row < row_begin || row >= row_end) continue;
      const T* plane = x + c * s.in_spatial;
      Acc* row_start = col + row * layout.strip;
      for (int i = 0; i < found.count; ++i) {
        const Piece& piece = found.pieces[i];
        Acc* out = row_start + piece.dst;
        if (piece.zeros) {
          for (std::int64_t q = 0; q < piece.length; ++q) out[q] = Acc(0);
        } else if (std::is_same<T, Acc>::value && piece.stride == 1) {
          copy_short(out, reinterpret_cast<const Acc*>(plane + piece.src), piece.length);
        } else if constexpr (std::is_same<T, float>::value && std::is_same<Acc, float>::value) {
          strided_copy::copy(s.isa, out, plane + piece.src, piece.length, piece.stride);
        } else {
          for (std::int64_t q = 0; q < piece.length; ++q)
            out[q] = compute_type::widen(plane[piece.src + q * piece.stride]);
        }
      }
    }
  }

  /// Fills `count` columns (output positions first..first+count) of rows [row_begin, row_end) of the column matrix of
  /// one group, laid out as `layout` says: row (c, tap) holds the input value each output position sees through that
  /// kernel tap, 0 in padding. Tap by tap: the tap's runs of positions are placed once (TapPieces) and written for
  /// every channel.
  template <typename T, typename Acc>
  static void im2col(const State& s, const T* x, std::int64_t first, std::int64_t count, std::int64_t row_begin,
                     std::int64_t row_end, const ColumnLayout& layout, Acc* col) noexcept {
    const sliding_window::WindowGeometry& g = s.geometry;
    const int last = g.rank - 1;
    std::int64_t start_index[sliding_window::kMaxSpatialRank] = {};
    std::int64_t rest = first;
    for (int d = last; d >= 0; --d) {
      start_index[d] = rest % g.output[d];
      rest /= g.output[d];
    }
    std::int64_t tap[sliding_window::kMaxSpatialRank] = {};
    for (std::int64_t tap_index = 0; tap_index < s.kernel_size; ++tap_index) {
      TapPieces found;
      std::int64_t out[sliding_window::kMaxSpatialRank];
      for (int d = 0; d <= last; ++d) out[d] = start_index[d];
      for (std::int64_t done = 0; done < count;) {
        std::int64_t run_length = g.output[last] - out[last];
        if (run_length > count - done) run_length = count - done;
        if (run_length > kMaxRunStrips * layout.strip) run_length = kMaxRunStrips * layout.strip;
        if (found.full(layout, run_length)) {
          write_pieces(s, found, tap_index, x, row_begin, row_end, layout, col);
          found.count = 0;
        }
        // Input row (all axes but the last) this run of output positions reads through the tap.
        bool inside = true;
        std::int64_t base = 0;
        for (int d = 0; d < last; ++d) {
          const std::int64_t coordinate = out[d] * g.stride[d] + tap[d] * g.dilation[d] - g.pad_begin[d];
          inside = inside && coordinate >= 0 && coordinate < g.input[d];
          base = base * g.input[d] + coordinate;
        }
        if (!inside) {
          found.add(layout, done, run_length, 0, 0, true);
        } else {
          const std::int64_t stride = g.stride[last];
          const std::int64_t start = out[last] * stride + tap[last] * g.dilation[last] - g.pad_begin[last];
          std::int64_t lo = 0, hi = 0;  // positions whose input coordinate is inside the line
          sliding_window::valid_taps(start, stride, run_length, 0, g.input[last], lo, hi);
          const std::int64_t line = base * g.input[last] + start;
          found.add(layout, done, lo, 0, 0, true);
          found.add(layout, done + lo, hi - lo, line + lo * stride, stride, false);
          found.add(layout, done + hi, run_length - hi, 0, 0, true);
        }
        done += run_length;
        out[last] += run_length;
        for (int d = last; d > 0 && out[d] == g.output[d]; --d) {  // carry into the outer axes
          out[d] = 0;
          ++out[d - 1];
        }
      }
      write_pieces(s, found, tap_index, x, row_begin, row_end, layout, col);
      for (int d = last; d >= 0; --d) {  // next kernel tap
        if (++tap[d] < g.kernel[d]) break;
        tap[d] = 0;
      }
    }
  }

  template <typename T>
  static void compute(const State& s, RunContext& ctx) noexcept {
    if constexpr (compute_type::kIsHalf<T>) {
      compute_half<T>(s, ctx);
    } else {
      compute_split<T>(s, ctx);
    }
  }

  /// float and double: the (image, group, tile) items split over the workers, each task with a column buffer of its
  /// own. When the items do not share out evenly (late layers: a tile or two, many channels), they run one after
  /// another with the rows of their column matrix and of their product split instead.
  template <typename T>
  static void compute_split(const State& s, RunContext& ctx) noexcept {
    const T* x = static_cast<const T*>(ctx.input(kX).data);
    const T* w = static_cast<const T*>(ctx.input(kW).data);
    const T* bias = s.has_bias ? static_cast<const T*>(ctx.input(kB).data) : nullptr;
    T* y = static_cast<T*>(ctx.output(kY).data);
    const std::int64_t tiles = s.pointwise ? 1 : (s.out_spatial + s.tile - 1) / s.tile;
    const std::int64_t items = s.batch * s.group * tiles;
    if (items == 0 || s.out_spatial == 0) return;  // (an empty output: nothing to compute, no tile to divide by)
    const Workers& workers = ctx.workers();
    const double work = static_cast<double>(s.batch * s.out_channels) * s.out_spatial * s.column_rows;
    const std::size_t tasks = workers.tasks_for(work, kMinTaskWork, static_cast<std::int64_t>(workers.count()));
    const std::int64_t mg = s.group_out_channels;
    auto column_buffer = [&](std::size_t task) noexcept {
      const std::size_t stride = scratch::ScratchLayout::slice_stride<T>(column_floats<T>(s));
      return s.pointwise ? nullptr : scratch::scratch_at<T>(ctx.scratch(), s.column_offset + task * stride);
    };
    // Item `item` with the buffers of task `task`: gathers its rows [row_begin, row_end) when `gather`, multiplies
    // when `product` (split over `product_workers`).
    auto run_item = [&](std::int64_t item, std::size_t task, std::int64_t row_begin, std::int64_t row_end, bool product,
                        const Workers& product_workers) noexcept {
      T* col = column_buffer(task);
      const std::int64_t tile = item % tiles, grp = item / tiles % s.group, n = item / tiles / s.group;
      const T* x_group = x + (n * s.in_channels + grp * s.group_in_channels) * s.in_spatial;
      T* y_group = y + (n * s.out_channels + grp * mg) * s.out_spatial;
      const T* w_group = w + grp * mg * s.column_rows;
      const T* b_group = bias != nullptr ? bias + grp * mg : nullptr;
      const float* packed = std::is_same<T, float>::value ? static_cast<const float*>(s.prepared_weights) : nullptr;
      const float* packed_group = packed != nullptr ? packed + grp * packed_group_floats(s) : nullptr;
      if (s.pointwise) {
        if (product)
          multiply_group<T>(s, product_workers, w_group, packed_group, b_group, s.group_in_channels, x_group,
                            s.in_spatial, s.out_spatial, y_group, s.out_spatial);
        return;
      }
      const std::int64_t first = tile * s.tile;
      const std::int64_t count = s.out_spatial - first < s.tile ? s.out_spatial - first : s.tile;
      const std::int64_t strip = column_strip<T>(s);
      const ColumnLayout layout{strip > 0 ? strip : count, s.column_rows};
      if (row_end > row_begin) im2col(s, x_group, first, count, row_begin, row_end, layout, col);
      if (product)
        multiply_group<T>(s, product_workers, w_group, packed_group, b_group, s.column_rows, col, layout.strip, count,
                          y_group + first, s.out_spatial, strip > 0);
    };
    if (tasks <= 1) {  // (always, without ONNXMICRO_ENABLE_THREADS: the rest compiles out)
      for (std::int64_t item = 0; item < items; ++item) run_item(item, 0, 0, s.column_rows, true, Workers());
      return;
    }
    // Few items share out evenly only when they divide among the tasks and the last tile is nearly full. (Splitting
    // each item instead moves its column matrix between the cores: SqueezeNet's first conv, 6 tiles of 2080 and
    // 1921 columns, ran 1.0-1.5x faster on two threads that way.)
    const std::int64_t task_count = static_cast<std::int64_t>(tasks);
    const std::int64_t last_tile = s.out_spatial - (tiles - 1) * s.tile;
    const bool even_items = items % task_count == 0 && 4 * last_tile >= 3 * s.tile;
    if (even_items || items >= 4 * task_count) {  // items claimed one by one: a faster core takes more
      auto items_in = [&](std::size_t t, std::int64_t first, std::int64_t end) noexcept {
        for (std::int64_t item = first; item < end; ++item) run_item(item, t, 0, s.column_rows, true, Workers());
      };
      workers.claim_ranges(tasks, items, 1, items_in);
      return;
    }
    for (std::int64_t item = 0; item < items; ++item) {  // (every task gathers into the first task's buffers)
      auto gather = [&](std::size_t t) noexcept {
        const SplitRange rows = split_range(s.column_rows, tasks, t);
        run_item(item, 0, rows.begin, rows.end, false, Workers());
      };
      if (!s.pointwise) workers.run(tasks, gather);
      run_item(item, 0, 0, 0, true, workers);
    }
  }

  /// float16 and bfloat16 (one thread): each tile gathered in float, multiplied into a float accumulator, rounded
  /// once when stored; W converted at prepare, or at run into scratch when it is not constant.
  template <typename T>
  static void compute_half(const State& s, RunContext& ctx) noexcept {
    using Acc = compute_type::ComputeType<T>;
    const T* x = static_cast<const T*>(ctx.input(kX).data);
    const T* bias = s.has_bias ? static_cast<const T*>(ctx.input(kB).data) : nullptr;
    T* y = static_cast<T*>(ctx.output(kY).data);
    void* scratch = ctx.scratch();
    const Acc* weights = static_cast<const Acc*>(s.prepared_weights);
    if (s.weights_in_scratch) {
      Acc* converted = scratch::scratch_at<Acc>(scratch, s.weights_offset);
      compute_type::load_floating(ctx.input(kW).dtype, ctx.input(kW).data, converted, s.out_channels * s.column_rows);
      weights = converted;
    }
    Acc* col = scratch::scratch_at<Acc>(scratch, s.column_offset);
    Acc* accumulator = scratch::scratch_at<Acc>(scratch, s.accumulator_offset);
    const std::int64_t mg = s.group_out_channels;
    for (std::int64_t n = 0; n < s.batch; ++n) {
      for (std::int64_t grp = 0; grp < s.group; ++grp) {
        const T* x_group = x + (n * s.in_channels + grp * s.group_in_channels) * s.in_spatial;
        T* y_group = y + (n * s.out_channels + grp * mg) * s.out_spatial;
        const Acc* w_group = weights + grp * mg * s.column_rows;
        const T* b_group = bias ? bias + grp * mg : nullptr;
        for (std::int64_t first = 0; first < s.out_spatial; first += s.tile) {
          const std::int64_t count = s.out_spatial - first < s.tile ? s.out_spatial - first : s.tile;
          im2col(s, x_group, first, count, 0, s.column_rows, ColumnLayout{count, s.column_rows}, col);
          multiply_group<T>(s, Workers(), w_group, nullptr, b_group, s.column_rows, col, count, count, accumulator,
                            count);
          for (std::int64_t m = 0; m < mg; ++m)
            for (std::int64_t q = 0; q < count; ++q)
              y_group[m * s.out_spatial + first + q] = compute_type::narrow<T>(accumulator[m * count + q]);
        }
      }
    }
  }

  /// y (group_out_channels x count, row stride ld_y) = bias + the group's weights (depth columns; packed_w: the same,
  /// packed, or null) * b (depth x count, row stride ld_b; `striped`: in strips ld_b wide, column_strip), then the
  /// fused clamp; the product split over `workers`. The float GEMM starts its tiles at the bias and clamps before
  /// storing; the other types fill, multiply and clamp in passes (half types clamp the float accumulator).
  template <typename T>
  static void multiply_group(const State& s, const Workers& workers, const compute_type::ComputeType<T>* w,
                             const float* packed_w, const T* bias, std::int64_t depth,
                             const compute_type::ComputeType<T>* b, std::int64_t ld_b, std::int64_t count,
                             compute_type::ComputeType<T>* y, std::int64_t ld_y, bool striped = false) noexcept {
    using Acc = compute_type::ComputeType<T>;
    const std::int64_t rows = s.group_out_channels;
    // (Builds without fast paths never fuse activations: their float product stays fill + accumulate.)
    if constexpr (std::is_same<T, float>::value && ONNXMICRO_ENABLE_FAST_PATHS) {
      if (bias == nullptr) fill_bias<T>(nullptr, rows, count, y, ld_y);
      if (packed_w != nullptr && count > 1) {  // (one column: the matrix-vector path, as unpacked)
        if (striped) {
          gemm::multiply_packed_striped(workers, s.isa, rows, count, depth, packed_w, b, y, ld_y, bias,
                                        output_clamp(s));
        } else {
          gemm::multiply_packed(workers, s.isa, rows, count, depth, packed_w, b, ld_b, y, ld_y, bias, output_clamp(s));
        }
        return;
      }
      gemm::multiply(workers, s.isa, rows, count, depth, w, s.column_rows, 1, b, ld_b, y, ld_y, bias, output_clamp(s));
    } else {
      fill_bias(bias, rows, count, y, ld_y);
      gemm::accumulate<Acc>(workers, s.isa, rows, count, depth, w, s.column_rows, 1, b, ld_b, y, ld_y);
      if (!output_clamp(s).enabled) return;
      for (std::int64_t r = 0; r < rows; ++r)
        for (std::int64_t q = 0; q < count; ++q) y[r * ld_y + q] = clamped(s, y[r * ld_y + q]);
    }
  }

  /// Starts each of `rows` output rows (`cols` wide, row stride ld) at its channel's bias, or 0.
  template <typename T>
  static void fill_bias(const T* bias, std::int64_t rows, std::int64_t cols, compute_type::ComputeType<T>* dst,
                        std::int64_t ld) noexcept {
    using Acc = compute_type::ComputeType<T>;
    for (std::int64_t r = 0; r < rows; ++r) {
      const Acc value = bias ? compute_type::widen(bias[r]) : Acc(0);
      for (std::int64_t q = 0; q < cols; ++q) dst[r * ld + q] = value;
    }
  }
};

}  // namespace conv_detail

// Conv-1 (also 11, which only clarified kernel_shape inference and SAME padding, and 22, which added bfloat16).
using Conv_1 = VersionedKernel<conv_detail::ConvImpl, 1>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
