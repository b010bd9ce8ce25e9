// SPDX-License-Identifier: MIT
// Shared machinery of Resize and Upsample. prepare() turns every output coordinate of every axis into a list of
// taps (input offset, weight) following onnx/reference/ops/op_resize.py exactly: the same coordinate transforms,
// the same neighbour choice (the n input indices nearest the source coordinate, ties to the smaller index, edge
// clamped), the same coefficients (nearest, linear, cubic, and their antialiased variants) and exclude_outside
// renormalisation. run() then sums the product of the per-axis taps for each output element in double, which
// equals the reference's axis-by-axis float64 evaluation up to rounding, and saturate-casts back to the element
// type (round half to even and clip for integers, as numpy_helper.saturate_cast). nearest mode copies elements
// bytewise, so it serves every fixed-size dtype exactly.
#pragma once
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string_view>

#include "onnxmicro/kernels/kernel_api.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {
namespace resize_util {

enum class Mode { nearest, linear, cubic };

enum class CoordinateMode {
  half_pixel,
  half_pixel_symmetric,
  pytorch_half_pixel,
  align_corners,
  asymmetric,
  tf_half_pixel_for_nn,
  tf_crop_and_resize,
};

enum class NearestMode {
  round_prefer_floor,
  round_prefer_ceil,
  floor,
  ceil,
  /// Resize-10 and Upsample (no nearest_mode attribute): floor when upsampling an axis, ceil when downsampling,
  /// as onnxruntime's "simple" mode and ONNX's original Resize-10 test data.
  legacy,
};

/// Attributes that shape the taps, parsed once in prepare().
struct Params {
  Mode mode = Mode::nearest;
  CoordinateMode coordinates = CoordinateMode::half_pixel;
  NearestMode nearest = NearestMode::round_prefer_floor;
  double cubic_coeff_a = -0.75;
  bool exclude_outside = false;
  bool antialias = false;
};

/// Element flags of an output coordinate along one axis.
enum : std::uint8_t {
  kTapNormal = 0,
  kTapExtrapolated = 1,  ///< tf_crop_and_resize source coordinate outside the input: extrapolation_value
  kTapZero = 2,          ///< nearest with exclude_outside picked an outside index: every weight is 0
};

/// The taps of one axis: for output coordinate o, taps [o*count, (o+1)*count) of offsets/weights.
struct AxisTaps {
  int count = 1;
  Span<std::int64_t> offsets;  ///< input index times the input stride of the axis
  Span<double> weights;
  Span<std::uint8_t> flags;  ///< one per output coordinate
};

/// Everything run() needs; filled by build_plan().
struct Plan {
  int rank = 0;
  Shape output_shape;
  AxisTaps axes[kMaxRank];
  int multi_tap_axes[kMaxRank];  ///< axes with more than one tap, in order
  int multi_tap_count = 0;
  double extrapolation_value = 0.0;
  unsigned char extrapolation_bytes[16] = {};  ///< extrapolation_value as the element type (nearest mode)
  std::size_t element_size = 0;
  void (*compute)(const Plan& plan, const void* x, void* y) noexcept = nullptr;
};

// ---- element conversion ----

template <typename T>
inline double load(const T& v) noexcept {
  return static_cast<double>(v);
}
template <>
inline double load<float16_t>(const float16_t& v) noexcept {
  return static_cast<double>(v.to_float());
}
template <>
inline double load<bfloat16_t>(const bfloat16_t& v) noexcept {
  return static_cast<double>(v.to_float());
}

/// Round half to even, as numpy's np.round.
inline double round_half_even(double v) noexcept {
  double r = std::floor(v);
  double diff = v - r;
  if (diff > 0.5) return r + 1.0;
  if (diff < 0.5) return r;
  return std::fmod(r, 2.0) == 0.0 ? r : r + 1.0;
}

/// numpy_helper.saturate_cast of one float64 value: integers are rounded half to even and clipped.
template <typename T>
inline T store(double v) noexcept {
  if constexpr (std::is_same<T, float16_t>::value || std::is_same<T, bfloat16_t>::value) {
    return T::from_float(static_cast<float>(v));
  } else if constexpr (std::is_floating_point<T>::value) {
    return static_cast<T>(v);
  } else {
    if (v != v) return T(0);
    double r = round_half_even(v);
    // Compare in double: the limits of 64-bit types round up to 2^63 / 2^64, which the >= test handles.
    if (r <= static_cast<double>(std::numeric_limits<T>::min())) return std::numeric_limits<T>::min();
    if (r >= static_cast<double>(std::numeric_limits<T>::max())) return std::numeric_limits<T>::max();
    return static_cast<T>(r);
  }
}

// ---- coefficients (op_resize.py _*_coeffs) ----

/// Number of taps for the mode and axis scale.
inline int tap_count(const Params& p, double scale) noexcept {
  if (p.mode == Mode::nearest) return 2;
  if (!p.antialias) return p.mode == Mode::linear ? 2 : 4;
  double s = scale < 1.0 ? scale : 1.0;
  double start = std::floor((p.mode == Mode::linear ? -1.0 : -2.0) / s) + 1.0;
  return static_cast<int>(2.0 - 2.0 * start);
}

/// Fills `coeffs[0..n)` for `ratio` in (0, 1] (1 when the source coordinate is an integer).
inline void coefficients(const Params& p, double ratio, double scale, int n, double* coeffs) noexcept {
  if (p.mode == Mode::nearest) {
    bool upper = false;
    if (ratio == 1.0) {
      upper = true;
    } else {
      switch (p.nearest) {
        case NearestMode::round_prefer_floor: upper = ratio > 0.5; break;
        case NearestMode::round_prefer_ceil: upper = ratio >= 0.5; break;
        case NearestMode::floor: upper = false; break;
        case NearestMode::ceil:
        case NearestMode::legacy: upper = true; break;
      }
    }
    coeffs[0] = upper ? 0.0 : 1.0;
    coeffs[1] = upper ? 1.0 : 0.0;
    return;
  }
  const double a = p.cubic_coeff_a;
  if (!p.antialias) {
    if (p.mode == Mode::linear) {
      coeffs[0] = 1 - ratio;
      coeffs[1] = ratio;
      return;
    }
    coeffs[0] = ((a * (ratio + 1) - 5 * a) * (ratio + 1) + 8 * a) * (ratio + 1) - 4 * a;
    coeffs[1] = ((a + 2) * ratio - (a + 3)) * ratio * ratio + 1;
    coeffs[2] = ((a + 2) * (1 - ratio) - (a + 3)) * (1 - ratio) * (1 - ratio) + 1;
    coeffs[3] = ((a * ((1 - ratio) + 1) - 5 * a) * ((1 - ratio) + 1) + 8 * a) * ((1 - ratio) + 1) - 4 * a;
    return;
  }
  // Antialias: the kernel stretched by 1/scale when downsampling, normalised to sum 1.
  const double s = scale < 1.0 ? scale : 1.0;
  const int start = 1 - n / 2;
  double sum = 0.0;
  for (int i = 0; i < n; ++i) {
    double arg = (static_cast<double>(start + i) - ratio) * s;
    double c;
    if (p.mode == Mode::linear) {
      c = 1.0 - std::fabs(arg);
      c = c < 0.0 ? 0.0 : (c > 1.0 ? 1.0 : c);
    } else {
      double x = std::fabs(arg);
      double x2 = x * x;
      double x3 = x * x2;
      if (x <= 1.0)
        c = (a + 2) * x3 - (a + 3) * x2 + 1;
      else if (x < 2.0)
        c = a * x3 - 5 * a * x2 + 8 * a * x - 4 * a;
      else
        c = 0.0;
    }
    coeffs[i] = c;
    sum += c;
  }
  for (int i = 0; i < n; ++i) coeffs[i] /= sum;
}

/// One axis's resize request.
struct AxisRequest {
  std::int64_t input_size = 0;
  std::int64_t output_size = 0;
  double scale = 1.0;
  bool has_roi = false;
  double roi_start = 0.0;  ///< already rounded to the roi dtype
  double roi_end = 1.0;
  double (*round_roi)(double) noexcept = nullptr;  ///< rounds a product to the roi dtype (numpy scalar math)
  std::int64_t input_stride = 1;
};

inline bool is_close(double a, double b) noexcept {  // math.isclose with its defaults
  if (a == b) return true;
  double diff = std::fabs(a - b);
  double largest = std::fabs(a) > std::fabs(b) ? std::fabs(a) : std::fabs(b);
  return diff <= 1e-9 * largest;
}

/// The source coordinate of output index y (op_resize.py _compute_x_ori).
inline double source_coordinate(const Params& p, const AxisRequest& r, double y, bool& extrapolated) noexcept {
  const double in = static_cast<double>(r.input_size);
  const double out = r.scale * in;
  const double out_int = static_cast<double>(r.output_size);
  extrapolated = false;
  switch (p.coordinates) {
    case CoordinateMode::align_corners: return out == 1.0 ? 0.0 : y * (in - 1) / (out - 1);
    case CoordinateMode::asymmetric: return y / r.scale;
    case CoordinateMode::tf_half_pixel_for_nn: return (y + 0.5) / r.scale;
    case CoordinateMode::tf_crop_and_resize: {
      // The reference computes roi_end - roi_start and roi_start * (in - 1) in the roi's own dtype.
      const double span = r.round_roi(r.roi_end - r.roi_start);
      double x = out == 1.0 ? r.round_roi(r.round_roi(span * (in - 1)) / 2) : y * span * (in - 1) / (out - 1);
      x = x + r.round_roi(r.roi_start * (in - 1));
      extrapolated = x < 0.0 || x > in - 1;
      return x;
    }
    // A length-1 output maps to 0 as in the spec and onnxruntime (the reference uses -0.5).
    case CoordinateMode::pytorch_half_pixel: return out == 1.0 ? 0.0 : (y + 0.5) / r.scale - 0.5;
    case CoordinateMode::half_pixel: return (y + 0.5) / r.scale - 0.5;
    case CoordinateMode::half_pixel_symmetric: {
      const double adjustment = out_int / out;
      const double center = in / 2;
      const double offset = center * (1 - adjustment);
      return offset + (y + 0.5) / r.scale - 0.5;
    }
  }
  return 0.0;
}

/// Builds the taps of one axis into memory from the prepare context.
inline Status build_axis(PrepareContext& ctx, const Params& p, const AxisRequest& r, AxisTaps& taps) noexcept {
  const std::int64_t out = r.output_size;
  const bool identity =
      is_close(r.scale, 1.0) && out == r.input_size && (!r.has_roi || (r.roi_start == 0.0 && is_close(r.roi_end, 1.0)));
  if (out > 0 && r.input_size == 0) {
    return Status(StatusCode::invalid_model) << "cannot resize an axis of size 0 to size " << out;
  }
  const int n = identity ? 1 : (p.mode == Mode::nearest ? 1 : tap_count(p, r.scale));
  if (n < 1 || n > (1 << 20)) {
    return Status(StatusCode::limit_exceeded) << "antialias filter of " << n << " taps is out of range";
  }
  taps.count = n;
  const std::size_t total = static_cast<std::size_t>(out) * static_cast<std::size_t>(n);
  ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_persistent(total, taps.offsets));
  ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_persistent(total, taps.weights));
  ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_persistent(static_cast<std::size_t>(out), taps.flags));
  if (identity) {
    for (std::int64_t o = 0; o < out; ++o) {
      taps.offsets[static_cast<std::size_t>(o)] = o * r.input_stride;
      taps.weights[static_cast<std::size_t>(o)] = 1.0;
    }
    return {};
  }
  const int coeff_count = p.mode == Mode::nearest ? 2 : n;
  double nearest_coeffs[2];
  const std::int64_t last = r.input_size - 1;
  for (std::int64_t o = 0; o < out; ++o) {
    bool extrapolated = false;
    const double x = source_coordinate(p, r, static_cast<double>(o), extrapolated);
    std::uint8_t flag = extrapolated ? kTapExtrapolated : kTapNormal;
    const std::size_t base = static_cast<std::size_t>(o) * static_cast<std::size_t>(n);
    if (p.mode == Mode::nearest && p.nearest == NearestMode::legacy) {
      double picked = r.scale < 1.0 ? std::ceil(x) : std::floor(x);
      std::int64_t index = static_cast<std::int64_t>(picked);
      index = index < 0 ? 0 : (index > last ? last : index);
      taps.offsets[base] = index * r.input_stride;
      taps.weights[base] = 1.0;
      taps.flags[static_cast<std::size_t>(o)] = flag;
      continue;
    }
    const double x_floor = std::floor(x);
    // ratio in (0, 1]: an integer coordinate takes the pixel on its left with ratio 1.
    const double ratio = x == x_floor ? 1.0 : x - x_floor;
    double* coeffs = p.mode == Mode::nearest ? nearest_coeffs : &taps.weights[base];
    coefficients(p, ratio, r.scale, coeff_count, coeffs);
    // The coeff_count indices nearest x, ties to the smaller (op_resize.py _interpolate_1d_along_axis).
    const int pad = coeff_count / 2;
    const double x_padded = x + pad;
    const double p_padded = std::floor(x_padded);
    const std::int64_t start =
        static_cast<std::int64_t>(p_padded) - coeff_count / 2 + (x_padded - p_padded == 0.0 ? 0 : 1) - pad;
    if (p.exclude_outside) {
      double sum = 0.0;
      for (int i = 0; i < coeff_count; ++i) {
        std::int64_t index = start + i;
        if (index < 0 || index > last) coeffs[i] = 0.0;
        sum += coeffs[i];
      }
      if (sum == 0.0) {
        sum = 1.0;
        if (p.mode == Mode::nearest && flag == kTapNormal) flag = kTapZero;
      }
      for (int i = 0; i < coeff_count; ++i) coeffs[i] /= sum;
    }
    taps.flags[static_cast<std::size_t>(o)] = flag;
    if (p.mode == Mode::nearest) {
      std::int64_t index = start + (nearest_coeffs[1] > nearest_coeffs[0] ? 1 : 0);
      index = index < 0 ? 0 : (index > last ? last : index);
      taps.offsets[base] = index * r.input_stride;
      taps.weights[base] = 1.0;
      continue;
    }
    for (int i = 0; i < n; ++i) {
      std::int64_t index = start + i;
      index = index < 0 ? 0 : (index > last ? last : index);
      taps.offsets[base + static_cast<std::size_t>(i)] = index * r.input_stride;
    }
  }
  return {};
}

