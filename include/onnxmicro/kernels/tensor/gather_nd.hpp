// SPDX-License-Identifier: MIT
// GatherND: each innermost row of `indices` (int64, length m) addresses a slice of `data`; with batch_dims = b
// the first b dims of data and indices are batch dims walked together. Output shape = indices.shape[:-1] +
// data.shape[b+m:]. Negative indices count from the back. Elements move as raw bytes (any fixed-size dtype;
// strings as views). An index outside its dim is a run-time out_of_range naming the indices element, its value
// and the bound.
#pragma once
#include <cstdint>
#include <cstring>

#include "onnxmicro/kernels/common/shape_util.hpp"
#include "onnxmicro/kernels/tensor/index_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {
namespace gather_nd_detail {

/// Implementation shared by the GatherND versions.
struct GatherNDImpl : KernelDefaults {
  static constexpr std::string_view kOpType = "GatherND";
  static constexpr int kData = 0;
  static constexpr int kIndices = 1;
  static constexpr int kOutput = 0;

  struct State {
    std::int64_t batch_count;     ///< product of the batch dims
    std::int64_t tuples;          ///< index tuples per batch
    std::int64_t tuple_length;    ///< m = indices.shape[-1]
    std::int64_t slice_elements;  ///< elements per gathered slice (product of data.shape[b+m:])
    std::int64_t batch_stride;    ///< data elements per batch entry
    std::int64_t dims[kMaxRank];  ///< data dims addressed by a tuple (data.shape[b:b+m])
    std::int64_t strides[kMaxRank];
    std::size_t element_bytes;
    int batch_dims;
  };

  /// The batch_dims attribute exists from opset 12.
  static Status prepare(PrepareContext& ctx, int since) noexcept {
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kData));
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kIndices));
    const TensorInfo& data = ctx.input(kData);
    const TensorInfo& indices = ctx.input(kIndices);
    std::size_t element_bytes = 0;
    ONNXMICRO_RETURN_IF_ERROR(index_util::input_element_bytes(ctx, kData, element_bytes));
    ONNXMICRO_RETURN_IF_ERROR(index_util::check_index_dtype(ctx, kIndices, "indices", false));
    const int r = data.shape.rank();
    const int q = indices.shape.rank();
    std::int64_t b = 0;
    if (since >= 12) ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("batch_dims", b, 0));
    if (r < 1 || q < 1) {
      return Status(StatusCode::invalid_model) << "inputs 0 '" << data.name << "' " << data.shape << " and 1 '"
                                               << indices.name << "' " << indices.shape << " must have rank >= 1";
    }
    if (b < 0 || b >= q || b >= r) {
      return Status(StatusCode::invalid_model)
             << "attribute 'batch_dims' is " << b << ", expected a value in [0, min(" << r << ", " << q << ") - 1]";
    }
    const int batch_dims = static_cast<int>(b);
    for (int d = 0; d < batch_dims; ++d) {
      if (data.shape[d] != indices.shape[d]) {
        return ctx.input_error(kIndices) << " " << indices.shape << " and input 0 '" << data.name << "' " << data.shape
                                         << " differ in batch dim " << d;
      }
    }
    const std::int64_t m = indices.shape[q - 1];
    if (m < 1 || m > r - batch_dims) {
      return ctx.input_error(kIndices) << " " << indices.shape << ": last dim is " << m << ", expected a value in [1, "
                                       << r - batch_dims << "] (data rank " << r << " - batch_dims " << batch_dims
                                       << ")";
    }
    const int tuple_end = batch_dims + static_cast<int>(m);
    ONNXMICRO_RETURN_IF_ERROR(shape_util::check_output_rank(q - 1 + r - tuple_end));
    Shape out;
    out.resize(q - 1 + r - tuple_end);
    int o = 0;
    for (int d = 0; d < q - 1; ++d) out[o++] = indices.shape[d];
    for (int d = tuple_end; d < r; ++d) out[o++] = data.shape[d];
    std::size_t bytes = 0;
    ONNXMICRO_RETURN_IF_ERROR(checked_byte_size(data.dtype, out, bytes));

    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
    std::int64_t data_strides[kMaxRank];
    index_util::strides_of(data.shape, data_strides);
    state->batch_count = shape_util::dims_product(data.shape, 0, batch_dims);
    state->tuples = shape_util::dims_product(indices.shape, batch_dims, q - 1);
    state->tuple_length = m;
    state->slice_elements = shape_util::dims_product(data.shape, tuple_end, r);
    state->batch_stride = shape_util::dims_product(data.shape, batch_dims, r);
    for (int j = 0; j < m; ++j) {
      state->dims[j] = data.shape[batch_dims + j];
      state->strides[j] = data_strides[batch_dims + j];
    }
    state->element_bytes = element_bytes;
    state->batch_dims = batch_dims;
    ctx.set_output(kOutput, data.dtype, out);
    return {};
  }

  static Status run(RunContext& ctx) noexcept {
    const State& s = ctx.state<State>();
    const ConstTensorView& indices = ctx.input(kIndices);
    const unsigned char* src = static_cast<const unsigned char*>(ctx.input(kData).data);
    unsigned char* dst = static_cast<unsigned char*>(ctx.output(kOutput).data);
    const std::size_t slice_bytes = static_cast<std::size_t>(s.slice_elements) * s.element_bytes;
    if (slice_bytes == 0) return {};
    std::int64_t k = 0;  // flat position in indices
    for (std::int64_t batch = 0; batch < s.batch_count; ++batch) {
      for (std::int64_t t = 0; t < s.tuples; ++t, k += s.tuple_length) {
        std::int64_t offset = 0;
        ONNXMICRO_RETURN_IF_ERROR(
            index_util::tuple_offset(indices, k, s.tuple_length, s.dims, s.strides, s.batch_dims, offset));
        offset += batch * s.batch_stride;
        std::memcpy(dst, src + static_cast<std::size_t>(offset) * s.element_bytes, slice_bytes);
        dst += slice_bytes;
      }
    }
    return {};
  }
};

}  // namespace gather_nd_detail

// Opset 11: no batch dims.
using GatherND_11 = VersionedKernel<gather_nd_detail::GatherNDImpl, 11, 12>;
// Opset 12: adds the batch_dims attribute (13 only added bfloat16).
using GatherND_12 = VersionedKernel<gather_nd_detail::GatherNDImpl, 12>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
