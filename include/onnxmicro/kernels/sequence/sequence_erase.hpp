// SPDX-License-Identifier: MIT
// SequenceErase (opset 11): the sequence without the element at 'position' (default: the last; -n to n-1).
#pragma once
#include "onnxmicro/kernels/sequence/sequence_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

namespace sequence_erase_detail {

/// The implementation of SequenceErase (see the file comment).
struct SequenceEraseImpl : KernelDefaults {
  static constexpr std::string_view kOpType = "SequenceErase";
  static Status prepare(PrepareContext& ctx) noexcept {
    ONNXMICRO_RETURN_IF_ERROR(sequence_util::require_container(ctx, 0));
    const std::int64_t n = sequence_util::count_of(ctx.input(0));
    if (n == 0) return Status(StatusCode::invalid_argument) << "cannot erase from an empty sequence";
    std::int64_t position = n - 1;
    if (ctx.has_input(1)) {
      ONNXMICRO_RETURN_IF_ERROR(sequence_util::read_index_input(ctx, 1, position));
      if (position < -n || position >= n) return sequence_util::position_error(position, -n, n - 1);
      if (position < 0) position += n;
    }
    Span<ValueRef> refs;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_persistent(static_cast<std::size_t>(n - 1), refs));
    const ValueRef* elements = sequence_util::elements_of(ctx.input(0));
    for (std::int64_t i = 0, k = 0; i < n; ++i)
      if (i != position) refs[static_cast<std::size_t>(k++)] = elements[i];
    return sequence_util::set_sequence_result(ctx, refs.data(), n - 1);
  }
  static Status run(RunContext& ctx) noexcept { return sequence_util::PreparedResult::run(ctx); }
};

}  // namespace sequence_erase_detail

using SequenceErase_11 = VersionedKernel<sequence_erase_detail::SequenceEraseImpl, 11>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
