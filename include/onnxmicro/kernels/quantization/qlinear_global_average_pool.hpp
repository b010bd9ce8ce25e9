// SPDX-License-Identifier: MIT
// QLinearGlobalAveragePool (com.microsoft, version 1, the only one): the mean of each channel over all spatial
// positions of int8/uint8 X, requantised to y's parameters. channels_last = 0: X is (N, C, D1..Dn) and Y is
// (N, C, 1..1); channels_last = 1: X is (N, D1..Dn, C) and Y is (N, 1..1, C). Integer only: an int32 sum per
// channel, minus x_zero_point times the count, times the fixed-point multiplier x_scale / (y_scale * count).
#pragma once
#include <cstdint>
#include <cstring>

#include "onnxmicro/kernels/kernel_api.hpp"
#include "onnxmicro/kernels/quantization/qoperator_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

namespace qlinear_global_average_pool_detail {

/// The implementation of QLinearGlobalAveragePool (see the file comment).
struct QLinearGlobalAveragePoolImpl : KernelDefaults, qoperator_util::UnaryInputs {
  static constexpr std::string_view kDomain = "com.microsoft";
  static constexpr std::string_view kOpType = "QLinearGlobalAveragePool";
  /// Most positions a channel may have: their sum of 8-bit values must fit in int32.
  static constexpr std::int64_t kMaxSpatial = (std::int64_t{1} << 31) / 256;

  struct State {
    std::int64_t batch, channels, spatial;
    bool channels_last;
    std::int32_t x_zero, y_zero;
    qoperator_util::QuantRange range;
    fixed_point::FixedPointMultiplier multiplier;
    void (*compute)(const State&, RunContext&) noexcept;
  };

  static Status prepare(PrepareContext& ctx) noexcept {
    qoperator_util::QuantParams xq, yq;
    ONNXMICRO_RETURN_IF_ERROR(read_params(ctx, xq, yq));
    const TensorInfo& x = ctx.input(kX);
    std::int64_t channels_last = 0;
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("channels_last", channels_last, 0));
    ONNXMICRO_RETURN_IF_ERROR(qoperator_util::require_flag("channels_last", channels_last));
    const int rank = x.shape.rank();
    if (rank < 3) {
      return ctx.input_error(kX) << " has shape " << x.shape << ", expected rank >= 3 ("
                                 << (channels_last ? "N, spatial..., C" : "N, C, spatial...") << ")";
    }
    State* s = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(s));
    s->channels_last = channels_last == 1;
    s->batch = x.shape[0];
    s->channels = s->channels_last ? x.shape[rank - 1] : x.shape[1];
    s->spatial = 1;
    for (int i = 1; i < rank - 1; ++i) s->spatial *= x.shape[s->channels_last ? i : i + 1];
    if (s->spatial < 1 || s->spatial > kMaxSpatial) {
      return ctx.input_error(kX, {}, StatusCode::unsupported)
             << " has shape " << x.shape << ": " << s->spatial << " spatial positions, expected 1 to " << kMaxSpatial
             << " (the int32 sum of a channel)";
    }
    s->x_zero = xq.zero_point;
    s->y_zero = yq.zero_point;
    s->range = qoperator_util::range_of(x.dtype);
    s->multiplier = fixed_point::to_fixed_point(static_cast<double>(xq.scale) /
                                                (static_cast<double>(yq.scale) * static_cast<double>(s->spatial)));
    s->compute = x.dtype == DataType::int8 ? &compute<std::int8_t> : &compute<std::uint8_t>;
    if (s->channels_last) ctx.request_scratch(static_cast<std::size_t>(s->channels) * sizeof(std::int32_t));
    Shape y = x.shape;
    for (int i = 1; i < rank - 1; ++i) y[s->channels_last ? i : i + 1] = 1;
    ctx.set_output(kY, x.dtype, y);
    return {};
  }

  static Status run(RunContext& ctx) noexcept {
    const State& s = ctx.state<State>();
    s.compute(s, ctx);
    return {};
  }

 private:
  static std::int32_t average(const State& s, std::int32_t sum) noexcept {
    const std::int32_t acc = sum - s.x_zero * static_cast<std::int32_t>(s.spatial);
    return fixed_point::requantize(acc, s.multiplier, s.y_zero, s.range.low, s.range.high);
  }

  template <typename T>
  static void compute(const State& s, RunContext& ctx) noexcept {
    const T* x = static_cast<const T*>(ctx.input(kX).data);
    T* y = static_cast<T*>(ctx.output(kY).data);
    if (!s.channels_last) {
      for (std::int64_t plane = 0; plane < s.batch * s.channels; ++plane) {
        const T* p = x + plane * s.spatial;
        std::int32_t sum = 0;
        for (std::int64_t i = 0; i < s.spatial; ++i) sum += p[i];
        y[plane] = static_cast<T>(average(s, sum));
      }
      return;
    }
    if (s.channels == 0) return;  // no scratch then
    std::int32_t* sums = static_cast<std::int32_t*>(ctx.scratch());
    for (std::int64_t n = 0; n < s.batch; ++n) {
      std::memset(sums, 0, static_cast<std::size_t>(s.channels) * sizeof(std::int32_t));
      const T* image = x + n * s.spatial * s.channels;
      for (std::int64_t i = 0; i < s.spatial; ++i) {
        const T* pixel = image + i * s.channels;
        for (std::int64_t c = 0; c < s.channels; ++c) sums[c] += pixel[c];
      }
      for (std::int64_t c = 0; c < s.channels; ++c) y[n * s.channels + c] = static_cast<T>(average(s, sums[c]));
    }
  }
};

}  // namespace qlinear_global_average_pool_detail

// Version 1: the only version.
using QLinearGlobalAveragePool_1 = VersionedKernel<qlinear_global_average_pool_detail::QLinearGlobalAveragePoolImpl, 1>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
