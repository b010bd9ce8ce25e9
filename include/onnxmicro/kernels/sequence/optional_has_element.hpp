// SPDX-License-Identifier: MIT
// OptionalHasElement: whether the input optional holds a value (a bool scalar). Opset 15 takes an optional;
// 18 also takes a tensor or sequence (always true) and an omitted input (false). One kernel accepts both forms.
#pragma once
#include "onnxmicro/kernels/sequence/sequence_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

namespace optional_has_element_detail {

/// The implementation of OptionalHasElement (see the file comment).
struct OptionalHasElementImpl : KernelDefaults {
  static constexpr std::string_view kOpType = "OptionalHasElement";
  static Status prepare(PrepareContext& ctx) noexcept {
    Span<bool> result;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_persistent(1, result));
    if (!ctx.has_input(0)) {
      result[0] = false;
    } else if (ctx.input(0).dtype == DataType::optional) {
      ONNXMICRO_RETURN_IF_ERROR(ctx.require_constant_input(0));
      result[0] = ctx.input(0).shape.element_count() == 1;
    } else {
      if (ctx.opset_version() < 18) return ctx.unsupported_input_dtype(0);
      result[0] = true;
    }
    return sequence_util::set_tensor_result(ctx, ConstTensorView(DataType::boolean, Shape(), result.data()));
  }
  static Status run(RunContext& ctx) noexcept { return sequence_util::PreparedResult::run(ctx); }
};

}  // namespace optional_has_element_detail

using OptionalHasElement_15 = VersionedKernel<optional_has_element_detail::OptionalHasElementImpl, 15>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
