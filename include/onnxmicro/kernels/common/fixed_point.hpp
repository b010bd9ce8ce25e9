// SPDX-License-Identifier: MIT
// Fixed-point requantisation for the integer kernels: a positive real multiplier (x_scale * w_scale / y_scale,
// computed once at prepare time) becomes a 31-bit mantissa and a power-of-two exponent, so run() rescales an
// int32 accumulator with one 64-bit multiply and a rounding shift, no floating point.
//
// Why exact: a float32 multiplier has a 24-bit mantissa, so the Q31 mantissa represents it without error and
// the 64-bit product is exact; rounding the shift half to even then gives bit for bit what the ONNX reference
// computes in float64 (round(acc * multiplier), ties to even). Multipliers that are not float32 values are
// rounded to 31 bits (relative error below 2^-31).
#pragma once
#include <cstdint>

#include "onnxmicro/core/version.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {
namespace fixed_point {

/// multiplier = mantissa * 2^(exponent - 31), mantissa in [2^30, 2^31) (0 for a zero multiplier).
struct FixedPointMultiplier {
  std::int32_t mantissa = 0;
  int exponent = 0;
};

/// Splits `real` (>= 0, finite) into a Q31 mantissa and an exponent, rounding the mantissa to nearest.
inline FixedPointMultiplier to_fixed_point(double real) noexcept {
  FixedPointMultiplier m;
  if (!(real > 0.0)) return m;  // zero, negative or NaN: a zero multiplier (callers reject such scales)
  int exponent = 0;
  // Normalise into [0.5, 1) without <cmath>'s frexp (freestanding builds): multiply by exact powers of two.
  while (real >= 1.0) {
    real *= 0.5;
    ++exponent;
  }
  while (real < 0.5) {
    real *= 2.0;
    --exponent;
  }
  double scaled = real * 2147483648.0;  // [2^30, 2^31)
  std::int64_t mantissa = static_cast<std::int64_t>(scaled);
  const double fraction = scaled - static_cast<double>(mantissa);
  if (fraction > 0.5 || (fraction == 0.5 && (mantissa & 1) != 0)) ++mantissa;
  if (mantissa == (std::int64_t(1) << 31)) {  // rounded up to the next power of two
    mantissa >>= 1;
    ++exponent;
  }
  m.mantissa = static_cast<std::int32_t>(mantissa);
  m.exponent = exponent;
  return m;
}

/// round(value * multiplier), ties to even. Exact for every int32 value; the result saturates at
/// +-2^62 when the multiplier is huge (exponent > 30), which callers then saturate to the output type.
inline std::int64_t apply_multiplier(std::int32_t value, FixedPointMultiplier m) noexcept {
  const std::int64_t product = static_cast<std::int64_t>(value) * m.mantissa;  // |product| < 2^62
  const int shift = 31 - m.exponent;
  if (shift <= 0) {
    if (shift < -1 || product == 0) {
      return product == 0 ? 0 : (product > 0 ? (std::int64_t(1) << 62) : -(std::int64_t(1) << 62));
    }
    return product * 2;  // exponent 32: still below 2^63
  }
  if (shift >= 63) return 0;  // |product| < 2^62 <= half of 2^shift: rounds to 0 (a tie only when 0)
  // Arithmetic shift of a negative value floors (guaranteed since C++20, and what every C++17 target does).
  const std::int64_t quotient = product >> shift;
  const std::int64_t remainder = product - quotient * (std::int64_t(1) << shift);  // in [0, 2^shift)
  const std::int64_t half = std::int64_t(1) << (shift - 1);
  if (remainder > half || (remainder == half && (quotient & 1) != 0)) return quotient + 1;
  return quotient;
}

/// Requantises an int32 accumulator to the output type's range: clamp(round(acc * m) + zero_point, low, high).
inline std::int32_t requantize(std::int32_t acc, FixedPointMultiplier m, std::int32_t zero_point, std::int32_t low,
                               std::int32_t high) noexcept {
  std::int64_t v = apply_multiplier(acc, m) + zero_point;
  if (v < low) v = low;
  if (v > high) v = high;
  return static_cast<std::int32_t>(v);
}

}  // namespace fixed_point
}  // namespace kernels
ONNXMICRO_NAMESPACE_END
