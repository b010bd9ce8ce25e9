// SPDX-License-Identifier: MIT
// RoiAlign: pools each region of interest (x1, y1, x2, y2, scaled by spatial_scale) of image batch_indices[r] of
// X (N, C, H, W) into an output_height x output_width grid; each bin averages (or, in 'max' mode, takes the
// largest weighted corner of) sampling_ratio^2 bilinear samples (adaptive ceil(roi/bins) when 0). Follows
// onnx/reference/ops/op_roi_align.py, which mirrors onnxruntime: float32 arithmetic for float32 (double for
// double), samples outside [-1, size] contribute 0, 'max' takes the max of the four weighted corner values.
// Versions:
//   10: coordinates scaled without a half-pixel shift (what 16 calls 'output_half_pixel').
//   16: coordinate_transformation_mode ('half_pixel' default: shift by -0.5, no 1x1 minimum roi size).
//   22: bfloat16.
#pragma once
#include <cmath>
#include <cstdint>

#include "onnxmicro/kernels/kernel_api.hpp"
#include "onnxmicro/kernels/nn/resize_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {
namespace roi_align_detail {

struct State {
  Status (*compute)(const State& s, const void* x, const void* rois, const std::int64_t* batch, void* y) noexcept;
  bool max_mode;
  bool half_pixel;
  std::int64_t batch;
  std::int64_t channels;
  std::int64_t height;
  std::int64_t width;
  std::int64_t rois;
  std::int64_t pooled_height;
  std::int64_t pooled_width;
  std::int64_t sampling_ratio;
  float spatial_scale;
};

template <typename C>
struct Sample {
  std::int64_t pos[4];
  C w[4];
};

/// pre_calc_for_bilinear_interpolate of the reference, for one sampling point.
template <typename C>
inline Sample<C> bilinear(const State& s, C y, C x) noexcept {
  Sample<C> p{};
  const C height = static_cast<C>(s.height);
  const C width = static_cast<C>(s.width);
  if (y < C(-1) || y > height || x < C(-1) || x > width) return p;  // outside: zero weights
  if (y < C(0)) y = C(0);
  if (x < C(0)) x = C(0);
  std::int64_t y_low = static_cast<std::int64_t>(y);
  std::int64_t x_low = static_cast<std::int64_t>(x);
  std::int64_t y_high, x_high;
  if (y_low >= s.height - 1) {
    y_high = y_low = s.height - 1;
    y = static_cast<C>(y_low);
  } else {
    y_high = y_low + 1;
  }
  if (x_low >= s.width - 1) {
    x_high = x_low = s.width - 1;
    x = static_cast<C>(x_low);
  } else {
    x_high = x_low + 1;
  }
  const C ly = y - static_cast<C>(y_low);
  const C lx = x - static_cast<C>(x_low);
  const C hy = C(1) - ly;
  const C hx = C(1) - lx;
  p.pos[0] = y_low * s.width + x_low;
  p.pos[1] = y_low * s.width + x_high;
  p.pos[2] = y_high * s.width + x_low;
  p.pos[3] = y_high * s.width + x_high;
  p.w[0] = hy * hx;
  p.w[1] = hy * lx;
  p.w[2] = ly * hx;
  p.w[3] = ly * lx;
  return p;
}

template <typename T>
inline Status compute(const State& s, const void* x_data, const void* roi_data, const std::int64_t* batch,
                      void* y_data) noexcept {
  using C = std::conditional_t<std::is_same<T, double>::value, double, float>;
  const T* x = static_cast<const T*>(x_data);
  const T* rois = static_cast<const T*>(roi_data);
  T* y = static_cast<T*>(y_data);
  const C scale = static_cast<C>(s.spatial_scale);
  const C offset = s.half_pixel ? C(0.5) : C(0);
  for (std::int64_t n = 0; n < s.rois; ++n) {
    const std::int64_t b = batch[n];
    if (b < 0 || b >= s.batch) {
      return Status(StatusCode::out_of_range)
             << "input 2 (batch_indices): value " << b << " at " << n << " is outside [0, " << s.batch << ")";
    }
    const T* roi = rois + n * 4;
    const C start_w = static_cast<C>(resize_util::load(roi[0])) * scale - offset;
    const C start_h = static_cast<C>(resize_util::load(roi[1])) * scale - offset;
    const C end_w = static_cast<C>(resize_util::load(roi[2])) * scale - offset;
    const C end_h = static_cast<C>(resize_util::load(roi[3])) * scale - offset;
    C roi_width = end_w - start_w;
    C roi_height = end_h - start_h;
    if (!s.half_pixel) {  // force malformed rois to 1x1
      if (roi_width < C(1)) roi_width = C(1);
      if (roi_height < C(1)) roi_height = C(1);
    }
    const C bin_h = roi_height / static_cast<C>(s.pooled_height);
    const C bin_w = roi_width / static_cast<C>(s.pooled_width);
    const std::int64_t grid_h =
        s.sampling_ratio > 0 ? s.sampling_ratio
                             : static_cast<std::int64_t>(std::ceil(roi_height / static_cast<C>(s.pooled_height)));
    const std::int64_t grid_w = s.sampling_ratio > 0
                                    ? s.sampling_ratio
                                    : static_cast<std::int64_t>(std::ceil(roi_width / static_cast<C>(s.pooled_width)));
    const std::int64_t count = grid_h * grid_w > 1 ? grid_h * grid_w : 1;
    for (std::int64_t c = 0; c < s.channels; ++c) {
      const T* plane = x + (b * s.channels + c) * s.height * s.width;
      T* out = y + (n * s.channels + c) * s.pooled_height * s.pooled_width;
      for (std::int64_t ph = 0; ph < s.pooled_height; ++ph) {
        for (std::int64_t pw = 0; pw < s.pooled_width; ++pw) {
          C value = C(0);
          bool first = true;
          for (std::int64_t iy = 0; iy < grid_h; ++iy) {
            const C yy =
                start_h + static_cast<C>(ph) * bin_h + (static_cast<C>(iy) + C(0.5)) * bin_h / static_cast<C>(grid_h);
            for (std::int64_t ix = 0; ix < grid_w; ++ix) {
              const C xx =
                  start_w + static_cast<C>(pw) * bin_w + (static_cast<C>(ix) + C(0.5)) * bin_w / static_cast<C>(grid_w);
              const Sample<C> p = bilinear<C>(s, yy, xx);
              C v[4];
              for (int k = 0; k < 4; ++k) v[k] = p.w[k] * static_cast<C>(resize_util::load(plane[p.pos[k]]));
              if (!s.max_mode) {
                value += v[0] + v[1] + v[2] + v[3];
              } else {
                C m = v[0];
                for (int k = 1; k < 4; ++k) m = v[k] > m ? v[k] : m;
                value = first || m > value ? m : value;
                first = false;
              }
            }
          }
          if (!s.max_mode) value /= static_cast<C>(count);
          out[ph * s.pooled_width + pw] = resize_util::store<T>(static_cast<double>(value));
        }
      }
    }
  }
  return {};
}

inline Status prepare(PrepareContext& ctx, int version) noexcept {
  for (int i = 0; i < 3; ++i) ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(i));
  const TensorInfo& x = ctx.input(0);
  const TensorInfo& rois = ctx.input(1);
  const TensorInfo& batch = ctx.input(2);
  State* state = nullptr;
  ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
  switch (compiled_dtype(x.dtype)) {
    case DataType::float32: state->compute = &compute<float>; break;
    case DataType::float64: state->compute = &compute<double>; break;
    case DataType::float16: state->compute = &compute<float16_t>; break;
    case DataType::bfloat16:
      if (version < 22) return ctx.unsupported_input_dtype(0);
      state->compute = &compute<bfloat16_t>;
      break;
    default: return ctx.unsupported_input_dtype(0);
  }
  ONNXMICRO_RETURN_IF_ERROR(ctx.require_same_dtype(0, 1));
  if (batch.dtype != DataType::int64) return ctx.unsupported_input_dtype(2);
  if (x.shape.rank() != 4) {
    return ctx.input_error(0) << " has shape " << x.shape << ", expected rank 4 (N, C, H, W)";
  }
  if (rois.shape.rank() != 2 || rois.shape[1] != 4) {
    return ctx.input_error(1) << " has shape " << rois.shape << ", expected [num_rois, 4]";
  }
  if (batch.shape.rank() != 1 || batch.shape[0] != rois.shape[0]) {
    return ctx.input_error(2) << " has shape " << batch.shape << ", expected [" << rois.shape[0] << "]";
  }
  std::string_view mode;
  ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("mode", mode, "avg"));
  if (mode != "avg" && mode != "max") {
    return Status(StatusCode::invalid_model) << "attribute 'mode' is '" << mode << "', expected 'avg' or 'max'";
  }
  state->max_mode = mode == "max";
  state->half_pixel = false;
  if (version >= 16) {  // coordinate_transformation_mode: added in opset 16
    std::string_view transform;
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("coordinate_transformation_mode", transform, "half_pixel"));
    if (transform != "half_pixel" && transform != "output_half_pixel") {
      return Status(StatusCode::invalid_model) << "attribute 'coordinate_transformation_mode' is '" << transform
                                               << "', expected 'half_pixel' or 'output_half_pixel'";
    }
    state->half_pixel = transform == "half_pixel";
  }
  ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("output_height", state->pooled_height, 1));
  ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("output_width", state->pooled_width, 1));
  ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("sampling_ratio", state->sampling_ratio, 0));
  ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("spatial_scale", state->spatial_scale, 1.0f));
  if (state->pooled_height < 1 || state->pooled_width < 1 || state->sampling_ratio < 0) {
    return Status(StatusCode::invalid_model)
           << "attributes output_height/output_width must be >= 1 and sampling_ratio >= 0, got " << state->pooled_height
           << "/" << state->pooled_width << " and " << state->sampling_ratio;
  }
  state->batch = x.shape[0];
  state->channels = x.shape[1];
  state->height = x.shape[2];
  state->width = x.shape[3];
  state->rois = rois.shape[0];
  if ((state->height == 0 || state->width == 0) && state->rois > 0 && state->channels > 0) {
    return ctx.input_error(0) << " has an empty image " << x.shape;
  }
  ctx.set_output(0, x.dtype, Shape{rois.shape[0], x.shape[1], state->pooled_height, state->pooled_width});
  return {};
}

inline Status run(RunContext& ctx) noexcept {
  const State& s = ctx.state<State>();
  return s.compute(s, ctx.input(0).data, ctx.input(1).data, ctx.input(2).data_as<std::int64_t>(), ctx.output(0).data);
}

struct Impl : KernelDefaults {
  static constexpr std::string_view kOpType = "RoiAlign";
  static Status prepare(PrepareContext& ctx, int version) noexcept { return roi_align_detail::prepare(ctx, version); }
  static Status run(RunContext& ctx) noexcept { return roi_align_detail::run(ctx); }
};

}  // namespace roi_align_detail

// RoiAlign-10: no half-pixel shift; rois at least 1x1.
using RoiAlign_10 = VersionedKernel<roi_align_detail::Impl, 10, 16>;
// RoiAlign-16: coordinate_transformation_mode, default 'half_pixel'.
using RoiAlign_16 = VersionedKernel<roi_align_detail::Impl, 16, 22>;
// RoiAlign-22: bfloat16.
using RoiAlign_22 = VersionedKernel<roi_align_detail::Impl, 22>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
