// SPDX-License-Identifier: MIT
// Flatten: reshapes (d0, ..., dn-1) to (d0 * ... * d(axis-1), d(axis) * ... * dn-1); the bytes are unchanged,
// so the output may share the input's buffer (the copy is skipped then). Any dtype with a fixed element size
// (packed 4-bit types included) is supported; string tensors are not.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "onnxmicro/kernels/kernel_api.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {
namespace flatten_detail {

/// Implementation shared by the Flatten versions.
struct FlattenImpl : kernels::KernelDefaults {
  static constexpr std::string_view kOpType = "Flatten";
  static constexpr int kInPlaceInput = 0;
  static constexpr int kInput = 0;
  static constexpr int kOutput = 0;

  /// `negative_axis`: axis may be in [-rank, rank) as well as [0, rank] (opset 11+).
  static Status prepare(kernels::PrepareContext& ctx, int since) noexcept {
    const bool negative_axis = since >= 11;
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kInput));
    const kernels::TensorInfo& x = ctx.input(kInput);
    if (x.dtype == DataType::undefined || (dtype_size(x.dtype) == 0 && !is_sub_byte(x.dtype))) {
      return ctx.unsupported_input_dtype(kInput);
    }
    const std::int64_t rank = x.shape.rank();
    std::int64_t axis = 1;
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("axis", axis, 1));
    const std::int64_t lowest = negative_axis ? -rank : 0;
    if (axis < lowest || axis > rank) {
      return Status(StatusCode::invalid_model)
             << "attribute 'axis' is " << axis << ", expected in [" << lowest << ", " << rank << "] for input 0 '"
             << x.name << "' of shape " << x.shape << (negative_axis ? "" : " (negative axes need opset 11)");
    }
    if (axis < 0) axis += rank;
    std::int64_t outer = 1, inner = 1;
    for (int i = 0; i < x.shape.rank(); ++i) (i < axis ? outer : inner) *= x.shape[i];
    ctx.set_output(kOutput, x.dtype, Shape{outer, inner});
    return {};
  }

  static Status run(kernels::RunContext& ctx) noexcept {
    const ConstTensorView& in = ctx.input(kInput);
    const TensorView& out = ctx.output(kOutput);
    const std::size_t bytes = in.byte_size();
    if (out.data != in.data && bytes > 0) std::memcpy(out.data, in.data, bytes);  // in place: nothing to do
    return {};
  }
};

}  // namespace flatten_detail

// Flatten-1: axis in [0, rank], default 1. (9 widened the dtypes to every tensor type.)
using Flatten_1 = VersionedKernel<flatten_detail::FlattenImpl, 1, 11>;
// Flatten-11: axis may be negative (counted from the back), in [-rank, rank]. 13, 21, 23, 24 and 25 only
// added dtypes.
using Flatten_11 = VersionedKernel<flatten_detail::FlattenImpl, 11>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
