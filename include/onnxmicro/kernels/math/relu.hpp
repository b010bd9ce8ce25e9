// SPDX-License-Identifier: MIT
// Relu: y = max(0, x). Versions 1, 6, 13 and 14 compute the same thing; they only widened the dtype list
// (13: bfloat16, 14: int8/16/32/64), so one kernel serves every version.
#pragma once
#include "onnxmicro/kernels/kernel_api.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

struct Relu_1 : KernelDefaults {
  static constexpr std::string_view kDomain = "";
  static constexpr std::string_view kOpType = "Relu";
  static constexpr int kSinceVersion = 1;
  static constexpr int kInPlaceInput = 0;
  static constexpr int kInput = 0;
  static constexpr int kOutput = 0;

  struct State {
    void (*compute)(const void* x, void* y, std::int64_t count) noexcept;
  };

  static Status prepare(PrepareContext& ctx) noexcept {
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kInput));
    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
    switch (compiled_dtype(ctx.input(kInput).dtype)) {
      case DataType::float32: state->compute = &compute<float>; break;
      case DataType::float64: state->compute = &compute<double>; break;
      case DataType::float16: state->compute = &compute_via_float<float16_t>; break;
      case DataType::bfloat16: state->compute = &compute_via_float<bfloat16_t>; break;
      case DataType::int8: state->compute = &compute<std::int8_t>; break;
      case DataType::int16: state->compute = &compute<std::int16_t>; break;
      case DataType::int32: state->compute = &compute<std::int32_t>; break;
      case DataType::int64: state->compute = &compute<std::int64_t>; break;
      default: return ctx.unsupported_input_dtype(kInput);
    }
    ctx.set_output(kOutput, ctx.input(kInput).dtype, ctx.input(kInput).shape);
    return {};
  }

  static Status run(RunContext& ctx) noexcept {
    const State& state = ctx.state<State>();
    state.compute(ctx.input(kInput).data, ctx.output(kOutput).data, ctx.input(kInput).element_count());
    return {};
  }

 private:
  template <typename T>
  static void compute(const void* x, void* y, std::int64_t count) noexcept {
    const T* in = static_cast<const T*>(x);
    T* out = static_cast<T*>(y);
    for (std::int64_t i = 0; i < count; ++i) out[i] = in[i] < T(0) ? T(0) : in[i];  // NaN stays NaN
  }
  template <typename T>
  static void compute_via_float(const void* x, void* y, std::int64_t count) noexcept {
    const T* in = static_cast<const T*>(x);
    T* out = static_cast<T*>(y);
    for (std::int64_t i = 0; i < count; ++i) {
      float v = in[i].to_float();
      out[i] = T::from_float(v < 0.0f ? 0.0f : v);
    }
  }
};

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
