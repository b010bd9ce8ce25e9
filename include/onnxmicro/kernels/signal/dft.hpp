// SPDX-License-Identifier: MIT
// DFT: the discrete Fourier transform along one axis of a signal whose last dimension holds a real value (1)
// or a complex value as (re, im) (2). The output's last dimension is 2, and along the axis:
//   forward:           dft_length bins, or dft_length/2 + 1 when onesided (the rest are conjugates);
//   inverse:           dft_length values scaled by 1/dft_length;
//   inverse onesided:  the inverse of a one-sided spectrum (numpy's irfft): dft_length real values, last
//                      dimension 1; the missing half is the conjugate mirror, dft_length defaults to
//                      2*(n - 1). The spec leaves this case open; the reference implementation defines it so.
// dft_length (default: the axis length) zero-pads or truncates the signal. dft_length and, from opset 20, the
// axis input decide the output shape, so they must be known at prepare time.
#pragma once
#include "onnxmicro/kernels/signal/signal_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {
namespace dft_detail {

/// Every DFT version.
struct DftImpl : KernelDefaults {
  static constexpr std::string_view kOpType = "DFT";
  static constexpr int kInput = 0;
  static constexpr int kDftLength = 1;
  static constexpr int kAxisInput = 2;
  static constexpr int kOutput = 0;

  struct State {
    std::int64_t outer, axis_in, inner, components_in;  ///< input viewed as [outer, axis_in, inner, components]
    std::int64_t n, axis_out, components_out;
    bool inverse, half_spectrum_input;
    void (*compute)(const State&, const void* x, void* y, void* scratch) noexcept;
  };

  /// From opset 20 the axis is input 2 (default -2) rather than attribute `axis` (opset 17, default 1).
  static Status prepare(PrepareContext& ctx, int since) noexcept {
    const bool axis_from_input = since >= 20;
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kInput));
    const TensorInfo& input = ctx.input(kInput);
    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
    if (!visit_dtype(input.dtype, FloatTypes{},
                     [&](auto tag) noexcept { state->compute = &compute<typename decltype(tag)::type>; })) {
      return ctx.unsupported_input_dtype(kInput);
    }
    const int rank = input.shape.rank();
    if (rank < 2 || (input.shape[rank - 1] != 1 && input.shape[rank - 1] != 2)) {
      return ctx.input_error(kInput) << ": expected rank >= 2 with a last dimension of 1 (real) or 2 "
                                     << "(complex), got " << input.shape;
    }
    std::int64_t axis_value = axis_from_input ? -2 : 1;
    const char* axis_name = axis_from_input ? "input 2 'axis'" : "attribute 'axis'";
    if (axis_from_input) {
      if (ctx.has_input(kAxisInput))
        ONNXMICRO_RETURN_IF_ERROR(signal_util::read_constant_scalar(ctx, kAxisInput, "axis", axis_value));
    } else {
      ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("axis", axis_value, 1));
    }
    int axis = 0;
    ONNXMICRO_RETURN_IF_ERROR(shape_util::normalize_axis(axis_value, rank, axis_name, true, axis));
    if (axis == rank - 1) {
      return Status(StatusCode::invalid_model)
             << axis_name << " is " << axis_value << ", which is the (re, im) dimension; expected a value in [" << -rank
             << ", -2] or [0, " << rank - 2 << "]";
    }
    std::int64_t inverse = 0, onesided = 0;
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("inverse", inverse, 0));
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("onesided", onesided, 0));
    state->inverse = inverse != 0;
    state->half_spectrum_input = inverse != 0 && onesided != 0;
    state->outer = shape_util::dims_product(input.shape, 0, axis);
    state->axis_in = input.shape[axis];
    state->inner = shape_util::dims_product(input.shape, axis + 1, rank - 1);
    state->components_in = input.shape[rank - 1];
    std::int64_t n = state->half_spectrum_input ? 2 * (state->axis_in - 1) : state->axis_in;
    if (ctx.has_input(kDftLength)) {
      ONNXMICRO_RETURN_IF_ERROR(signal_util::read_constant_scalar(ctx, kDftLength, "dft_length", n));
    }
    if (n < 1) {
      return Status(StatusCode::invalid_model)
             << "dft_length is " << n << " (for input 0 of shape " << input.shape << "), expected >= 1";
    }
    state->n = n;
    state->axis_out = onesided != 0 && inverse == 0 ? n / 2 + 1 : n;
    state->components_out = state->half_spectrum_input ? 1 : 2;
    Shape out = input.shape;
    out[axis] = state->axis_out;
    out[rank - 1] = state->components_out;
    ctx.set_output(kOutput, input.dtype, out);
    ctx.request_scratch(signal_util::DftWorkspace::scratch_bytes(n));
    return {};
  }

  static Status run(RunContext& ctx) noexcept {
    const State& state = ctx.state<State>();
    state.compute(state, ctx.input(kInput).data, ctx.output(kOutput).data, ctx.scratch());
    return {};
  }

 private:
  template <typename T>
  static void compute(const State& s, const void* x_data, void* y_data, void* scratch) noexcept {
    const T* x = static_cast<const T*>(x_data);
    T* y = static_cast<T*>(y_data);
    const std::int64_t n = s.n;
    const signal_util::DftWorkspace work(scratch, n);
    double* line = work.buffer;  // this line of the input, padded or mirrored to n
    const double scale = s.inverse ? 1.0 / static_cast<double>(n) : 1.0;
    for (std::int64_t o = 0; o < s.outer; ++o) {
      for (std::int64_t i = 0; i < s.inner; ++i) {
        // Element m of this line: x[((o * axis_in + m) * inner + i) * components_in + c].
        auto load = [&](std::int64_t m, int c) noexcept -> double {
          if (m >= s.axis_in || c >= s.components_in) return 0.0;
          return signal_util::to_double(x[((o * s.axis_in + m) * s.inner + i) * s.components_in + c]);
        };
        for (std::int64_t m = 0; m < n; ++m) {
          if (s.half_spectrum_input && m > n / 2) {  // the conjugate mirror of bin n - m
            line[2 * m] = load(n - m, 0);
            line[2 * m + 1] = -load(n - m, 1);
          } else {
            line[2 * m] = load(m, 0);
            line[2 * m + 1] = load(m, 1);
          }
        }
        for (std::int64_t k = 0; k < s.axis_out; ++k) {
          double re = 0, im = 0;
          work.bin(k, s.inverse, re, im);
          T* out = y + ((o * s.axis_out + k) * s.inner + i) * s.components_out;
          out[0] = signal_util::from_double<T>(re * scale);
          if (s.components_out == 2) out[1] = signal_util::from_double<T>(im * scale);
        }
      }
    }
  }
};

}  // namespace dft_detail

// Opset 17: the first version; `axis` is an attribute (default 1).
using DFT_17 = VersionedKernel<dft_detail::DftImpl, 17, 20>;

// Opset 20: `axis` moves to an optional input (default -2).
using DFT_20 = VersionedKernel<dft_detail::DftImpl, 20>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