// ---- run ----

/// Walks every output element in row-major order, handing `visit` the flags and the per-axis output counters.
template <typename Visit>
inline void for_each_output(const Plan& plan, Visit&& visit) noexcept {
  std::int64_t counter[kMaxRank] = {};
  const std::int64_t total = plan.output_shape.element_count();
  for (std::int64_t e = 0; e < total; ++e) {
    std::uint8_t flags = 0;
    std::int64_t base = 0;
    for (int d = 0; d < plan.rank; ++d) {
      const AxisTaps& t = plan.axes[d];
      flags |= t.flags[static_cast<std::size_t>(counter[d])];
      if (t.count == 1) base += t.offsets[static_cast<std::size_t>(counter[d])];
    }
    visit(e, flags, base, counter);
    for (int d = plan.rank - 1; d >= 0; --d) {
      if (++counter[d] < plan.output_shape[d]) break;
      counter[d] = 0;
    }
  }
}

/// nearest: one tap per axis, elements copied bytewise.
template <std::size_t kSize>
inline void copy_nearest(const Plan& plan, const void* x_data, void* y_data) noexcept {
  const unsigned char* x = static_cast<const unsigned char*>(x_data);
  unsigned char* y = static_cast<unsigned char*>(y_data);
  for_each_output(plan, [&](std::int64_t e, std::uint8_t flags, std::int64_t offset, const std::int64_t*) {
    unsigned char* dst = y + static_cast<std::size_t>(e) * kSize;
    if (flags & kTapExtrapolated)
      std::memcpy(dst, plan.extrapolation_bytes, kSize);
    else if (flags & kTapZero)
      std::memset(dst, 0, kSize);
    else
      std::memcpy(dst, x + static_cast<std::size_t>(offset) * kSize, kSize);
  });
}

