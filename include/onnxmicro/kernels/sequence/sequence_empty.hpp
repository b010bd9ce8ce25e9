// SPDX-License-Identifier: MIT
// SequenceEmpty (opset 11): an empty sequence (its element dtype, attribute 'dtype', is not kept: an empty
// sequence has no elements to describe).
#pragma once
#include "onnxmicro/kernels/sequence/sequence_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

namespace sequence_empty_detail {

/// The implementation of SequenceEmpty (see the file comment).
struct SequenceEmptyImpl : KernelDefaults {
  static constexpr std::string_view kOpType = "SequenceEmpty";
  static Status prepare(PrepareContext& ctx) noexcept {
    std::int64_t dtype = 0;
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("dtype", dtype, static_cast<std::int64_t>(DataType::float32)));
    if (!is_known_dtype(static_cast<std::int32_t>(dtype)) || dtype == static_cast<std::int64_t>(DataType::undefined)) {
      return Status(StatusCode::invalid_model) << "attribute 'dtype' is " << dtype << ", not an ONNX tensor dtype";
    }
    return sequence_util::set_sequence_result(ctx, nullptr, 0);
  }
  static Status run(RunContext& ctx) noexcept { return sequence_util::PreparedResult::run(ctx); }
};

}  // namespace sequence_empty_detail

using SequenceEmpty_11 = VersionedKernel<sequence_empty_detail::SequenceEmptyImpl, 11>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
