// SPDX-License-Identifier: MIT
// OptionalGetElement: the value an optional holds (an error when empty). Opset 15 takes an optional; 18 also
// takes a tensor or sequence and returns it unchanged. One kernel accepts both forms.
#pragma once
#include "onnxmicro/kernels/sequence/sequence_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

namespace optional_get_element_detail {

/// The implementation of OptionalGetElement (see the file comment).
struct OptionalGetElementImpl : KernelDefaults {
  static constexpr std::string_view kOpType = "OptionalGetElement";
  static Status prepare(PrepareContext& ctx) noexcept {
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(0));
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_constant_input(0));
    const TensorInfo& x = ctx.input(0);
    if (x.dtype != DataType::optional) {
      if (ctx.opset_version() < 18) return ctx.unsupported_input_dtype(0);
      return sequence_util::set_tensor_result(ctx, ConstTensorView(x.dtype, x.shape, x.const_data));
    }
    if (x.shape.element_count() == 0) {
      return ctx.input_error(0, {}, StatusCode::invalid_argument) << " is an empty optional";
    }
    return sequence_util::set_tensor_result(ctx, view_of(sequence_util::elements_of(x)[0]));
  }
  static Status run(RunContext& ctx) noexcept { return sequence_util::PreparedResult::run(ctx); }
};

}  // namespace optional_get_element_detail

using OptionalGetElement_15 = VersionedKernel<optional_get_element_detail::OptionalGetElementImpl, 15>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