/// linear/cubic: the sum over every combination of the multi-tap axes' taps, in double.
template <typename T>
inline void interpolate(const Plan& plan, const void* x_data, void* y_data) noexcept {
  const T* x = static_cast<const T*>(x_data);
  T* y = static_cast<T*>(y_data);
  const T extrapolated = store<T>(plan.extrapolation_value);
  for_each_output(plan, [&](std::int64_t e, std::uint8_t flags, std::int64_t base, const std::int64_t* counter) {
    if (flags & kTapExtrapolated) {
      y[e] = extrapolated;
      return;
    }
    const int m = plan.multi_tap_count;
    int tap[kMaxRank] = {};
    double acc = 0.0;
    for (;;) {
      std::int64_t offset = base;
      double weight = 1.0;
      for (int k = 0; k < m; ++k) {
        const AxisTaps& t = plan.axes[plan.multi_tap_axes[k]];
        const std::size_t i = static_cast<std::size_t>(counter[plan.multi_tap_axes[k]] * t.count + tap[k]);
        offset += t.offsets[i];
        weight *= t.weights[i];
      }
      acc += weight * load(x[offset]);
      int k = m - 1;
      for (; k >= 0; --k) {
        if (++tap[k] < plan.axes[plan.multi_tap_axes[k]].count) break;
        tap[k] = 0;
      }
      if (k < 0) break;
    }
    y[e] = store<T>(acc);
  });
}

