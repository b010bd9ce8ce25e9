// SPDX-License-Identifier: MIT
// Slice: takes starts[i]:ends[i]:steps[i] along axes[i], with Python's clamping rules (negative indices count
// from the back, out-of-range indices clamp, INT64_MAX/INT64_MIN mean "to the end"). Opset 1 reads
// starts/ends/axes from attributes; opset 10 reads them (and steps) from inputs, which must be known at prepare
// time because they decide the output shape.
//
// The copy itself is the remap engine (kernels/common/remap.hpp).
#pragma once
#include <cstdint>
#include <cstring>
#include <limits>

#include "onnxmicro/kernels/common/remap.hpp"
#include "onnxmicro/kernels/common/shape_util.hpp"
#include "onnxmicro/kernels/kernel_api.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

/// Shared implementation of every Slice version; they differ in where starts/ends/axes/steps come from.
struct SliceBase : KernelDefaults {
  static constexpr std::string_view kDomain = "";
  static constexpr std::string_view kOpType = "Slice";
  static constexpr int kData = 0;

  /// The slice parameters, one entry per sliced axis.
  struct Request {
    std::int64_t starts[kMaxRank];
    std::int64_t ends[kMaxRank];
    std::int64_t axes[kMaxRank];
    std::int64_t steps[kMaxRank];
    std::size_t count = 0;
    bool has_axes = false;
  };

  static Status run(RunContext& ctx) noexcept { return remap::run_state(ctx); }

 protected:
  static Status prepare_request(PrepareContext& ctx, const Request& request, bool allow_negative_axes) noexcept {
    std::size_t bits = 0;
    ONNXMICRO_RETURN_IF_ERROR(remap::check_source(ctx, kData, bits));
    const Shape& in = ctx.input(kData).shape;
    const int rank = in.rank();
    if (request.count > static_cast<std::size_t>(rank)) {
      return Status(StatusCode::invalid_model)
             << "starts has " << request.count << " values, more than the data rank " << rank;
    }
    remap::Plan plan;
    remap::start_identity(plan, in);
    bool seen[kMaxRank] = {};
    for (std::size_t i = 0; i < request.count; ++i) {
      int axis = static_cast<int>(i);
      if (request.has_axes) {
        ONNXMICRO_RETURN_IF_ERROR(
            shape_util::normalize_axis(request.axes[i], rank, "axes value", allow_negative_axes, axis));
      }
      if (seen[axis]) {
        return Status(StatusCode::invalid_model) << "axis " << axis << " appears more than once in axes";
      }
      seen[axis] = true;
      const std::int64_t step = request.steps[i];
      if (step == 0) return Status(StatusCode::invalid_model) << "steps[" << static_cast<int>(i) << "] is 0";
      const std::int64_t dim = in[axis];
      // Python slice clamping: negative counts from the back; then [0, dim] for step > 0, [-1, dim-1] for step < 0.
      std::int64_t start = clamp_index(request.starts[i], dim, step);
      std::int64_t end = clamp_index(request.ends[i], dim, step);
      std::int64_t size = 0;
      if (step > 0 && end > start) size = (end - start + step - 1) / step;
      if (step < 0 && start > end) size = (start - end - step - 1) / -step;
      plan.axes[axis].start = size > 0 ? start : 0;
      plan.axes[axis].step = step;
      plan.axes[axis].output_dim = size;
    }
    remap::finish(plan, bits);
    return remap::set_output_and_state(ctx, plan);
  }

 private:
  static std::int64_t clamp_index(std::int64_t v, std::int64_t dim, std::int64_t step) noexcept {
    if (v < 0) v = v < -dim ? -1 : v + dim;  // -1 marks "before the first element"
    if (step > 0) return v < 0 ? 0 : (v > dim ? dim : v);
    return v < 0 ? -1 : (v > dim - 1 ? dim - 1 : v);
  }
};

/// Slice from opset 10 on: starts, ends, axes and steps are (constant) inputs 1..4.
struct SliceInputsBase : SliceBase {
 protected:
  static Status prepare_inputs(PrepareContext& ctx, bool allow_negative_axes) noexcept {
    Request request;
    std::size_t count = 0;
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(1));
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(2));
    ONNXMICRO_RETURN_IF_ERROR(
        shape_util::read_constant_ints(ctx, 1, "starts", request.starts, kMaxRank, request.count));
    ONNXMICRO_RETURN_IF_ERROR(shape_util::read_constant_ints(ctx, 2, "ends", request.ends, kMaxRank, count));
    ONNXMICRO_RETURN_IF_ERROR(check_length(ctx, 2, count, request.count));
    request.has_axes = ctx.has_input(3);
    if (request.has_axes) {
      ONNXMICRO_RETURN_IF_ERROR(shape_util::read_constant_ints(ctx, 3, "axes", request.axes, kMaxRank, count));
      ONNXMICRO_RETURN_IF_ERROR(check_length(ctx, 3, count, request.count));
    }
    if (ctx.has_input(4)) {
      ONNXMICRO_RETURN_IF_ERROR(shape_util::read_constant_ints(ctx, 4, "steps", request.steps, kMaxRank, count));
      ONNXMICRO_RETURN_IF_ERROR(check_length(ctx, 4, count, request.count));
    } else {
      for (std::size_t i = 0; i < request.count; ++i) request.steps[i] = 1;
    }
    return prepare_request(ctx, request, allow_negative_axes);
  }

 private:
  static Status check_length(const PrepareContext& ctx, int index, std::size_t count, std::size_t expected) noexcept {
    if (count == expected) return {};
    return ctx.input_error(index) << " has " << count << " values, expected " << expected << " (as many as starts)";
  }
};

/// Slice's version rules (VersionedKernel): prepare reads what version `since` accepts; SliceInputsBase holds the
/// rest.
struct SliceImpl : SliceInputsBase {
  static Status prepare(PrepareContext& ctx, int since) noexcept {
    if (since >= 11) return prepare_inputs(ctx, true);
    if (since >= 10) return prepare_inputs(ctx, false);
    return prepare_v1(ctx);
  }

 private:
  static Status prepare_v1(PrepareContext& ctx) noexcept {
    Request request;
    std::size_t ends_count = 0;
    ONNXMICRO_RETURN_IF_ERROR(ctx.required_attribute_ints("starts", request.starts, kMaxRank, request.count));
    ONNXMICRO_RETURN_IF_ERROR(ctx.required_attribute_ints("ends", request.ends, kMaxRank, ends_count));
    std::size_t axes_count = 0;
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute_ints("axes", request.axes, kMaxRank, axes_count, request.has_axes));
    request.has_axes = request.has_axes && axes_count > 0;  // an empty list means absent, as in the reference
    if (ends_count != request.count || (request.has_axes && axes_count != request.count)) {
      return Status(StatusCode::invalid_model)
             << "attributes 'starts', 'ends' and 'axes' must have the same length, got " << request.count << ", "
             << ends_count << " and " << axes_count;
    }
    for (std::size_t i = 0; i < request.count; ++i) request.steps[i] = 1;
    return prepare_request(ctx, request, false);
  }
};

// Opset 1: 'starts', 'ends' and optional 'axes' are attributes; steps are 1.
using Slice_1 = VersionedKernel<SliceImpl, 1, 10>;
// Opset 10: starts, ends, axes and steps become inputs; steps may be negative.
using Slice_10 = VersionedKernel<SliceImpl, 10, 11>;
// Opset 11: negative axes count from the back (opset 13 only adds bfloat16).
using Slice_11 = VersionedKernel<SliceImpl, 11>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
