// SPDX-License-Identifier: MIT
// TensorScatter: a KV-cache update. present_cache = past_cache with, for every batch entry b, the `update`
// rows along `axis` (the sequence axis, default -2) written from position write_indices[b] (0 when the input
// is omitted); mode "circular" wraps positions modulo the cache length, mode "linear" requires them to fit (a
// run-time out_of_range naming the write_indices element otherwise). Elements move as raw bits, so every
// fixed-size dtype works, including the packed 4-bit ones. Output 0 may reuse past_cache's buffer, which turns
// the op into the in-place update it models.
#pragma once
#include <cstdint>
#include <cstring>

#include "onnxmicro/kernels/common/shape_util.hpp"
#include "onnxmicro/kernels/tensor/index_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

namespace tensor_scatter_detail {

/// The implementation of TensorScatter (see the file comment).
struct TensorScatterImpl : KernelDefaults {
  static constexpr std::string_view kOpType = "TensorScatter";
  static constexpr int kInPlaceInput = 0;
  static constexpr int kPastCache = 0;
  static constexpr int kUpdate = 1;
  static constexpr int kWriteIndices = 2;
  static constexpr int kOutput = 0;

  struct State {
    std::int64_t prefix;         ///< product of dims before the axis
    std::int64_t per_batch;      ///< prefix entries per batch entry (product of dims 1..axis-1)
    std::int64_t max_length;     ///< cache length along the axis
    std::int64_t update_length;  ///< update length along the axis
    std::int64_t inner;          ///< product of dims after the axis
    std::size_t element_bits;
    bool circular;
  };

  static Status prepare(PrepareContext& ctx) noexcept {
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kPastCache));
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kUpdate));
    const TensorInfo& past = ctx.input(kPastCache);
    const TensorInfo& update = ctx.input(kUpdate);
    std::size_t bits = 0;
    ONNXMICRO_RETURN_IF_ERROR(shape_util::input_element_bits(ctx, kPastCache, bits));
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_same_dtype(kPastCache, kUpdate));
    std::string_view mode;
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("mode", mode, "linear"));
    if (mode != "linear" && mode != "circular") {
      return Status(StatusCode::invalid_model) << "attribute 'mode' is '" << mode << "', expected linear or circular";
    }
    const int rank = past.shape.rank();
    if (rank < 2) {
      return ctx.input_error(kPastCache) << " has shape " << past.shape
                                         << ", expected rank >= 2 (batch, ..., sequence)";
    }
    std::int64_t axis_value = -2;
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("axis", axis_value, -2));
    int axis = 0;
    ONNXMICRO_RETURN_IF_ERROR(shape_util::normalize_axis(axis_value, rank, "attribute 'axis'", true, axis));
    if (axis == 0) {
      return Status(StatusCode::invalid_model)
             << "attribute 'axis' is " << axis_value << ", which is the batch dim; expected a sequence axis in [1, "
             << rank - 1 << "]";
    }
    bool compatible = update.shape.rank() == rank;
    for (int d = 0; compatible && d < rank; ++d) {
      compatible = d == axis ? update.shape[d] <= past.shape[d] : update.shape[d] == past.shape[d];
    }
    if (!compatible) {
      return ctx.input_error(kUpdate) << " has shape " << update.shape << ", expected the shape of input 0 '"
                                      << past.name << "' " << past.shape << " except a sequence length (dim " << axis
                                      << ") <= " << past.shape[axis];
    }
    if (ctx.has_input(kWriteIndices)) {
      const TensorInfo& write = ctx.input(kWriteIndices);
      ONNXMICRO_RETURN_IF_ERROR(index_util::check_index_dtype(ctx, kWriteIndices, "write_indices", false));
      if (write.shape.rank() != 1 || write.shape[0] != past.shape[0]) {
        return ctx.input_error(kWriteIndices) << " has shape " << write.shape << ", expected [" << past.shape[0]
                                              << "] (one write index per batch entry)";
      }
    }
    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
    state->prefix = shape_util::dims_product(past.shape, 0, axis);
    state->per_batch = shape_util::dims_product(past.shape, 1, axis);
    state->max_length = past.shape[axis];
    state->update_length = update.shape[axis];
    state->inner = shape_util::dims_product(past.shape, axis + 1, rank);
    state->element_bits = bits;
    state->circular = mode == "circular";
    ctx.set_output(kOutput, past.dtype, past.shape);
    return {};
  }

  static Status run(RunContext& ctx) noexcept {
    const State& s = ctx.state<State>();
    const ConstTensorView& past = ctx.input(kPastCache);
    const void* update = ctx.input(kUpdate).data;
    void* out = ctx.output(kOutput).data;
    shape_util::copy_unless_aliased(out, past.data, past.byte_size());
    const bool has_write_indices = ctx.has_input(kWriteIndices);
    const std::int64_t max_length = s.max_length;
    if (s.update_length == 0 || s.inner == 0) return {};
    for (std::int64_t p = 0; p < s.prefix; ++p) {
      const std::int64_t batch = p / s.per_batch;
      std::int64_t start = has_write_indices ? index_util::read_index(ctx.input(kWriteIndices).data, true, batch) : 0;
      if (s.circular) {
        start %= max_length;  // Python's modulo: a negative start wraps to the end
        if (start < 0) start += max_length;
      } else if (start < 0 || start > max_length - s.update_length) {
        return index_util::index_out_of_range(kWriteIndices, "write_indices", ctx.input(kWriteIndices).shape, batch,
                                              start, 0, max_length - s.update_length)
               << ": " << s.update_length << " rows must fit in a cache of length " << max_length << " (mode linear)";
      }
      const std::int64_t src = p * s.update_length * s.inner;
      const std::int64_t dst = p * max_length * s.inner;
      // The rows up to the end of the cache are one run; the rest wraps to the start (circular only).
      const std::int64_t first = start + s.update_length <= max_length ? s.update_length : max_length - start;
      shape_util::copy_elements(out, dst + start * s.inner, update, src, first * s.inner, s.element_bits);
      shape_util::copy_elements(out, dst, update, src + first * s.inner, (s.update_length - first) * s.inner,
                                s.element_bits);
    }
    return {};
  }
};

}  // namespace tensor_scatter_detail

// Opset 24 introduced it.
using TensorScatter_24 = VersionedKernel<tensor_scatter_detail::TensorScatterImpl, 24>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
