// SPDX-License-Identifier: MIT
// SequenceEmpty (opset 11): an empty sequence (its element dtype, attribute 'dtype', is not kept: an empty
// sequence has no elements to describe).
#pragma once
#include "onnxmicro/kernels/sequence/sequence_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

struct SequenceEmpty_11 : KernelDefaults {
  static constexpr std::string_view kDomain = "";
  static constexpr std::string_view kOpType = "SequenceEmpty";
  static constexpr int kSinceVersion = 11;
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

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
