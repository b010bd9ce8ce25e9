// SPDX-License-Identifier: MIT
// Resize: nearest / (multi)linear / (multi)cubic resampling of an N-D tensor to sizes given by `scales` or
// `sizes`. The taps are computed in prepare (nn/resize_util.hpp), so the scales/sizes/roi inputs must be known
// then (a new shape re-plans). Versions:
//   10: inputs (X, scales); asymmetric coordinates; nearest picks floor when upsampling, ceil when downsampling.
//   11: inputs (X, roi, scales[, sizes]); coordinate_transformation_mode, nearest_mode, cubic, exclude_outside,
//       extrapolation_value; tf_half_pixel_for_nn (removed in 13).
//   13: roi and scales optional; bfloat16.
//   18: axes, keep_aspect_ratio_policy, antialias.
//   19: coordinate_transformation_mode half_pixel_symmetric.
// Where the reference (onnx/reference/ops/op_resize.py) and the spec differ: the output size from scales is
// floor(input_dimension * scale), ignoring roi, as the reference and onnxruntime compute it (the spec multiplies
// by roi_end - roi_start); pytorch_half_pixel maps to 0 for a length-1 output, as the spec and onnxruntime say
// (the reference uses -0.5; nearest and linear give the same result either way).
#pragma once
#include <cstdint>
#include <cstring>

#include "onnxmicro/kernels/common/shape_util.hpp"
#include "onnxmicro/kernels/kernel_api.hpp"
#include "onnxmicro/kernels/nn/resize_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {
namespace resize_detail {

/// The prepare() of every Resize version; `version` is the kernel's since-version.
struct ResizeCommon : KernelDefaults {
  static constexpr std::string_view kOpType = "Resize";

  struct State {
    resize_util::Plan plan;
  };

  static Status prepare(PrepareContext& ctx, int version) noexcept {
    const int x_index = 0;
    const int roi_index = version >= 11 ? 1 : -1;
    const int scales_index = version >= 11 ? 2 : 1;
    const int sizes_index = version >= 11 ? 3 : -1;
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(x_index));
    if (version < 13) ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(scales_index));
    const TensorInfo& x = ctx.input(x_index);
    if (x.dtype == DataType::bfloat16 && version < 13) return ctx.unsupported_input_dtype(x_index);
    const int rank = x.shape.rank();

    resize_util::Params params;
    double extrapolation_value = 0.0;
    ONNXMICRO_RETURN_IF_ERROR(parse_attributes(ctx, version, params, extrapolation_value));

    // axes (18+): which axes scales/sizes/roi refer to.
    int axes[kMaxRank];
    std::size_t axis_count = static_cast<std::size_t>(rank);
    for (int d = 0; d < rank; ++d) axes[d] = d;
    if (version >= 18) {
      std::int64_t raw[kMaxRank];
      bool present = false;
      ONNXMICRO_RETURN_IF_ERROR(ctx.attribute_ints("axes", raw, kMaxRank, axis_count, present));
      if (!present) {
        axis_count = static_cast<std::size_t>(rank);
      } else {
        bool seen[kMaxRank] = {};
        for (std::size_t i = 0; i < axis_count; ++i) {
          ONNXMICRO_RETURN_IF_ERROR(shape_util::normalize_axis(raw[i], rank, "attribute 'axes'", true, axes[i]));
          if (seen[axes[i]]) {
            return Status(StatusCode::invalid_model) << "attribute 'axes' names axis " << axes[i] << " twice";
          }
          seen[axes[i]] = true;
        }
      }
    }

    resize_util::AxisRequest requests[kMaxRank];
    std::int64_t strides[kMaxRank];
    resize_util::row_major_strides(x.shape, strides);
    for (int d = 0; d < rank; ++d) {
      requests[d].input_size = x.shape[d];
      requests[d].output_size = x.shape[d];
      requests[d].input_stride = strides[d];
    }

