// SPDX-License-Identifier: MIT
// Identity: y = x. Versions 1, 13 (bfloat16), 19 (float8), 21 (int4/uint4) and 23+ (float4, ...) only widened
// the dtype list; 14 and 16 added sequence and optional inputs, which this kernel does not take yet (the
// runtime has tensor values only). One kernel serves every version.
#pragma once
#include <cstring>

#include "onnxmicro/kernels/kernel_api.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

namespace identity_detail {

/// The implementation of Identity (see the file comment).
struct IdentityImpl : KernelDefaults {
  static constexpr std::string_view kOpType = "Identity";
  static constexpr int kInPlaceInput = 0;
  static constexpr int kInput = 0;
  static constexpr int kOutput = 0;

  static Status prepare(PrepareContext& ctx) noexcept {
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kInput));
    const TensorInfo& input = ctx.input(kInput);
    // Any dtype with a fixed storage size (sub-byte types are packed bytes; a string element is a StringRef,
    // so copying it shares the characters, which outlive the run).
    if (dtype_size(input.dtype) == 0 && !is_sub_byte(input.dtype)) {
      return ctx.unsupported_input_dtype(kInput);
    }
    ctx.set_output(kOutput, input.dtype, input.shape);
    return {};
  }

  static Status run(RunContext& ctx) noexcept {
    const ConstTensorView& input = ctx.input(kInput);
    const TensorView& output = ctx.output(kOutput);
    const std::size_t bytes = input.byte_size();
    if (output.data != input.data && bytes > 0) std::memcpy(output.data, input.data, bytes);
    return {};
  }
};

}  // namespace identity_detail

// Opset 1+: a copy of the input tensor (skipped when the output shares the input's buffer).
using Identity_1 = VersionedKernel<identity_detail::IdentityImpl, 1>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
