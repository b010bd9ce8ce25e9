// SPDX-License-Identifier: MIT
// CenterCropPad: crops or zero-pads each listed axis (attribute 'axes', default all) to the size in input 1
// ('shape', known at prepare time since it decides the output shape), keeping the input centred; when the
// difference is odd the extra element is cut from / added at the end, as the ONNX reference does. Elements move
// as raw bits through the per-axis remap of kernels/common/remap.hpp.
#pragma once
#include <cstdint>

#include "onnxmicro/kernels/common/remap.hpp"
#include "onnxmicro/kernels/common/shape_util.hpp"
#include "onnxmicro/kernels/kernel_api.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

namespace center_crop_pad_detail {

/// The implementation of CenterCropPad (see the file comment).
struct CenterCropPadImpl : KernelDefaults {
  static constexpr std::string_view kOpType = "CenterCropPad";
  static constexpr int kInput = 0;
  static constexpr int kShape = 1;

  static Status prepare(PrepareContext& ctx) noexcept {
    std::size_t bits = 0;
    ONNXMICRO_RETURN_IF_ERROR(remap::check_source(ctx, kInput, bits));
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kShape));
    std::int64_t sizes[kMaxRank];
    std::size_t count = 0;
    ONNXMICRO_RETURN_IF_ERROR(shape_util::read_constant_ints(ctx, kShape, "shape", sizes, kMaxRank, count));
    std::int64_t axes[kMaxRank];
    std::size_t axis_count = 0;
    bool has_axes = false;
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute_ints("axes", axes, kMaxRank, axis_count, has_axes));
    const Shape& in = ctx.input(kInput).shape;
    const int rank = in.rank();
    if (!has_axes) axis_count = static_cast<std::size_t>(rank);
    if (count != axis_count) {
      return ctx.input_error(kShape, "shape") << " has " << count << " values, expected " << axis_count << " (one per "
                                              << (has_axes ? "value of 'axes'" : "input axis") << ")";
    }
    remap::Plan plan;
    remap::start_identity(plan, in);
    for (std::size_t i = 0; i < axis_count; ++i) {
      int axis = static_cast<int>(i);
      if (has_axes) ONNXMICRO_RETURN_IF_ERROR(shape_util::normalize_axis(axes[i], rank, "axes value", true, axis));
      remap::Axis& a = plan.axes[axis];
      const std::int64_t size = sizes[i];
      if (size < 0) {
        return Status(StatusCode::invalid_model) << "shape value " << size << " for axis " << axis << " is negative";
      }
      if (size < a.source_dim) {  // crop: skip half the difference (rounded down) at the start
        a.start = (a.source_dim - size) / 2;
      } else if (size > a.source_dim) {  // pad with zeros: half the difference (rounded down) before
        a.kind = remap::AxisKind::constant_pad;
        a.start = -((size - a.source_dim) / 2);
      }
      a.output_dim = size;
    }
    remap::finish(plan, bits);
    return remap::set_output_and_state(ctx, plan);
  }

  static Status run(RunContext& ctx) noexcept { return remap::run_state(ctx); }
};

}  // namespace center_crop_pad_detail

// Opset 18: the first version.
using CenterCropPad_18 = VersionedKernel<center_crop_pad_detail::CenterCropPadImpl, 18>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
