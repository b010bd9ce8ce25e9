// SPDX-License-Identifier: MIT
// Scalar encoders and decoders of the float formats: double -> float/float16/bfloat16 with the ONNX reference's
// rounding, the float8 kinds and float4e2m1 (MiniFloat: decode, and encode with round-to-nearest-even and
// optional saturation) and float8e8m0. Used by Cast (through kernels/common/dtype_convert.hpp), Dropout and the
// quantization kernels (quant_util).
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "onnxmicro/kernels/kernel_api.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {
namespace float_formats {

/// Rounding of float -> float8e8m0 ('round_mode', opset 24).
enum class E8M0Rounding : std::uint8_t { up, down, nearest };

inline std::uint32_t float_bits(float f) noexcept {
  std::uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
inline float float_from_bits(std::uint32_t u) noexcept {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

/// double -> float, round to nearest even; out-of-range finite values become +/-inf (or FLT_MAX when they
/// round down to it) without relying on the undefined out-of-range conversion.
inline float double_to_float(double d) noexcept {
  constexpr double kMax = static_cast<double>(std::numeric_limits<float>::max());
  constexpr double kInfinityThreshold = kMax + 0x1p103;  // half an ulp above FLT_MAX: ties go to inf (even)
  constexpr float kInf = std::numeric_limits<float>::infinity();
  if (d > kMax) return d < kInfinityThreshold ? std::numeric_limits<float>::max() : kInf;
  if (d < -kMax) return d > -kInfinityThreshold ? -std::numeric_limits<float>::max() : -kInf;
  return static_cast<float>(d);  // in range, inf or NaN
}

/// double -> float rounded to odd (inexact results get their last bit set). Rounding that float again to a
/// format with at least 2 fewer significand bits (float16) equals rounding the double directly, as numpy does.
inline float double_to_float_round_odd(double d) noexcept {
  constexpr double kMax = static_cast<double>(std::numeric_limits<float>::max());
  if (d != d || d == std::numeric_limits<double>::infinity() || d == -std::numeric_limits<double>::infinity()) {
    return static_cast<float>(d);
  }
  // FLT_MAX has its last bit set, so clamping keeps "odd" and any narrower format then overflows to inf.
  if (d > kMax) return std::numeric_limits<float>::max();
  if (d < -kMax) return -std::numeric_limits<float>::max();
  float f = static_cast<float>(d);
  if (static_cast<double>(f) == d) return f;
  std::uint32_t u = float_bits(f);
  if (std::fabs(static_cast<double>(f)) > std::fabs(d)) --u;  // rounded away from zero: step back (magnitude)
  return float_from_bits(u | 1u);
}

inline std::uint16_t double_to_float16_bits(double d) noexcept {
  return float16_t::from_float(double_to_float_round_odd(d)).bits;
}
/// double -> bfloat16 through float (rounding twice), as ml_dtypes, the ONNX reference's bfloat16, does.
inline std::uint16_t double_to_bfloat16_bits(double d) noexcept {
  return bfloat16_t::from_float(double_to_float(d)).bits;
}

/// A small float format: 1 sign bit, `exponent_bits`, `mantissa_bits`.
struct MiniFloat {
  enum class Specials : std::uint8_t {
    ieee,  ///< all-ones exponent: inf (mantissa 0) or NaN (e5m2)
    fn,    ///< no inf; only S.1111.111 is NaN (e4m3fn)
    fnuz,  ///< no inf, no -0; 0x80 is the only NaN
    none,  ///< no inf, no NaN (float4e2m1)
  };
  int exponent_bits;
  int mantissa_bits;
  int bias;
  Specials specials;
  std::uint8_t max_bits;  ///< largest finite positive value's bits
  double max_value;
};

constexpr MiniFloat kFloat8E4M3FN{4, 3, 7, MiniFloat::Specials::fn, 0x7E, 448.0};
constexpr MiniFloat kFloat8E4M3FNUZ{4, 3, 8, MiniFloat::Specials::fnuz, 0x7F, 240.0};
constexpr MiniFloat kFloat8E5M2{5, 2, 15, MiniFloat::Specials::ieee, 0x7B, 57344.0};
constexpr MiniFloat kFloat8E5M2FNUZ{5, 2, 16, MiniFloat::Specials::fnuz, 0x7F, 57344.0};
constexpr MiniFloat kFloat4E2M1{2, 1, 1, MiniFloat::Specials::none, 0x7, 6.0};

inline double decode_minifloat(const MiniFloat& format, std::uint8_t bits) noexcept {
  const int m = format.mantissa_bits;
  const int e = format.exponent_bits;
  const bool negative = ((bits >> (e + m)) & 1u) != 0;
  const unsigned exponent = (bits >> m) & ((1u << e) - 1u);
  const unsigned mantissa = bits & ((1u << m) - 1u);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  switch (format.specials) {
    case MiniFloat::Specials::fnuz:
      if (bits == 0x80) return nan;
      break;
    case MiniFloat::Specials::fn:
      if (exponent == (1u << e) - 1u && mantissa == (1u << m) - 1u) return negative ? -nan : nan;
      break;
    case MiniFloat::Specials::ieee:
      if (exponent == (1u << e) - 1u) {
        if (mantissa != 0) return negative ? -nan : nan;
        return negative ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
      }
      break;
    case MiniFloat::Specials::none: break;
  }
  const double magnitude = exponent == 0 ? std::ldexp(static_cast<double>(mantissa), 1 - format.bias - m)
                                         : std::ldexp(static_cast<double>(mantissa + (1u << m)),
                                                      static_cast<int>(exponent) - format.bias - m);
  return negative ? -magnitude : magnitude;
}

/// Rounds `x` to the format (nearest even) and encodes it; overflow per `saturate` (see the file comment).
inline std::uint8_t encode_minifloat(const MiniFloat& format, double x, bool saturate) noexcept {
  const int m = format.mantissa_bits;
  const int e = format.exponent_bits;
  const bool negative = std::signbit(x);
  const std::uint8_t sign = negative ? static_cast<std::uint8_t>(1u << (e + m)) : 0;
  const std::uint8_t all_ones = static_cast<std::uint8_t>((1u << (e + m)) - 1u);
  const bool fnuz = format.specials == MiniFloat::Specials::fnuz;
  // NaN: 0x80 for the fnuz kinds; S.1111.111 for e4m3fn; the quiet pattern S.11111.10 for e5m2.
  std::uint8_t nan_bits = static_cast<std::uint8_t>(sign | all_ones);
  if (fnuz) nan_bits = 0x80;
  if (format.specials == MiniFloat::Specials::ieee)
    nan_bits = static_cast<std::uint8_t>(nan_bits & ~((1u << (m - 1)) - 1u));
  if (x != x) {
    // float4e2m1 has no NaN; ml_dtypes (the ONNX reference) gives 0b1000 for NaN and 0 for -NaN.
    if (format.specials == MiniFloat::Specials::none) return negative ? 0 : 0x8;
    return nan_bits;
  }
  const auto overflow = [&]() noexcept -> std::uint8_t {
    if (saturate || format.specials == MiniFloat::Specials::none)
      return static_cast<std::uint8_t>(sign | format.max_bits);
    if (format.specials == MiniFloat::Specials::ieee)
      return static_cast<std::uint8_t>(sign | (((1u << e) - 1u) << m));  // inf
    return nan_bits;
  };
  const double a = std::fabs(x);
  if (a == std::numeric_limits<double>::infinity()) return overflow();
  const int min_exponent = 1 - format.bias;
  int exponent = min_exponent;
  if (a != 0) {
    int binary_exponent = 0;
    std::frexp(a, &binary_exponent);  // a = f * 2^binary_exponent, f in [0.5, 1)
    if (binary_exponent - 1 > min_exponent) exponent = binary_exponent - 1;
  }
  // Multiples of the quantum at this exponent are exactly the representable values; round to one of them.
  const double scaled = std::ldexp(a, m - exponent);
  double n = std::floor(scaled);
  const double fraction = scaled - n;
  if (fraction > 0.5 || (fraction == 0.5 && std::fmod(n, 2.0) != 0.0)) n += 1.0;
  if (std::ldexp(n, exponent - m) > format.max_value) return overflow();
  if (n == 0) return fnuz ? 0 : sign;
  auto significand = static_cast<unsigned>(n);
  if (significand < (1u << m)) return static_cast<std::uint8_t>(sign | significand);  // subnormal
  if (significand == (2u << m)) {  // rounding carried into the next binade
    significand = 1u << m;
    ++exponent;
  }
  const unsigned exponent_field = static_cast<unsigned>(exponent + format.bias);
  return static_cast<std::uint8_t>(sign | (exponent_field << m) | (significand - (1u << m)));
}

inline double decode_e8m0(std::uint8_t bits) noexcept {
  if (bits == 0xFF) return std::numeric_limits<double>::quiet_NaN();
  return std::ldexp(1.0, static_cast<int>(bits) - 127);
}

/// float -> float8e8m0 (a power of two: the float32 exponent field), exactly as the ONNX reference
/// (onnx.numpy_helper.to_float8e8m0): NaN and inf give 0xFF; the sign is ignored; zero gives 2^-127.
inline std::uint8_t encode_e8m0(float f, bool saturate, E8M0Rounding rounding) noexcept {
  const std::uint32_t bits = float_bits(f);
  unsigned exponent = (bits >> 23) & 0xFFu;
  if (exponent == 0xFFu) return 0xFF;
  bool round_up = false;
  if (rounding == E8M0Rounding::up) {
    round_up = (bits & 0x7FFFFFu) != 0;
  } else if (rounding == E8M0Rounding::nearest) {
    const bool guard = (bits & 0x400000u) != 0;
    const bool round = (bits & 0x200000u) != 0;
    const bool sticky = (bits & 0x1FFFFFu) != 0;
    const bool lsb = exponent > 0;
    round_up = guard && (round || sticky || lsb);
  }
  if (round_up && saturate && exponent == 0xFEu) round_up = false;
  return static_cast<std::uint8_t>(exponent + (round_up ? 1u : 0u));
}

}  // namespace float_formats
}  // namespace kernels
ONNXMICRO_NAMESPACE_END
