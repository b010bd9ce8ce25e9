// SPDX-License-Identifier: MIT
// Element types. DataType's values are exactly ONNX's TensorProto.DataType numbers, so a dtype read from a
// model needs no translation. float16 and bfloat16 are stored as bits and computed in float32.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "onnxmicro/core/version.hpp"

ONNXMICRO_NAMESPACE_BEGIN

enum class DataType : std::int32_t {
  undefined = 0,
  float32 = 1,
  uint8 = 2,
  int8 = 3,
  uint16 = 4,
  int16 = 5,
  int32 = 6,
  int64 = 7,
  string = 8,
  boolean = 9,
  float16 = 10,
  float64 = 11,
  uint32 = 12,
  uint64 = 13,
  complex64 = 14,
  complex128 = 15,
  bfloat16 = 16,
  float8e4m3fn = 17,
  float8e4m3fnuz = 18,
  float8e5m2 = 19,
  float8e5m2fnuz = 20,
  uint4 = 21,
  int4 = 22,
  float4e2m1 = 23,
  float8e8m0 = 24,
  uint2 = 25,
  int2 = 26,
  float6e2m3 = 27,
  float6e3m2 = 28,
  // ONNX's non-tensor values, outside its dtype numbering: a "tensor" of these dtypes is an array of ValueRef
  // descriptors. A sequence of n values has shape [n]; an optional has shape [0] (empty) or [1].
  sequence = 0x100,
  optional = 0x101,
};

/// Highest DataType value this build knows.
constexpr std::int32_t kMaxDataTypeValue = 28;

/// True when `value` is a DataType number ONNX defines (UNDEFINED excluded).
constexpr bool is_known_dtype(std::int32_t value) noexcept { return value >= 1 && value <= kMaxDataTypeValue; }

/// ONNX's name of a dtype, e.g. "float" (as in TensorProto.DataType, lower case).
constexpr const char* dtype_name(DataType t) noexcept {
  switch (t) {
    case DataType::undefined: return "undefined";
    case DataType::float32: return "float";
    case DataType::uint8: return "uint8";
    case DataType::int8: return "int8";
    case DataType::uint16: return "uint16";
    case DataType::int16: return "int16";
    case DataType::int32: return "int32";
    case DataType::int64: return "int64";
    case DataType::string: return "string";
    case DataType::sequence: return "sequence";
    case DataType::optional: return "optional";
    case DataType::boolean: return "bool";
    case DataType::float16: return "float16";
    case DataType::float64: return "double";
    case DataType::uint32: return "uint32";
    case DataType::uint64: return "uint64";
    case DataType::complex64: return "complex64";
    case DataType::complex128: return "complex128";
    case DataType::bfloat16: return "bfloat16";
    case DataType::float8e4m3fn: return "float8e4m3fn";
    case DataType::float8e4m3fnuz: return "float8e4m3fnuz";
    case DataType::float8e5m2: return "float8e5m2";
    case DataType::float8e5m2fnuz: return "float8e5m2fnuz";
    case DataType::uint4: return "uint4";
    case DataType::int4: return "int4";
    case DataType::float4e2m1: return "float4e2m1";
    case DataType::float8e8m0: return "float8e8m0";
    case DataType::uint2: return "uint2";
    case DataType::int2: return "int2";
    case DataType::float6e2m3: return "float6e2m3";
    case DataType::float6e3m2: return "float6e3m2";
  }
  return "invalid";
}

namespace detail {
/// s.substr(pos, count) without substr's exception path (pos and count are clamped): the library builds with
/// -fno-exceptions, where a throwing substr would drag exception support (and malloc) into firmware.
constexpr std::string_view substring(std::string_view s, std::size_t pos,
                                     std::size_t count = std::string_view::npos) noexcept {
  if (pos > s.size()) pos = s.size();
  if (count > s.size() - pos) count = s.size() - pos;
  return std::string_view(s.data() + pos, count);
}
}  // namespace detail

