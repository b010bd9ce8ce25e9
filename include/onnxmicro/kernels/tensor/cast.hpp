// SPDX-License-Identifier: MIT
// Cast: converts every element to the dtype `to`, with the ONNX reference's rounding and overflow rules:
//  - float -> float: round to nearest even, +/-inf when out of range (double -> float16 rounds once, from the
//    exact value, like numpy; double -> bfloat16 goes through float, like ml_dtypes).
//  - float -> integer: truncate toward zero, then keep the low bits like an integer -> integer cast. ONNX leaves
//    out-of-range values undefined; this matches numpy on x86-64 for |x| < 2^31 and ml_dtypes (the reference)
//    for int4/uint4/int2/uint2. NaN gives 0; values beyond the 64-bit range give the nearest 64-bit bound
//    before the low bits are kept.
//  - integer -> integer: keep the low bits (two's complement); -> bool: != 0; bool -> number: 0 or 1.
//  - float8 (e4m3fn, e4m3fnuz, e5m2, e5m2fnuz): round to nearest even; out-of-range and +/-inf go to +/-max with
//    saturate=1 (the default), else to NaN (or inf for e5m2). float4e2m1 always saturates. float8e8m0 follows
//    'round_mode' (up, down, nearest) and 'saturate'.
// Strings and the float6 types are not supported yet (a clear `unsupported` status at prepare).
//
// Elements go through a 64-bit "wide" value in blocks: a loader per source dtype fills a small buffer with a
// double (float sources), int64 (integer and bool sources) or uint64 (uint64 sources), and a storer per
// destination dtype converts from it. That costs one instantiation per dtype instead of one per pair.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "onnxmicro/kernels/common/shape_util.hpp"
#include "onnxmicro/kernels/kernel_api.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {
namespace cast_detail {

/// Rounding of float -> float8e8m0 ('round_mode', opset 24).
enum class E8M0Rounding : std::uint8_t { up, down, nearest };

/// Conversion options that do not depend on the dtypes.
struct Options {
  bool saturate = true;  ///< float8 (and e8m0) overflow: clamp to max (true) or NaN/inf (false)
  E8M0Rounding e8m0_rounding = E8M0Rounding::up;
};

// ---- scalar conversions ------------------------------------------------------------------------------------

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

/// float -> integer bit pattern: truncation toward zero as a 64-bit two's complement value (callers keep the
/// low bits they need). NaN -> 0; below -2^63 -> INT64_MIN; [2^63, 2^64) -> exact uint64; from 2^64 -> UINT64_MAX.
inline std::uint64_t double_to_integer_bits(double x) noexcept {
  if (x != x) return 0;
  if (x >= 0x1p64) return std::numeric_limits<std::uint64_t>::max();
  if (x >= 0x1p63) return static_cast<std::uint64_t>(x);
  if (x <= -0x1p63) return static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::min());
  return static_cast<std::uint64_t>(static_cast<std::int64_t>(x));
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

// ---- block loaders and storers ------------------------------------------------------------------------------

/// One element on its way from the source to the destination dtype.
union Wide {
  double f;         ///< float sources (every float format converts to double exactly)
  std::int64_t i;   ///< integer (but uint64) and bool sources
  std::uint64_t u;  ///< uint64 sources
};

/// Which member of Wide a source dtype fills.
enum class SourceKind : std::uint8_t { floating, signed_integer, unsigned64 };

using LoadBlock = void (*)(const void* src, std::int64_t begin, int count, Wide* out) noexcept;
using StoreBlock = void (*)(const Wide* in, void* dst, std::int64_t begin, int count, const Options& options) noexcept;

template <typename T>
void load_float(const void* src, std::int64_t begin, int count, Wide* out) noexcept {
  const T* s = static_cast<const T*>(src) + begin;
  for (int k = 0; k < count; ++k) out[k].f = static_cast<double>(s[k]);
}
template <typename T>  // float16_t, bfloat16_t
void load_bits16_float(const void* src, std::int64_t begin, int count, Wide* out) noexcept {
  const std::uint16_t* s = static_cast<const std::uint16_t*>(src) + begin;
  for (int k = 0; k < count; ++k) out[k].f = static_cast<double>(T::from_bits(s[k]).to_float());
}
template <const MiniFloat& Format>
void load_minifloat(const void* src, std::int64_t begin, int count, Wide* out) noexcept {
  const std::uint8_t* s = static_cast<const std::uint8_t*>(src) + begin;
  for (int k = 0; k < count; ++k) out[k].f = decode_minifloat(Format, s[k]);
}
inline void load_float4(const void* src, std::int64_t begin, int count, Wide* out) noexcept {
  for (int k = 0; k < count; ++k) out[k].f = decode_minifloat(kFloat4E2M1, shape_util::get_packed(src, begin + k, 4));
}
inline void load_e8m0(const void* src, std::int64_t begin, int count, Wide* out) noexcept {
  const std::uint8_t* s = static_cast<const std::uint8_t*>(src) + begin;
  for (int k = 0; k < count; ++k) out[k].f = decode_e8m0(s[k]);
}
template <typename T>
void load_integer(const void* src, std::int64_t begin, int count, Wide* out) noexcept {
  const T* s = static_cast<const T*>(src) + begin;
  for (int k = 0; k < count; ++k) out[k].i = static_cast<std::int64_t>(s[k]);
}
inline void load_bool(const void* src, std::int64_t begin, int count, Wide* out) noexcept {
  const std::uint8_t* s = static_cast<const std::uint8_t*>(src) + begin;  // bytes: any nonzero byte is true
  for (int k = 0; k < count; ++k) out[k].i = s[k] != 0 ? 1 : 0;
}
inline void load_uint64(const void* src, std::int64_t begin, int count, Wide* out) noexcept {
  const std::uint64_t* s = static_cast<const std::uint64_t*>(src) + begin;
  for (int k = 0; k < count; ++k) out[k].u = s[k];
}
template <unsigned Bits, bool Signed>  // int2/uint2, int4/uint4
void load_packed_integer(const void* src, std::int64_t begin, int count, Wide* out) noexcept {
  constexpr std::int64_t kHalf = std::int64_t{1} << (Bits - 1);
  for (int k = 0; k < count; ++k) {
    const std::int64_t v = shape_util::get_packed(src, begin + k, Bits);
    out[k].i = Signed && v >= kHalf ? v - 2 * kHalf : v;  // sign extension
  }
}

/// The C++ type a destination dtype is stored as (bit patterns for the non-native float formats).
// clang-format off
template <DataType D> struct Storage { using type = std::uint8_t; };  // float8 kinds, e8m0, bool, packed
template <> struct Storage<DataType::float32> { using type = float; };
template <> struct Storage<DataType::float64> { using type = double; };
template <> struct Storage<DataType::float16> { using type = std::uint16_t; };
template <> struct Storage<DataType::bfloat16> { using type = std::uint16_t; };
template <> struct Storage<DataType::int8> { using type = std::int8_t; };
template <> struct Storage<DataType::int16> { using type = std::int16_t; };
template <> struct Storage<DataType::int32> { using type = std::int32_t; };
template <> struct Storage<DataType::int64> { using type = std::int64_t; };
template <> struct Storage<DataType::uint16> { using type = std::uint16_t; };
template <> struct Storage<DataType::uint32> { using type = std::uint32_t; };
template <> struct Storage<DataType::uint64> { using type = std::uint64_t; };
// clang-format on

/// True for the integer destinations (packed ones included), which keep the low bits of an integer.
constexpr bool is_integer_destination(DataType d) noexcept {
  return is_signed_integer(d) || is_unsigned_integer(d) || d == DataType::int4 || d == DataType::uint4 ||
         d == DataType::int2 || d == DataType::uint2;
}

/// Converts one wide value of kind K to destination D's storage.
template <SourceKind K, DataType D>
typename Storage<D>::type convert(const Wide& w, const Options& options) noexcept {
  using Out = typename Storage<D>::type;
  if constexpr (K == SourceKind::floating) {
    const double x = w.f;
    if constexpr (D == DataType::float32) {
      return double_to_float(x);
    } else if constexpr (D == DataType::float64) {
      return x;
    } else if constexpr (D == DataType::float16) {
      return double_to_float16_bits(x);
    } else if constexpr (D == DataType::bfloat16) {
      return double_to_bfloat16_bits(x);
    } else if constexpr (D == DataType::boolean) {
      return static_cast<Out>(x != 0.0 ? 1 : 0);  // NaN is true
    } else if constexpr (D == DataType::float8e4m3fn) {
      return encode_minifloat(kFloat8E4M3FN, x, options.saturate);
    } else if constexpr (D == DataType::float8e4m3fnuz) {
      return encode_minifloat(kFloat8E4M3FNUZ, x, options.saturate);
    } else if constexpr (D == DataType::float8e5m2) {
      return encode_minifloat(kFloat8E5M2, x, options.saturate);
    } else if constexpr (D == DataType::float8e5m2fnuz) {
      return encode_minifloat(kFloat8E5M2FNUZ, x, options.saturate);
    } else if constexpr (D == DataType::float4e2m1) {
      return encode_minifloat(kFloat4E2M1, x, true);
    } else if constexpr (D == DataType::float8e8m0) {
      return encode_e8m0(double_to_float(x), options.saturate, options.e8m0_rounding);
    } else {
      static_assert(is_integer_destination(D), "every destination dtype is handled above");
      return static_cast<Out>(double_to_integer_bits(x));  // keeps the low bits (packed types: store_block)
    }
  } else {
    // Integer sources: int64 for every integer dtype but uint64, which keeps its full range.
    using Source = std::conditional_t<K == SourceKind::unsigned64, std::uint64_t, std::int64_t>;
    const Source v = K == SourceKind::unsigned64 ? static_cast<Source>(w.u) : static_cast<Source>(w.i);
    if constexpr (D == DataType::boolean) {
      return static_cast<Out>(v != 0 ? 1 : 0);
    } else if constexpr (is_integer_destination(D)) {
      return static_cast<Out>(static_cast<std::uint64_t>(v));  // two's complement: keeps the low bits
    } else if constexpr (D == DataType::float32) {
      return static_cast<float>(v);  // one rounding, from the exact integer
    } else if constexpr (D == DataType::bfloat16 || D == DataType::float8e8m0) {
      Wide through_float;
      through_float.f = static_cast<double>(static_cast<float>(v));  // like ml_dtypes
      return convert<SourceKind::floating, D>(through_float, options);
    } else {
      // float16, float64, float8, float4: exact below 2^53, far beyond the narrow formats' range.
      Wide exact;
      exact.f = static_cast<double>(v);
      return convert<SourceKind::floating, D>(exact, options);
    }
  }
}

template <SourceKind K, DataType D>
void store_block(const Wide* in, void* dst, std::int64_t begin, int count, const Options& options) noexcept {
  using Out = typename Storage<D>::type;
  if constexpr (is_sub_byte(D)) {
    // Blocks start at a multiple of kBlockElements, so at a byte boundary; pack the low `bits` of each value.
    constexpr unsigned kBits = static_cast<unsigned>(dtype_bits(D));
    std::uint8_t* d = static_cast<std::uint8_t*>(dst) + static_cast<std::size_t>(begin) * kBits / 8;
    unsigned pending = 0;  // bits not yet written, lowest first
    unsigned pending_bits = 0;
    for (int k = 0; k < count; ++k) {
      pending |= (static_cast<unsigned>(convert<K, D>(in[k], options)) & ((1u << kBits) - 1u)) << pending_bits;
      pending_bits += kBits;
      while (pending_bits >= 8) {
        *d++ = static_cast<std::uint8_t>(pending);
        pending >>= 8;
        pending_bits -= 8;
      }
    }
    if (pending_bits != 0) *d = static_cast<std::uint8_t>(pending);  // the padding bits are zero
  } else {
    Out* d = static_cast<Out*>(dst) + begin;
    for (int k = 0; k < count; ++k) d[k] = convert<K, D>(in[k], options);
  }
}

/// Elements converted per block (a multiple of 4, so every block of packed 2/4/6-bit elements starts on a byte).
constexpr int kBlockElements = 32;

/// Loader for a source dtype, or nullptr when Cast does not support it.
inline LoadBlock loader_for(DataType source, SourceKind& kind) noexcept {
  kind = SourceKind::floating;
  switch (compiled_dtype(source)) {
    case DataType::float32: return &load_float<float>;
    case DataType::float64: return &load_float<double>;
    case DataType::float16: return &load_bits16_float<float16_t>;
    case DataType::bfloat16: return &load_bits16_float<bfloat16_t>;
    case DataType::float8e4m3fn: return &load_minifloat<kFloat8E4M3FN>;
    case DataType::float8e4m3fnuz: return &load_minifloat<kFloat8E4M3FNUZ>;
    case DataType::float8e5m2: return &load_minifloat<kFloat8E5M2>;
    case DataType::float8e5m2fnuz: return &load_minifloat<kFloat8E5M2FNUZ>;
    case DataType::float4e2m1: return &load_float4;
    case DataType::float8e8m0: return &load_e8m0;
    default: break;
  }
  kind = SourceKind::signed_integer;
  switch (source) {
    case DataType::int8: return &load_integer<std::int8_t>;
    case DataType::int16: return &load_integer<std::int16_t>;
    case DataType::int32: return &load_integer<std::int32_t>;
    case DataType::int64: return &load_integer<std::int64_t>;
    case DataType::uint8: return &load_integer<std::uint8_t>;
    case DataType::uint16: return &load_integer<std::uint16_t>;
    case DataType::uint32: return &load_integer<std::uint32_t>;
    case DataType::boolean: return &load_bool;
    case DataType::int4: return &load_packed_integer<4, true>;
    case DataType::uint4: return &load_packed_integer<4, false>;
    case DataType::int2: return &load_packed_integer<2, true>;
    case DataType::uint2: return &load_packed_integer<2, false>;
    case DataType::uint64: kind = SourceKind::unsigned64; return &load_uint64;
    default: return nullptr;
  }
}

/// Storer for a destination dtype and source kind, or nullptr when Cast does not support it.
template <SourceKind K>
StoreBlock storer_for(DataType destination) noexcept {
  switch (compiled_dtype(destination)) {
    case DataType::float32: return &store_block<K, DataType::float32>;
    case DataType::float64: return &store_block<K, DataType::float64>;
    case DataType::float16: return &store_block<K, DataType::float16>;
    case DataType::bfloat16: return &store_block<K, DataType::bfloat16>;
    case DataType::int8: return &store_block<K, DataType::int8>;
    case DataType::int16: return &store_block<K, DataType::int16>;
    case DataType::int32: return &store_block<K, DataType::int32>;
    case DataType::int64: return &store_block<K, DataType::int64>;
    case DataType::uint8: return &store_block<K, DataType::uint8>;
    case DataType::uint16: return &store_block<K, DataType::uint16>;
    case DataType::uint32: return &store_block<K, DataType::uint32>;
    case DataType::uint64: return &store_block<K, DataType::uint64>;
    case DataType::boolean: return &store_block<K, DataType::boolean>;
    case DataType::float8e4m3fn: return &store_block<K, DataType::float8e4m3fn>;
    case DataType::float8e4m3fnuz: return &store_block<K, DataType::float8e4m3fnuz>;
    case DataType::float8e5m2: return &store_block<K, DataType::float8e5m2>;
    case DataType::float8e5m2fnuz: return &store_block<K, DataType::float8e5m2fnuz>;
    case DataType::float8e8m0: return &store_block<K, DataType::float8e8m0>;
    case DataType::float4e2m1: return &store_block<K, DataType::float4e2m1>;
    case DataType::int4: return &store_block<K, DataType::int4>;
    case DataType::uint4: return &store_block<K, DataType::uint4>;
    case DataType::int2: return &store_block<K, DataType::int2>;
    case DataType::uint2: return &store_block<K, DataType::uint2>;
    default: return nullptr;
  }
}

/// Parses Cast-1's string 'to' ("FLOAT", "INT64", ...; case-insensitive). Returns undefined when unknown.
inline DataType dtype_from_onnx_name(std::string_view name) noexcept {
  struct Entry {
    const char* name;
    DataType dtype;
  };
  static constexpr Entry kNames[] = {
      {"FLOAT", DataType::float32},   {"UINT8", DataType::uint8},       {"INT8", DataType::int8},
      {"UINT16", DataType::uint16},   {"INT16", DataType::int16},       {"INT32", DataType::int32},
      {"INT64", DataType::int64},     {"STRING", DataType::string},     {"BOOL", DataType::boolean},
      {"FLOAT16", DataType::float16}, {"DOUBLE", DataType::float64},    {"UINT32", DataType::uint32},
      {"UINT64", DataType::uint64},   {"BFLOAT16", DataType::bfloat16},
  };
  for (const Entry& entry : kNames) {
    std::string_view candidate(entry.name);
    if (candidate.size() != name.size()) continue;
    bool equal = true;
    for (std::size_t i = 0; equal && i < name.size(); ++i) {
      char c = name[i];
      if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
      equal = c == candidate[i];
    }
    if (equal) return entry.dtype;
  }
  return DataType::undefined;
}

}  // namespace cast_detail

