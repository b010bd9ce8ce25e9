// SPDX-License-Identifier: MIT
// QLinearAveragePool (com.microsoft, version 1, the only one): AveragePool (kernel_shape, strides, pads, auto_pad,
// ceil_mode, count_include_pad; no dilations) on int8/uint8 X, requantised to y's parameters. channels_last = 1
// takes X as (N, D1..Dn, C) and gives Y as (N, O1..On, C). Padding counts as real 0 (the zero point). Integer
// only: an int32 sum per window, minus x_zero_point per tap inside the input, times the fixed-point multiplier
// x_scale / (y_scale * divisor), one per possible divisor, precomputed at prepare. The divisor is the taps
// inside the input, or with count_include_pad the kernel size: unlike AveragePool, onnxruntime's QLinearAveragePool
// also counts the room ceil_mode adds past the end pad.
#pragma once
#include <cstdint>
#include <cstring>

#include "onnxmicro/kernels/common/sliding_window.hpp"
#include "onnxmicro/kernels/kernel_api.hpp"
#include "onnxmicro/kernels/quantization/qoperator_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

namespace qlinear_average_pool_detail {

/// The implementation of QLinearAveragePool (see the file comment).
struct QLinearAveragePoolImpl : KernelDefaults, qoperator_util::UnaryInputs {
  static constexpr std::string_view kDomain = "com.microsoft";
  static constexpr std::string_view kOpType = "QLinearAveragePool";
  /// Most taps a window may have: their sum of 8-bit values must fit in int32, and one multiplier per divisor.
  static constexpr std::int64_t kMaxKernelSize = std::int64_t{1} << 20;

  struct State {
    sliding_window::WindowGeometry geometry;
    std::int64_t batch, channels, in_spatial, out_spatial;
    std::int64_t kernel_size;
    bool channels_last, count_include_pad;
    std::int32_t x_zero, y_zero;
    qoperator_util::QuantRange range;
    const fixed_point::FixedPointMultiplier* multipliers;  ///< [divisor], 1 <= divisor <= kernel size
    void (*compute)(const State&, RunContext&) noexcept;
  };

