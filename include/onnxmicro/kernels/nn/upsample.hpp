// SPDX-License-Identifier: MIT
// Upsample: resizes every axis by a scale >= 1 (output_dimension = floor(input_dimension * scale)), nearest or
// (multi)linear, with asymmetric coordinates (x_original = x_resized / scale): the Resize-10 behaviour, shared
// through nn/resize_util.hpp. nearest takes the floor of the source coordinate, which equals the reference's
// np.repeat for integer scales. Versions:
//   1 (experimental): 4-D only, attributes height_scale and width_scale, modes 'nearest' and 'bilinear'.
//   7: attribute scales (one per axis), any rank, modes 'nearest' and 'linear'.
//   9: scales moved to input 1 (must be known when planning).
//   10: deprecated in favour of Resize with the same signature; models stamped with a newer opset still resolve
//       to the version-9 kernel.
#pragma once
#include <cstdint>
#include <cstring>

#include "onnxmicro/kernels/kernel_api.hpp"
#include "onnxmicro/kernels/nn/resize_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {
namespace upsample_detail {

struct State {
  resize_util::Plan plan;
};

/// Shared prepare once the scales are known (`scales[0..rank)`).
inline Status prepare_with_scales(PrepareContext& ctx, const float* scales, std::size_t count) noexcept {
  const TensorInfo& x = ctx.input(0);
  const int rank = x.shape.rank();
  if (count != static_cast<std::size_t>(rank)) {
    return Status(StatusCode::invalid_model)
           << "scales has " << count << " values, expected " << rank << " (one per axis of " << x.shape << ")";
  }
  resize_util::Params params;
  std::string_view mode;
  ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("mode", mode, "nearest"));
  if (mode == "nearest") {
    params.mode = resize_util::Mode::nearest;
  } else if (mode == "linear" || mode == "bilinear") {
    params.mode = resize_util::Mode::linear;
  } else {
    return Status(StatusCode::invalid_model) << "attribute 'mode' is '" << mode << "', expected 'nearest' or 'linear'";
  }
  params.coordinates = resize_util::CoordinateMode::asymmetric;
  params.nearest = resize_util::NearestMode::legacy;
  resize_util::AxisRequest requests[kMaxRank];
  std::int64_t strides[kMaxRank];
  resize_util::row_major_strides(x.shape, strides);
  for (int d = 0; d < rank; ++d) {
    if (!(scales[d] >= 1.0f)) {
      return Status(StatusCode::invalid_model) << "scale " << d << " is below 1 (Upsample only enlarges)";
    }
    requests[d].input_size = x.shape[d];
    requests[d].scale = static_cast<double>(scales[d]);
    requests[d].output_size = static_cast<std::int64_t>(requests[d].scale * static_cast<double>(x.shape[d]));
    requests[d].input_stride = strides[d];
  }
  State* state = nullptr;
  ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
  ONNXMICRO_RETURN_IF_ERROR(resize_util::select_compute(ctx, 0, params.mode, state->plan));
  ONNXMICRO_RETURN_IF_ERROR(resize_util::build_plan(ctx, params, requests, rank, state->plan));
  ctx.set_output(0, x.dtype, state->plan.output_shape);
  return {};
}

/// Upsample-1's scales (`scales` holds 4): 4-D input, attributes height_scale and width_scale.
inline Status read_height_width_scales(PrepareContext& ctx, float* scales, std::size_t& count) noexcept {
  const TensorInfo& x = ctx.input(0);
  switch (compiled_dtype(x.dtype)) {
    case DataType::boolean:
    case DataType::int32:
    case DataType::int64:
    case DataType::float16:
    case DataType::float32:
    case DataType::float64: break;
    default: return ctx.unsupported_input_dtype(0);
  }
  if (x.shape.rank() != 4) {
    return ctx.input_error(0) << " has shape " << x.shape << ", expected rank 4 (N, C, H, W)";
  }
  scales[0] = scales[1] = 1.0f;
  ONNXMICRO_RETURN_IF_ERROR(ctx.required_attribute("height_scale", scales[2]));
  ONNXMICRO_RETURN_IF_ERROR(ctx.required_attribute("width_scale", scales[3]));
  count = 4;
  return {};
}

/// Upsample-9's scales: constant input 1.
inline Status read_scales_input(PrepareContext& ctx, float* scales, std::size_t& count) noexcept {
  ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(1));
  ONNXMICRO_RETURN_IF_ERROR(ctx.require_constant_input(1));
  const TensorInfo& s = ctx.input(1);
  const std::int64_t n = s.shape.element_count();
  if (s.dtype != DataType::float32 || s.shape.rank() != 1 || n > kMaxRank) {
    return ctx.input_error(1, "scales") << " has dtype " << dtype_name(s.dtype) << " and shape " << s.shape
                                        << ", expected a 1-D float tensor with one value per axis";
  }
  if (n > 0) std::memcpy(scales, s.const_data, static_cast<std::size_t>(n) * sizeof(float));
  count = static_cast<std::size_t>(n);
  return {};
}

/// Every Upsample version: they differ in where the scales come from.
struct UpsampleImpl : KernelDefaults {
  static constexpr std::string_view kOpType = "Upsample";

  static Status prepare(PrepareContext& ctx, int since) noexcept {
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(0));
    float scales[kMaxRank < 4 ? 4 : kMaxRank];  // one per axis; Upsample-1 writes 4
    std::size_t count = 0;
    if (since < 7) {
      ONNXMICRO_RETURN_IF_ERROR(read_height_width_scales(ctx, scales, count));
    } else if (since < 9) {
      ONNXMICRO_RETURN_IF_ERROR(ctx.required_attribute_floats("scales", scales, kMaxRank, count));
    } else {
      ONNXMICRO_RETURN_IF_ERROR(read_scales_input(ctx, scales, count));
    }
    return prepare_with_scales(ctx, scales, count);
  }

  static Status run(RunContext& ctx) noexcept {
    const resize_util::Plan& plan = ctx.state<State>().plan;
    plan.compute(plan, ctx.input(0).data, ctx.output(0).data);
    return {};
  }
};

}  // namespace upsample_detail

// Upsample-1 (experimental): 4-D input scaled by attributes height_scale and width_scale.
using Upsample_1 = VersionedKernel<upsample_detail::UpsampleImpl, 1, 7>;

// Upsample-7: any rank, scales as an attribute.
using Upsample_7 = VersionedKernel<upsample_detail::UpsampleImpl, 7, 9>;

// Upsample-9: scales moved to input 1 (also serves the deprecated version 10 and later).
using Upsample_9 = VersionedKernel<upsample_detail::UpsampleImpl, 9>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
