// SPDX-License-Identifier: MIT
// What the signal kernels share: reading constant scalar inputs (lengths, steps, sizes), the output_datatype
// attribute of the window/matrix generators, conversion of elements to and from double, and a direct DFT over
// a buffer of complex doubles with a twiddle table. The DFT is the O(n^2) definition (any length, no
// factorisation), computed in double and rounded to the tensor's dtype once.
#pragma once
#include <cmath>
#include <cstdint>
#include <string_view>

#include "onnxmicro/kernels/common/elementwise.hpp"
#include "onnxmicro/kernels/common/shape_util.hpp"
#include "onnxmicro/kernels/kernel_api.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {
namespace signal_util {

constexpr double kPi = 3.14159265358979323846;

/// Reads input `index` (a constant int32/int64 scalar or one-element 1-D tensor) into `value`; `role` names
/// it in errors. Fails unless it is known at prepare time (the value decides an output shape).
inline Status read_constant_scalar(PrepareContext& ctx, int index, std::string_view role,
                                   std::int64_t& value) noexcept {
  std::int64_t values[1] = {0};
  std::size_t count = 0;
  const Status status = shape_util::read_constant_ints(ctx, index, role, values, 1, count);
  if (!status.ok() || count != 1) {
    if (!status.ok() && status.code() != StatusCode::limit_exceeded) return status;
    return ctx.input_error(index) << " (" << role << "): expected one int32 or "
                                  << "int64 value, got shape " << ctx.input(index).shape;
  }
  value = values[0];
  return {};
}

/// Reads the `output_datatype` attribute (default float) and checks it against `Types`.
template <typename Types>
inline Status read_output_datatype(const PrepareContext& ctx, DataType& dtype) noexcept {
  std::int64_t value = static_cast<std::int64_t>(DataType::float32);
  ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("output_datatype", value, value));
  dtype = static_cast<DataType>(value);
  const bool supported =
      is_known_dtype(static_cast<std::int32_t>(value)) && visit_dtype(dtype, Types{}, [](auto) noexcept {});
  if (!supported) {
    return Status(StatusCode::unsupported)
           << "attribute 'output_datatype' is " << value << " ("
           << (is_known_dtype(static_cast<std::int32_t>(value)) ? dtype_name(dtype) : "unknown")
           << "), expected a real numeric dtype";
  }
  return {};
}

/// An element as double.
template <typename T>
inline double to_double(T value) noexcept {
  return static_cast<double>(load_element(value));
}
/// A double stored as T: 16-bit floats round to nearest even; integers truncate toward zero as numpy's astype
/// does (through int64, so small negative values become 0 for unsigned types instead of wrapping).
template <typename T>
inline T from_double(double value) noexcept {
  if constexpr (std::is_floating_point_v<T>) {
    return static_cast<T>(value);
  } else if constexpr (std::is_same_v<T, float16_t> || std::is_same_v<T, bfloat16_t>) {
    return T::from_float(static_cast<float>(value));
  } else if constexpr (std::is_same_v<T, std::uint64_t>) {
    return value <= 0 ? 0 : static_cast<T>(value);
  } else {
    return static_cast<T>(static_cast<std::int64_t>(value));
  }
}

/// cos/sin of 2*pi*j/n for j in [0, n), each array of n doubles.
inline void fill_twiddles(std::int64_t n, double* cos_table, double* sin_table) noexcept {
  for (std::int64_t j = 0; j < n; ++j) {
    const double angle = 2.0 * kPi * static_cast<double>(j) / static_cast<double>(n);
    cos_table[j] = std::cos(angle);
    sin_table[j] = std::sin(angle);
  }
}

/// Bin k of the DFT of `signal` (n complex values, interleaved re/im): sum_m x[m] * e^(-+2*pi*i*k*m/n), the
/// exponent's sign + for `inverse` (unscaled: the caller divides by n).
inline void dft_bin(const double* signal, std::int64_t n, std::int64_t k, bool inverse, const double* cos_table,
                    const double* sin_table, double& re, double& im) noexcept {
  const double sign = inverse ? 1.0 : -1.0;
  double sum_re = 0, sum_im = 0;
  std::int64_t index = 0;  // k*m mod n, stepped to avoid overflow
  const std::int64_t step = k % n;
  for (std::int64_t m = 0; m < n; ++m) {
    const double c = cos_table[index], s = sign * sin_table[index];
    const double x_re = signal[2 * m], x_im = signal[2 * m + 1];
    sum_re += x_re * c - x_im * s;
    sum_im += x_re * s + x_im * c;
    index += step;
    if (index >= n) index -= n;
  }
  re = sum_re;
  im = sum_im;
}

/// A length-n transform's scratch: the twiddle table and one complex buffer (interleaved re/im) to fill.
struct DftWorkspace {
  /// Bytes of scratch a length-n workspace uses.
  static std::size_t scratch_bytes(std::int64_t n) noexcept { return static_cast<std::size_t>(4 * n) * sizeof(double); }

  /// Lays the workspace out in `scratch` (scratch_bytes(n) bytes) and fills the twiddles.
  DftWorkspace(void* scratch, std::int64_t length) noexcept
      : n(length), cos_table(static_cast<double*>(scratch)), sin_table(cos_table + n), buffer(sin_table + n) {
    fill_twiddles(n, cos_table, sin_table);
  }
  /// Bin k of the buffer's transform (see dft_bin).
  void bin(std::int64_t k, bool inverse, double& re, double& im) const noexcept {
    dft_bin(buffer, n, k, inverse, cos_table, sin_table, re, im);
  }

  std::int64_t n;
  double* cos_table;
  double* sin_table;
  double* buffer;
};

/// The body of HannWindow, HammingWindow and BlackmanWindow: output[n] = Formula::value(n, N) for n in
/// [0, size), N = size when `periodic` (default) and size - 1 otherwise, in the dtype `output_datatype`
/// (default float). `size` must be known at prepare time (it is the output shape).
template <typename Formula>
struct WindowGenerator {
  static constexpr int kSize = 0;
  static constexpr int kOutput = 0;

  struct State {
    std::int64_t size;
    double denominator;
    void (*fill)(void* out, std::int64_t size, double denominator) noexcept;
  };

  static Status prepare(PrepareContext& ctx) noexcept {
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kSize));
    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
    ONNXMICRO_RETURN_IF_ERROR(read_constant_scalar(ctx, kSize, "size", state->size));
    if (state->size < 0) {
      return ctx.input_error(kSize, "size") << " is " << state->size << ", expected >= 0";
    }
    std::int64_t periodic = 1;
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("periodic", periodic, 1));
    state->denominator = static_cast<double>(periodic != 0 ? state->size : state->size - 1);
    DataType dtype = DataType::float32;
    ONNXMICRO_RETURN_IF_ERROR(read_output_datatype<NumericTypes>(ctx, dtype));
    visit_dtype(dtype, NumericTypes{}, [&](auto tag) noexcept { state->fill = &fill<typename decltype(tag)::type>; });
    ctx.set_output(kOutput, dtype, Shape{state->size});
    return {};
  }

  static Status run(RunContext& ctx) noexcept {
    const State& state = ctx.state<State>();
    state.fill(ctx.output(kOutput).data, state.size, state.denominator);
    return {};
  }

 private:
  template <typename T>
  static void fill(void* out, std::int64_t size, double denominator) noexcept {
    T* y = static_cast<T*>(out);
    for (std::int64_t n = 0; n < size; ++n) y[n] = from_double<T>(Formula::value(static_cast<double>(n), denominator));
  }
};

}  // namespace signal_util
}  // namespace kernels
ONNXMICRO_NAMESPACE_END
