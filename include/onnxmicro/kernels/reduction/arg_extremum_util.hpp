// SPDX-License-Identifier: MIT
// The engine behind ArgMax and ArgMin: the int64 index of the largest/smallest element along `axis`
// (keepdims, select_last_index). Ties give the first index, or the last with select_last_index (opset 12). A
// NaN counts as the extreme value, like numpy's argmax/argmin (the first NaN wins).
#pragma once
#include <cstdint>

#include "onnxmicro/kernels/common/axis_slices.hpp"
#include "onnxmicro/kernels/common/elementwise.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

/// Body of the ArgMax / ArgMin kernels, usable directly as a VersionedKernel's Impl. Op names the op (kOpType)
/// and which extreme it finds (kMax: the largest, else the smallest):
/// `using ArgMax_12 = VersionedKernel<ArgExtremumKernel<ArgMaxOp>, 12>;`.
template <typename Op>
struct ArgExtremumKernel : KernelDefaults {
  static constexpr std::string_view kOpType = Op::kOpType;
  static constexpr bool kMax = Op::kMax;
  static constexpr int kInput = 0;
  static constexpr int kOutput = 0;
  using Types = TypeList<float, double, float16_t, bfloat16_t, std::int8_t, std::int16_t, std::int32_t, std::int64_t,
                         std::uint8_t, std::uint16_t, std::uint32_t, std::uint64_t>;

  struct State {
    AxisSlices slices;
    bool select_last_index;
    void (*compute)(const void* x, std::int64_t* y, const AxisSlices& s, bool select_last) noexcept;
  };

  static Status prepare(PrepareContext& ctx) noexcept {
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kInput));
    ONNXMICRO_RETURN_IF_ERROR(axis_slices::require_static_shape(ctx, kInput));
    const TensorInfo& data = ctx.input(kInput);
    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
    // bfloat16: added in opset 13.
    if (data.dtype == DataType::bfloat16 && ctx.opset_version() < 13) return ctx.unsupported_input_dtype(kInput);
    const bool supported = visit_dtype(
        data.dtype, Types{}, [&](auto tag) noexcept { state->compute = &compute<typename decltype(tag)::type>; });
    if (!supported) return ctx.unsupported_input_dtype(kInput);
    std::int64_t axis_value = 0, keepdims = 1, select_last = 0;
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("axis", axis_value, 0));
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("keepdims", keepdims, 1));
    if (ctx.opset_version() >= 12) {  // select_last_index: added in opset 12
      ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("select_last_index", select_last, 0));
    }
    if (data.shape.rank() == 0) {
      return ctx.input_error(kInput) << " is a scalar; expected rank >= 1";
    }
    int axis = 0;
    // negative axis: allowed from opset 11
    ONNXMICRO_RETURN_IF_ERROR(
        axis_slices::normalize(axis_value, data.shape, "attribute 'axis'", ctx.opset_version() >= 11, 0, axis));
    state->slices = axis_slices::along(data.shape, axis);
    state->select_last_index = select_last != 0;
    if (state->slices.length == 0 && state->slices.outer * state->slices.inner != 0) {
      return ctx.input_error(kInput) << " has shape " << data.shape << ": axis " << axis
                                     << " is empty, so there is no index to return";
    }
    Shape out = data.shape;
    if (keepdims != 0) {
      out[axis] = 1;
    } else {
      for (int i = axis; i + 1 < out.rank(); ++i) out[i] = out[i + 1];
      out.resize(out.rank() - 1);
    }
    ctx.set_output(kOutput, DataType::int64, out);
    return {};
  }

  static Status run(RunContext& ctx) noexcept {
    const State& state = ctx.state<State>();
    state.compute(ctx.input(kInput).data, static_cast<std::int64_t*>(ctx.output(kOutput).data), state.slices,
                  state.select_last_index);
    return {};
  }

  template <typename T>
  static void compute(const void* x, std::int64_t* y, const AxisSlices& s, bool select_last) noexcept {
    using C = compute_t<T>;
    const T* in = static_cast<const T*>(x);
    for (std::int64_t o = 0; o < s.outer; ++o) {
      for (std::int64_t i = 0; i < s.inner; ++i) {
        const T* p = in + o * s.length * s.inner + i;
        C best = load_element(p[0]);
        std::int64_t best_index = 0;
        for (std::int64_t k = 1; k < s.length; ++k) {
          const C v = load_element(p[k * s.inner]);
          if (best != best) break;  // NaN already found: it stays the answer
          const bool better = v != v || (kMax ? v > best : v < best) || (select_last && v == best);
          if (better) {
            best = v;
            best_index = k;
          }
        }
        y[o * s.inner + i] = best_index;
      }
    }
  }
};

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