/// One element of a string tensor: a view of bytes that live elsewhere (the model bytes for initializers and
/// attributes, the caller's memory for inputs, or the session's string pool for strings a kernel builds). Not
/// NUL-terminated; may hold any bytes (ONNX strings are UTF-8 by convention). Copying a string tensor copies the
/// views, not the characters, so its bytes must outlive every use: inputs until run() returns, pool strings until
/// the next run().
struct StringRef {
  const char* data;
  std::size_t size;

  std::string_view view() const noexcept { return size == 0 ? std::string_view() : std::string_view(data, size); }
  static StringRef of(std::string_view s) noexcept { return StringRef{s.data(), s.size()}; }
};
/// One value of a sequence or optional: a tensor (or, inside an optional, a sequence) described by dtype, dims
/// and a pointer to data that lives elsewhere (the model, metadata of the session, the caller). Sequences and
/// optionals are values known at prepare time in this build (offered by Session::run(inputs)).
struct ValueRef {
  DataType dtype;
  std::int32_t rank;
  std::int64_t dims[ONNXMICRO_MAX_RANK];
  const void* data;
};

/// True for the dtypes whose "elements" are ValueRefs.
constexpr bool is_value_container(DataType t) noexcept { return t == DataType::sequence || t == DataType::optional; }

/// String tensors compare by their bytes (Equal-19).
inline bool operator==(const StringRef& a, const StringRef& b) noexcept { return a.view() == b.view(); }
inline bool operator!=(const StringRef& a, const StringRef& b) noexcept { return !(a == b); }

/// Bytes of one element (a StringRef for string); 0 for sub-byte types (see dtype_bits()) and undefined.
constexpr std::size_t dtype_size(DataType t) noexcept {
  switch (t) {
    case DataType::string: return sizeof(StringRef);
    case DataType::sequence:
    case DataType::optional: return sizeof(ValueRef);
    case DataType::float32:
    case DataType::int32:
    case DataType::uint32: return 4;
    case DataType::uint8:
    case DataType::int8:
    case DataType::boolean: return 1;
    case DataType::float8e4m3fn:
    case DataType::float8e4m3fnuz:
    case DataType::float8e5m2:
    case DataType::float8e5m2fnuz:
    case DataType::float8e8m0: return 1;
    case DataType::uint16:
    case DataType::int16:
    case DataType::float16:
    case DataType::bfloat16: return 2;
    case DataType::int64:
    case DataType::uint64:
    case DataType::float64:
    case DataType::complex64: return 8;
    case DataType::complex128: return 16;
    default: return 0;
  }
}

/// Bits of one element of a packed sub-byte type (int4/uint4/float4e2m1: 4, int2/uint2: 2, float6: 6), else 0.
/// Elements are packed densely from the lowest bits of the first byte.
constexpr int dtype_bits(DataType t) noexcept {
  switch (t) {
    case DataType::int4:
    case DataType::uint4:
    case DataType::float4e2m1: return 4;
    case DataType::int2:
    case DataType::uint2: return 2;
    case DataType::float6e2m3:
    case DataType::float6e3m2: return 6;
    default: return 0;
  }
}

/// True for the packed sub-byte types.
constexpr bool is_sub_byte(DataType t) noexcept { return dtype_bits(t) != 0; }

constexpr bool is_floating(DataType t) noexcept {
  return t == DataType::float32 || t == DataType::float64 || t == DataType::float16 || t == DataType::bfloat16;
}
constexpr bool is_signed_integer(DataType t) noexcept {
  return t == DataType::int8 || t == DataType::int16 || t == DataType::int32 || t == DataType::int64;
}
constexpr bool is_unsigned_integer(DataType t) noexcept {
  return t == DataType::uint8 || t == DataType::uint16 || t == DataType::uint32 || t == DataType::uint64;
}

/// True when ONNXMICRO_ENABLED_DTYPES has `t`'s bit.
constexpr bool dtype_in_enabled_mask(DataType t) noexcept {
  return ((static_cast<std::uint32_t>(ONNXMICRO_ENABLED_DTYPES) >> (static_cast<unsigned>(t) & 31u)) & 1u) != 0;
}

