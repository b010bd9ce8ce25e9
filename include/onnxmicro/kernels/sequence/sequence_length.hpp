// SPDX-License-Identifier: MIT
// SequenceLength (opset 11): the number of elements, an int64 scalar.
#pragma once
#include "onnxmicro/kernels/sequence/sequence_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

namespace sequence_length_detail {

/// The implementation of SequenceLength (see the file comment).
struct SequenceLengthImpl : KernelDefaults {
  static constexpr std::string_view kOpType = "SequenceLength";
  static Status prepare(PrepareContext& ctx) noexcept {
    ONNXMICRO_RETURN_IF_ERROR(sequence_util::require_container(ctx, 0));
    Span<std::int64_t> length;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_persistent(1, length));
    length[0] = sequence_util::count_of(ctx.input(0));
    return sequence_util::set_tensor_result(ctx, ConstTensorView(DataType::int64, Shape(), length.data()));
  }
  static Status run(RunContext& ctx) noexcept { return sequence_util::PreparedResult::run(ctx); }
};

}  // namespace sequence_length_detail

using SequenceLength_11 = VersionedKernel<sequence_length_detail::SequenceLengthImpl, 11>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
