// SPDX-License-Identifier: MIT
// MaxRoiPool: max-pools each region of interest (batch_id, x1, y1, x2, y2) of X (N, C, H, W), scaled by
// spatial_scale and rounded to whole pixels, into a pooled_shape (h, w) grid of bins; an empty bin gives 0.
// The Caffe/Fast R-CNN ROIPooling that onnxruntime implements (the ONNX reference has no MaxRoiPool).
// Versions: 1; 22 added bfloat16 (same semantics, so one kernel checks the opset for bfloat16).
#pragma once
#include <cmath>
#include <cstdint>

#include "onnxmicro/kernels/kernel_api.hpp"
#include "onnxmicro/kernels/nn/resize_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

namespace max_roi_pool_detail {

/// The implementation of MaxRoiPool (see the file comment).
struct MaxRoiPoolImpl : KernelDefaults {
  static constexpr std::string_view kOpType = "MaxRoiPool";
  static constexpr int kX = 0;
  static constexpr int kRois = 1;

  struct State {
    Status (*compute)(const State& s, const void* x, const void* rois, void* y) noexcept;
    std::int64_t batch, channels, height, width, rois, pooled_height, pooled_width;
    float spatial_scale;
  };

  static Status prepare(PrepareContext& ctx) noexcept {
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kX));
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kRois));
    const TensorInfo& x = ctx.input(kX);
    const TensorInfo& rois = ctx.input(kRois);
    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
    switch (compiled_dtype(x.dtype)) {
      case DataType::float32: state->compute = &compute<float>; break;
      case DataType::float64: state->compute = &compute<double>; break;
      case DataType::float16: state->compute = &compute<float16_t>; break;
      case DataType::bfloat16:
        if (ctx.opset_version() < 22) return ctx.unsupported_input_dtype(kX);  // bfloat16: added in opset 22
        state->compute = &compute<bfloat16_t>;
        break;
      default: return ctx.unsupported_input_dtype(kX);
    }
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_same_dtype(kX, kRois));
    if (x.shape.rank() != 4) {
      return ctx.input_error(kX) << " has shape " << x.shape << ", expected rank 4 (N, C, H, W)";
    }
    if (rois.shape.rank() != 2 || rois.shape[1] != 5) {
      return ctx.input_error(kRois) << " has shape " << rois.shape
                                    << ", expected [num_rois, 5] (batch_id, x1, y1, x2, y2)";
    }
    std::int64_t pooled[2];
    std::size_t count = 0;
    bool present = false;
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute_ints("pooled_shape", pooled, 2, count, present));
    if (!present || count != 2 || pooled[0] < 1 || pooled[1] < 1) {
      return Status(StatusCode::invalid_model) << "attribute 'pooled_shape' must be two positive ints (height, width)";
    }
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("spatial_scale", state->spatial_scale, 1.0f));
    state->batch = x.shape[0];
    state->channels = x.shape[1];
    state->height = x.shape[2];
    state->width = x.shape[3];
    state->rois = rois.shape[0];
    state->pooled_height = pooled[0];
    state->pooled_width = pooled[1];
    ctx.set_output(0, x.dtype, Shape{rois.shape[0], x.shape[1], pooled[0], pooled[1]});
    return {};
  }

  static Status run(RunContext& ctx) noexcept {
    const State& s = ctx.state<State>();
    return s.compute(s, ctx.input(kX).data, ctx.input(kRois).data, ctx.output(0).data);
  }

 private:
  static std::int64_t clamp(std::int64_t v, std::int64_t hi) noexcept { return v < 0 ? 0 : (v > hi ? hi : v); }

  template <typename T>
  static Status compute(const State& s, const void* x_data, const void* roi_data, void* y_data) noexcept {
    using resize_util::load;
    const T* x = static_cast<const T*>(x_data);
    const T* rois = static_cast<const T*>(roi_data);
    T* y = static_cast<T*>(y_data);
    const float scale = s.spatial_scale;
    for (std::int64_t n = 0; n < s.rois; ++n) {
      const T* roi = rois + n * 5;
      const std::int64_t b = static_cast<std::int64_t>(load(roi[0]));
      if (b < 0 || b >= s.batch) {
        return Status(StatusCode::out_of_range)
               << "input 1 (rois): batch id " << b << " of roi " << n << " is outside [0, " << s.batch << ")";
      }
      const std::int64_t start_w = static_cast<std::int64_t>(std::round(static_cast<float>(load(roi[1])) * scale));
      const std::int64_t start_h = static_cast<std::int64_t>(std::round(static_cast<float>(load(roi[2])) * scale));
      const std::int64_t end_w = static_cast<std::int64_t>(std::round(static_cast<float>(load(roi[3])) * scale));
      const std::int64_t end_h = static_cast<std::int64_t>(std::round(static_cast<float>(load(roi[4])) * scale));
      const std::int64_t roi_height = end_h - start_h + 1 > 1 ? end_h - start_h + 1 : 1;  // malformed: 1x1
      const std::int64_t roi_width = end_w - start_w + 1 > 1 ? end_w - start_w + 1 : 1;
      const float bin_h = static_cast<float>(roi_height) / static_cast<float>(s.pooled_height);
      const float bin_w = static_cast<float>(roi_width) / static_cast<float>(s.pooled_width);
      for (std::int64_t c = 0; c < s.channels; ++c) {
        const T* plane = x + (b * s.channels + c) * s.height * s.width;
        T* out = y + (n * s.channels + c) * s.pooled_height * s.pooled_width;
        for (std::int64_t ph = 0; ph < s.pooled_height; ++ph) {
          const std::int64_t h0 =
              clamp(static_cast<std::int64_t>(std::floor(static_cast<float>(ph) * bin_h)) + start_h, s.height);
          const std::int64_t h1 =
              clamp(static_cast<std::int64_t>(std::ceil(static_cast<float>(ph + 1) * bin_h)) + start_h, s.height);
          for (std::int64_t pw = 0; pw < s.pooled_width; ++pw) {
            const std::int64_t w0 =
                clamp(static_cast<std::int64_t>(std::floor(static_cast<float>(pw) * bin_w)) + start_w, s.width);
            const std::int64_t w1 =
                clamp(static_cast<std::int64_t>(std::ceil(static_cast<float>(pw + 1) * bin_w)) + start_w, s.width);
            double best = 0.0;  // an empty bin gives 0
            bool first = true;
            for (std::int64_t h = h0; h < h1; ++h) {
              for (std::int64_t w = w0; w < w1; ++w) {
                const double v = load(plane[h * s.width + w]);
                if (first || v > best) best = v;
                first = false;
              }
            }
            out[ph * s.pooled_width + pw] = resize_util::store<T>(best);
          }
        }
      }
    }
    return {};
  }
};

}  // namespace max_roi_pool_detail

// MaxRoiPool-1 (also 22, which added bfloat16).
using MaxRoiPool_1 = VersionedKernel<max_roi_pool_detail::MaxRoiPoolImpl, 1>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
