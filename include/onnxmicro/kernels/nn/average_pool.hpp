// SPDX-License-Identifier: MIT
// AveragePool: the mean of each (dilated) window over the spatial axes of (N, C, D1, ..., Dn). Padding is
// excluded from the divisor unless count_include_pad = 1 (7+); then the divisor counts the taps inside the
// input and the explicit pads, but not the extra room ceil_mode adds past the end pad (as onnx's reference
// and onnxruntime). float16/bfloat16 are averaged in float32.
#pragma once
#include <cstddef>
#include <cstdint>

#include "onnxmicro/kernels/common/compute_type.hpp"
#include "onnxmicro/kernels/common/sliding_window.hpp"
#include "onnxmicro/kernels/kernel_api.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {
namespace average_pool_detail {

/// Implementation shared by every AveragePool version; the version-specific attributes are gated on the
/// node's opset (count_include_pad: 7, ceil_mode: 10, dilations: 19).
struct AveragePoolImpl : kernels::KernelDefaults {
  static constexpr std::string_view kOpType = "AveragePool";
  using RunContext = kernels::RunContext;
  static constexpr int kX = 0;
  static constexpr int kY = 0;

  struct State {
    void (*compute)(const State&, RunContext&) noexcept;
    sliding_window::WindowGeometry geometry;
    std::int64_t planes;  ///< N * C
    std::int64_t in_spatial, out_spatial;
    bool count_include_pad;
  };

  static Status prepare(kernels::PrepareContext& ctx, int /*since: every version accepts the same*/) noexcept {
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kX));
    const kernels::TensorInfo& x = ctx.input(kX);
    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
    switch (compiled_dtype(x.dtype)) {
      case DataType::float32: state->compute = &compute<float>; break;
      case DataType::float64: state->compute = &compute<double>; break;
      case DataType::float16: state->compute = &compute<float16_t>; break;
      case DataType::bfloat16: state->compute = &compute<bfloat16_t>; break;  // opset 22
      default: return ctx.unsupported_input_dtype(kX);
    }
    sliding_window::WindowRules rules;
    rules.dilations_since = 19;
    rules.ceil_mode_since = 10;
    ONNXMICRO_RETURN_IF_ERROR(sliding_window::parse_window(ctx, x.shape, rules, state->geometry));

    std::int64_t count_include_pad = 0;
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("count_include_pad", count_include_pad, 0));
    if (count_include_pad != 0 && count_include_pad != 1) {
      return Status(StatusCode::invalid_model)
             << "attribute 'count_include_pad' is " << count_include_pad << ", expected 0 or 1";
    }
    if (count_include_pad != 0 && ctx.opset_version() < 7) {
      return Status(StatusCode::invalid_model) << "attribute 'count_include_pad' is only defined from opset 7";
    }

    const sliding_window::WindowGeometry& g = state->geometry;
    state->planes = x.shape[0] * x.shape[1];
    state->in_spatial = g.input_size();
    state->out_spatial = g.output_size();
    state->count_include_pad = count_include_pad == 1;
    ctx.set_output(kY, x.dtype, sliding_window::window_output_shape(x.shape, x.shape[1], g));
    return {};
  }

  static Status run(RunContext& ctx) noexcept {
    const State& state = ctx.state<State>();
    state.compute(state, ctx);
    return {};
  }

 private:
  /// Divisor with count_include_pad: taps inside the input or the explicit pads.
  static std::int64_t padded_tap_count(const sliding_window::WindowGeometry& g,
                                       const sliding_window::WindowPlacement& w) noexcept {
    std::int64_t count = 1;
    for (int d = 0; d < g.rank; ++d) {
      std::int64_t first = 0, last = 0;
      sliding_window::valid_taps(w.start[d], g.dilation[d], g.kernel[d], -g.pad_begin[d], g.input[d] + g.pad_end[d],
                                 first, last);
      count *= last - first;
    }
    return count;
  }

  template <typename T>
  static void compute(const State& s, RunContext& ctx) noexcept {
    using C = compute_type::ComputeType<T>;
    const sliding_window::WindowGeometry& g = s.geometry;
    const T* x = static_cast<const T*>(ctx.input(kX).data);
    T* y = static_cast<T*>(ctx.output(kY).data);
    for (std::int64_t plane = 0; plane < s.planes; ++plane) {
      const T* x_plane = x + plane * s.in_spatial;
      T* y_plane = y + plane * s.out_spatial;
      sliding_window::for_each_window(g, [&](std::int64_t o, const sliding_window::WindowPlacement& w) {
        C sum = C(0);
        if (w.inside > 0) {
          sliding_window::visit_window(g, w, [&](std::int64_t offset) { sum += compute_type::widen(x_plane[offset]); });
        }
        const std::int64_t divisor = s.count_include_pad ? padded_tap_count(g, w) : w.inside;
        y_plane[o] = compute_type::narrow<T>(sum / static_cast<C>(divisor));
      });
    }
  }
};

}  // namespace average_pool_detail

// AveragePool-1: kernel_shape, strides, pads, auto_pad; padding never counts in the divisor.
using AveragePool_1 = VersionedKernel<average_pool_detail::AveragePoolImpl, 1, 7>;
// AveragePool-7: adds count_include_pad.
using AveragePool_7 = VersionedKernel<average_pool_detail::AveragePoolImpl, 7, 10>;
// AveragePool-10: adds ceil_mode. 11 only re-documented SAME padding as out = ceil(in / stride), which every
// version computes here.
using AveragePool_10 = VersionedKernel<average_pool_detail::AveragePoolImpl, 10, 19>;
// AveragePool-19: adds dilations; 22 added bfloat16.
using AveragePool_19 = VersionedKernel<average_pool_detail::AveragePoolImpl, 19>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
