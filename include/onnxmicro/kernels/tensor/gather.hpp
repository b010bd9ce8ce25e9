// SPDX-License-Identifier: MIT
// Gather: picks slices of `data` along `axis` at the positions in `indices` (int32 or int64, any rank):
// output shape = data.shape[:axis] + indices.shape + data.shape[axis+1:]. Elements move as raw bits (any
// fixed-size dtype, including the packed sub-byte types). An index outside the axis is a run-time error
// (StatusCode::out_of_range naming the index and the bound), checked before anything is written.
#pragma once
#include <cstdint>
#include <cstring>

#include "onnxmicro/kernels/common/shape_util.hpp"
#include "onnxmicro/kernels/kernel_api.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

namespace gather_detail {

/// The implementation of Gather (see the file comment).
struct GatherImpl : KernelDefaults {
  static constexpr std::string_view kOpType = "Gather";
  static constexpr int kData = 0;
  static constexpr int kIndices = 1;
  static constexpr int kOutput = 0;

  struct State {
    std::int64_t outer;      ///< product of data dims before the axis
    std::int64_t axis_size;  ///< data dim at the axis
    std::int64_t inner;      ///< product of data dims after the axis (elements per gathered slice)
    std::size_t element_bits;
    bool indices_are_int64;
    int axis;
  };

  static Status prepare(PrepareContext& ctx) noexcept {
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kData));
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kIndices));
    const TensorInfo& data = ctx.input(kData);
    const TensorInfo& indices = ctx.input(kIndices);
    std::size_t bits = 0;
    ONNXMICRO_RETURN_IF_ERROR(shape_util::input_element_bits(ctx, kData, bits));
    if (indices.dtype != DataType::int64 && indices.dtype != DataType::int32) {
      return ctx.input_error(kIndices, "indices")
             << " has dtype " << dtype_name(indices.dtype) << ", expected int32 or int64";
    }
    const int rank = data.shape.rank();
    if (rank == 0) {
      return ctx.input_error(kData) << " is a scalar; Gather needs rank >= 1";
    }
    std::int64_t axis_value = 0;
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("axis", axis_value, 0));
    int axis = 0;
    // Gather-1 already documents negative axes, so they are accepted in every version.
    ONNXMICRO_RETURN_IF_ERROR(shape_util::normalize_axis(axis_value, rank, "attribute 'axis'", true, axis));

    const int q = indices.shape.rank();
    ONNXMICRO_RETURN_IF_ERROR(shape_util::check_output_rank(static_cast<std::int64_t>(rank) - 1 + q));
    Shape out;
    out.resize(rank - 1 + q);
    int o = 0;
    for (int d = 0; d < axis; ++d) out[o++] = data.shape[d];
    for (int d = 0; d < q; ++d) out[o++] = indices.shape[d];
    for (int d = axis + 1; d < rank; ++d) out[o++] = data.shape[d];
    std::size_t bytes = 0;
    ONNXMICRO_RETURN_IF_ERROR(checked_byte_size(data.dtype, out, bytes));
    ctx.set_output(kOutput, data.dtype, out);

    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
    state->outer = shape_util::dims_product(data.shape, 0, axis);
    state->axis_size = data.shape[axis];
    state->inner = shape_util::dims_product(data.shape, axis + 1, rank);
    state->element_bits = bits;
    state->indices_are_int64 = indices.dtype == DataType::int64;
    state->axis = axis;

    // Constant indices are checked now, so a bad model fails at prepare instead of at every run.
    if (indices.is_constant && indices.const_data != nullptr) {
      Status status = check_indices(*state, indices.const_data, indices.shape.element_count());
      if (!status.ok()) return Status(StatusCode::invalid_model) << status.message_view();
    }
    return {};
  }

  static Status run(RunContext& ctx) noexcept {
    const State& state = ctx.state<State>();
    const ConstTensorView& data = ctx.input(kData);
    const ConstTensorView& indices = ctx.input(kIndices);
    const std::int64_t count = indices.element_count();
    ONNXMICRO_RETURN_IF_ERROR(check_indices(state, indices.data, count));
    void* dst = ctx.output(kOutput).data;
    std::int64_t dst_index = 0;
    for (std::int64_t o = 0; o < state.outer; ++o) {
      const std::int64_t row = o * state.axis_size;
      for (std::int64_t k = 0; k < count; ++k) {
        std::int64_t index = read_index(state, indices.data, k);
        if (index < 0) index += state.axis_size;
        shape_util::copy_elements(dst, dst_index, data.data, (row + index) * state.inner, state.inner,
                                  state.element_bits);
        dst_index += state.inner;
      }
    }
    if (state.element_bits < 8) shape_util::clear_padding_bits(dst, dst_index, state.element_bits);
    return {};
  }

 private:
  static std::int64_t read_index(const State& state, const void* indices, std::int64_t k) noexcept {
    if (state.indices_are_int64) {
      std::int64_t v;
      std::memcpy(&v, static_cast<const unsigned char*>(indices) + k * 8, 8);
      return v;
    }
    std::int32_t v;
    std::memcpy(&v, static_cast<const unsigned char*>(indices) + k * 4, 4);
    return v;
  }

  static Status check_indices(const State& state, const void* indices, std::int64_t count) noexcept {
    const std::int64_t low = -state.axis_size;
    for (std::int64_t k = 0; k < count; ++k) {
      std::int64_t v = read_index(state, indices, k);
      if (v < low || v >= state.axis_size) {
        Status status(StatusCode::out_of_range);
        status << "indices[" << k << "] = " << v << " is out of range for axis " << state.axis << " of size "
               << state.axis_size << " (valid: [" << low << ", " << (state.axis_size - 1) << "])";
        return status;
      }
    }
    return {};
  }
};

}  // namespace gather_detail

// Opset 1: indices in [-s, s-1] for an axis of size s. Gather-1 left negative indices unspecified and Gather-11
// defined them as counting from the back; like onnxruntime we accept them in every version, so one kernel serves
// all (opset 13 only adds bfloat16).
using Gather_1 = VersionedKernel<gather_detail::GatherImpl, 1>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
