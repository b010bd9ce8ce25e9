// SPDX-License-Identifier: MIT
// Helpers shared by the "transposed window" kernels (ConvTranspose, Col2Im, MaxUnpool) and the global pools:
// the scatter geometry (each input position p and kernel tap k land on output coordinate
// p * stride + k * dilation - pad_begin per spatial axis), reading per-axis INTS attributes, and Python-style
// floor division for the pad formulas the spec writes in Python.
#pragma once
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "onnxmicro/kernels/common/compute_type.hpp"
#include "onnxmicro/kernels/common/sliding_window.hpp"
#include "onnxmicro/kernels/kernel_api.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {
namespace spatial_util {

/// Carries a type through a generic lambda (see visit_float_dtype).
template <typename T>
struct TypeTag {
  using type = T;
};

/// Calls f(TypeTag<T>{}) with T the storage type of the float dtype `dtype` (float, double, float16_t,
/// bfloat16_t), so a kernel picks its compute<T> in one place; returns false for any other dtype.
template <typename F>
inline bool visit_float_dtype(DataType dtype, F&& f) noexcept {
  switch (compiled_dtype(dtype)) {
    case DataType::float32: f(TypeTag<float>{}); return true;
    case DataType::float64: f(TypeTag<double>{}); return true;
    case DataType::float16: f(TypeTag<float16_t>{}); return true;
    case DataType::bfloat16: f(TypeTag<bfloat16_t>{}); return true;
    default: return false;
  }
}

/// Python's a // b (rounds toward negative infinity); b > 0.
constexpr std::int64_t floor_div(std::int64_t a, std::int64_t b) noexcept {
  return a >= 0 ? a / b : -((-a + b - 1) / b);
}

/// Reads INTS attribute `name` with exactly `expected` values each >= `minimum` into `values`, or fills
/// `fallback` when absent. `present` says whether it was given.
inline Status read_axis_attribute(const kernels::PrepareContext& ctx, std::string_view name, int expected,
                                  std::int64_t minimum, std::int64_t fallback, std::int64_t* values,
                                  bool& present) noexcept {
  std::int64_t buffer[sliding_window::kAxisIntsCapacity] = {};
  ONNXMICRO_RETURN_IF_ERROR(sliding_window::read_axis_ints(ctx, name, expected, minimum, buffer, present));
  for (int i = 0; i < expected; ++i) values[i] = present ? buffer[i] : fallback;
  return {};
}

/// Where the positions of an input grid land in an output grid through a kernel (see the file comment).
struct ScatterGeometry {
  int rank = 0;
  std::int64_t input[sliding_window::kMaxSpatialRank] = {};
  std::int64_t output[sliding_window::kMaxSpatialRank] = {};
  std::int64_t kernel[sliding_window::kMaxSpatialRank] = {};
  std::int64_t stride[sliding_window::kMaxSpatialRank] = {};
  std::int64_t dilation[sliding_window::kMaxSpatialRank] = {};
  std::int64_t pad_begin[sliding_window::kMaxSpatialRank] = {};

  std::int64_t input_size() const noexcept { return product(input); }
  std::int64_t output_size() const noexcept { return product(output); }
  std::int64_t kernel_size() const noexcept { return product(kernel); }

 private:
  std::int64_t product(const std::int64_t* dims) const noexcept {
    std::int64_t n = 1;
    for (int i = 0; i < rank; ++i) n *= dims[i];
    return n;
  }
};

/// Calls visit(input_offset, tap, output_offset) for every (input position, kernel tap) pair whose output
/// coordinate lies inside the output grid; offsets are row-major within one plane. Taps outermost.
template <typename Visit>
inline void for_each_scatter(const ScatterGeometry& g, Visit&& visit) noexcept {
  const std::int64_t taps = g.kernel_size();
  const std::int64_t positions = g.input_size();
  if (taps == 0 || positions == 0 || g.output_size() == 0) return;
  std::int64_t tap_index[sliding_window::kMaxSpatialRank] = {};
  for (std::int64_t tap = 0; tap < taps; ++tap) {
    std::int64_t position[sliding_window::kMaxSpatialRank] = {};
    for (std::int64_t p = 0; p < positions; ++p) {
      std::int64_t offset = 0;
      bool inside = true;
      for (int d = 0; d < g.rank; ++d) {
        const std::int64_t o = position[d] * g.stride[d] + tap_index[d] * g.dilation[d] - g.pad_begin[d];
        if (o < 0 || o >= g.output[d]) {
          inside = false;
          break;
        }
        offset = offset * g.output[d] + o;
      }
      if (inside) visit(p, tap, offset);
      for (int d = g.rank - 1; d >= 0; --d) {
        if (++position[d] < g.input[d]) break;
        position[d] = 0;
      }
    }
    for (int d = g.rank - 1; d >= 0; --d) {
      if (++tap_index[d] < g.kernel[d]) break;
      tap_index[d] = 0;
    }
  }
}

/// Reads the Lp ops' `p` (default 2): a FLOAT attribute when `float_p` (LpPool-1, GlobalLpPool-1), else an INT;
/// must be > 0.
inline Status read_p(const kernels::PrepareContext& ctx, bool float_p, double& p) noexcept {
  if (float_p) {
    float value = 2.0f;
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("p", value, 2.0f));
    p = static_cast<double>(value);
  } else {
    std::int64_t value = 2;
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("p", value, 2));
    p = static_cast<double>(value);
  }
  if (!(p > 0.0) || !std::isfinite(p)) {
    return Status(StatusCode::invalid_model) << "attribute 'p' is " << p << ", expected a finite value > 0";
  }
  return {};
}

