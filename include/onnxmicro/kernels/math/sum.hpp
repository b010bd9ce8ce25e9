// SPDX-License-Identifier: MIT
// Sum: y = x0 + x1 + ... elementwise over one or more inputs, and VariadicElementwise, the body shared with
// Max, Min and Mean (math/max.hpp, min.hpp, mean.hpp).
// Versions: 1 (with `consumed_inputs`, ignored) and 6 required equal input shapes; 8 added numpy
// broadcasting over all inputs; 13 only added bfloat16. So two kernels cover every version.
#pragma once
#include <cstdint>

#include "onnxmicro/kernels/common/broadcast.hpp"
#include "onnxmicro/kernels/common/elementwise.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

/// Body of a variadic elementwise kernel: y = Op(...Op(Op(x0, x1), x2)..., xn-1), every input of one dtype,
/// broadcast together (from opset kBroadcastSince on) or of one shape. Op is the policy: kOpType, kMean (divide by
/// the input count at the end) and apply(C, C) -> C on compute types; 16-bit floats round after every step, like
/// numpy applying the binary op input by input. run() folds input after input into the output buffer, so it
/// allocates nothing; the output must not alias an input (no kInPlaceInput).
template <typename Op, typename Types>
struct VariadicElementwise : KernelDefaults {
  static constexpr std::string_view kOpType = Op::kOpType;
  /// Max, Min, Sum and Mean broadcast their inputs from opset 8 on.
  static constexpr int kBroadcastSince = 8;
  static constexpr int kOutput = 0;

  struct State {
    /// plans[0] iterates (x0, x1) onto y, or (x0, x0) for one input; plans[i] (i >= 1) iterates (y, xi+1).
    Span<BroadcastPlan<2>> plans;
    void (*combine)(const BroadcastPlan<2>& plan, const void* a, const void* b, void* y) noexcept;
    void (*copy_first)(const BroadcastPlan<2>& plan, const void* a, const void* b, void* y) noexcept;
    void (*divide)(void* y, std::int64_t count, std::int64_t divisor) noexcept;
  };

  static Status prepare(PrepareContext& ctx, int since) noexcept {
    const int count = ctx.input_count();
    if (count < 1) return Status(StatusCode::invalid_model) << "expected at least 1 input, got 0";
    for (int i = 0; i < count; ++i) {
      ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(i));
      ONNXMICRO_RETURN_IF_ERROR(ctx.require_same_dtype(0, i));
    }
    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
    const bool supported = visit_dtype(ctx.input(0).dtype, Types{}, [&](auto tag) noexcept {
      using T = typename decltype(tag)::type;
      state->combine = &run_broadcast_binary<T, T, T, Step<T>>;
      state->copy_first = &run_broadcast_binary<T, T, T, First<T>>;
      state->divide = &divide<T>;
    });
    if (!supported) return ctx.unsupported_input_dtype(0);

    // The output shape: numpy broadcast of every input, or the common shape before opset 8.
    Shape output = ctx.input(0).shape;
    for (int i = 1; i < count; ++i) {
      const TensorInfo& input = ctx.input(i);
      if (since >= kBroadcastSince) {
        const BroadcastOperand operands[2] = {{&output, "broadcast of inputs 0 to", i - 1, ""},
                                              {&input.shape, "input", i, input.name}};
        Shape merged;
        ONNXMICRO_RETURN_IF_ERROR(broadcast_shapes(Span<const BroadcastOperand>(operands, 2), merged));
        output = merged;
      } else if (!(input.shape == output)) {
        return ctx.input_error(i) << " has shape " << input.shape << ", expected " << output << " (same as input 0 '"
                                  << ctx.input(0).name << "': broadcasting needs opset 8)";
      }
    }

    const int plan_count = count == 1 ? 1 : count - 1;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_persistent(static_cast<std::size_t>(plan_count), state->plans));
    const Shape* first_pair[2] = {&ctx.input(0).shape, &ctx.input(count == 1 ? 0 : 1).shape};
    ONNXMICRO_RETURN_IF_ERROR(make_broadcast_plan(first_pair, output, state->plans[0]));
    for (int i = 2; i < count; ++i) {
      const Shape* pair[2] = {&output, &ctx.input(i).shape};
      ONNXMICRO_RETURN_IF_ERROR(make_broadcast_plan(pair, output, state->plans[static_cast<std::size_t>(i - 1)]));
    }
    ctx.set_output(kOutput, ctx.input(0).dtype, output);
    return {};
  }

  static Status run(RunContext& ctx) noexcept {
    const State& state = ctx.state<State>();
    const int count = ctx.input_count();
    void* y = ctx.output(kOutput).data;
    if (count == 1) {
      state.copy_first(state.plans[0], ctx.input(0).data, ctx.input(0).data, y);
    } else {
      state.combine(state.plans[0], ctx.input(0).data, ctx.input(1).data, y);
      for (int i = 2; i < count; ++i)
        state.combine(state.plans[static_cast<std::size_t>(i - 1)], y, ctx.input(i).data, y);
    }
    if constexpr (Op::kMean) state.divide(y, ctx.output(kOutput).element_count(), count);
    return {};
  }

 private:
  template <typename T>
  struct Step {
    static T apply(T a, T b) noexcept { return store_element<T>(Op::apply(load_element(a), load_element(b))); }
  };
  template <typename T>
  struct First {
    static T apply(T a, T) noexcept { return a; }
  };
  template <typename T>
  static void divide(void* y, std::int64_t count, std::int64_t divisor) noexcept {
    T* values = static_cast<T*>(y);
    using C = compute_t<T>;
    const C d = static_cast<C>(divisor);
    for (std::int64_t i = 0; i < count; ++i) values[i] = store_element<T>(load_element(values[i]) / d);
  }
};

struct SumOp {
  static constexpr std::string_view kOpType = "Sum";
  static constexpr bool kMean = false;
  template <typename C>
  static C apply(C a, C b) noexcept {
    return a + b;
  }
};

// Opset 1-7: every input has the same shape.
using Sum_1 = VersionedKernel<VariadicElementwise<SumOp, FloatTypes>, 1, 8>;

// Opset 8+: numpy broadcasting over all inputs.
using Sum_8 = VersionedKernel<VariadicElementwise<SumOp, FloatTypes>, 8>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
