// SPDX-License-Identifier: MIT
// DynamicQuantizeLinear (opset 11, the only version): quantizes a float tensor to uint8 with a scale and zero
// point computed from its range (extended to include 0):
//   y_scale = (max(0, max(x)) - min(0, min(x))) / 255   (1 / 255 when the range is empty)
//   y_zero_point = round(saturate(0 - min(0, min(x)) / y_scale))
//   y = saturate(round(x / y_scale) + y_zero_point)
// all in float32 and rounding half to even, exactly as the ONNX reference. NaN elements are left out of the
// range (numpy would make every output NaN-derived); an empty x gives y_scale 1/255 and zero point 0.
#pragma once
#include <cmath>
#include <cstdint>

#include "onnxmicro/kernels/kernel_api.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

namespace dynamic_quantize_linear_detail {

/// The implementation of DynamicQuantizeLinear (see the file comment).
struct DynamicQuantizeLinearImpl : KernelDefaults {
  static constexpr std::string_view kOpType = "DynamicQuantizeLinear";
  static constexpr int kX = 0;
  static constexpr int kY = 0;
  static constexpr int kScale = 1;
  static constexpr int kZeroPoint = 2;

  static Status prepare(PrepareContext& ctx) noexcept {
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kX));
    if (ctx.input(kX).dtype != DataType::float32) return ctx.unsupported_input_dtype(kX);
    ctx.set_output(kY, DataType::uint8, ctx.input(kX).shape);
    ctx.set_output(kScale, DataType::float32, Shape{});
    ctx.set_output(kZeroPoint, DataType::uint8, Shape{});
    return {};
  }

  static Status run(RunContext& ctx) noexcept {
    const float* x = static_cast<const float*>(ctx.input(kX).data);
    const std::int64_t count = ctx.input(kX).element_count();
    float high = 0.0f, low = 0.0f;
    for (std::int64_t i = 0; i < count; ++i) {
      if (x[i] > high) high = x[i];
      if (x[i] < low) low = x[i];
    }
    const float scale = (high == low ? 1.0f : high - low) / 255.0f;
    const float zero_point = std::nearbyint(clamp(0.0f - low / scale));
    if (ctx.has_output(kY)) {
      std::uint8_t* y = static_cast<std::uint8_t*>(ctx.output(kY).data);
      for (std::int64_t i = 0; i < count; ++i) {
        y[i] = static_cast<std::uint8_t>(clamp(std::nearbyint(x[i] / scale) + zero_point));
      }
    }
    if (ctx.has_output(kScale)) *static_cast<float*>(ctx.output(kScale).data) = scale;
    if (ctx.has_output(kZeroPoint)) {
      *static_cast<std::uint8_t*>(ctx.output(kZeroPoint).data) = static_cast<std::uint8_t>(zero_point);
    }
    return {};
  }

 private:
  /// Saturates to [0, 255]; NaN gives 0.
  static float clamp(float v) noexcept { return v >= 255.0f ? 255.0f : (v >= 0.0f ? v : 0.0f); }
};

}  // namespace dynamic_quantize_linear_detail

// Opset 11: the only version.
using DynamicQuantizeLinear_11 = VersionedKernel<dynamic_quantize_linear_detail::DynamicQuantizeLinearImpl, 11>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
