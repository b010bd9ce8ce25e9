// SPDX-License-Identifier: MIT
// GridSample: samples X (N, C, d1..dr) at the normalised positions of grid (N, o1..or, r) (last grid axis in
// reverse axis order: x = width first), giving Y (N, C, o1..or). Follows onnx/reference/ops/op_grid_sample.py:
// positions are denormalised in float32 (align_corners picks the corner- or centre-based mapping), out-of-range
// positions are clamped (border) or reflected (reflection) before interpolating, and every tap that falls outside
// reads 0 (zeros), the clamped pixel (border) or the reflected pixel (reflection). nearest rounds half to even, as
// PyTorch does. Note: for cubic with border/reflection padding the reference clamps/reflects the coordinate
// before taking the 4 taps, while PyTorch and onnxruntime clamp/reflect each tap; results differ near the edges,
// and this kernel follows the reference (which generates the conformance data). Versions:
//   16: 4-D X only; modes 'bilinear', 'nearest', 'bicubic'.
//   20: any spatial rank; modes renamed 'linear', 'nearest', 'cubic'.
//   22: bfloat16.
// nearest copies elements bytewise (every fixed-size dtype); linear and cubic need a floating-point X.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>

#include "onnxmicro/kernels/kernel_api.hpp"
#include "onnxmicro/kernels/nn/resize_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {
namespace grid_sample_detail {

enum class Mode { nearest, linear, cubic };
enum class Padding { zeros, border, reflection };

struct State {
  Mode mode;
  Padding padding;
  bool align_corners;
  int spatial_rank;
  std::int64_t batch;
  std::int64_t channels;
  std::int64_t in_dims[kMaxRank];     ///< d1..dr
  std::int64_t in_strides[kMaxRank];  ///< element strides of d1..dr inside one channel plane
  std::int64_t plane_size;            ///< product of d1..dr
  std::int64_t locations;             ///< product of o1..or
  std::size_t element_size;
  float (*grid_at)(const void* grid, std::int64_t index) noexcept;
  void (*sample)(const State& s, const void* x, const void* grid, void* y) noexcept;
};

/// One interpolation tap along one axis: offset inside the plane, weight, and whether it reads a pixel.
struct Tap {
  std::int64_t offset;
  double weight;
  bool inside;
};

/// _gs_reflect: reflects x by the nearer border until it is inside [lo, hi] (computed in double).
inline double reflect(double x, double lo, double hi) noexcept {
  const double range = hi - lo;
  if (range <= 0.0) return lo;  // a single-pixel axis with align_corners: everything maps to it
  if (x < lo) {
    const double dx = lo - x;
    const double n = std::trunc(dx / range);
    const double r = dx - n * range;
    return std::fmod(n, 2.0) == 0.0 ? lo + r : hi - r;
  }
  if (x > hi) {
    const double dx = x - hi;
    const double n = std::trunc(dx / range);
    const double r = dx - n * range;
    return std::fmod(n, 2.0) == 0.0 ? hi - r : lo + r;
  }
  return x;
}

/// Round half to even in float (np.rint).
inline float round_even(float v) noexcept {
  float r = std::floor(v);
  float diff = v - r;
  if (diff > 0.5f) return r + 1.0f;
  if (diff < 0.5f) return r;
  return std::fmod(r, 2.0f) == 0.0f ? r : r + 1.0f;
}

/// Maps integer index i of an axis of `size` to a readable one; false when it reads 0 (zeros padding).
inline bool pixel_index(const State& s, std::int64_t i, std::int64_t size, double lo, double hi,
                        std::int64_t& out) noexcept {
  switch (s.padding) {
    case Padding::zeros: out = i; return i >= 0 && i < size;
    case Padding::border: out = i < 0 ? 0 : (i >= size ? size - 1 : i); return true;
    case Padding::reflection: {
      out = static_cast<std::int64_t>(reflect(static_cast<double>(i), lo, hi));
      out = out < 0 ? 0 : (out >= size ? size - 1 : out);  // guards rounding; reflect keeps it in range
      return true;
    }
  }
  return false;
}

inline void cubic_coefficients(double t, double* c) noexcept {
  const double a = -0.75;
  c[0] = ((a * (t + 1) - 5 * a) * (t + 1) + 8 * a) * (t + 1) - 4 * a;
  c[1] = ((a + 2) * t - (a + 3)) * t * t + 1;
  c[2] = ((a + 2) * (1 - t) - (a + 3)) * (1 - t) * (1 - t) + 1;
  c[3] = ((a * (2 - t) - 5 * a) * (2 - t) + 8 * a) * (2 - t) - 4 * a;
}

/// The taps of every spatial axis at one grid location; returns the taps per axis.
inline int location_taps(const State& s, const void* grid, std::int64_t location, Tap (*taps)[4]) noexcept {
  const int r = s.spatial_rank;
  const int per_axis = s.mode == Mode::nearest ? 1 : (s.mode == Mode::linear ? 2 : 4);
  for (int d = 0; d < r; ++d) {
    // grid's last axis lists coordinates innermost-first: axis d reads component r - 1 - d.
    const float n = s.grid_at(grid, location * r + (r - 1 - d));
    const std::int64_t size = s.in_dims[d];
    const float length = static_cast<float>(size);
    float x = s.align_corners ? (n + 1.0f) / 2.0f * (length - 1.0f) : ((n + 1.0f) * length - 1.0f) / 2.0f;
    const double lo = s.align_corners ? 0.0 : -0.5;
    const double hi = s.align_corners ? static_cast<double>(size) - 1.0 : static_cast<double>(size) - 0.5;
    if (s.mode == Mode::nearest) x = round_even(x);
    if (x < lo || x > hi) {
      if (s.padding == Padding::border)
        x = x < 0.0f ? 0.0f : (x > length - 1.0f ? length - 1.0f : x);
      else if (s.padding == Padding::reflection)
        x = static_cast<float>(reflect(static_cast<double>(x), lo, hi));
    }
    Tap* t = taps[d];
    if (s.mode == Mode::nearest) {
      std::int64_t index = 0;
      t[0].inside = pixel_index(s, static_cast<std::int64_t>(x), size, lo, hi, index);
      t[0].offset = index * s.in_strides[d];
      t[0].weight = 1.0;
      continue;
    }
    const float x0 = std::floor(x);
    const double frac = static_cast<double>(x - x0);
    double c[4];
    std::int64_t first = static_cast<std::int64_t>(x0);
    if (s.mode == Mode::linear) {
      c[0] = 1.0 - frac;
      c[1] = frac;
    } else {
      cubic_coefficients(frac, c);
      first -= 1;
    }
    for (int k = 0; k < per_axis; ++k) {
      std::int64_t index = 0;
      t[k].inside = pixel_index(s, first + k, size, lo, hi, index);
      t[k].offset = index * s.in_strides[d];
      t[k].weight = c[k];
    }
  }
  return per_axis;
}

/// nearest: copies the picked element (or zero bytes) bytewise.
template <std::size_t kSize>
inline void sample_nearest(const State& s, const void* x_data, const void* grid, void* y_data) noexcept {
  const unsigned char* x = static_cast<const unsigned char*>(x_data);
  unsigned char* y = static_cast<unsigned char*>(y_data);
  const int r = s.spatial_rank;
  Tap taps[kMaxRank][4];
  for (std::int64_t n = 0; n < s.batch; ++n) {
    for (std::int64_t l = 0; l < s.locations; ++l) {
      location_taps(s, grid, n * s.locations + l, taps);
      bool inside = true;
      std::int64_t offset = 0;
      for (int d = 0; d < r; ++d) {
        inside = inside && taps[d][0].inside;
        offset += taps[d][0].offset;
      }
      for (std::int64_t c = 0; c < s.channels; ++c) {
        unsigned char* dst = y + static_cast<std::size_t>((n * s.channels + c) * s.locations + l) * kSize;
        if (inside)
          std::memcpy(dst, x + static_cast<std::size_t>((n * s.channels + c) * s.plane_size + offset) * kSize, kSize);
        else
          std::memset(dst, 0, kSize);
      }
    }
  }
}

/// linear / cubic: sum over every tap combination, in double, per channel.
template <typename T>
inline void sample_interpolate(const State& s, const void* x_data, const void* grid, void* y_data) noexcept {
  const T* x = static_cast<const T*>(x_data);
  T* y = static_cast<T*>(y_data);
  const int r = s.spatial_rank;
  Tap taps[kMaxRank][4];
  for (std::int64_t n = 0; n < s.batch; ++n) {
    for (std::int64_t l = 0; l < s.locations; ++l) {
      const int per_axis = location_taps(s, grid, n * s.locations + l, taps);
      for (std::int64_t c = 0; c < s.channels; ++c) {
        const T* plane = x + (n * s.channels + c) * s.plane_size;
        int counter[kMaxRank] = {};
        double acc = 0.0;
        for (;;) {
          bool inside = true;
          std::int64_t offset = 0;
          double weight = 1.0;
          for (int d = 0; d < r; ++d) {
            const Tap& t = taps[d][counter[d]];
            inside = inside && t.inside;
            offset += t.offset;
            weight *= t.weight;
          }
          if (inside) acc += weight * resize_util::load(plane[offset]);
          int d = r - 1;
          for (; d >= 0; --d) {
            if (++counter[d] < per_axis) break;
            counter[d] = 0;
          }
          if (d < 0) break;
        }
        y[(n * s.channels + c) * s.locations + l] = resize_util::store<T>(acc);
      }
    }
  }
}

template <typename G>
inline float grid_value(const void* grid, std::int64_t index) noexcept {
  return static_cast<float>(resize_util::load(static_cast<const G*>(grid)[index]));
}

inline Status prepare(PrepareContext& ctx, int version) noexcept {
  ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(0));
  ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(1));
  const TensorInfo& x = ctx.input(0);
  const TensorInfo& grid = ctx.input(1);
  State* state = nullptr;
  ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));

  std::string_view mode_text;
  ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("mode", mode_text, version < 20 ? "bilinear" : "linear"));
  // Mode names: 'bilinear'/'bicubic' until 20, 'linear'/'cubic' from 20 on.
  if (mode_text == "nearest") {
    state->mode = Mode::nearest;
  } else if (mode_text == (version < 20 ? "bilinear" : "linear")) {
    state->mode = Mode::linear;
  } else if (mode_text == (version < 20 ? "bicubic" : "cubic")) {
    state->mode = Mode::cubic;
  } else {
    return Status(StatusCode::invalid_model)
           << "attribute 'mode' is '" << mode_text << "', expected one of "
           << (version < 20 ? "'bilinear', 'nearest', 'bicubic'" : "'linear', 'nearest', 'cubic'");
  }
  std::string_view padding_text;
  ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("padding_mode", padding_text, "zeros"));
  if (padding_text == "zeros") {
    state->padding = Padding::zeros;
  } else if (padding_text == "border") {
    state->padding = Padding::border;
  } else if (padding_text == "reflection") {
    state->padding = Padding::reflection;
  } else {
    return Status(StatusCode::invalid_model)
           << "attribute 'padding_mode' is '" << padding_text << "', expected one of 'zeros', 'border', 'reflection'";
  }
  std::int64_t align = 0;
  ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("align_corners", align, 0));
  state->align_corners = align != 0;

  const int rank = x.shape.rank();
  if (rank < 3 || (version < 20 && rank != 4)) {
    return ctx.input_error(0) << " has shape " << x.shape << ", expected "
                              << (version < 20 ? "rank 4 (N, C, H, W)" : "rank >= 3 (N, C, d1, ...)");
  }
  const int r = rank - 2;
  if (grid.shape.rank() != rank || grid.shape[0] != x.shape[0] || grid.shape[rank - 1] != r) {
    return ctx.input_error(1) << " has shape " << grid.shape << ", expected [" << x.shape[0] << ", o1.."
                              << "o" << r << ", " << r << "] for X of shape " << x.shape;
  }
  switch (compiled_dtype(grid.dtype)) {
    case DataType::float32: state->grid_at = &grid_value<float>; break;
    case DataType::float64: state->grid_at = &grid_value<double>; break;
    case DataType::float16: state->grid_at = &grid_value<float16_t>; break;
    case DataType::bfloat16:
      if (version < 22) return ctx.unsupported_input_dtype(1);
      state->grid_at = &grid_value<bfloat16_t>;
      break;
    default: return ctx.unsupported_input_dtype(1);
  }
  if (x.dtype == DataType::bfloat16 && version < 22) return ctx.unsupported_input_dtype(0);
  state->element_size = dtype_size(x.dtype);
  if (state->mode == Mode::nearest) {
    switch (x.dtype == DataType::string || is_sub_byte(x.dtype) ? 0 : state->element_size) {
      case 1: state->sample = &sample_nearest<1>; break;
      case 2: state->sample = &sample_nearest<2>; break;
      case 4: state->sample = &sample_nearest<4>; break;
      case 8: state->sample = &sample_nearest<8>; break;
      case 16: state->sample = &sample_nearest<16>; break;
      default: return ctx.unsupported_input_dtype(0);
    }
  } else {
    switch (compiled_dtype(x.dtype)) {
      case DataType::float32: state->sample = &sample_interpolate<float>; break;
      case DataType::float64: state->sample = &sample_interpolate<double>; break;
      case DataType::float16: state->sample = &sample_interpolate<float16_t>; break;
      case DataType::bfloat16: state->sample = &sample_interpolate<bfloat16_t>; break;
      default:
        return ctx.input_error(0, {}, StatusCode::unsupported)
               << " has dtype " << dtype_name(x.dtype)
               << ": linear and cubic sampling need float16, bfloat16, float or double (nearest takes any type)";
    }
  }

  state->spatial_rank = r;
  state->batch = x.shape[0];
  state->channels = x.shape[1];
  Shape y;
  y.resize(rank);
  y[0] = x.shape[0];
  y[1] = x.shape[1];
  std::int64_t plane = 1;
  for (int d = r - 1; d >= 0; --d) {
    state->in_dims[d] = x.shape[d + 2];
    state->in_strides[d] = plane;
    plane *= x.shape[d + 2];
  }
  state->plane_size = plane;
  std::int64_t locations = 1;
  for (int d = 0; d < r; ++d) {
    y[d + 2] = grid.shape[d + 1];
    locations *= grid.shape[d + 1];
  }
  state->locations = locations;
  if (plane == 0 && locations > 0 && state->channels > 0 && state->padding != Padding::zeros) {
    return ctx.input_error(0) << " has an empty spatial axis " << x.shape
                              << ", which only padding_mode 'zeros' can sample";
  }
  ctx.set_output(0, x.dtype, y);
  return {};
}

inline Status run(RunContext& ctx) noexcept {
  const State& s = ctx.state<State>();
  s.sample(s, ctx.input(0).data, ctx.input(1).data, ctx.output(0).data);
  return {};
}

struct Impl : KernelDefaults {
  static constexpr std::string_view kOpType = "GridSample";
  static Status prepare(PrepareContext& ctx, int version) noexcept { return grid_sample_detail::prepare(ctx, version); }
  static Status run(RunContext& ctx) noexcept { return grid_sample_detail::run(ctx); }
};

}  // namespace grid_sample_detail

// GridSample-16: 4-D input; modes 'bilinear', 'nearest', 'bicubic'.
using GridSample_16 = VersionedKernel<grid_sample_detail::Impl, 16, 20>;
// GridSample-20: N-D input; modes renamed 'linear', 'nearest', 'cubic'.
using GridSample_20 = VersionedKernel<grid_sample_detail::Impl, 20, 22>;
// GridSample-22: bfloat16.
using GridSample_22 = VersionedKernel<grid_sample_detail::Impl, 22>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
