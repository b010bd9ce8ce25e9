// SPDX-License-Identifier: MIT
// Pow: z = x ^ y elementwise; the output has x's dtype.
// Versions: 1 broadcasts with the legacy `broadcast`/`axis` attributes; 7 switched to numpy broadcasting;
// 12 let the exponent's dtype differ from the base's and added integer bases; 13 (bfloat16 base) and 15
// (bfloat16 exponent) only widened the dtype lists. Like the reference (numpy power, cast to x's dtype):
// integer ^ integer is exact (wrapping on overflow), anything involving a float computes in floating point
// and converts to the base dtype (truncating, saturating for integer bases).
#pragma once
#include <cmath>
#include <limits>
#include <type_traits>

#include "onnxmicro/kernels/common/broadcast.hpp"
#include "onnxmicro/kernels/common/elementwise.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

/// Pow on one compute type: the opset 1-11 body, where base and exponent share a float dtype.
struct PowOp {
  static constexpr std::string_view kOpType = "Pow";
  template <typename C>
  static C apply(C a, C b) noexcept {
    return std::pow(a, b);
  }
};

/// Pow on a base of type B and an exponent of type E (any dtypes), giving a B.
struct MixedPowOp {
  template <typename B, typename E>
  static B apply(B base, E exponent) noexcept {
    if constexpr (std::is_integral_v<B> && std::is_integral_v<E>) {
      return integer_pow(base, exponent);
    } else {
      // float32 (or 16-bit float) with a 16-bit float or small exponent stays in float; anything wider
      // computes in double, as numpy's type promotion does.
      using C = std::conditional_t<!std::is_same_v<compute_t<B>, double> && !std::is_same_v<compute_t<E>, double> &&
                                       std::is_floating_point_v<compute_t<B>> &&
                                       (std::is_floating_point_v<compute_t<E>> || sizeof(E) <= 2),
                                   float, double>;
      const C result = std::pow(static_cast<C>(load_element(base)), static_cast<C>(load_element(exponent)));
      if constexpr (std::is_integral_v<B>) {
        return saturating_cast<B>(result);
      } else {
        return store_element<B>(static_cast<compute_t<B>>(result));
      }
    }
  }

  /// base ^ exponent by squaring, wrapping modulo 2^bits. A negative exponent gives the truncated 1/base^-e
  /// (0 unless |base| is 1), where numpy refuses.
  template <typename B, typename E>
  static B integer_pow(B base, E exponent) noexcept {
    if constexpr (std::is_signed_v<E>) {
      if (exponent < 0) {
        if (base == B(1)) return B(1);
        if constexpr (std::is_signed_v<B>) {
          if (base == B(-1)) return (exponent % 2 == 0) ? B(1) : B(-1);
        }
        return B(0);
      }
    }
    auto remaining = static_cast<std::make_unsigned_t<E>>(exponent);
    B result = 1;
    B factor = base;
    while (remaining != 0) {
      if (remaining & 1u) result = wrapping_mul(result, factor);
      factor = wrapping_mul(factor, factor);
      remaining = static_cast<std::make_unsigned_t<E>>(remaining >> 1);
    }
    return result;
  }

  /// Float to integer without undefined behaviour: truncates, saturates out-of-range values, NaN gives 0.
  template <typename I, typename F>
  static I saturating_cast(F value) noexcept {
    if (value != value) return I(0);
    if (value <= static_cast<F>(std::numeric_limits<I>::min())) return std::numeric_limits<I>::min();
    // max() of a 64-bit type rounds up to 2^63 in floating point, so compare with >=.
    if (value >= static_cast<F>(std::numeric_limits<I>::max())) return std::numeric_limits<I>::max();
    return static_cast<I>(value);
  }
};

/// Base dtypes of Pow since opset 12.
using PowBaseTypes = TypeList<float, double, float16_t, bfloat16_t, std::int32_t, std::int64_t>;

// Opset 1-6: legacy broadcasting (attribute broadcast=1 repeats input Y over input X at `axis`).
using Pow_1 = VersionedKernel<BinaryElementwise<PowOp, FloatTypes>, 1, 7>;

// Opset 7-11: numpy broadcasting; base and exponent share one float dtype.
using Pow_7 = VersionedKernel<BinaryElementwise<PowOp, FloatTypes>, 7, 12>;

namespace pow_detail {

/// Opset 12+: base and exponent dtypes may differ (an exponent of any numeric dtype; integer bases).
struct MixedPowImpl : KernelDefaults {
  static constexpr std::string_view kOpType = "Pow";
  static constexpr int kInPlaceInput = 0;
  static constexpr int kInputX = 0;
  static constexpr int kInputY = 1;
  static constexpr int kOutput = 0;
  using State = BinaryPlanState;

  static Status prepare(PrepareContext& ctx) noexcept {
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kInputX));
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kInputY));
    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
    const DataType base_dtype = ctx.input(kInputX).dtype;
    const DataType exponent_dtype = ctx.input(kInputY).dtype;
    bool exponent_supported = false;
    const bool base_supported = visit_dtype(base_dtype, PowBaseTypes{}, [&](auto base_tag) noexcept {
      using B = typename decltype(base_tag)::type;
      exponent_supported = visit_dtype(exponent_dtype, NumericTypes{}, [&](auto exponent_tag) noexcept {
        state->compute = &run_broadcast_binary<B, typename decltype(exponent_tag)::type, B, MixedPowOp>;
      });
    });
    if (!base_supported) return ctx.unsupported_input_dtype(kInputX);
    if (!exponent_supported) return ctx.unsupported_input_dtype(kInputY);
    Shape output;
    ONNXMICRO_RETURN_IF_ERROR(plan_broadcast_binary(ctx, kInputX, kInputY, output, state->plan));
    ctx.set_output(kOutput, base_dtype, output);
    return {};
  }

  static Status run(RunContext& ctx) noexcept {
    const State& state = ctx.state<State>();
    state.compute(state.plan, ctx.input(kInputX).data, ctx.input(kInputY).data, ctx.output(kOutput).data);
    return {};
  }
};

}  // namespace pow_detail

// Opset 12+: the exponent may have any numeric dtype; integer bases (13 and 15 widened the dtypes).
using Pow_12 = VersionedKernel<pow_detail::MixedPowImpl, 12>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
