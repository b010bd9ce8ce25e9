// SPDX-License-Identifier: MIT
// PRelu: y = x < 0 ? slope * x : x elementwise; slope broadcasts onto x (unidirectional: y has x's shape).
// Versions: 1 (with `consumed_inputs`, ignored) and 6 shared a size-1 slope across channels; 7 defined slope
// as unidirectionally broadcastable to x, which includes that case; 9 (int32/int64/uint32/uint64) and 16
// (bfloat16) only widened the dtype list, so one kernel serves every version.
#pragma once
#include <type_traits>

#include "onnxmicro/kernels/common/elementwise.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

struct PReluOp {
  template <typename C>
  static C apply(C x, C slope) noexcept {
    if constexpr (std::is_unsigned_v<C>) {
      (void)slope;
      return x;  // never negative
    } else if constexpr (std::is_integral_v<C>) {
      return x < C(0) ? wrapping_mul(slope, x) : x;
    } else {
      return x < C(0) ? slope * x : x;  // NaN stays NaN
    }
  }
};

/// Dtypes of PRelu since opset 16.
using PReluTypes =
    TypeList<float, double, float16_t, bfloat16_t, std::int32_t, std::int64_t, std::uint32_t, std::uint64_t>;

// Opset 1+.
struct PRelu_1 : KernelDefaults, BinaryElementwise<PReluOp, PReluTypes> {
  static constexpr std::string_view kDomain = "";
  static constexpr std::string_view kOpType = "PRelu";
  static constexpr int kSinceVersion = 1;
  static constexpr int kInPlaceInput = 0;
  using Body = BinaryElementwise<PReluOp, PReluTypes>;

  static Status prepare(PrepareContext& ctx) noexcept {
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kInputA));
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kInputB));
    // Unidirectional: slope must broadcast to x's shape without growing it.
    Shape output;
    ONNXMICRO_RETURN_IF_ERROR(broadcast_input_shapes(ctx, {kInputA, kInputB}, output));
    const TensorInfo& x = ctx.input(kInputA);
    const TensorInfo& slope = ctx.input(kInputB);
    if (!(output == x.shape)) {
      return Status(StatusCode::invalid_model)
             << "input 1 '" << slope.name << "' (slope) has shape " << slope.shape
             << ", which does not broadcast unidirectionally to input 0 '" << x.name << "' shape " << x.shape;
    }
    return Body::prepare(ctx);
  }
};

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