  static Status prepare(PrepareContext& ctx) noexcept {
    qoperator_util::QuantParams xq, yq;
    ONNXMICRO_RETURN_IF_ERROR(read_params(ctx, xq, yq));
    const TensorInfo& x = ctx.input(kX);
    std::int64_t channels_last = 0, count_include_pad = 0;
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("channels_last", channels_last, 0));
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("count_include_pad", count_include_pad, 0));
    ONNXMICRO_RETURN_IF_ERROR(qoperator_util::require_flag("channels_last", channels_last));
    ONNXMICRO_RETURN_IF_ERROR(qoperator_util::require_flag("count_include_pad", count_include_pad));
    if (ctx.has_attribute("dilations")) {
      return Status(StatusCode::invalid_model) << "attribute 'dilations' is not defined for QLinearAveragePool";
    }
    State* s = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(s));
    s->channels_last = channels_last == 1;
    s->count_include_pad = count_include_pad == 1;
    // The window code reads (N, C, D1..Dn); channels_last moves C from the end.
    Shape nchw = x.shape;
    const int rank = x.shape.rank();
    if (s->channels_last && rank >= 3) {
      nchw[1] = x.shape[rank - 1];
      for (int i = 2; i < rank; ++i) nchw[i] = x.shape[i - 1];
    }
    sliding_window::WindowRules rules;
    rules.ceil_mode_since = 1;
    sliding_window::WindowGeometry& g = s->geometry;
    ONNXMICRO_RETURN_IF_ERROR(sliding_window::parse_window(ctx, nchw, rules, g));
    const std::int64_t kernel_size = g.kernel_size();
    if (kernel_size > kMaxKernelSize) {
      return Status(StatusCode::unsupported) << "attribute 'kernel_shape' has " << kernel_size << " taps, at most "
                                             << kMaxKernelSize << " supported (the int32 sum of a window)";
    }
    Span<fixed_point::FixedPointMultiplier> multipliers;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_persistent(static_cast<std::size_t>(kernel_size) + 1, multipliers));
    for (std::int64_t d = 1; d <= kernel_size; ++d) {
      multipliers[static_cast<std::size_t>(d)] = fixed_point::to_fixed_point(
          static_cast<double>(xq.scale) / (static_cast<double>(yq.scale) * static_cast<double>(d)));
    }
    s->multipliers = multipliers.data();
    s->kernel_size = kernel_size;
    s->batch = nchw[0];
    s->channels = nchw[1];
    s->in_spatial = g.input_size();
    s->out_spatial = g.output_size();
    s->x_zero = xq.zero_point;
    s->y_zero = yq.zero_point;
    s->range = qoperator_util::range_of(x.dtype);
    s->compute = x.dtype == DataType::int8 ? &compute<std::int8_t> : &compute<std::uint8_t>;
    if (s->channels_last) ctx.request_scratch(static_cast<std::size_t>(s->channels) * sizeof(std::int32_t));
    Shape y = sliding_window::window_output_shape(nchw, nchw[1], g);
    if (s->channels_last) {
      for (int i = 1; i < rank - 1; ++i) y[i] = g.output[i - 1];
      y[rank - 1] = nchw[1];
    }
    ctx.set_output(kY, x.dtype, y);
    return {};
  }

  static Status run(RunContext& ctx) noexcept {
    const State& s = ctx.state<State>();
    s.compute(s, ctx);
    return {};
  }

 private:
  /// The divisor of a window: its taps inside the input, or with count_include_pad the whole kernel. Every
  /// window lies inside input plus pads except ceil_mode's last ones; onnxruntime counts their extra room too.
  static std::int64_t divisor(const State& s, const sliding_window::WindowPlacement& w) noexcept {
    return s.count_include_pad ? s.kernel_size : w.inside;
  }

  /// y = round((sum - x_zero * inside) * x_scale / (y_scale * divisor)) + y_zero, saturated.
  static std::int32_t average(const State& s, std::int32_t sum, std::int64_t inside, std::int64_t taps) noexcept {
    if (taps <= 0) return s.y_zero;  // a window entirely in ceil_mode's extra room: the mean of nothing, 0
    const std::int32_t acc = sum - s.x_zero * static_cast<std::int32_t>(inside);
    return fixed_point::requantize(acc, s.multipliers[taps], s.y_zero, s.range.low, s.range.high);
  }

  template <typename T>
  static void compute(const State& s, RunContext& ctx) noexcept {
    const T* x = static_cast<const T*>(ctx.input(kX).data);
    T* y = static_cast<T*>(ctx.output(kY).data);
    const sliding_window::WindowGeometry& g = s.geometry;
    if (!s.channels_last) {
      for (std::int64_t plane = 0; plane < s.batch * s.channels; ++plane) {
        const T* xp = x + plane * s.in_spatial;
        T* yp = y + plane * s.out_spatial;
        sliding_window::for_each_window(g, [&](std::int64_t o, const sliding_window::WindowPlacement& w) {
          std::int32_t sum = 0;
          if (w.inside > 0) sliding_window::visit_window(g, w, [&](std::int64_t offset) { sum += xp[offset]; });
          yp[o] = static_cast<T>(average(s, sum, w.inside, divisor(s, w)));
        });
      }
      return;
    }
    if (s.channels == 0) return;  // no scratch then
    std::int32_t* sums = static_cast<std::int32_t*>(ctx.scratch());
    const std::int64_t c_count = s.channels;
    for (std::int64_t n = 0; n < s.batch; ++n) {
      const T* image = x + n * s.in_spatial * c_count;
      T* out = y + n * s.out_spatial * c_count;
      sliding_window::for_each_window(g, [&](std::int64_t o, const sliding_window::WindowPlacement& w) {
        std::memset(sums, 0, static_cast<std::size_t>(c_count) * sizeof(std::int32_t));
        if (w.inside > 0) {
          sliding_window::visit_window(g, w, [&](std::int64_t offset) {
            const T* pixel = image + offset * c_count;
            for (std::int64_t c = 0; c < c_count; ++c) sums[c] += pixel[c];
          });
        }
        const std::int64_t taps = divisor(s, w);
        for (std::int64_t c = 0; c < c_count; ++c)
          out[o * c_count + c] = static_cast<T>(average(s, sums[c], w.inside, taps));
      });
    }
  }
};

}  // namespace qlinear_average_pool_detail

// Version 1: the only version.
using QLinearAveragePool_1 = VersionedKernel<qlinear_average_pool_detail::QLinearAveragePoolImpl, 1>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