    // scales or sizes: exactly one of them (an empty tensor counts as absent).
    float scales[kMaxRank];
    std::size_t scale_count = 0;
    if (ctx.has_input(scales_index)) {
      ONNXMICRO_RETURN_IF_ERROR(read_floats(ctx, scales_index, "scales", scales, scale_count));
    }
    std::int64_t sizes[kMaxRank];
    std::size_t size_count = 0;
    if (sizes_index >= 0 && ctx.has_input(sizes_index)) {
      ONNXMICRO_RETURN_IF_ERROR(shape_util::read_constant_ints(ctx, sizes_index, "sizes", sizes, kMaxRank, size_count));
    }
    if ((scale_count == 0) == (size_count == 0)) {
      return Status(StatusCode::invalid_model) << "exactly one of 'scales' and 'sizes' must be given (non-empty), got "
                                               << (scale_count ? "both" : "none");
    }
    if (scale_count != 0) {
      if (scale_count != axis_count) return length_error(ctx, scales_index, "scales", scale_count, axis_count);
      for (std::size_t i = 0; i < axis_count; ++i) {
        if (!(scales[i] > 0.0f)) {
          return ctx.input_error(scales_index, "scales") << ": value " << i << " is not positive";
        }
        resize_util::AxisRequest& r = requests[axes[i]];
        r.scale = static_cast<double>(scales[i]);
        ONNXMICRO_RETURN_IF_ERROR(to_output_size(r.scale * static_cast<double>(r.input_size), axes[i], r.output_size));
      }
    } else {
      if (size_count != axis_count) return length_error(ctx, sizes_index, "sizes", size_count, axis_count);
      for (std::size_t i = 0; i < axis_count; ++i) {
        if (sizes[i] < 0) {
          return ctx.input_error(sizes_index, "sizes") << ": value " << i << " is " << sizes[i] << ", expected >= 0";
        }
        resize_util::AxisRequest& r = requests[axes[i]];
        if (r.input_size == 0 && sizes[i] != 0) {
          return Status(StatusCode::invalid_model)
                 << "cannot resize axis " << axes[i] << " of size 0 to size " << sizes[i];
        }
        r.output_size = sizes[i];
        r.scale = r.input_size == 0 ? 1.0 : static_cast<double>(sizes[i]) / static_cast<double>(r.input_size);
      }
      if (version >= 18) ONNXMICRO_RETURN_IF_ERROR(keep_aspect_ratio(ctx, axes, axis_count, requests));
    }

