// SPDX-License-Identifier: MIT
// ConvInteger (opset 10, the only version): N-D convolution of int8/uint8 x and w after subtracting their zero
// points (x_zero_point per tensor; w_zero_point per tensor or per output channel), into int32 (the accumulation
// wraps around in 32 bits, the only overflow the spec allows). Pads contribute zero after the shift. Attributes
// and output shape as Conv (group, kernel_shape, strides, dilations, pads, auto_pad).
// Method: QLinearConv's integer path without requantisation: W - w_zero packed once at prepare (constant W and
// zero point; else into scratch at every run), im2col tiles of x - x_zero packed for the integer GEMM core
// (common/integer_gemm.hpp), whose int32 register tiles are stored as they are.
#pragma once
#include <cstddef>
#include <cstdint>

#include "onnxmicro/kernels/common/integer_gemm.hpp"
#include "onnxmicro/kernels/common/scratch.hpp"
#include "onnxmicro/kernels/kernel_api.hpp"
#include "onnxmicro/kernels/quantization/qlinear_conv.hpp"
#include "onnxmicro/kernels/quantization/quant_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

namespace conv_integer_detail {

/// The implementation of ConvInteger (see the file comment).
struct ConvIntegerImpl : KernelDefaults {
  static constexpr std::string_view kOpType = "ConvInteger";
  static constexpr int kX = 0;
  static constexpr int kW = 1;
  static constexpr int kXZeroPoint = 2;
  static constexpr int kWZeroPoint = 3;
  static constexpr int kY = 0;

  struct State {
    quant_util::ConvPlan plan;
    void (*compute)(const State&, RunContext&) noexcept;
    Isa isa;  ///< the session's instruction set: the integer GEMM's tiles
    bool per_channel_w_zero;
    std::int64_t depth;           ///< GEMM depth: group_channels * kernel_size
    std::int64_t tile;            ///< output positions per GEMM tile
    const std::int16_t* weights;  ///< packed at prepare, or nullptr: packed at run into scratch
    std::size_t weights_offset, column_offset, packed_offset;
  };

