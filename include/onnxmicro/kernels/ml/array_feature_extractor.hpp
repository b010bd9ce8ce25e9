// SPDX-License-Identifier: MIT
// ArrayFeatureExtractor (ai.onnx.ml, opset 1): y = x[..., indices] along the last axis, indices flattened.
// Output shape [x.shape[:-1], n] with n = number of indices; a 1-D x gives [1, n] (as onnxruntime and the
// reference do, although the spec text is vague). Indices out of range fail at run time.
#pragma once
#include <cstdint>
#include <cstring>

#include "onnxmicro/kernels/kernel_api.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

namespace array_feature_extractor_detail {

/// The implementation of ArrayFeatureExtractor (see the file comment).
struct ArrayFeatureExtractorImpl : KernelDefaults {
  static constexpr std::string_view kDomain = "ai.onnx.ml";
  static constexpr std::string_view kOpType = "ArrayFeatureExtractor";
  static constexpr int kData = 0;
  static constexpr int kIndices = 1;
  static constexpr int kOutput = 0;

  struct State {
    std::int64_t rows;          // product of the leading dims of x
    std::int64_t row_length;    // x's last dim
    std::int64_t index_count;   // elements of indices
    std::size_t element_bytes;  // bytes of one element (StringRef for strings: the views are copied)
  };

  static Status prepare(PrepareContext& ctx) noexcept {
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kData));
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kIndices));
    const TensorInfo& data = ctx.input(kData);
    const DataType dtype = data.dtype;
    if (dtype != DataType::float32 && dtype != DataType::float64 && dtype != DataType::int64 &&
        dtype != DataType::int32 && dtype != DataType::string) {
      return ctx.unsupported_input_dtype(kData);
    }
    if (ctx.input(kIndices).dtype != DataType::int64) return ctx.unsupported_input_dtype(kIndices);
    if (data.shape.rank() < 1) {
      return ctx.input_error(kData) << " must have rank >= 1, got rank 0";
    }
    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
    const int rank = data.shape.rank();
    state->row_length = data.shape[rank - 1];
    state->rows = 1;
    for (int i = 0; i + 1 < rank; ++i) state->rows *= data.shape[i];
    state->index_count = ctx.input(kIndices).shape.element_count();
    state->element_bytes = dtype_size(dtype);
    Shape output;
    if (rank == 1) {
      output = Shape{1, state->index_count};
    } else {
      output = data.shape;
      output[rank - 1] = state->index_count;
    }
    ctx.set_output(kOutput, dtype, output);
    return {};
  }

  static Status run(RunContext& ctx) noexcept {
    const State& state = ctx.state<State>();
    const auto* x = static_cast<const unsigned char*>(ctx.input(kData).data);
    const auto* indices = ctx.input(kIndices).data_as<std::int64_t>();
    auto* y = static_cast<unsigned char*>(ctx.output(kOutput).data);
    const std::size_t size = state.element_bytes;
    for (std::int64_t j = 0; j < state.index_count; ++j) {
      if (indices[j] < 0 || indices[j] >= state.row_length) {
        return Status(StatusCode::out_of_range) << "input 1 (indices): index " << indices[j] << " at position " << j
                                                << " is out of range [0, " << state.row_length << ")";
      }
    }
    for (std::int64_t r = 0; r < state.rows; ++r) {
      const unsigned char* row = x + static_cast<std::size_t>(r * state.row_length) * size;
      unsigned char* out = y + static_cast<std::size_t>(r * state.index_count) * size;
      for (std::int64_t j = 0; j < state.index_count; ++j) {
        std::memcpy(out + static_cast<std::size_t>(j) * size, row + static_cast<std::size_t>(indices[j]) * size, size);
      }
    }
    return {};
  }
};

}  // namespace array_feature_extractor_detail

// Opset 1: the only version.
using ArrayFeatureExtractor_1 = VersionedKernel<array_feature_extractor_detail::ArrayFeatureExtractorImpl, 1>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
