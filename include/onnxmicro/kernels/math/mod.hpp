// SPDX-License-Identifier: MIT
// Mod: elementwise remainder with numpy broadcasting. Attribute `fmod`: 0 (default) takes the divisor's sign
// like Python's % (a - floor(a / b) * b), 1 takes the dividend's sign like C's fmod (a - trunc(a / b) * b).
// Versions: 10 introduced it, with floats requiring fmod=1; 13 only added bfloat16; 28 allowed fmod=0 on
// floats (with numpy's special cases: a zero result carries b's sign, x % ±inf keeps x when signs agree,
// else gives b). Integer division by zero gives 0, as numpy does, instead of trapping.
#pragma once
#include <cmath>
#include <type_traits>

#include "onnxmicro/kernels/common/broadcast.hpp"
#include "onnxmicro/kernels/common/elementwise.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

/// The two remainders on raw elements (16-bit floats compute in float32).
struct ModOp {
  /// Sign of the divisor (fmod=0).
  struct Floor {
    template <typename T>
    static T apply(T a, T b) noexcept {
      if constexpr (std::is_integral_v<T>) {
        if (b == T(0)) return T(0);
        if constexpr (std::is_signed_v<T>) {
          if (b == T(-1)) return T(0);  // INT_MIN % -1 overflows in C++
          T r = static_cast<T>(a % b);
          if (r != T(0) && ((r < T(0)) != (b < T(0)))) r = static_cast<T>(r + b);
          return r;
        } else {
          return static_cast<T>(a % b);
        }
      } else {
        using C = compute_t<T>;
        const C x = load_element(a);
        const C y = load_element(b);
        C r = std::fmod(x, y);  // NaN for x = ±inf, y = ±0 or NaN operands; x for y = ±inf
        if (r != C(0)) {
          if ((r < C(0)) != (y < C(0))) r += y;
        } else {
          r = std::copysign(C(0), y);
        }
        return store_element<T>(r);
      }
    }
  };
  /// Sign of the dividend (fmod=1).
  struct Truncate {
    template <typename T>
    static T apply(T a, T b) noexcept {
      if constexpr (std::is_integral_v<T>) {
        if (b == T(0)) return T(0);
        if constexpr (std::is_signed_v<T>) {
          if (b == T(-1)) return T(0);
        }
        return static_cast<T>(a % b);
      } else {
        return store_element<T>(std::fmod(load_element(a), load_element(b)));
      }
    }
  };
};

namespace mod_detail {

/// Implementation shared by the Mod versions; floats accept fmod=0 from opset 28.
struct ModImpl : KernelDefaults {
  static constexpr std::string_view kOpType = "Mod";
  static constexpr int kInPlaceInput = 0;
  static constexpr int kInputA = 0;
  static constexpr int kInputB = 1;
  static constexpr int kOutput = 0;
  using State = BinaryPlanState;

  static Status prepare(PrepareContext& ctx, int since) noexcept {
    const bool float_floor_mod = since >= 28;
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kInputA));
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kInputB));
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_same_dtype(kInputA, kInputB));
    std::int64_t fmod = 0;
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("fmod", fmod, 0));
    if (fmod != 0 && fmod != 1) {
      return Status(StatusCode::invalid_model) << "attribute 'fmod' is " << fmod << ", expected 0 or 1";
    }
    const DataType dtype = ctx.input(kInputA).dtype;
    if (!float_floor_mod && fmod == 0 && is_floating(dtype)) {
      return Status(StatusCode::invalid_model)
             << "attribute 'fmod' is 0 but input 0 '" << ctx.input(kInputA).name << "' has dtype " << dtype_name(dtype)
             << ": before opset 28 floating-point Mod requires fmod=1";
    }
    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
    const bool supported = visit_dtype(dtype, NumericTypes{}, [&](auto tag) noexcept {
      using T = typename decltype(tag)::type;
      state->compute =
          fmod == 0 ? &run_broadcast_binary<T, T, T, ModOp::Floor> : &run_broadcast_binary<T, T, T, ModOp::Truncate>;
    });
    if (!supported) return ctx.unsupported_input_dtype(kInputA);
    Shape output;
    ONNXMICRO_RETURN_IF_ERROR(plan_broadcast_binary(ctx, kInputA, kInputB, output, state->plan));
    ctx.set_output(kOutput, dtype, output);
    return {};
  }

  static Status run(RunContext& ctx) noexcept {
    const State& state = ctx.state<State>();
    state.compute(state.plan, ctx.input(kInputA).data, ctx.input(kInputB).data, ctx.output(kOutput).data);
    return {};
  }
};

}  // namespace mod_detail

// Opset 10-27: floating-point inputs require fmod=1.
using Mod_10 = VersionedKernel<mod_detail::ModImpl, 10, 28>;
// Opset 28+: floating-point inputs accept fmod=0 too.
using Mod_28 = VersionedKernel<mod_detail::ModImpl, 28>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
