// SPDX-License-Identifier: MIT
// Shrink (opset 9, unchanged since): y = x + bias for x < -lambd, x - bias for x > lambd, 0 otherwise
// (attributes bias, default 0, and lambd, default 0.5). Integer inputs compute in double and truncate back,
// as the ONNX reference's astype does (saturating instead of undefined when out of range).
#pragma once
#include <cmath>
#include <limits>
#include <type_traits>

#include "onnxmicro/kernels/common/elementwise.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

/// The function of Shrink, on compute types (float for float16/bfloat16, the integer type for integers).
struct ShrinkOp {
  static constexpr std::string_view kOpType = "Shrink";
  struct Params {
    float bias;
    float lambd;
    static Status parse(const PrepareContext& ctx, Params& params) noexcept {
      ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("bias", params.bias, 0.0f));
      return ctx.attribute("lambd", params.lambd, 0.5f);
    }
  };
  template <typename C>
  static C apply(C x, const Params& params) noexcept {
    if constexpr (std::is_floating_point_v<C>) {
      return shrink(x, static_cast<C>(params.bias), static_cast<C>(params.lambd));
    } else {
      return truncate_to<C>(
          shrink(static_cast<double>(x), static_cast<double>(params.bias), static_cast<double>(params.lambd)));
    }
  }

 private:
  template <typename C>
  static C shrink(C x, C bias, C lambd) noexcept {
    if (x < -lambd) return x + bias;
    if (x > lambd) return x - bias;
    return C(0);
  }
  /// double -> integer by truncation, clamped to the type's range (a plain cast out of range is UB).
  template <typename I>
  static I truncate_to(double v) noexcept {
    const double t = std::trunc(v);
    // The bounds as doubles: min is a power of two (exact); 2^bits for max is exact and excluded.
    const double lowest = static_cast<double>(std::numeric_limits<I>::min());
    const double above_max = -2.0 * static_cast<double>(std::numeric_limits<std::make_signed_t<I>>::min()) *
                             (std::is_signed_v<I> ? 0.5 : 1.0);
    if (!(t >= lowest)) return std::numeric_limits<I>::min();  // also NaN (only from a NaN bias or lambd)
    if (t >= above_max) return std::numeric_limits<I>::max();
    return static_cast<I>(t);
  }
};

// Opset 9+: the first version.
using Shrink_9 = VersionedKernel<UnaryElementwise<ShrinkOp, NumericTypes>, 9>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
