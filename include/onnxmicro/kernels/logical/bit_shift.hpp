// SPDX-License-Identifier: MIT
// BitShift: z = x << y or x >> y (attribute `direction` "LEFT"/"RIGHT") elementwise, numpy broadcasting.
// Versions: 11 accepts unsigned integers only; 28 added signed integers (right shift sign-extends, left shift
// drops bits past the sign bit) and defined shifts by a negative amount or >= the bit width: the sign fill
// alone (-1 for a right shift of a negative x, else 0). Unsigned values give the same results in both, so one
// body serves both versions, the first refusing signed dtypes.
#pragma once
#include <type_traits>

#include "onnxmicro/kernels/common/broadcast.hpp"
#include "onnxmicro/kernels/logical/type_list_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

/// The two shifts on one integer type, without C++ undefined behaviour for any operand.
struct BitShiftOp {
  template <typename T>
  static constexpr bool shift_in_range(T amount) noexcept {
    if constexpr (std::is_signed_v<T>) {
      if (amount < 0) return false;
    }
    return static_cast<std::uint64_t>(amount) < sizeof(T) * 8u;
  }
  struct Left {
    template <typename T>
    static T apply(T x, T amount) noexcept {
      if (!shift_in_range(amount)) return T(0);
      // Shift the unsigned pattern: shifting a negative signed value left is undefined before C++20.
      return static_cast<T>(static_cast<wrapping_t<T>>(static_cast<std::make_unsigned_t<T>>(x)) << amount);
    }
  };
  struct Right {
    template <typename T>
    static T apply(T x, T amount) noexcept {
      const bool negative = std::is_signed_v<T> && x < T(0);
      if (!shift_in_range(amount)) return negative ? static_cast<T>(-1) : T(0);
      // ~(~x >> n) sign-extends without relying on implementation-defined >> of negative values.
      if (negative) return static_cast<T>(~(~x >> amount));
      return static_cast<T>(x >> amount);
    }
  };
};

namespace bit_shift_detail {

/// Every BitShift version: 11 takes the unsigned integers, 28 every integer (BitShiftOp is right for both).
struct BitShiftImpl : KernelDefaults {
  static constexpr std::string_view kOpType = "BitShift";
  static constexpr int kInPlaceInput = 0;
  static constexpr int kInputX = 0;
  static constexpr int kInputY = 1;
  static constexpr int kOutput = 0;
  using State = BinaryPlanState;

  static Status prepare(PrepareContext& ctx, int since) noexcept {
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kInputX));
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kInputY));
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_same_dtype(kInputX, kInputY));
    std::string_view direction;
    ONNXMICRO_RETURN_IF_ERROR(ctx.required_attribute("direction", direction));
    const bool left = direction == "LEFT";
    if (!left && direction != "RIGHT") {
      return Status(StatusCode::invalid_model)
             << "attribute 'direction' is \"" << direction << "\", expected \"LEFT\" or \"RIGHT\"";
    }
    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
    const DataType dtype = ctx.input(kInputX).dtype;
    bool is_signed = false;
    const bool supported = visit_dtype(dtype, IntegerTypes{}, [&](auto tag) noexcept {
      using T = typename decltype(tag)::type;
      is_signed = std::is_signed_v<T>;
      state->compute =
          left ? &run_broadcast_binary<T, T, T, BitShiftOp::Left> : &run_broadcast_binary<T, T, T, BitShiftOp::Right>;
    });
    if (!supported || (is_signed && since < 28)) return ctx.unsupported_input_dtype(kInputX);  // signed: opset 28
    Shape output;
    ONNXMICRO_RETURN_IF_ERROR(plan_broadcast_binary(ctx, kInputX, kInputY, output, state->plan));
    ctx.set_output(kOutput, dtype, output);
    return {};
  }

  static Status run(RunContext& ctx) noexcept {
    const State& state = ctx.state<State>();
    state.compute(state.plan, ctx.input(kInputX).data, ctx.input(kInputY).data, ctx.output(kOutput).data);
    return {};
  }
};

}  // namespace bit_shift_detail

// Opset 11-27: unsigned integers only.
using BitShift_11 = VersionedKernel<bit_shift_detail::BitShiftImpl, 11, 28>;

// Opset 28+: signed integers too, with defined out-of-range shift amounts.
using BitShift_28 = VersionedKernel<bit_shift_detail::BitShiftImpl, 28>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