/// False for the dtypes this build compiles out (ONNXMICRO_ENABLE_FLOAT64 / ONNXMICRO_ENABLE_FLOAT16 = 0, or not
/// in ONNXMICRO_ENABLED_DTYPES).
constexpr bool dtype_enabled(DataType t) noexcept {
  if (!dtype_in_enabled_mask(t)) return false;
  switch (t) {
    case DataType::float64: return ONNXMICRO_ENABLE_FLOAT64 != 0;
    case DataType::float16:
    case DataType::bfloat16: return ONNXMICRO_ENABLE_FLOAT16 != 0;
    default: return true;
  }
}

/// The setting that compiles `t` out ("ONNXMICRO_ENABLE_FLOAT64=0", "ONNXMICRO_ENABLED_DTYPES without this
/// dtype's bit"), or nullptr when `t` is enabled (for error messages).
constexpr const char* dtype_disabled_by(DataType t) noexcept {
  if (dtype_enabled(t)) return nullptr;
  if (!dtype_in_enabled_mask(t)) return "ONNXMICRO_ENABLED_DTYPES without this dtype's bit";
  return t == DataType::float64 ? "ONNXMICRO_ENABLE_FLOAT64=0" : "ONNXMICRO_ENABLE_FLOAT16=0";
}

/// `t`, or undefined for a compiled-out dtype. Kernels dispatch on it (`switch (compiled_dtype(dtype))`) so that
/// the optimiser sees the disabled cases cannot be reached and drops their instantiations; Session::prepare
/// has already refused such tensors, so the kernel's own "unsupported dtype" branch is never the first error.
/// Always inlined: GCC's -Os otherwise calls it out of line, and the switch then keeps every case. With every
/// dtype enabled it is the identity.
namespace detail {
/// How many of the dtypes 1..kMaxDataTypeValue this build compiles kernels for.
constexpr int enabled_dtype_count() noexcept {
  int count = 0;
  for (int n = 1; n <= kMaxDataTypeValue; ++n) count += dtype_enabled(static_cast<DataType>(n)) ? 1 : 0;
  return count;
}
static_assert(kMaxDataTypeValue == 28, "compiled_dtype() spells out dtypes 1..28: add the new ones there");
}  // namespace detail

// Spelled so that GCC's value ranges carry the answer into the kernel's `switch (compiled_dtype(t))` and drop the
// cases (and their instantiations) of compiled-out dtypes; a computed `mask >> t`, or a chain that GCC turns into
// a lookup table, would keep every case. Few dtypes off (the usual ONNXMICRO_ENABLE_FLOAT64/FLOAT16=0): a chain of
// `t == N -> undefined`, each removing its case. Few on (a firmware's ONNXMICRO_ENABLED_DTYPES): `t` is one of them,
// which GCC tests as a range plus a bit test, dropping every case outside the enabled range (float32 alone keeps
// only float32; float32, int8, int32 drop every float type above int32). Constant terms fold away.
#define ONNXMICRO_DETAIL_ON(n) \
  (static_cast<int>(dtype_enabled(static_cast<DataType>(n))) & static_cast<int>(static_cast<int>(t) == (n)))
