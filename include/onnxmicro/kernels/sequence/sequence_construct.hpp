// SPDX-License-Identifier: MIT
// SequenceConstruct (opset 11): a sequence of the input tensors (all of one dtype), known at prepare time.
#pragma once
#include "onnxmicro/kernels/sequence/sequence_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

namespace sequence_construct_detail {

/// The implementation of SequenceConstruct (see the file comment).
struct SequenceConstructImpl : KernelDefaults {
  static constexpr std::string_view kOpType = "SequenceConstruct";
  static Status prepare(PrepareContext& ctx) noexcept {
    const int n = ctx.explicit_input_count();
    if (n < 1) return Status(StatusCode::invalid_model) << "SequenceConstruct needs at least one input";
    Span<ValueRef> refs;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_persistent(static_cast<std::size_t>(n), refs));
    for (int i = 0; i < n; ++i) {
      ONNXMICRO_RETURN_IF_ERROR(sequence_util::value_ref_of_input(ctx, i, refs[static_cast<std::size_t>(i)]));
      if (is_value_container(ctx.input(i).dtype)) return ctx.unsupported_input_dtype(i);
      if (i > 0) ONNXMICRO_RETURN_IF_ERROR(ctx.require_same_dtype(0, i));
    }
    return sequence_util::set_sequence_result(ctx, refs.data(), n);
  }
  static Status run(RunContext& ctx) noexcept { return sequence_util::PreparedResult::run(ctx); }
};

}  // namespace sequence_construct_detail

using SequenceConstruct_11 = VersionedKernel<sequence_construct_detail::SequenceConstructImpl, 11>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
