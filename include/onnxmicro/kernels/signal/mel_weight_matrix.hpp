// SPDX-License-Identifier: MIT
// MelWeightMatrix: the [dft_length/2 + 1, num_mel_bins] matrix that maps a one-sided linear spectrum to mel
// bands: num_mel_bins + 2 points equally spaced on the mel scale (mel = 2595*log10(1 + hz/700)) between
// lower_edge_hertz and upper_edge_hertz, mapped to spectrum bins floor((dft_length + 1)*hz / sample_rate);
// band i rises linearly from point i to point i+1 and falls to point i+2. Follows the ONNX reference step by
// step (including its mel step of (high - low)/(num_mel_bins + 2) and its float32 log1p on float32 edges) so
// the bin boundaries match exactly. Every input decides the output, so all must be known at prepare time.
#pragma once
#include <cstring>

#include "onnxmicro/kernels/signal/signal_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

namespace mel_weight_matrix_detail {

/// The implementation of MelWeightMatrix (see the file comment).
struct MelWeightMatrixImpl : KernelDefaults {
  static constexpr std::string_view kOpType = "MelWeightMatrix";
  static constexpr int kNumMelBins = 0;
  static constexpr int kDftLength = 1;
  static constexpr int kSampleRate = 2;
  static constexpr int kLowerEdge = 3;
  static constexpr int kUpperEdge = 4;
  static constexpr int kOutput = 0;

  struct State {
    std::int64_t mel_bins, dft_length, sample_rate, spectrum_bins;
    double low_mel, mel_step;
    void (*fill)(const State&, void* out) noexcept;
  };

  static Status prepare(PrepareContext& ctx) noexcept {
    for (int i = 0; i <= kUpperEdge; ++i) ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(i));
    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
    ONNXMICRO_RETURN_IF_ERROR(signal_util::read_constant_scalar(ctx, kNumMelBins, "num_mel_bins", state->mel_bins));
    ONNXMICRO_RETURN_IF_ERROR(signal_util::read_constant_scalar(ctx, kDftLength, "dft_length", state->dft_length));
    ONNXMICRO_RETURN_IF_ERROR(signal_util::read_constant_scalar(ctx, kSampleRate, "sample_rate", state->sample_rate));
    if (state->mel_bins < 0 || state->dft_length < 1 || state->sample_rate < 1) {
      return Status(StatusCode::invalid_model)
             << "num_mel_bins " << state->mel_bins << ", dft_length " << state->dft_length << ", sample_rate "
             << state->sample_rate << ": expected num_mel_bins >= 0 and the others >= 1";
    }
    double mel_edges[2] = {0, 0};
    for (int i = kLowerEdge; i <= kUpperEdge; ++i) {
      ONNXMICRO_RETURN_IF_ERROR(ctx.require_constant_input(i));
      const TensorInfo& edge = ctx.input(i);
      if (edge.shape.element_count() != 1 || edge.shape.rank() > 1) {
        return ctx.input_error(i) << ": expected one value, got shape " << edge.shape;
      }
      bool supported = visit_dtype(edge.dtype, FloatTypes{}, [&](auto tag) noexcept {
        using T = typename decltype(tag)::type;
        T value;
        std::memcpy(&value, edge.const_data, sizeof(T));
        mel_edges[i - kLowerEdge] = to_mel(load_element(value));
      });
      if (!supported) return ctx.unsupported_input_dtype(i);
    }
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_same_dtype(kLowerEdge, kUpperEdge));
    state->low_mel = mel_edges[0];
    state->mel_step = (mel_edges[1] - mel_edges[0]) / static_cast<double>(state->mel_bins + 2);
    state->spectrum_bins = state->dft_length / 2 + 1;
    DataType dtype = DataType::float32;
    ONNXMICRO_RETURN_IF_ERROR(signal_util::read_output_datatype<NumericTypes>(ctx, dtype));
    visit_dtype(dtype, NumericTypes{}, [&](auto tag) noexcept { state->fill = &fill<typename decltype(tag)::type>; });
    ctx.set_output(kOutput, dtype, Shape{state->spectrum_bins, state->mel_bins});
    return {};
  }

  static Status run(RunContext& ctx) noexcept {
    const State& state = ctx.state<State>();
    state.fill(state, ctx.output(kOutput).data);
    return {};
  }

 private:
  /// 2595*log10(1 + hz/700) in the reference's precision: log1p in the edge's own type (float for float32),
  /// the division by ln(10) in double.
  template <typename C>
  static double to_mel(C hz) noexcept {
    const C scaled = C(2595) * static_cast<C>(std::log1p(hz / C(700)));
    return static_cast<double>(scaled) / std::log(10.0);
  }

  /// Python's float floor division (what numpy's // does on float64), not floor(a / b): it rounds a / b as
  /// the remainder says, which matters when the quotient lands on an integer.
  static double floor_divide(double a, double b) noexcept {
    const double mod = std::fmod(a, b);
    double div = (a - mod) / b;
    if (mod != 0.0 && ((b < 0) != (mod < 0))) div -= 1.0;
    if (div == 0.0) return std::copysign(0.0, a / b);
    double floored = std::floor(div);
    if (div - floored > 0.5) floored += 1.0;
    return floored;
  }

  /// Spectrum bin of mel point i.
  static std::int64_t point_bin(const State& s, std::int64_t i) noexcept {
    const double mel = static_cast<double>(i) * s.mel_step + s.low_mel;
    const double hz = 700.0 * std::expm1(mel / 2595.0 * std::log(10.0));
    return static_cast<std::int64_t>(
        floor_divide(static_cast<double>(s.dft_length + 1) * hz, static_cast<double>(s.sample_rate)));
  }

  template <typename T>
  static void fill(const State& s, void* out) noexcept {
    T* y = static_cast<T*>(out);
    const std::int64_t columns = s.mel_bins;
    for (std::int64_t i = 0; i < s.spectrum_bins * columns; ++i) y[i] = signal_util::from_double<T>(0.0);
    auto set = [&](std::int64_t row, std::int64_t column, double value) noexcept {
      if (row >= 0 && row < s.spectrum_bins) y[row * columns + column] = signal_util::from_double<T>(value);
    };
    for (std::int64_t i = 0; i < columns; ++i) {
      const std::int64_t low = point_bin(s, i), center = point_bin(s, i + 1), high = point_bin(s, i + 2);
      const std::int64_t low_to_center = center - low;
      if (low_to_center == 0) {
        set(center, i, 1.0);
      } else {
        for (std::int64_t j = low; j <= center; ++j) {
          set(j, i, static_cast<double>(j - low) / static_cast<double>(low_to_center));
        }
      }
      const std::int64_t center_to_high = high - center;
      for (std::int64_t j = center; center_to_high > 0 && j < high; ++j) {
        set(j, i, static_cast<double>(high - j) / static_cast<double>(center_to_high));
      }
    }
  }
};

}  // namespace mel_weight_matrix_detail

/// MelWeightMatrix-17: the first version.
using MelWeightMatrix_17 = VersionedKernel<mel_weight_matrix_detail::MelWeightMatrixImpl, 17>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