    // roi matters only for tf_crop_and_resize; other modes ignore it (and need not know it).
    if (params.coordinates == resize_util::CoordinateMode::tf_crop_and_resize) {
      if (roi_index < 0 || !ctx.has_input(roi_index)) {
        return Status(StatusCode::invalid_model)
               << "coordinate_transformation_mode 'tf_crop_and_resize' needs input 1 'roi'";
      }
      ONNXMICRO_RETURN_IF_ERROR(read_roi(ctx, roi_index, axes, axis_count, requests));
    }

    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
    state->plan.extrapolation_value = extrapolation_value;
    ONNXMICRO_RETURN_IF_ERROR(resize_util::select_compute(ctx, x_index, params.mode, state->plan));
    ONNXMICRO_RETURN_IF_ERROR(resize_util::build_plan(ctx, params, requests, rank, state->plan));
    ctx.set_output(0, x.dtype, state->plan.output_shape);
    return {};
  }

  static Status run(RunContext& ctx) noexcept {
    const resize_util::Plan& plan = ctx.state<State>().plan;
    plan.compute(plan, ctx.input(0).data, ctx.output(0).data);
    return {};
  }

 private:
  static Status parse_attributes(PrepareContext& ctx, int version, resize_util::Params& p,
                                 double& extrapolation) noexcept {
    static constexpr std::string_view kModeNames[] = {"nearest", "linear", "cubic"};
    static constexpr resize_util::Mode kModes[] = {resize_util::Mode::nearest, resize_util::Mode::linear,
                                                   resize_util::Mode::cubic};
    ONNXMICRO_RETURN_IF_ERROR(resize_util::parse_choice(ctx, "mode", "nearest", kModeNames, kModes, p.mode));
    if (version < 11) {
      if (p.mode == resize_util::Mode::cubic) {
        return Status(StatusCode::invalid_model) << "attribute 'mode' is 'cubic', which Resize-10 does not have";
      }
      p.coordinates = resize_util::CoordinateMode::asymmetric;
      p.nearest = resize_util::NearestMode::legacy;
      return {};
    }
    static constexpr std::string_view kCoordinateNames[] = {
        "half_pixel",         "pytorch_half_pixel",   "align_corners",       "asymmetric",
        "tf_crop_and_resize", "tf_half_pixel_for_nn", "half_pixel_symmetric"};
    static constexpr resize_util::CoordinateMode kCoordinates[] = {
        resize_util::CoordinateMode::half_pixel,          resize_util::CoordinateMode::pytorch_half_pixel,
        resize_util::CoordinateMode::align_corners,       resize_util::CoordinateMode::asymmetric,
        resize_util::CoordinateMode::tf_crop_and_resize,  resize_util::CoordinateMode::tf_half_pixel_for_nn,
        resize_util::CoordinateMode::half_pixel_symmetric};
    ONNXMICRO_RETURN_IF_ERROR(resize_util::parse_choice(ctx, "coordinate_transformation_mode", "half_pixel",
                                                        kCoordinateNames, kCoordinates, p.coordinates));
    // tf_half_pixel_for_nn: only in Resize-11; half_pixel_symmetric: added in 19.
    if ((p.coordinates == resize_util::CoordinateMode::tf_half_pixel_for_nn && version != 11) ||
        (p.coordinates == resize_util::CoordinateMode::half_pixel_symmetric && version < 19)) {
      std::string_view text;
      ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("coordinate_transformation_mode", text, ""));
      return Status(StatusCode::invalid_model) << "attribute 'coordinate_transformation_mode' is '" << text
                                               << "', which Resize-" << version << " does not have";
    }
    static constexpr std::string_view kNearestNames[] = {"round_prefer_floor", "round_prefer_ceil", "floor", "ceil"};
    static constexpr resize_util::NearestMode kNearest[] = {
        resize_util::NearestMode::round_prefer_floor, resize_util::NearestMode::round_prefer_ceil,
        resize_util::NearestMode::floor, resize_util::NearestMode::ceil};
    ONNXMICRO_RETURN_IF_ERROR(
        resize_util::parse_choice(ctx, "nearest_mode", "round_prefer_floor", kNearestNames, kNearest, p.nearest));
    float a = -0.75f;
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("cubic_coeff_a", a, -0.75f));
    p.cubic_coeff_a = static_cast<double>(a);
    std::int64_t exclude = 0;
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("exclude_outside", exclude, 0));
    p.exclude_outside = exclude != 0;
    float extrapolation_value = 0.0f;
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("extrapolation_value", extrapolation_value, 0.0f));
    extrapolation = static_cast<double>(extrapolation_value);
    if (version >= 18) {
      std::int64_t antialias = 0;
      ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("antialias", antialias, 0));
      // The spec applies antialias to linear and cubic only; nearest ignores it.
      p.antialias = antialias != 0 && p.mode != resize_util::Mode::nearest;
    }
    return {};
  }

  static Status length_error(const PrepareContext& ctx, int index, const char* role, std::size_t got,
                             std::size_t expected) noexcept {
    return ctx.input_error(index, role) << " has " << got << " values, expected " << expected
                                        << " (one per resized axis)";
  }

  /// Reads the constant float32 `scales` input (1-D).
  static Status read_floats(PrepareContext& ctx, int index, const char* role, float* values,
                            std::size_t& count) noexcept {
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_constant_input(index));
    const TensorInfo& info = ctx.input(index);
    if (info.dtype != DataType::float32) {
      return ctx.input_error(index, role) << " has dtype " << dtype_name(info.dtype) << ", expected float";
    }
    const std::int64_t n = info.shape.element_count();
    if (info.shape.rank() > 1 || n > kMaxRank) {
      return ctx.input_error(index, role) << " must be 1-D with at most one value per axis, got shape " << info.shape;
    }
    if (n > 0) std::memcpy(values, info.const_data, static_cast<std::size_t>(n) * sizeof(float));
    count = static_cast<std::size_t>(n);
    return {};
  }

  static double round_to_float(double v) noexcept { return static_cast<double>(static_cast<float>(v)); }
  static double round_to_half(double v) noexcept {
    return static_cast<double>(float16_t::from_float(static_cast<float>(v)).to_float());
  }
  static double keep_double(double v) noexcept { return v; }

  /// Reads roi (starts then ends, one pair per axis in `axes`) into the requests.
  static Status read_roi(PrepareContext& ctx, int index, const int* axes, std::size_t axis_count,
                         resize_util::AxisRequest* requests) noexcept {
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_constant_input(index));
    const TensorInfo& info = ctx.input(index);
    const std::int64_t n = info.shape.element_count();
    if (info.shape.rank() != 1 || n != static_cast<std::int64_t>(2 * axis_count)) {
      return ctx.input_error(index, "roi") << " has shape " << info.shape << ", expected [" << (2 * axis_count)
                                           << "] (starts then ends of the resized axes)";
    }
    double (*round)(double) noexcept = nullptr;
    std::size_t size = 0;
    switch (compiled_dtype(info.dtype)) {
      case DataType::float32:
        round = &round_to_float;
        size = 4;
        break;
      case DataType::float16:
        round = &round_to_half;
        size = 2;
        break;
      case DataType::float64:
        round = &keep_double;
        size = 8;
        break;
      default:
        return ctx.input_error(index, "roi")
               << " has dtype " << dtype_name(info.dtype) << ", expected float16, float or double";
    }
    const unsigned char* bytes = static_cast<const unsigned char*>(info.const_data);
    auto value = [&](std::size_t i) {
      if (size == 4) {
        float f;
        std::memcpy(&f, bytes + i * 4, 4);
        return static_cast<double>(f);
      }
      if (size == 2) {
        std::uint16_t h;
        std::memcpy(&h, bytes + i * 2, 2);
        return static_cast<double>(float16_t::from_bits(h).to_float());
      }
      double d;
      std::memcpy(&d, bytes + i * 8, 8);
      return d;
    };
    for (std::size_t i = 0; i < axis_count; ++i) {
      resize_util::AxisRequest& r = requests[axes[i]];
      r.has_roi = true;
      r.roi_start = value(i);
      r.roi_end = value(axis_count + i);
      r.round_roi = round;
    }
    for (int d = 0; d < kMaxRank; ++d) {
      if (!requests[d].has_roi) {
        requests[d].roi_start = 0.0;
        requests[d].roi_end = 1.0;
        requests[d].round_roi = round;
      }
    }
    return {};
  }

  /// `size` (scale x input size, >= 0) truncated to an output size; limit_exceeded when it does not fit an
  /// int64 (infinite included), where the conversion would be undefined behaviour.
  static Status to_output_size(double size, int axis, std::int64_t& out) noexcept {
    if (!(size < 9.0e18)) {
      return Status(StatusCode::limit_exceeded)
             << "the output size of axis " << axis << " (scale x input size) does not fit a 64-bit size";
    }
    out = static_cast<std::int64_t>(size);
    return {};
  }

  /// keep_aspect_ratio_policy (18+, sizes only): one scale for every resized axis.
  static Status keep_aspect_ratio(PrepareContext& ctx, const int* axes, std::size_t axis_count,
                                  resize_util::AxisRequest* requests) noexcept {
    std::string_view policy;
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("keep_aspect_ratio_policy", policy, "stretch"));
    if (policy == "stretch") return {};
    const bool not_larger = policy == "not_larger";
    if (!not_larger && policy != "not_smaller") {
      return Status(StatusCode::invalid_model) << "attribute 'keep_aspect_ratio_policy' is '" << policy
                                               << "', expected one of 'stretch', 'not_larger', 'not_smaller'";
    }
    double scale = 0.0;
    for (std::size_t i = 0; i < axis_count; ++i) {
      const double s = requests[axes[i]].scale;
      if (i == 0 || (not_larger ? s < scale : s > scale)) scale = s;
    }
    for (std::size_t i = 0; i < axis_count; ++i) {
      resize_util::AxisRequest& r = requests[axes[i]];
      r.scale = scale;
      ONNXMICRO_RETURN_IF_ERROR(
          to_output_size(scale * static_cast<double>(r.input_size) + 0.5, axes[i], r.output_size));  // half up
    }
    return {};
  }
};

}  // namespace resize_detail

// Resize-10: (X, scales); asymmetric coordinates, nearest or linear.
using Resize_10 = VersionedKernel<resize_detail::ResizeCommon, 10, 11>;
// Resize-11: (X, roi, scales[, sizes]) with coordinate_transformation_mode, nearest_mode, cubic, exclude_outside.
using Resize_11 = VersionedKernel<resize_detail::ResizeCommon, 11, 13>;
// Resize-13: roi and scales optional, bfloat16, tf_half_pixel_for_nn removed.
using Resize_13 = VersionedKernel<resize_detail::ResizeCommon, 13, 18>;
// Resize-18: axes, keep_aspect_ratio_policy and antialias attributes.
using Resize_18 = VersionedKernel<resize_detail::ResizeCommon, 18, 19>;
// Resize-19: coordinate_transformation_mode half_pixel_symmetric.
using Resize_19 = VersionedKernel<resize_detail::ResizeCommon, 19>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