#define ONNXMICRO_DETAIL_OFF(n) (!dtype_enabled(static_cast<DataType>(n)) && static_cast<int>(t) == (n))
ONNXMICRO_DETAIL_ALWAYS_INLINE constexpr DataType compiled_dtype(DataType t) noexcept {
  constexpr int kEnabled = detail::enabled_dtype_count();
  if (kEnabled == kMaxDataTypeValue) return t;
  if (kEnabled <= kMaxDataTypeValue - kEnabled) {
    return (ONNXMICRO_DETAIL_ON(1) | ONNXMICRO_DETAIL_ON(2) | ONNXMICRO_DETAIL_ON(3) | ONNXMICRO_DETAIL_ON(4) |
            ONNXMICRO_DETAIL_ON(5) | ONNXMICRO_DETAIL_ON(6) | ONNXMICRO_DETAIL_ON(7) | ONNXMICRO_DETAIL_ON(8) |
            ONNXMICRO_DETAIL_ON(9) | ONNXMICRO_DETAIL_ON(10) | ONNXMICRO_DETAIL_ON(11) | ONNXMICRO_DETAIL_ON(12) |
            ONNXMICRO_DETAIL_ON(13) | ONNXMICRO_DETAIL_ON(14) | ONNXMICRO_DETAIL_ON(15) | ONNXMICRO_DETAIL_ON(16) |
            ONNXMICRO_DETAIL_ON(17) | ONNXMICRO_DETAIL_ON(18) | ONNXMICRO_DETAIL_ON(19) | ONNXMICRO_DETAIL_ON(20) |
            ONNXMICRO_DETAIL_ON(21) | ONNXMICRO_DETAIL_ON(22) | ONNXMICRO_DETAIL_ON(23) | ONNXMICRO_DETAIL_ON(24) |
            ONNXMICRO_DETAIL_ON(25) | ONNXMICRO_DETAIL_ON(26) | ONNXMICRO_DETAIL_ON(27) | ONNXMICRO_DETAIL_ON(28))
               ? t
               : DataType::undefined;
  }
  return (ONNXMICRO_DETAIL_OFF(1) || ONNXMICRO_DETAIL_OFF(2) || ONNXMICRO_DETAIL_OFF(3) || ONNXMICRO_DETAIL_OFF(4) ||
          ONNXMICRO_DETAIL_OFF(5) || ONNXMICRO_DETAIL_OFF(6) || ONNXMICRO_DETAIL_OFF(7) || ONNXMICRO_DETAIL_OFF(8) ||
          ONNXMICRO_DETAIL_OFF(9) || ONNXMICRO_DETAIL_OFF(10) || ONNXMICRO_DETAIL_OFF(11) || ONNXMICRO_DETAIL_OFF(12) ||
          ONNXMICRO_DETAIL_OFF(13) || ONNXMICRO_DETAIL_OFF(14) || ONNXMICRO_DETAIL_OFF(15) ||
          ONNXMICRO_DETAIL_OFF(16) || ONNXMICRO_DETAIL_OFF(17) || ONNXMICRO_DETAIL_OFF(18) ||
          ONNXMICRO_DETAIL_OFF(19) || ONNXMICRO_DETAIL_OFF(20) || ONNXMICRO_DETAIL_OFF(21) ||
          ONNXMICRO_DETAIL_OFF(22) || ONNXMICRO_DETAIL_OFF(23) || ONNXMICRO_DETAIL_OFF(24) ||
          ONNXMICRO_DETAIL_OFF(25) || ONNXMICRO_DETAIL_OFF(26) || ONNXMICRO_DETAIL_OFF(27) || ONNXMICRO_DETAIL_OFF(28))
             ? DataType::undefined
             : t;
}
#undef ONNXMICRO_DETAIL_ON
#undef ONNXMICRO_DETAIL_OFF

/// IEEE 754 half precision, stored as bits. Arithmetic goes through float.
struct float16_t {
  std::uint16_t bits;
  static float16_t from_bits(std::uint16_t b) noexcept { return float16_t{b}; }
  static float16_t from_float(float f) noexcept;
  float to_float() const noexcept;
};

/// bfloat16 (upper half of a float32), stored as bits. Conversion rounds to nearest even.
struct bfloat16_t {
  std::uint16_t bits;
  static bfloat16_t from_bits(std::uint16_t b) noexcept { return bfloat16_t{b}; }
  static bfloat16_t from_float(float f) noexcept {
    std::uint32_t u;
    std::memcpy(&u, &f, 4);
    if ((u & 0x7fffffffu) > 0x7f800000u) return bfloat16_t{static_cast<std::uint16_t>((u >> 16) | 0x40)};  // NaN
    u += 0x7fffu + ((u >> 16) & 1u);
    return bfloat16_t{static_cast<std::uint16_t>(u >> 16)};
  }
  float to_float() const noexcept {
    std::uint32_t u = static_cast<std::uint32_t>(bits) << 16;
    float f;
    std::memcpy(&f, &u, 4);
    return f;
  }
};