/// Picks plan.compute for `dtype` and fills the extrapolation bytes; fails for dtypes the mode cannot handle.
inline Status select_compute(PrepareContext& ctx, int x_index, Mode mode, Plan& plan) noexcept {
  const DataType dtype = ctx.input(x_index).dtype;
  plan.element_size = dtype_size(dtype);
  auto put = [&](auto value) { std::memcpy(plan.extrapolation_bytes, &value, sizeof(value)); };
  const double v = plan.extrapolation_value;
  if (mode == Mode::nearest) {
    switch (compiled_dtype(dtype)) {
      case DataType::float32: put(store<float>(v)); break;
      case DataType::float64: put(v); break;
      case DataType::float16: put(store<float16_t>(v)); break;
      case DataType::bfloat16: put(store<bfloat16_t>(v)); break;
      case DataType::int8: put(store<std::int8_t>(v)); break;
      case DataType::int16: put(store<std::int16_t>(v)); break;
      case DataType::int32: put(store<std::int32_t>(v)); break;
      case DataType::int64: put(store<std::int64_t>(v)); break;
      case DataType::uint8: put(store<std::uint8_t>(v)); break;
      case DataType::uint16: put(store<std::uint16_t>(v)); break;
      case DataType::uint32: put(store<std::uint32_t>(v)); break;
      case DataType::uint64: put(store<std::uint64_t>(v)); break;
      case DataType::boolean: put(static_cast<std::uint8_t>(v != 0.0)); break;
      case DataType::complex64: put(store<float>(v)); break;  // real part; imaginary stays 0
      case DataType::complex128: put(v); break;
      default: return ctx.unsupported_input_dtype(x_index);
    }
    switch (plan.element_size) {
      case 1: plan.compute = &copy_nearest<1>; break;
      case 2: plan.compute = &copy_nearest<2>; break;
      case 4: plan.compute = &copy_nearest<4>; break;
      case 8: plan.compute = &copy_nearest<8>; break;
      case 16: plan.compute = &copy_nearest<16>; break;
      default: return ctx.unsupported_input_dtype(x_index);
    }
    return {};
  }
  switch (compiled_dtype(dtype)) {
    case DataType::float32: plan.compute = &interpolate<float>; break;
    case DataType::float64: plan.compute = &interpolate<double>; break;
    case DataType::float16: plan.compute = &interpolate<float16_t>; break;
    case DataType::bfloat16: plan.compute = &interpolate<bfloat16_t>; break;
    case DataType::int8: plan.compute = &interpolate<std::int8_t>; break;
    case DataType::int16: plan.compute = &interpolate<std::int16_t>; break;
    case DataType::int32: plan.compute = &interpolate<std::int32_t>; break;
    case DataType::int64: plan.compute = &interpolate<std::int64_t>; break;
    case DataType::uint8: plan.compute = &interpolate<std::uint8_t>; break;
    case DataType::uint16: plan.compute = &interpolate<std::uint16_t>; break;
    case DataType::uint32: plan.compute = &interpolate<std::uint32_t>; break;
    case DataType::uint64: plan.compute = &interpolate<std::uint64_t>; break;
    default:
      return ctx.input_error(x_index, {}, StatusCode::unsupported)
             << " has dtype " << dtype_name(dtype)
             << ", which linear and cubic interpolation do not support (nearest does)";
  }
  return {};
}

