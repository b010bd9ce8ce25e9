// SPDX-License-Identifier: MIT
// STFT: short-time Fourier transform of signal [batch, length, 1 (real) or 2 (complex)]. Frame f covers samples
// [f*frame_step, f*frame_step + frame_length), is multiplied by `window` (default: ones) and transformed with
// a DFT of length frame_length; output [batch, frames, bins, 2] with frames = 1 + (length - frame_length) /
// frame_step and bins = frame_length/2 + 1 when onesided (default) else frame_length. frame_length defaults to
// the window's length. frame_step and frame_length decide the output shape, so they must be known at prepare
// time.
#pragma once
#include "onnxmicro/kernels/signal/signal_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

namespace stft_detail {

/// The implementation of STFT (see the file comment).
struct STFTImpl : KernelDefaults {
  static constexpr std::string_view kOpType = "STFT";
  static constexpr int kSignal = 0;
  static constexpr int kFrameStep = 1;
  static constexpr int kWindow = 2;
  static constexpr int kFrameLength = 3;
  static constexpr int kOutput = 0;

  struct State {
    std::int64_t batch, length, components, frames, frame_step, frame_length, bins;
    void (*compute)(const State&, const void* x, const void* window, void* y, void* scratch) noexcept;
  };

  static Status prepare(PrepareContext& ctx) noexcept {
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kSignal));
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kFrameStep));
    const TensorInfo& signal = ctx.input(kSignal);
    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
    if (!visit_dtype(signal.dtype, FloatTypes{},
                     [&](auto tag) noexcept { state->compute = &compute<typename decltype(tag)::type>; })) {
      return ctx.unsupported_input_dtype(kSignal);
    }
    if (signal.shape.rank() != 3 || (signal.shape[2] != 1 && signal.shape[2] != 2)) {
      return ctx.input_error(kSignal) << ": expected shape [batch, signal_length, 1 or 2], got " << signal.shape;
    }
    state->batch = signal.shape[0];
    state->length = signal.shape[1];
    state->components = signal.shape[2];
    ONNXMICRO_RETURN_IF_ERROR(signal_util::read_constant_scalar(ctx, kFrameStep, "frame_step", state->frame_step));
    if (state->frame_step < 1) {
      return ctx.input_error(kFrameStep, "frame_step") << " is " << state->frame_step << ", expected >= 1";
    }
    std::int64_t frame_length = -1;
    if (ctx.has_input(kWindow)) {
      const TensorInfo& window = ctx.input(kWindow);
      ONNXMICRO_RETURN_IF_ERROR(ctx.require_same_dtype(kSignal, kWindow));
      if (window.shape.rank() != 1) {
        return ctx.input_error(kWindow, "window") << ": expected rank 1, got " << window.shape;
      }
      frame_length = window.shape[0];
    }
    if (ctx.has_input(kFrameLength)) {
      std::int64_t given = 0;
      ONNXMICRO_RETURN_IF_ERROR(signal_util::read_constant_scalar(ctx, kFrameLength, "frame_length", given));
      if (frame_length >= 0 && given != frame_length) {
        return ctx.input_error(kFrameLength, "frame_length")
               << " is " << given << ", but the window has " << frame_length << " values";
      }
      frame_length = given;
    }
    if (frame_length < 0) {
      return Status(StatusCode::invalid_model) << "STFT needs input 2 'window' or input 3 'frame_length'";
    }
    if (frame_length < 1 || frame_length > state->length) {
      return Status(StatusCode::invalid_model) << "frame_length is " << frame_length << ", expected a value in [1, "
                                               << state->length << "] (the signal length)";
    }
    std::int64_t onesided = 1;
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("onesided", onesided, 1));
    state->frame_length = frame_length;
    state->frames = 1 + (state->length - frame_length) / state->frame_step;
    state->bins = onesided != 0 ? frame_length / 2 + 1 : frame_length;
    ctx.set_output(kOutput, signal.dtype, Shape{state->batch, state->frames, state->bins, 2});
    ctx.request_scratch(signal_util::DftWorkspace::scratch_bytes(frame_length));
    return {};
  }

  static Status run(RunContext& ctx) noexcept {
    const State& state = ctx.state<State>();
    const void* window = ctx.has_input(kWindow) ? ctx.input(kWindow).data : nullptr;
    state.compute(state, ctx.input(kSignal).data, window, ctx.output(kOutput).data, ctx.scratch());
    return {};
  }

 private:
  template <typename T>
  static void compute(const State& s, const void* x_data, const void* window_data, void* y_data,
                      void* scratch) noexcept {
    const T* x = static_cast<const T*>(x_data);
    const T* window = static_cast<const T*>(window_data);
    T* y = static_cast<T*>(y_data);
    const std::int64_t n = s.frame_length;
    const signal_util::DftWorkspace work(scratch, n);
    double* frame = work.buffer;
    for (std::int64_t b = 0; b < s.batch; ++b) {
      for (std::int64_t f = 0; f < s.frames; ++f) {
        const T* samples = x + (b * s.length + f * s.frame_step) * s.components;
        for (std::int64_t m = 0; m < n; ++m) {
          const double w = window == nullptr ? 1.0 : signal_util::to_double(window[m]);
          frame[2 * m] = signal_util::to_double(samples[m * s.components]) * w;
          frame[2 * m + 1] = s.components == 2 ? signal_util::to_double(samples[m * s.components + 1]) * w : 0.0;
        }
        T* out = y + (b * s.frames + f) * s.bins * 2;
        for (std::int64_t k = 0; k < s.bins; ++k) {
          double re = 0, im = 0;
          work.bin(k, false, re, im);
          out[2 * k] = signal_util::from_double<T>(re);
          out[2 * k + 1] = signal_util::from_double<T>(im);
        }
      }
    }
  }
};

}  // namespace stft_detail

/// STFT-17: the first version.
using STFT_17 = VersionedKernel<stft_detail::STFTImpl, 17>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
