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

// Opset 15: no attributes; float8 destinations (added in 19) do not exist yet.
struct CastLike_15 : CastLikeBase {
  static constexpr int kSinceVersion = 15;
  static constexpr int kUntilVersion = 19;
  static Status prepare(PrepareContext& ctx) noexcept { return prepare_like(ctx, dtype_convert::Options()); }
};

// Opset 19: adds float8 dtypes and 'saturate' (their overflow rule). Opsets 21 (int4/uint4) and 23 (float4e2m1)
// only add dtypes.
struct CastLike_19 : CastLikeBase {
  static constexpr int kSinceVersion = 19;
  static constexpr int kUntilVersion = 24;
  static Status prepare(PrepareContext& ctx) noexcept {
    dtype_convert::Options options;
    ONNXMICRO_RETURN_IF_ERROR(read_saturate(ctx, options));
    return prepare_like(ctx, options);
  }
};

// Opset 24: adds float8e8m0 and 'round_mode' (up, down, nearest) for casts to it. Opset 25 (int2/uint2) only
// adds dtypes.
struct CastLike_24 : CastLikeBase {
  static constexpr int kSinceVersion = 24;
  static Status prepare(PrepareContext& ctx) noexcept {
    dtype_convert::Options options;
    ONNXMICRO_RETURN_IF_ERROR(read_saturate(ctx, options));
    ONNXMICRO_RETURN_IF_ERROR(read_round_mode(ctx, options));
    return prepare_like(ctx, options);
  }
};

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