/// Shared implementation of every Cast version; they differ in which attributes exist.
struct CastBase : KernelDefaults {
  static constexpr std::string_view kDomain = "";
  static constexpr std::string_view kOpType = "Cast";
  static constexpr int kInput = 0;
  static constexpr int kOutput = 0;

  struct State {
    bool same_dtype;  ///< plain copy
    cast_detail::LoadBlock load;
    cast_detail::StoreBlock store;
    cast_detail::Options options;
  };

  static Status prepare_with(PrepareContext& ctx, DataType to, const cast_detail::Options& options) noexcept {
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kInput));
    const TensorInfo& in = ctx.input(kInput);
    // The session refuses compiled-out inputs before this; the output dtype is only known here.
    if (!dtype_enabled(in.dtype)) return PrepareContext::disabled_dtype("input", kInput, in.name, in.dtype);
    if (!dtype_enabled(to)) return PrepareContext::disabled_dtype("output", kOutput, ctx.output(kOutput).name, to);
    if (in.dtype == DataType::string || to == DataType::string) {
      return Status(StatusCode::unsupported) << "Cast from " << dtype_name(in.dtype) << " to " << dtype_name(to)
                                             << ": string casts are not supported yet";
    }
    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
    state->options = options;
    state->same_dtype = in.dtype == to && shape_util::element_bits(to) != 0;
    if (!state->same_dtype) {
      cast_detail::SourceKind kind = cast_detail::SourceKind::floating;
      state->load = cast_detail::loader_for(in.dtype, kind);
      if (state->load == nullptr) {
        return Status(StatusCode::unsupported)
               << "input 0 '" << in.name << "' has dtype " << dtype_name(in.dtype) << ", which Cast does not support";
      }
      switch (kind) {
        case cast_detail::SourceKind::floating:
          state->store = cast_detail::storer_for<cast_detail::SourceKind::floating>(to);
          break;
        case cast_detail::SourceKind::signed_integer:
          state->store = cast_detail::storer_for<cast_detail::SourceKind::signed_integer>(to);
          break;
        case cast_detail::SourceKind::unsigned64:
          state->store = cast_detail::storer_for<cast_detail::SourceKind::unsigned64>(to);
          break;
      }
      if (state->store == nullptr) {
        return Status(StatusCode::unsupported) << "attribute 'to' is " << static_cast<int>(to) << " (" << dtype_name(to)
                                               << "), which Cast does not support";
      }
    }
    ctx.set_output(kOutput, to, in.shape);
    return {};
  }

  static Status run(RunContext& ctx) noexcept {
    const State& state = ctx.state<State>();
    const ConstTensorView& in = ctx.input(kInput);
    void* dst = ctx.output(kOutput).data;
    if (state.same_dtype) {
      shape_util::copy_unless_aliased(dst, in.data, in.byte_size());
      return {};
    }
    cast_detail::Wide block[cast_detail::kBlockElements];
    const std::int64_t count = in.element_count();
    for (std::int64_t begin = 0; begin < count; begin += cast_detail::kBlockElements) {
      const std::int64_t left = count - begin;
      const int n = left < cast_detail::kBlockElements ? static_cast<int>(left) : cast_detail::kBlockElements;
      state.load(in.data, begin, n, block);
      state.store(block, dst, begin, n, state.options);
    }
    return {};
  }

 protected:
  /// Reads the INT 'to' attribute (opset 6+) and checks it names a dtype.
  static Status read_to(PrepareContext& ctx, DataType& to) noexcept {
    std::int64_t value = 0;
    ONNXMICRO_RETURN_IF_ERROR(ctx.required_attribute("to", value));
    if (value < 0 || value > kMaxDataTypeValue || !is_known_dtype(static_cast<std::int32_t>(value))) {
      return Status(StatusCode::unsupported)
             << "attribute 'to' is " << static_cast<long long>(value) << ", which is not a dtype this build knows (1.."
             << kMaxDataTypeValue << ")";
    }
    to = static_cast<DataType>(value);
    return {};
  }
  /// Reads 'saturate' (opset 19+), 0 or 1.
  static Status read_saturate(PrepareContext& ctx, cast_detail::Options& options) noexcept {
    std::int64_t saturate = 1;
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("saturate", saturate, 1));
    if (saturate != 0 && saturate != 1) {
      return Status(StatusCode::invalid_model)
             << "attribute 'saturate' is " << static_cast<long long>(saturate) << ", expected 0 or 1";
    }
    options.saturate = saturate == 1;
    return {};
  }
  /// Reads 'round_mode' (opset 24 on): how casts to float8e8m0 round.
  static Status read_round_mode(PrepareContext& ctx, cast_detail::Options& options) noexcept {
    std::string_view round_mode;
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("round_mode", round_mode, "up"));
    if (round_mode == "up") {
      options.e8m0_rounding = cast_detail::E8M0Rounding::up;
    } else if (round_mode == "down") {
      options.e8m0_rounding = cast_detail::E8M0Rounding::down;
    } else if (round_mode == "nearest") {
      options.e8m0_rounding = cast_detail::E8M0Rounding::nearest;
    } else {
      return Status(StatusCode::invalid_model)
             << "attribute 'round_mode' is \"" << round_mode << "\", expected \"up\", \"down\" or \"nearest\"";
    }
    return {};
  }
};

