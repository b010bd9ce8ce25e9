// SPDX-License-Identifier: MIT
// CumSum: running sums along the axis given by input 1 (a constant int32/int64 scalar). exclusive=1 leaves the
// current element out (the first sum is 0); reverse=1 runs from the end of the axis. Integers wrap modulo
// 2^bits like numpy; float16/bfloat16 accumulate in float32 and round each output once.
#pragma once
#include <cstring>

#include "onnxmicro/kernels/common/axis_slices.hpp"
#include "onnxmicro/kernels/common/elementwise.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

namespace cum_sum_detail {

/// The implementation of CumSum (see the file comment).
struct CumSumImpl : KernelDefaults {
  static constexpr std::string_view kOpType = "CumSum";
  static constexpr int kInPlaceInput = 0;
  static constexpr int kInput = 0;
  static constexpr int kAxisInput = 1;
  static constexpr int kOutput = 0;

  using Types =
      TypeList<float, double, float16_t, bfloat16_t, std::int32_t, std::int64_t, std::uint32_t, std::uint64_t>;

  struct State {
    AxisSlices slices;
    bool exclusive;
    bool reverse;
    void (*compute)(const void* x, void* y, const AxisSlices& s, bool exclusive, bool reverse) noexcept;
  };

  static Status prepare(PrepareContext& ctx) noexcept {
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kInput));
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kAxisInput));
    ONNXMICRO_RETURN_IF_ERROR(axis_slices::require_static_shape(ctx, kInput));
    const TensorInfo& input = ctx.input(kInput);
    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
    // float16/bfloat16: added in opset 14.
    if ((input.dtype == DataType::float16 || input.dtype == DataType::bfloat16) && ctx.opset_version() < 14) {
      return ctx.unsupported_input_dtype(kInput);
    }
    const bool supported = visit_dtype(
        input.dtype, Types{}, [&](auto tag) noexcept { state->compute = &compute<typename decltype(tag)::type>; });
    if (!supported) return ctx.unsupported_input_dtype(kInput);
    std::int64_t exclusive = 0, reverse = 0;
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("exclusive", exclusive, 0));
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("reverse", reverse, 0));
    state->exclusive = exclusive != 0;
    state->reverse = reverse != 0;

    // The axis decides the iteration plan made here, so it must be known now.
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_constant_input(kAxisInput));
    const TensorInfo& axis_info = ctx.input(kAxisInput);
    if (axis_info.dtype != DataType::int32 && axis_info.dtype != DataType::int64) {
      return ctx.input_error(kAxisInput, "axis")
             << " has dtype " << dtype_name(axis_info.dtype) << ", expected int32 or int64";
    }
    if (axis_info.shape.rank() > 1 || axis_info.shape.element_count() != 1) {
      return ctx.input_error(kAxisInput, "axis") << " must be a scalar, got shape " << axis_info.shape;
    }
    std::int64_t axis_value = 0;
    if (axis_info.dtype == DataType::int64) {
      std::memcpy(&axis_value, axis_info.const_data, 8);  // constant data may be unaligned
    } else {
      std::int32_t v = 0;
      std::memcpy(&v, axis_info.const_data, 4);
      axis_value = v;
    }
    if (input.shape.rank() == 0) {
      return ctx.input_error(kInput) << " is a scalar; expected rank >= 1";
    }
    int axis = 0;
    ONNXMICRO_RETURN_IF_ERROR(axis_slices::normalize(axis_value, input.shape, "input 1 'axis'", true, 0, axis));
    state->slices = axis_slices::along(input.shape, axis);
    ctx.set_output(kOutput, input.dtype, input.shape);
    return {};
  }

  static Status run(RunContext& ctx) noexcept {
    const State& state = ctx.state<State>();
    state.compute(ctx.input(kInput).data, ctx.output(kOutput).data, state.slices, state.exclusive, state.reverse);
    return {};
  }

 private:
  // y may alias x: each position's input is read before its output is written, and only earlier (in scan
  // order) positions were written before.
  template <typename T>
  static void compute(const void* x, void* y, const AxisSlices& s, bool exclusive, bool reverse) noexcept {
    using C = compute_t<T>;
    const T* in = static_cast<const T*>(x);
    T* out = static_cast<T*>(y);
    const std::int64_t step = reverse ? -s.inner : s.inner;
    for (std::int64_t o = 0; o < s.outer; ++o) {
      for (std::int64_t i = 0; i < s.inner; ++i) {
        if (s.length == 0) continue;
        std::int64_t p = o * s.length * s.inner + i + (reverse ? (s.length - 1) * s.inner : 0);
        C acc = 0;
        for (std::int64_t k = 0; k < s.length; ++k, p += step) {
          const C v = load_element(in[p]);
          const C before = acc;
          if constexpr (std::is_integral_v<C>) {
            acc = wrapping_add(acc, v);
          } else {
            acc += v;
          }
          out[p] = store_element<T>(exclusive ? before : acc);
        }
      }
    }
  }
};

}  // namespace cum_sum_detail

// Opset 11: first version (float/double/int32/int64/uint32/uint64); opset 14 adds float16 and bfloat16.
using CumSum_11 = VersionedKernel<cum_sum_detail::CumSumImpl, 11>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
