// SPDX-License-Identifier: MIT
// Rows of bytes, 8 or 16 at a time with SSE2 (a scalar loop elsewhere), shared by the 8-bit kernels: copies that flip
// the sign bit (int8 as its order-keeping unsigned byte, the form the quad tiles and the byte pools take) and
// even/odd splits (a stride-2 row's taps as unit-stride reads).
#pragma once
#include <cstdint>

#include "onnxmicro/core/version.hpp"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {
namespace byte_rows {

#if defined(__SSE2__)
/// The even bytes of a (lanes 0-7) and of b (lanes 8-15).
inline __m128i even_bytes(__m128i a, __m128i b) noexcept {
  const __m128i low = _mm_set1_epi16(0x00FF);
  return _mm_packus_epi16(_mm_and_si128(a, low), _mm_and_si128(b, low));
}
/// The odd bytes of a (lanes 0-7) and of b (lanes 8-15).
inline __m128i odd_bytes(__m128i a, __m128i b) noexcept {
  return _mm_packus_epi16(_mm_srli_epi16(a, 8), _mm_srli_epi16(b, 8));
}
inline __m128i load_bytes(const std::uint8_t* p) noexcept {
  return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
}
#endif

/// out[i] = src[i * stride] ^ flip for i < count: vectors at strides 1 and 2, which read no byte outside
/// src[0 .. (count - 1) * stride].
inline void copy_flipped(const std::uint8_t* src, std::int64_t count, std::int64_t stride, std::uint8_t flip,
                         std::uint8_t* out) noexcept {
  std::int64_t i = 0;
#if defined(__SSE2__)
  // Rows as short as a 7 x 7 plane's: 8 values a vector, and the last 8 overlapping the previous vector.
  const __m128i f = _mm_set1_epi8(static_cast<char>(flip));
  if (stride == 1 && count >= 8) {
    for (; i + 8 <= count; i += 8) {
      const __m128i v = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(src + i));
      _mm_storel_epi64(reinterpret_cast<__m128i*>(out + i), _mm_xor_si128(v, f));
    }
    const __m128i v = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(src + count - 8));
    _mm_storel_epi64(reinterpret_cast<__m128i*>(out + count - 8), _mm_xor_si128(v, f));
    return;
  }
  if (stride == 2 && count >= 9) {
    for (; i + 9 <= count; i += 8) {  // 16 bytes from src + 2i: the last, src[2i + 15], is before src[2 count - 2]
      const __m128i v = load_bytes(src + 2 * i);
      _mm_storel_epi64(reinterpret_cast<__m128i*>(out + i), _mm_xor_si128(even_bytes(v, v), f));
    }
    // The last 8 values: the odd bytes of the 16 that end at src[2 count - 2].
    const __m128i v = load_bytes(src + 2 * count - 17);
    _mm_storel_epi64(reinterpret_cast<__m128i*>(out + count - 8), _mm_xor_si128(odd_bytes(v, v), f));
    return;
  }
#endif
  for (; i < count; ++i) out[i] = static_cast<std::uint8_t>(src[i * stride] ^ flip);
}

/// even[i] = row[2 i], odd[i] = row[2 i + 1] for i < count (row readable to 2 count + 31; even and odd with a vector
/// of slack).
inline void split(const std::uint8_t* row, std::int64_t count, std::uint8_t* even, std::uint8_t* odd) noexcept {
  std::int64_t i = 0;
#if defined(__SSE2__)
  for (; i < count; i += 16) {
    const __m128i a = load_bytes(row + 2 * i), b = load_bytes(row + 2 * i + 16);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(even + i), even_bytes(a, b));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(odd + i), odd_bytes(a, b));
  }
#endif
  for (; i < count; ++i) {
    even[i] = row[2 * i];
    odd[i] = row[2 * i + 1];
  }
}

}  // namespace byte_rows
}  // namespace kernels
ONNXMICRO_NAMESPACE_END
