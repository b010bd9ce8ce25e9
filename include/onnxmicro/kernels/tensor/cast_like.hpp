// SPDX-License-Identifier: MIT
// CastLike: Cast to the dtype of input 1 ('target_type'), whose values are never read. The conversion rules,
// the supported dtypes and the run() are Cast's (kernels/tensor/cast.hpp); only how the destination dtype is
// chosen differs.
#pragma once
#include <string_view>

#include "onnxmicro/kernels/kernel_api.hpp"
#include "onnxmicro/kernels/tensor/cast.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

/// Shared implementation of every CastLike version; they differ in which attributes exist.
struct CastLikeBase : CastBase {
  static constexpr std::string_view kOpType = "CastLike";
  static constexpr int kTargetType = 1;

 protected:
  static Status prepare_like(PrepareContext& ctx, const dtype_convert::Options& options) noexcept {
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kTargetType));
    Status status = prepare_with(ctx, ctx.input(kTargetType).dtype, options);
    if (!status.ok()) return status.prepend("(the destination dtype is input 1's) ");
    return status;
  }
};

/// CastLike's version rules (VersionedKernel): prepare reads what version `since` accepts; CastLikeBase holds the
/// rest.
struct CastLikeImpl : CastLikeBase {
  static Status prepare(PrepareContext& ctx, int since) noexcept {
    dtype_convert::Options options;
    if (since >= 19) ONNXMICRO_RETURN_IF_ERROR(read_saturate(ctx, options));
    if (since >= 24) ONNXMICRO_RETURN_IF_ERROR(read_round_mode(ctx, options));
    return prepare_like(ctx, options);
  }
};

// Opset 15: no attributes; float8 destinations (added in 19) do not exist yet.
using CastLike_15 = VersionedKernel<CastLikeImpl, 15, 19>;
// Opset 19: adds float8 dtypes and 'saturate' (their overflow rule). Opsets 21 (int4/uint4) and 23 (float4e2m1)
// only add dtypes.
using CastLike_19 = VersionedKernel<CastLikeImpl, 19, 24>;
// Opset 24: adds float8e8m0 and 'round_mode' (up, down, nearest) for casts to it. Opset 25 (int2/uint2) only
// adds dtypes.
using CastLike_24 = VersionedKernel<CastLikeImpl, 24>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
