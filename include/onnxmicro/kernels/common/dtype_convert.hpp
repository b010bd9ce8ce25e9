// SPDX-License-Identifier: MIT
// The dtype conversion engine behind Cast (rules in kernels/tensor/cast.hpp), also used by CastLike, Pad, Range
// and EyeLike to store values in any dtype. Elements go through a 64-bit "wide" value in blocks: a loader per
// source dtype fills a small buffer with a double (float sources), int64 (integer and bool sources) or uint64
// (uint64 sources), and a storer per destination dtype converts from it. That costs one instantiation per dtype
// instead of one per pair.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "onnxmicro/kernels/common/float_formats.hpp"
#include "onnxmicro/kernels/common/shape_util.hpp"
#include "onnxmicro/kernels/kernel_api.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {
namespace dtype_convert {

/// Conversion options that do not depend on the dtypes.
struct Options {
  bool saturate = true;  ///< float8 (and e8m0) overflow: clamp to max (true) or NaN/inf (false)
  float_formats::E8M0Rounding e8m0_rounding = float_formats::E8M0Rounding::up;
};

/// float -> integer bit pattern: truncation toward zero as a 64-bit two's complement value (callers keep the
/// low bits they need). NaN -> 0; below -2^63 -> INT64_MIN; [2^63, 2^64) -> exact uint64; from 2^64 -> UINT64_MAX.
inline std::uint64_t double_to_integer_bits(double x) noexcept {
  if (x != x) return 0;
  if (x >= 0x1p64) return std::numeric_limits<std::uint64_t>::max();
  if (x >= 0x1p63) return static_cast<std::uint64_t>(x);
  if (x <= -0x1p63) return static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::min());
  return static_cast<std::uint64_t>(static_cast<std::int64_t>(x));
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
template <const float_formats::MiniFloat& Format>
void load_minifloat(const void* src, std::int64_t begin, int count, Wide* out) noexcept {
  const std::uint8_t* s = static_cast<const std::uint8_t*>(src) + begin;
  for (int k = 0; k < count; ++k) out[k].f = float_formats::decode_minifloat(Format, s[k]);
}
inline void load_float4(const void* src, std::int64_t begin, int count, Wide* out) noexcept {
  for (int k = 0; k < count; ++k)
    out[k].f = float_formats::decode_minifloat(float_formats::kFloat4E2M1, shape_util::get_packed(src, begin + k, 4));
}
inline void load_e8m0(const void* src, std::int64_t begin, int count, Wide* out) noexcept {
  const std::uint8_t* s = static_cast<const std::uint8_t*>(src) + begin;
  for (int k = 0; k < count; ++k) out[k].f = float_formats::decode_e8m0(s[k]);
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
      return float_formats::double_to_float(x);
    } else if constexpr (D == DataType::float64) {
      return x;
    } else if constexpr (D == DataType::float16) {
      return float_formats::double_to_float16_bits(x);
    } else if constexpr (D == DataType::bfloat16) {
      return float_formats::double_to_bfloat16_bits(x);
    } else if constexpr (D == DataType::boolean) {
      return static_cast<Out>(x != 0.0 ? 1 : 0);  // NaN is true
    } else if constexpr (D == DataType::float8e4m3fn) {
      return float_formats::encode_minifloat(float_formats::kFloat8E4M3FN, x, options.saturate);
    } else if constexpr (D == DataType::float8e4m3fnuz) {
      return float_formats::encode_minifloat(float_formats::kFloat8E4M3FNUZ, x, options.saturate);
    } else if constexpr (D == DataType::float8e5m2) {
      return float_formats::encode_minifloat(float_formats::kFloat8E5M2, x, options.saturate);
    } else if constexpr (D == DataType::float8e5m2fnuz) {
      return float_formats::encode_minifloat(float_formats::kFloat8E5M2FNUZ, x, options.saturate);
    } else if constexpr (D == DataType::float4e2m1) {
      return float_formats::encode_minifloat(float_formats::kFloat4E2M1, x, true);
    } else if constexpr (D == DataType::float8e8m0) {
      return float_formats::encode_e8m0(float_formats::double_to_float(x), options.saturate, options.e8m0_rounding);
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
    case DataType::float8e4m3fn: return &load_minifloat<float_formats::kFloat8E4M3FN>;
    case DataType::float8e4m3fnuz: return &load_minifloat<float_formats::kFloat8E4M3FNUZ>;
    case DataType::float8e5m2: return &load_minifloat<float_formats::kFloat8E5M2>;
    case DataType::float8e5m2fnuz: return &load_minifloat<float_formats::kFloat8E5M2FNUZ>;
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

}  // namespace dtype_convert
}  // namespace kernels
ONNXMICRO_NAMESPACE_END
