// SPDX-License-Identifier: MIT
// MaxUnpool: the partial inverse of MaxPool. Y starts at zero and each X element is written to the position
// its index I names. Indices count over (N, C, D1..Dn) flattened with the inferred spatial size
//   (in - 1) * stride + kernel - pad_begin - pad_end
// per axis. When the optional output_shape input asks for another shape, that inferred image is placed at
// the start of every axis of the requested one (cropped where smaller), as onnx's reference does and its
// expected outputs need. output_shape decides the output shape, so it must be known at prepare time.
#pragma once
#include <cstdint>
#include <cstring>

#include "onnxmicro/kernels/common/compute_type.hpp"
#include "onnxmicro/kernels/common/shape_util.hpp"
#include "onnxmicro/kernels/common/sliding_window.hpp"
#include "onnxmicro/kernels/kernel_api.hpp"
#include "onnxmicro/kernels/nn/spatial_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {
namespace max_unpool_detail {

struct MaxUnpoolImpl : kernels::KernelDefaults {
  static constexpr std::string_view kOpType = "MaxUnpool";
  static constexpr int kX = 0;
  static constexpr int kI = 1;
  static constexpr int kOutputShape = 2;
  static constexpr int kY = 0;

  struct State {
    int rank;  ///< full rank of X
    std::int64_t inferred[kMaxRank];
    std::int64_t output[kMaxRank];
    std::int64_t inferred_count, output_count, count;
    std::size_t element_bytes;
  };

  static Status prepare(kernels::PrepareContext& ctx, int /*since: every version accepts the same*/) noexcept {
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kX));
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kI));
    const kernels::TensorInfo& x = ctx.input(kX);
    if (!compute_type::is_loadable_floating(x.dtype)) return ctx.unsupported_input_dtype(kX);
    const kernels::TensorInfo& indices = ctx.input(kI);
    if (indices.dtype != DataType::int64) {
      return ctx.input_error(kI, "I") << " has dtype " << dtype_name(indices.dtype) << ", expected int64";
    }
    if (indices.shape != x.shape) {
      return ctx.input_error(kI, "I") << " has shape " << indices.shape << ", expected X's shape " << x.shape;
    }
    ONNXMICRO_RETURN_IF_ERROR(spatial_util::require_spatial_input(ctx, kX));
    const int spatial_rank = x.shape.rank() - 2;
    std::int64_t kernel[sliding_window::kMaxSpatialRank] = {}, strides[sliding_window::kMaxSpatialRank] = {};
    std::int64_t pads[2 * sliding_window::kMaxSpatialRank] = {};
    bool present = false;
    ONNXMICRO_RETURN_IF_ERROR(
        spatial_util::read_axis_attribute(ctx, "kernel_shape", spatial_rank, 1, 1, kernel, present));
    if (!present) return Status(StatusCode::invalid_model) << "required attribute 'kernel_shape' (INTS) is missing";
    ONNXMICRO_RETURN_IF_ERROR(spatial_util::read_axis_attribute(ctx, "strides", spatial_rank, 1, 1, strides, present));
    ONNXMICRO_RETURN_IF_ERROR(spatial_util::read_axis_attribute(ctx, "pads", 2 * spatial_rank, 0, 0, pads, present));

    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
    const int rank = x.shape.rank();
    state->rank = rank;
    Shape inferred = x.shape;
    for (int i = 0; i < spatial_rank; ++i) {
      inferred[i + 2] = (x.shape[i + 2] - 1) * strides[i] + kernel[i] - pads[i] - pads[i + spatial_rank];
      if (inferred[i + 2] < 0) {
        return Status(StatusCode::invalid_model) << "spatial axis " << i << " of the unpooled output would have size "
                                                 << inferred[i + 2] << " (pads too large)";
      }
    }
    Shape y = inferred;
    if (ctx.has_input(kOutputShape)) {
      std::int64_t values[kMaxRank] = {};
      std::size_t count = 0;
      ONNXMICRO_RETURN_IF_ERROR(
          kernels::shape_util::read_constant_ints(ctx, kOutputShape, "output_shape", values, kMaxRank, count));
      if (count != static_cast<std::size_t>(rank) || values[0] != x.shape[0] || values[1] != x.shape[1]) {
        Status status = ctx.input_error(kOutputShape, "output_shape");
        status << " is ";
        kernels::shape_util::append_int_list(status, values, count);
        return status << ", expected " << rank << " values starting with X's N and C " << x.shape;
      }
      for (int i = 2; i < rank; ++i) {
        if (values[i] < 0) {
          return ctx.input_error(kOutputShape, "output_shape") << " has a negative dim";
        }
        y[i] = values[i];
      }
    }
    for (int i = 0; i < rank; ++i) {
      state->inferred[i] = inferred[i];
      state->output[i] = y[i];
    }
    ONNXMICRO_RETURN_IF_ERROR(inferred.checked_element_count(state->inferred_count));
    ONNXMICRO_RETURN_IF_ERROR(y.checked_element_count(state->output_count));
    state->count = x.shape.element_count();
    state->element_bytes = dtype_size(x.dtype);
    ctx.set_output(kY, x.dtype, y);
    return {};
  }

  static Status run(kernels::RunContext& ctx) noexcept {
    const State& s = ctx.state<State>();
    const unsigned char* x = static_cast<const unsigned char*>(ctx.input(kX).data);
    const std::int64_t* indices = static_cast<const std::int64_t*>(ctx.input(kI).data);
    unsigned char* y = static_cast<unsigned char*>(ctx.output(kY).data);
    // All-zero bytes are 0.0 in every float dtype.
    if (s.output_count > 0) std::memset(y, 0, static_cast<std::size_t>(s.output_count) * s.element_bytes);
    for (std::int64_t k = 0; k < s.count; ++k) {
      std::int64_t index = indices[k];
      if (index < 0 || index >= s.inferred_count) {
        return Status(StatusCode::invalid_argument) << "input 1 (I) element " << k << " is " << index
                                                    << ", expected a value in [0, " << s.inferred_count << ")";
      }
      // Coordinates in the inferred shape -> offset in the output (skipped when cropped away).
      std::int64_t coordinates[kMaxRank];
      for (int d = s.rank - 1; d >= 0; --d) {
        coordinates[d] = index % s.inferred[d];
        index /= s.inferred[d];
      }
      std::int64_t offset = 0;
      bool inside = true;
      for (int d = 0; d < s.rank && inside; ++d) {
        inside = coordinates[d] < s.output[d];
        offset = offset * s.output[d] + coordinates[d];
      }
      if (inside) {
        std::memcpy(y + static_cast<std::size_t>(offset) * s.element_bytes,
                    x + static_cast<std::size_t>(k) * s.element_bytes, s.element_bytes);
      }
    }
    return {};
  }
};

}  // namespace max_unpool_detail

// MaxUnpool-9 (also 11, which only clarified how output_shape relates to the indices, and 22, which added
// bfloat16).
using MaxUnpool_9 = VersionedKernel<max_unpool_detail::MaxUnpoolImpl, 9>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
