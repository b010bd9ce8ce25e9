// SPDX-License-Identifier: MIT
// LpPool: y = (sum over each (dilated) window of |x|^p)^(1/p) over the spatial axes of (N, C, D1, ..., Dn);
// padding contributes nothing. Summed in double, stored in X's dtype.
#pragma once
#include <cmath>
#include <cstdint>

#include "onnxmicro/kernels/common/compute_type.hpp"
#include "onnxmicro/kernels/common/sliding_window.hpp"
#include "onnxmicro/kernels/kernel_api.hpp"
#include "onnxmicro/kernels/nn/spatial_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {
namespace lp_pool_detail {

struct LpPoolImpl : kernels::KernelDefaults {
  static constexpr std::string_view kOpType = "LpPool";
  using RunContext = kernels::RunContext;
  static constexpr int kX = 0;
  static constexpr int kY = 0;

  struct State {
    void (*compute)(const State&, RunContext&) noexcept;
    sliding_window::WindowGeometry geometry;
    std::int64_t planes, in_spatial, out_spatial;
    double p;
  };

  /// `float_p`: opset 1 declares p as FLOAT; later versions as INT.
  static Status prepare(kernels::PrepareContext& ctx, int since) noexcept {
    const bool float_p = since < 2;
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kX));
    const kernels::TensorInfo& x = ctx.input(kX);
    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
    const bool is_float = spatial_util::visit_float_dtype(
        x.dtype, [&](auto tag) { state->compute = &compute<typename decltype(tag)::type>; });
    if (!is_float) return ctx.unsupported_input_dtype(kX);
    ONNXMICRO_RETURN_IF_ERROR(spatial_util::read_p(ctx, float_p, state->p));
    sliding_window::WindowRules rules;
    rules.dilations_since = 18;
    rules.ceil_mode_since = 18;
    ONNXMICRO_RETURN_IF_ERROR(sliding_window::parse_window(ctx, x.shape, rules, state->geometry));
    const sliding_window::WindowGeometry& g = state->geometry;
    state->planes = x.shape[0] * x.shape[1];
    state->in_spatial = g.input_size();
    state->out_spatial = g.output_size();
    ctx.set_output(kY, x.dtype, sliding_window::window_output_shape(x.shape, x.shape[1], g));
    return {};
  }

  static Status run(RunContext& ctx) noexcept {
    const State& state = ctx.state<State>();
    state.compute(state, ctx);
    return {};
  }

 private:
  template <typename T>
  static void compute(const State& s, RunContext& ctx) noexcept {
    const sliding_window::WindowGeometry& g = s.geometry;
    const T* x = static_cast<const T*>(ctx.input(kX).data);
    T* y = static_cast<T*>(ctx.output(kY).data);
    for (std::int64_t plane = 0; plane < s.planes; ++plane) {
      const T* x_plane = x + plane * s.in_spatial;
      T* y_plane = y + plane * s.out_spatial;
      sliding_window::for_each_window(g, [&](std::int64_t o, const sliding_window::WindowPlacement& w) {
        double sum = 0.0;
        if (w.inside > 0) {
          sliding_window::visit_window(g, w, [&](std::int64_t offset) {
            sum += spatial_util::abs_power(static_cast<double>(compute_type::widen(x_plane[offset])), s.p);
          });
        }
        y_plane[o] = compute_type::narrow<T>(static_cast<compute_type::ComputeType<T>>(spatial_util::root(sum, s.p)));
      });
    }
  }
};

}  // namespace lp_pool_detail

// LpPool-1: p is a FLOAT attribute.
using LpPool_1 = VersionedKernel<lp_pool_detail::LpPoolImpl, 1, 2>;
// LpPool-2: p becomes an INT attribute. 11 only re-documented SAME padding; 18 added ceil_mode and dilations
// (rejected before 18 by the window parser); 22 added bfloat16.
using LpPool_2 = VersionedKernel<lp_pool_detail::LpPoolImpl, 2>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
