// SPDX-License-Identifier: MIT
// Optional (opset 15): an optional holding the input (a tensor or a sequence), or, without an input, an empty
// optional (of the element type in attribute 'type', which is not kept).
#pragma once
#include "onnxmicro/kernels/sequence/sequence_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

namespace optional_detail {

/// The implementation of Optional (see the file comment).
struct OptionalImpl : KernelDefaults {
  static constexpr std::string_view kOpType = "Optional";
  static Status prepare(PrepareContext& ctx) noexcept {
    if (!ctx.has_input(0)) {
      if (!ctx.has_attribute("type")) {
        return Status(StatusCode::invalid_model) << "an Optional without input needs attribute 'type'";
      }
      return sequence_util::set_sequence_result(ctx, nullptr, 0, DataType::optional);
    }
    if (ctx.input(0).dtype == DataType::optional) return ctx.unsupported_input_dtype(0);
    ValueRef ref{};
    ONNXMICRO_RETURN_IF_ERROR(sequence_util::value_ref_of_input(ctx, 0, ref));
    return sequence_util::set_sequence_result(ctx, &ref, 1, DataType::optional);
  }
  static Status run(RunContext& ctx) noexcept { return sequence_util::PreparedResult::run(ctx); }
};

}  // namespace optional_detail

using Optional_15 = VersionedKernel<optional_detail::OptionalImpl, 15>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