/// |v|^p, exact for p = 1 and 2.
inline double abs_power(double v, double p) noexcept {
  if (p == 2.0) return v * v;
  if (p == 1.0) return std::fabs(v);
  return std::pow(std::fabs(v), p);
}

/// sum^(1/p), exact for p = 1 and 2.
inline double root(double sum, double p) noexcept {
  if (p == 2.0) return std::sqrt(sum);
  if (p == 1.0) return sum;
  return std::pow(sum, 1.0 / p);
}

/// Starts each of `channels` accumulator planes of `plane` values at its channel's bias (0 without bias).
template <typename T>
inline void fill_with_bias(const T* bias, std::int64_t channels, std::int64_t plane,
                           compute_type::ComputeType<T>* accumulator) noexcept {
  for (std::int64_t c = 0; c < channels; ++c) {
    const compute_type::ComputeType<T> value = bias ? compute_type::widen(bias[c]) : compute_type::ComputeType<T>(0);
    for (std::int64_t i = 0; i < plane; ++i) accumulator[c * plane + i] = value;
  }
}

/// Stores `count` accumulated values into `out`, rounded to T.
template <typename T>
inline void store_narrowed(const compute_type::ComputeType<T>* accumulator, std::int64_t count, T* out) noexcept {
  for (std::int64_t i = 0; i < count; ++i) out[i] = compute_type::narrow<T>(accumulator[i]);
}

/// Checks that input `index` has rank >= 3 (N, C, spatial...) and at most kMaxSpatialRank spatial axes.
inline Status require_spatial_input(const kernels::PrepareContext& ctx, int index) noexcept {
  const kernels::TensorInfo& x = ctx.input(index);
  if (x.shape.rank() < 3) {
    return ctx.input_error(index) << " has shape " << x.shape
                                  << ", expected rank >= 3 (N, C, and at least one spatial axis)";
  }
  if (x.shape.rank() - 2 > sliding_window::kMaxSpatialRank) {
    return ctx.input_error(index, {}, StatusCode::unsupported)
           << " has " << x.shape.rank() - 2 << " spatial axes, at most " << sliding_window::kMaxSpatialRank
           << " supported (ONNXMICRO_MAX_RANK)";
  }
  return {};
}

/// The global pools' output shape: X's shape with every spatial dim 1; `plane` = product of the spatial dims.
inline Shape global_pool_shape(const Shape& x, std::int64_t& plane) noexcept {
  Shape y = x;
  plane = 1;
  for (int i = 2; i < y.rank(); ++i) {
    plane *= y[i];
    y[i] = 1;
  }
  return y;
}

/// What the global pools (GlobalAveragePool, GlobalMaxPool, GlobalLpPool) share: the state (one reduction per
/// (n, c) plane of the spatial product), picking the reduction for X's float dtype, the output shape and run().
/// `Pool` supplies `template <typename T> static void compute(const State& s, const void* x, void* y)` and its
/// own input and attribute checks between begin_prepare and finish_prepare.
template <typename Pool>
struct GlobalPool : kernels::KernelDefaults {
  static constexpr int kX = 0;
  static constexpr int kY = 0;

  struct State {
    void (*compute)(const State& s, const void* x, void* y) noexcept;
    std::int64_t planes;      ///< N * C
    std::int64_t plane_size;  ///< product of the spatial dims
    double p;                 ///< GlobalLpPool's exponent
  };

  static Status run(kernels::RunContext& ctx) noexcept {
    const State& state = ctx.state<State>();
    state.compute(state, ctx.input(kX).data, ctx.output(kY).data);
    return {};
  }

 protected:
  /// Requires X, allocates the state and picks Pool::compute for X's dtype (float types only).
  static Status begin_prepare(kernels::PrepareContext& ctx, State*& state) noexcept {
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kX));
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
    const bool is_float = visit_float_dtype(
        ctx.input(kX).dtype, [&](auto tag) { state->compute = &Pool::template compute<typename decltype(tag)::type>; });
    if (!is_float) return ctx.unsupported_input_dtype(kX);
    return {};
  }

  /// Records the plane geometry and declares Y: X's shape with every spatial dim 1.
  static void finish_prepare(kernels::PrepareContext& ctx, State& state) noexcept {
    const kernels::TensorInfo& x = ctx.input(kX);
    const Shape y = global_pool_shape(x.shape, state.plane_size);
    state.planes = x.shape[0] * x.shape[1];
    ctx.set_output(kY, x.dtype, y);
  }
};

}  // namespace spatial_util
}  // namespace kernels
ONNXMICRO_NAMESPACE_END
