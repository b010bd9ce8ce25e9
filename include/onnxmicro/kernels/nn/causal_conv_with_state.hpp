// SPDX-License-Identifier: MIT
// CausalConvWithState: depthwise causal 1-D convolution over (batch, channels, length). The input is preceded by
// past_state (batch, channels, k - 1) (zeros when absent), each channel is convolved with its own kernel
// weight[c, 0, :] (valid padding), bias[c] is added, and optionally SiLU (`silu` or its alias `swish`) applied.
// present_state is the last k - 1 positions of [past_state, input]. As in the reference, float16/bfloat16
// accumulate in float and round the convolution, the bias sum and the activation to their dtype.
#pragma once
#include <cmath>
#include <cstdint>
#include <string_view>

#include "onnxmicro/kernels/nn/attention_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

namespace causal_conv_with_state_detail {

/// The implementation of CausalConvWithState (see the file comment).
struct CausalConvWithStateImpl : KernelDefaults {
  static constexpr std::string_view kOpType = "CausalConvWithState";
  static constexpr int kInput = 0;
  static constexpr int kWeight = 1;
  static constexpr int kBias = 2;
  static constexpr int kPastState = 3;
  static constexpr int kOutput = 0;
  static constexpr int kPresentState = 1;

  using ConvTypes = TypeList<float, float16_t, bfloat16_t>;

  struct State;
  using Function = void (*)(const RunContext& ctx, const State& state) noexcept;
  struct State {
    Function compute;
    std::int64_t batch, channels, length, kernel;
    bool has_bias, has_past, silu;
  };

  static Status prepare(PrepareContext& ctx) noexcept {
    using attention_util::require_dim;
    ONNXMICRO_RETURN_IF_ERROR(attention_util::require_rank(ctx, kInput, 3, 3));
    ONNXMICRO_RETURN_IF_ERROR(attention_util::require_rank(ctx, kWeight, 3, 3));
    ONNXMICRO_RETURN_IF_ERROR(attention_util::require_dtype(ctx, kInput, ConvTypes{}));
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_same_dtype(kInput, kWeight));
    State* st = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(st));
    const Shape& x = ctx.input(kInput).shape;
    st->batch = x[0];
    st->channels = x[1];
    st->length = x[2];
    st->kernel = ctx.input(kWeight).shape[2];
    ONNXMICRO_RETURN_IF_ERROR(require_dim(ctx, kWeight, 0, st->channels, "channels"));
    ONNXMICRO_RETURN_IF_ERROR(require_dim(ctx, kWeight, 1, 1, "depthwise: one input channel per group"));
    if (st->kernel < 1) {
      return ctx.input_error(kWeight) << " of shape " << ctx.input(kWeight).shape << ": kernel size must be at least 1";
    }
    st->has_bias = ctx.has_input(kBias);
    if (st->has_bias) {
      ONNXMICRO_RETURN_IF_ERROR(attention_util::require_rank(ctx, kBias, 1, 1));
      ONNXMICRO_RETURN_IF_ERROR(ctx.require_same_dtype(kInput, kBias));
      ONNXMICRO_RETURN_IF_ERROR(require_dim(ctx, kBias, 0, st->channels, "channels"));
    }
    st->has_past = ctx.has_input(kPastState);
    if (st->has_past) {
      ONNXMICRO_RETURN_IF_ERROR(attention_util::require_rank(ctx, kPastState, 3, 3));
      ONNXMICRO_RETURN_IF_ERROR(ctx.require_same_dtype(kInput, kPastState));
      ONNXMICRO_RETURN_IF_ERROR(require_dim(ctx, kPastState, 0, st->batch, "batch size"));
      ONNXMICRO_RETURN_IF_ERROR(require_dim(ctx, kPastState, 1, st->channels, "channels"));
      ONNXMICRO_RETURN_IF_ERROR(require_dim(ctx, kPastState, 2, st->kernel - 1, "kernel size - 1"));
    }
    std::string_view activation;
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("activation", activation, "none"));
    if (activation != "none" && activation != "silu" && activation != "swish") {
      return Status(StatusCode::invalid_model)
             << "attribute 'activation' is '" << activation << "', expected 'none', 'silu' or 'swish'";
    }
    st->silu = activation != "none";
    visit_dtype(ctx.input(kInput).dtype, ConvTypes{},
                [&](auto tag) noexcept { st->compute = &compute<typename decltype(tag)::type>; });
    const DataType dtype = ctx.input(kInput).dtype;
    ctx.set_output(kOutput, dtype, x);
    if (ctx.has_output(kPresentState))
      ctx.set_output(kPresentState, dtype, Shape{st->batch, st->channels, st->kernel - 1});
    return {};
  }

  static Status run(RunContext& ctx) noexcept { return attention_util::run_state_compute<State>(ctx); }

 private:
  template <typename T>
  static void compute(const RunContext& ctx, const State& st) noexcept {
    using attention_util::round_to;
    const T* x = static_cast<const T*>(ctx.input(kInput).data);
    const T* w = static_cast<const T*>(ctx.input(kWeight).data);
    const T* bias = st.has_bias ? static_cast<const T*>(ctx.input(kBias).data) : nullptr;
    const T* past = st.has_past ? static_cast<const T*>(ctx.input(kPastState).data) : nullptr;
    T* y = static_cast<T*>(ctx.output(kOutput).data);
    T* present = ctx.has_output(kPresentState) ? static_cast<T*>(ctx.output(kPresentState).data) : nullptr;
    const std::int64_t carry = st.kernel - 1;
    for (std::int64_t b = 0; b < st.batch; ++b) {
      for (std::int64_t c = 0; c < st.channels; ++c) {
        const std::int64_t row = b * st.channels + c;
        const T* in = x + row * st.length;
        const T* state = past != nullptr ? past + row * carry : nullptr;
        // Position p of [past_state, input]; p < carry lies in the state.
        auto padded = [&](std::int64_t p) noexcept -> float {
          if (p >= carry) return load_element(in[p - carry]);
          return state != nullptr ? load_element(state[p]) : 0.0f;
        };
        const T* kernel = w + c * st.kernel;
        for (std::int64_t t = 0; t < st.length; ++t) {
          float sum = 0.0f;
          for (std::int64_t i = 0; i < st.kernel; ++i) sum += load_element(kernel[i]) * padded(t + i);
          float value = round_to<T>(sum);
          if (bias != nullptr) value = round_to<T>(value + load_element(bias[c]));
          if (st.silu) value = value * (1.0f / (1.0f + std::exp(-value)));
          y[row * st.length + t] = store_element<T>(value);
        }
        if (present != nullptr) {
          for (std::int64_t i = 0; i < carry; ++i) present[row * carry + i] = store_element<T>(padded(st.length + i));
        }
      }
    }
  }
};

}  // namespace causal_conv_with_state_detail

// Opset 27: first version.
using CausalConvWithState_27 = VersionedKernel<causal_conv_with_state_detail::CausalConvWithStateImpl, 27>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