/// Cast's version rules (VersionedKernel): prepare reads what version `since` accepts; CastBase holds the
/// rest.
struct CastImpl : CastBase {
  static Status prepare(PrepareContext& ctx, int since) noexcept {
    if (since < 6) return prepare_named_to(ctx);
    DataType to = DataType::undefined;
    ONNXMICRO_RETURN_IF_ERROR(read_to(ctx, to));
    cast_detail::Options options;
    if (since >= 19) ONNXMICRO_RETURN_IF_ERROR(read_saturate(ctx, options));
    if (since >= 24) ONNXMICRO_RETURN_IF_ERROR(read_round_mode(ctx, options));
    return prepare_with(ctx, to, options);
  }

 private:
  /// Opset 1's 'to': a STRING dtype name.
  static Status prepare_named_to(PrepareContext& ctx) noexcept {
    proto::Attribute attribute;
    if (!ctx.find_attribute("to", attribute)) {
      return Status(StatusCode::invalid_model) << "required attribute 'to' (STRING) is missing";
    }
    if (attribute.type == proto::AttributeType::int_) {  // some old exporters already wrote the opset-6 form
      DataType to = DataType::undefined;
      ONNXMICRO_RETURN_IF_ERROR(read_to(ctx, to));
      return prepare_with(ctx, to, cast_detail::Options());
    }
    ONNXMICRO_RETURN_IF_ERROR(PrepareContext::expect_type(attribute, proto::AttributeType::string));
    std::string_view name(reinterpret_cast<const char*>(attribute.s.data()), attribute.s.size());
    DataType to = cast_detail::dtype_from_onnx_name(name);
    if (to == DataType::undefined) {
      return Status(StatusCode::invalid_model)
             << "attribute 'to' is \"" << name << "\", expected a TensorProto.DataType name such as \"FLOAT\"";
    }
    return prepare_with(ctx, to, cast_detail::Options());
  }
};

// Opset 1: 'to' is a STRING naming the dtype ("FLOAT", "INT32", ...).
using Cast_1 = VersionedKernel<CastImpl, 1, 6>;
// Opset 6: 'to' becomes an INT (TensorProto.DataType). Opsets 9 (string) and 13 (bfloat16) only add dtypes.
using Cast_6 = VersionedKernel<CastImpl, 6, 19>;
// Opset 19: adds float8 dtypes and 'saturate' (their overflow rule). Opsets 21 (int4/uint4) and 23 (float4e2m1)
// only add dtypes.
using Cast_19 = VersionedKernel<CastImpl, 19, 24>;
// Opset 24: adds float8e8m0 and 'round_mode' (up, down, nearest) for casts to it. Opsets 25 (int2/uint2) and 28
// (float6, not supported yet) only add dtypes.
using Cast_24 = VersionedKernel<CastImpl, 24>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
