// SPDX-License-Identifier: MIT
// SequenceInsert (opset 11): the sequence with a tensor inserted at 'position' (default: the end; negative
// counts from the end, valid from -n to n).
#pragma once
#include "onnxmicro/kernels/sequence/sequence_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

namespace sequence_insert_detail {

/// The implementation of SequenceInsert (see the file comment).
struct SequenceInsertImpl : KernelDefaults {
  static constexpr std::string_view kOpType = "SequenceInsert";
  static Status prepare(PrepareContext& ctx) noexcept {
    ONNXMICRO_RETURN_IF_ERROR(sequence_util::require_container(ctx, 0));
    ValueRef inserted{};
    ONNXMICRO_RETURN_IF_ERROR(sequence_util::value_ref_of_input(ctx, 1, inserted));
    if (is_value_container(inserted.dtype)) return ctx.unsupported_input_dtype(1);
    const std::int64_t n = sequence_util::count_of(ctx.input(0));
    const ValueRef* elements = sequence_util::elements_of(ctx.input(0));
    if (n > 0 && elements[0].dtype != inserted.dtype) {
      return ctx.input_error(1) << " is " << dtype_name(inserted.dtype) << ", the sequence holds "
                                << dtype_name(elements[0].dtype);
    }
    std::int64_t position = n;
    if (ctx.has_input(2)) {
      ONNXMICRO_RETURN_IF_ERROR(sequence_util::read_index_input(ctx, 2, position));
      if (position < -n || position > n) return sequence_util::position_error(position, -n, n);
      if (position < 0) position += n;
    }
    Span<ValueRef> refs;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_persistent(static_cast<std::size_t>(n + 1), refs));
    for (std::int64_t i = 0, k = 0; i <= n; ++i)
      refs[static_cast<std::size_t>(i)] = i == position ? inserted : elements[k++];
    return sequence_util::set_sequence_result(ctx, refs.data(), n + 1);
  }
  static Status run(RunContext& ctx) noexcept { return sequence_util::PreparedResult::run(ctx); }
};

}  // namespace sequence_insert_detail

using SequenceInsert_11 = VersionedKernel<sequence_insert_detail::SequenceInsertImpl, 11>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
