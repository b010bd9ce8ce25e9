// SPDX-License-Identifier: MIT
// SequenceAt (opset 11): the tensor at 'position' (-n to n-1).
#pragma once
#include "onnxmicro/kernels/sequence/sequence_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

namespace sequence_at_detail {

/// The implementation of SequenceAt (see the file comment).
struct SequenceAtImpl : KernelDefaults {
  static constexpr std::string_view kOpType = "SequenceAt";
  static Status prepare(PrepareContext& ctx) noexcept {
    ONNXMICRO_RETURN_IF_ERROR(sequence_util::require_container(ctx, 0));
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(1));
    const std::int64_t n = sequence_util::count_of(ctx.input(0));
    std::int64_t position = 0;
    ONNXMICRO_RETURN_IF_ERROR(sequence_util::read_index_input(ctx, 1, position));
    if (position < -n || position >= n) return sequence_util::position_error(position, -n, n - 1);
    if (position < 0) position += n;
    return sequence_util::set_tensor_result(ctx, view_of(sequence_util::elements_of(ctx.input(0))[position]));
  }
  static Status run(RunContext& ctx) noexcept { return sequence_util::PreparedResult::run(ctx); }
};

}  // namespace sequence_at_detail

using SequenceAt_11 = VersionedKernel<sequence_at_detail::SequenceAtImpl, 11>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
