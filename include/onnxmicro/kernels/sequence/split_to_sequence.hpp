// SPDX-License-Identifier: MIT
// SplitToSequence (opset 11): splits a tensor along 'axis' into a sequence: by the sizes in 'split' (1-D), in
// chunks of a scalar 'split' (the last may be smaller), or, without 'split', into pieces of 1 whose axis is
// dropped when keepdims = 0.
#pragma once
#include "onnxmicro/kernels/sequence/sequence_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

namespace split_to_sequence_detail {

/// The implementation of SplitToSequence (see the file comment).
struct SplitToSequenceImpl : KernelDefaults {
  static constexpr std::string_view kOpType = "SplitToSequence";
  static constexpr int kMaxPieces = 1 << 20;
  static Status prepare(PrepareContext& ctx) noexcept {
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(0));
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_constant_input(0));
    const TensorInfo& x = ctx.input(0);
    if (is_value_container(x.dtype) || is_sub_byte(x.dtype)) return ctx.unsupported_input_dtype(0);
    std::int64_t axis = 0, keepdims = 1;
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("axis", axis, 0));
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("keepdims", keepdims, 1));
    const int rank = x.shape.rank();
    if (axis < -rank || axis >= rank) {
      return Status(StatusCode::invalid_model)
             << "attribute 'axis' " << axis << " is out of range for input shape " << x.shape;
    }
    if (axis < 0) axis += rank;
    const int a = static_cast<int>(axis);
    const std::int64_t length = x.shape[a];
    // Piece sizes: from the split input, or 1 each.
    const std::int64_t* sizes = nullptr;
    std::int64_t pieces = length, chunk = 1;
    bool drop_axis = keepdims == 0;
    if (ctx.has_input(1)) {
      ONNXMICRO_RETURN_IF_ERROR(ctx.require_constant_input(1));
      const TensorInfo& split = ctx.input(1);
      if (split.dtype != DataType::int64 && split.dtype != DataType::int32) return ctx.unsupported_input_dtype(1);
      drop_axis = false;  // keepdims applies only without split
      Span<std::int64_t> values;
      ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_persistent(static_cast<std::size_t>(split.shape.element_count()), values));
      for (std::int64_t i = 0; i < split.shape.element_count(); ++i) {
        values[static_cast<std::size_t>(i)] = split.dtype == DataType::int64
                                                  ? static_cast<const std::int64_t*>(split.const_data)[i]
                                                  : static_cast<const std::int32_t*>(split.const_data)[i];
      }
      if (split.shape.rank() == 0) {
        chunk = values[0];
        if (chunk <= 0) return ctx.input_error(1, "split") << " must be positive";
        pieces = length == 0 ? 0 : (length + chunk - 1) / chunk;
      } else {
        std::int64_t total = 0;
        for (std::int64_t v : values) {
          if (v < 0) return ctx.input_error(1, "split") << " has a negative size";
          total += v;
        }
        if (total != length) {
          return ctx.input_error(1, "split")
                 << " sums to " << total << ", axis " << a << " of " << x.shape << " is " << length;
        }
        sizes = values.data();
        pieces = static_cast<std::int64_t>(values.size());
      }
    }
    if (pieces > kMaxPieces) return Status(StatusCode::limit_exceeded) << "too many pieces";
    std::int64_t outer = 1, inner = 1;
    for (int d = 0; d < a; ++d) outer *= x.shape[d];
    for (int d = a + 1; d < rank; ++d) inner *= x.shape[d];
    const std::size_t element = dtype_size(x.dtype);
    Span<ValueRef> refs;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_persistent(static_cast<std::size_t>(pieces), refs));
    std::int64_t start = 0;
    for (std::int64_t p = 0; p < pieces; ++p) {
      const std::int64_t size = sizes != nullptr ? sizes[p] : (chunk < length - start ? chunk : length - start);
      Shape shape = x.shape;
      shape[a] = size;
      const std::size_t block = static_cast<std::size_t>(size * inner) * element;
      Span<unsigned char> data;
      ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_persistent(static_cast<std::size_t>(outer) * block + 1, data));
      for (std::int64_t o = 0; o < outer; ++o) {
        if (block != 0) {
          std::memcpy(data.data() + static_cast<std::size_t>(o) * block,
                      static_cast<const unsigned char*>(x.const_data) +
                          static_cast<std::size_t>((o * length + start) * inner) * element,
                      block);
        }
      }
      if (drop_axis) {
        Shape squeezed;
        squeezed.resize(rank - 1);
        for (int d = 0, k = 0; d < rank; ++d)
          if (d != a) squeezed[k++] = shape[d];
        shape = squeezed;
      }
      refs[static_cast<std::size_t>(p)] = value_ref_of(ConstTensorView(x.dtype, shape, data.data()));
      start += size;
    }
    return sequence_util::set_sequence_result(ctx, refs.data(), pieces);
  }
  static Status run(RunContext& ctx) noexcept { return sequence_util::PreparedResult::run(ctx); }
};

}  // namespace split_to_sequence_detail

using SplitToSequence_11 = VersionedKernel<split_to_sequence_detail::SplitToSequenceImpl, 11>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