/// Builds every axis of `plan` from `requests[0..rank)` and records the multi-tap axes.
inline Status build_plan(PrepareContext& ctx, const Params& p, const AxisRequest* requests, int rank,
                         Plan& plan) noexcept {
  plan.rank = rank;
  plan.output_shape.resize(rank);
  plan.multi_tap_count = 0;
  for (int d = 0; d < rank; ++d) {
    plan.output_shape[d] = requests[d].output_size;
    ONNXMICRO_RETURN_IF_ERROR(build_axis(ctx, p, requests[d], plan.axes[d]));
    if (plan.axes[d].count > 1) plan.multi_tap_axes[plan.multi_tap_count++] = d;
  }
  std::int64_t count = 0;
  return plan.output_shape.checked_element_count(count);
}

/// Row-major strides of `shape` into `strides`.
inline void row_major_strides(const Shape& shape, std::int64_t* strides) noexcept {
  std::int64_t s = 1;
  for (int d = shape.rank() - 1; d >= 0; --d) {
    strides[d] = s;
    s *= shape[d];
  }
}

/// Parses the string attribute `name` into one of `names` (index into `values`); errors list the choices.
template <typename E, std::size_t N>
inline Status parse_choice(const PrepareContext& ctx, std::string_view name, std::string_view default_value,
                           const std::string_view (&names)[N], const E (&values)[N], E& out) noexcept {
  std::string_view text;
  ONNXMICRO_RETURN_IF_ERROR(ctx.attribute(name, text, default_value));
  for (std::size_t i = 0; i < N; ++i) {
    if (text == names[i]) {
      out = values[i];
      return {};
    }
  }
  Status s(StatusCode::invalid_model);
  s << "attribute '" << name << "' is '" << text << "', expected one of";
  for (std::size_t i = 0; i < N; ++i) s << (i ? ", '" : " '") << names[i] << "'";
  return s;
}

}  // namespace resize_util
}  // namespace kernels
ONNXMICRO_NAMESPACE_END
