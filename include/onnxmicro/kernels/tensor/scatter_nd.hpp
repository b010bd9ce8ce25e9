// SPDX-License-Identifier: MIT
// ScatterND: output = copy of data, then each innermost row of `indices` (int64, length k) addresses a slice
// data[i0..ik-1] that receives the matching slice of `updates` (shape indices.shape[:-1] + data.shape[k:]),
// assigned or combined by `reduction` (add/mul from opset 16, max/min from 18). Negative indices count from the
// back. An index outside its dim is a run-time out_of_range naming the indices element and value. Plain
// scatters move raw bytes (any fixed-size dtype; strings as views); reductions need a numeric dtype. Output 0
// may reuse data's buffer.
#pragma once
#include <cstdint>
#include <cstring>

#include "onnxmicro/kernels/common/shape_util.hpp"
#include "onnxmicro/kernels/tensor/index_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {
namespace scatter_nd_detail {

/// Implementation shared by the ScatterND versions.
struct ScatterNDImpl : KernelDefaults {
  static constexpr std::string_view kOpType = "ScatterND";
  static constexpr int kInPlaceInput = 0;
  static constexpr int kData = 0;
  static constexpr int kIndices = 1;
  static constexpr int kUpdates = 2;
  static constexpr int kOutput = 0;

  struct State {
    std::int64_t tuples;          ///< number of index rows
    std::int64_t tuple_length;    ///< k = indices.shape[-1]
    std::int64_t slice_elements;  ///< product of data.shape[k:]
    std::int64_t dims[kMaxRank];  ///< data.shape[:k]
    std::int64_t strides[kMaxRank];
    std::size_t element_bytes;
    index_util::CombineFunction combine;  ///< nullptr: plain assignment
  };

  /// The reductions `since` defines: none before 16, add and mul from 16, max and min from 18.
  static Status prepare(PrepareContext& ctx, int since) noexcept {
    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
    ONNXMICRO_RETURN_IF_ERROR(index_util::prepare_scatter_inputs(ctx, index_util::max_scatter_reduction(since), false,
                                                                 state->element_bytes, state->combine));
    const TensorInfo& data = ctx.input(kData);
    const TensorInfo& indices = ctx.input(kIndices);
    const TensorInfo& updates = ctx.input(kUpdates);
    const int r = data.shape.rank();
    const int q = indices.shape.rank();
    if (r < 1 || q < 1) {
      return Status(StatusCode::invalid_model) << "inputs 0 '" << data.name << "' " << data.shape << " and 1 '"
                                               << indices.name << "' " << indices.shape << " must have rank >= 1";
    }
    const std::int64_t k = indices.shape[q - 1];
    if (k < 1 || k > r) {
      return ctx.input_error(kIndices) << " " << indices.shape << ": last dim is " << k << ", expected a value in [1, "
                                       << r << "] (the rank of input 0)";
    }
    // updates.shape must be indices.shape[:-1] + data.shape[k:].
    bool updates_ok = updates.shape.rank() == q - 1 + r - static_cast<int>(k);
    for (int d = 0; updates_ok && d < q - 1; ++d) updates_ok = updates.shape[d] == indices.shape[d];
    for (int d = static_cast<int>(k); updates_ok && d < r; ++d) {
      updates_ok = updates.shape[q - 1 + d - static_cast<int>(k)] == data.shape[d];
    }
    if (!updates_ok) {
      return ctx.input_error(kUpdates) << " has shape " << updates.shape << ", expected indices.shape[:-1] + "
                                       << "data.shape[" << k << ":] for indices " << indices.shape << " and data "
                                       << data.shape;
    }
    std::int64_t data_strides[kMaxRank];
    index_util::strides_of(data.shape, data_strides);
    state->tuples = shape_util::dims_product(indices.shape, 0, q - 1);
    state->tuple_length = k;
    state->slice_elements = shape_util::dims_product(data.shape, static_cast<int>(k), r);
    for (int j = 0; j < k; ++j) {
      state->dims[j] = data.shape[j];
      state->strides[j] = data_strides[j];
    }
    ctx.set_output(kOutput, data.dtype, data.shape);
    return {};
  }

  static Status run(RunContext& ctx) noexcept {
    const State& s = ctx.state<State>();
    const ConstTensorView& data = ctx.input(kData);
    const ConstTensorView& indices = ctx.input(kIndices);
    const unsigned char* updates = static_cast<const unsigned char*>(ctx.input(kUpdates).data);
    unsigned char* out = static_cast<unsigned char*>(ctx.output(kOutput).data);
    shape_util::copy_unless_aliased(out, data.data, data.byte_size());
    const std::size_t slice_bytes = static_cast<std::size_t>(s.slice_elements) * s.element_bytes;
    for (std::int64_t t = 0; t < s.tuples; ++t) {
      std::int64_t offset = 0;
      ONNXMICRO_RETURN_IF_ERROR(
          index_util::tuple_offset(indices, t * s.tuple_length, s.tuple_length, s.dims, s.strides, 0, offset));
      index_util::scatter_store(out + static_cast<std::size_t>(offset) * s.element_bytes,
                                updates + static_cast<std::size_t>(t) * slice_bytes, s.slice_elements, s.element_bytes,
                                s.combine);
    }
    return {};
  }
};

}  // namespace scatter_nd_detail

// Opset 11: plain assignment (13 only added bfloat16).
using ScatterND_11 = VersionedKernel<scatter_nd_detail::ScatterNDImpl, 11, 16>;
// Opset 16: adds the `reduction` attribute with add and mul.
using ScatterND_16 = VersionedKernel<scatter_nd_detail::ScatterNDImpl, 16, 18>;
// Opset 18: adds the max and min reductions.
using ScatterND_18 = VersionedKernel<scatter_nd_detail::ScatterNDImpl, 18>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