  static Status prepare(PrepareContext& ctx) noexcept {
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kX));
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kW));
    for (int i : {kX, kW}) {
      if (ctx.input(i).dtype != DataType::int8 && ctx.input(i).dtype != DataType::uint8) {
        return ctx.unsupported_input_dtype(i);
      }
    }
    if (ctx.has_input(kXZeroPoint)) ONNXMICRO_RETURN_IF_ERROR(ctx.require_same_dtype(kX, kXZeroPoint));
    if (ctx.has_input(kWZeroPoint)) ONNXMICRO_RETURN_IF_ERROR(ctx.require_same_dtype(kW, kWZeroPoint));
    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
    ONNXMICRO_RETURN_IF_ERROR(quant_util::plan_conv(ctx, kX, kW, state->plan));
    ONNXMICRO_RETURN_IF_ERROR(quant_util::check_scalar_param(ctx, kXZeroPoint));
    ONNXMICRO_RETURN_IF_ERROR(quant_util::check_channel_param(ctx, kWZeroPoint, state->plan.out_channels));
    State& s = *state;
    const quant_util::ConvPlan& plan = s.plan;
    s.per_channel_w_zero = ctx.has_input(kWZeroPoint) && ctx.input(kWZeroPoint).shape.element_count() > 1;
    s.depth = plan.group_channels * plan.kernel_size;
    const DataType x = ctx.input(kX).dtype, w = ctx.input(kW).dtype;
    s.compute = integer_gemm::pick_8bit(x, w, [](auto tx, auto tw) { return &compute<decltype(tx), decltype(tw)>; });
    s.isa = ctx.isa();
    integer_gemm::ScratchLayout layout;
    const std::size_t weights_size =
        static_cast<std::size_t>(plan.group * integer_gemm::packed_a_size(plan.group_out_channels, s.depth));
    const TensorInfo& wi = ctx.input(kW);
    const bool constant = integer_gemm::constant_with_zero_point(ctx, kW, kWZeroPoint);
    s.weights = nullptr;
    if (constant) {
      Span<std::int16_t> packed;
      ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_persistent(weights_size, packed));
      const void* zero = ctx.has_input(kWZeroPoint) ? ctx.input(kWZeroPoint).const_data : nullptr;
      if (w == DataType::int8) {
        pack_weights(s, static_cast<const std::int8_t*>(wi.const_data), static_cast<const std::int8_t*>(zero),
                     packed.data());
      } else {
        pack_weights(s, static_cast<const std::uint8_t*>(wi.const_data), static_cast<const std::uint8_t*>(zero),
                     packed.data());
      }
      s.weights = packed.data();
    } else {
      s.weights_offset = layout.reserve(weights_size * sizeof(std::int16_t));
    }
    s.tile = integer_gemm::activation_tile(s.depth, plan.out_spatial);
    s.column_offset = layout.reserve(static_cast<std::size_t>(s.depth * s.tile) * sizeof(std::int16_t));
    s.packed_offset =
        layout.reserve(static_cast<std::size_t>(integer_gemm::packed_b_size(s.depth, s.tile)) * sizeof(std::int16_t));
    ctx.request_scratch(layout.bytes);
    ctx.set_output(kY, DataType::int32, plan.output);
    return {};
  }

  static Status run(RunContext& ctx) noexcept {
    const State& s = ctx.state<State>();
    s.compute(s, ctx);
    return {};
  }

 private:
  template <typename TW>
  static void pack_weights(const State& s, const TW* w, const TW* zero, std::int16_t* dst) noexcept {
    const quant_util::ConvPlan& p = s.plan;
    const std::int64_t mg = p.group_out_channels;
    const std::int64_t zero_stride = s.per_channel_w_zero ? 1 : 0;
    const std::int64_t group_size = integer_gemm::packed_a_size(mg, s.depth);
    for (std::int64_t grp = 0; grp < p.group; ++grp) {
      integer_gemm::pack_a(w + grp * mg * s.depth, s.depth, 1, mg, s.depth,
                           zero ? zero + grp * mg * zero_stride : nullptr, zero_stride, dst + grp * group_size);
    }
  }

  template <typename TX, typename TW>
  static void compute(const State& s, RunContext& ctx) noexcept {
    const quant_util::ConvPlan& p = s.plan;
    void* scratch = ctx.scratch();
    const TX* x = static_cast<const TX*>(ctx.input(kX).data);
    const int x_zero =
        ctx.has_input(kXZeroPoint) ? static_cast<int>(static_cast<const TX*>(ctx.input(kXZeroPoint).data)[0]) : 0;
    std::int32_t* y = static_cast<std::int32_t*>(ctx.output(kY).data);
    const std::int16_t* weights = s.weights;
    if (weights == nullptr) {
      std::int16_t* packed = scratch::scratch_at<std::int16_t>(scratch, s.weights_offset);
      pack_weights(s, static_cast<const TW*>(ctx.input(kW).data),
                   ctx.has_input(kWZeroPoint) ? static_cast<const TW*>(ctx.input(kWZeroPoint).data) : nullptr, packed);
      weights = packed;
    }
    std::int16_t* col = scratch::scratch_at<std::int16_t>(scratch, s.column_offset);
    std::int16_t* packed = scratch::scratch_at<std::int16_t>(scratch, s.packed_offset);
    const std::int64_t mg = p.group_out_channels;
    const std::int64_t kp = integer_gemm::packed_depth(s.depth);
    const std::int64_t group_size = integer_gemm::packed_a_size(mg, s.depth);
    for (std::int64_t n = 0; n < p.batch; ++n) {
      for (std::int64_t grp = 0; grp < p.group; ++grp) {
        const TX* x_group = x + (n * p.channels + grp * p.group_channels) * p.in_spatial;
        std::int32_t* y_group = y + (n * p.out_channels + grp * mg) * p.out_spatial;
        for (std::int64_t first = 0; first < p.out_spatial; first += s.tile) {
          const std::int64_t count = p.out_spatial - first < s.tile ? p.out_spatial - first : s.tile;
          qlinear_conv_detail::im2col(p, s.depth, x_group, x_zero, first, count, col);
          integer_gemm::pack_b(col, count, s.depth, count, packed);
          std::int32_t* y_tile = y_group + first;
          integer_gemm::multiply(s.isa, weights + grp * group_size, mg, packed, count, kp,
                                 [&](std::int64_t row, std::int64_t column, std::int64_t rows, std::int64_t cols,
                                     const std::int32_t(*acc)[integer_gemm::kColumns]) {
                                   for (std::int64_t r = 0; r < rows; ++r) {
                                     std::int32_t* out = y_tile + (row + r) * p.out_spatial + column;
                                     for (std::int64_t c = 0; c < cols; ++c) out[c] = acc[r][c];
                                   }
                                 });
        }
      }
    }
  }
};

}  // namespace conv_integer_detail

// Opset 10: the only version.
using ConvInteger_10 = VersionedKernel<conv_integer_detail::ConvIntegerImpl, 10>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