inline float float16_t::to_float() const noexcept {
  std::uint32_t sign = static_cast<std::uint32_t>(bits & 0x8000u) << 16;
  std::uint32_t exponent = (bits >> 10) & 0x1fu;
  std::uint32_t mantissa = bits & 0x3ffu;
  std::uint32_t u;
  if (exponent == 0) {
    if (mantissa == 0) {
      u = sign;
    } else {  // subnormal: normalise
      exponent = 127 - 15 + 1;
      while ((mantissa & 0x400u) == 0) {
        mantissa <<= 1;
        --exponent;
      }
      mantissa &= 0x3ffu;
      u = sign | (exponent << 23) | (mantissa << 13);
    }
  } else if (exponent == 0x1f) {
    u = sign | 0x7f800000u | (mantissa << 13);
  } else {
    u = sign | ((exponent + 127 - 15) << 23) | (mantissa << 13);
  }
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

inline float16_t float16_t::from_float(float f) noexcept {
  std::uint32_t u;
  std::memcpy(&u, &f, 4);
  std::uint32_t sign = (u >> 16) & 0x8000u;
  std::uint32_t abs = u & 0x7fffffffu;
  if (abs > 0x7f800000u) return float16_t{static_cast<std::uint16_t>(sign | 0x7e00u)};   // NaN
  if (abs >= 0x47800000u) return float16_t{static_cast<std::uint16_t>(sign | 0x7c00u)};  // overflow -> inf
  if (abs < 0x38800000u) {  // result is subnormal or zero: round to nearest even on the shifted mantissa
    if (abs < 0x33000000u) return float16_t{static_cast<std::uint16_t>(sign)};
    std::uint32_t exponent = abs >> 23;
    std::uint32_t mantissa = (abs & 0x7fffffu) | 0x800000u;
    std::uint32_t shift = 126 - exponent;  // 14 + (113 - exponent) ... mantissa >> (shift) gives half subnormal
    std::uint32_t half = mantissa >> shift;
    std::uint32_t rest = mantissa & ((1u << shift) - 1u);
    std::uint32_t halfway = 1u << (shift - 1);
    if (rest > halfway || (rest == halfway && (half & 1u))) ++half;
    return float16_t{static_cast<std::uint16_t>(sign | half)};
  }
  std::uint32_t half = ((abs >> 13) - ((127 - 15) << 10));
  std::uint32_t rest = abs & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (half & 1u))) ++half;
  return float16_t{static_cast<std::uint16_t>(sign | half)};
}

/// Maps a C++ element type to its DataType (compile-time dispatch in kernels).
template <typename T>
struct dtype_of;
template <>
struct dtype_of<float> {
  static constexpr DataType value = DataType::float32;
};
template <>
struct dtype_of<double> {
  static constexpr DataType value = DataType::float64;
};
template <>
struct dtype_of<float16_t> {
  static constexpr DataType value = DataType::float16;
};
template <>
struct dtype_of<bfloat16_t> {
  static constexpr DataType value = DataType::bfloat16;
};
template <>
struct dtype_of<std::int8_t> {
  static constexpr DataType value = DataType::int8;
};
template <>
struct dtype_of<std::uint8_t> {
  static constexpr DataType value = DataType::uint8;
};
template <>
struct dtype_of<std::int16_t> {
  static constexpr DataType value = DataType::int16;
};
template <>
struct dtype_of<std::uint16_t> {
  static constexpr DataType value = DataType::uint16;
};
template <>
struct dtype_of<std::int32_t> {
  static constexpr DataType value = DataType::int32;
};
template <>
struct dtype_of<std::uint32_t> {
  static constexpr DataType value = DataType::uint32;
};
template <>
struct dtype_of<std::int64_t> {
  static constexpr DataType value = DataType::int64;
};
template <>
struct dtype_of<std::uint64_t> {
  static constexpr DataType value = DataType::uint64;
};
template <>
struct dtype_of<bool> {
  static constexpr DataType value = DataType::boolean;
};
template <>
struct dtype_of<StringRef> {
  static constexpr DataType value = DataType::string;
};

ONNXMICRO_NAMESPACE_END
