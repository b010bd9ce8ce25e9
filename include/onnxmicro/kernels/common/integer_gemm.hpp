// SPDX-License-Identifier: MIT
// Integer matrix-multiply core of the quantized kernels (QLinearConv, QLinearMatMul, QGemm, MatMulInteger):
//   C[M x N] (int32, wrapping) = A[M x K] * B[K x N]
// on operands already shifted by their zero points and widened to int16 ((value - zero_point) is in
// [-255, 255] for int8/uint8), so zero points cost nothing in the inner loop and padding is a plain 0.
//
// Layout, suited to pairwise multiply-add (x86 pmaddwd, Cortex-M SMLAD) and to NEON's widening multiply-add:
//  - A (weights, usually packed once at prepare) in panels of kRows rows; inside a panel, for each pair of
//    depth indices (k, k + 1), the rows' two values side by side: [r0k0 r0k1 r1k0 r1k1 r2k0 r2k1 r3k0 r3k1]
//    (each row's pair is one 32-bit word that the x86 tiles broadcast).
//  - B (activations, im2col columns, packed per tile into scratch) in panels of kColumns columns (16 on x86, 8
//    elsewhere); for each depth pair, [c0k0 c0k1 c1k0 c1k1 ... c15k0 c15k1].
// The layouts depend only on the compile-time baseline (x86 or not), never on the instruction set chosen at run
// time, so weights packed at prepare suit every tile. Register tiles: AVX2 _mm256_madd_epi16 4 x 16 (per-function
// target attribute, chosen at run time: core/isa.hpp; vpmaddwd issues twice per cycle on this project's EPYC, so
// int16 pairs multiply-add at twice the float FMA's rate), the same with AVX-512 VNNI's vpdpwssd where the CPU has
// it, SSE2 _mm_madd_epi16 4 x 8 twice per panel, NEON vmlal_lane_s16 4 x 8, and a portable scalar 4 x 8 (Cortex-M
// and anything else).
// Exact, unlike vpmaddubsw (u8 x s8 pairs saturate at 16 bits, as onnxruntime documents for its AVX2 path): the
// operands are widened to int16 first.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <type_traits>

#include "onnxmicro/core/version.hpp"
#include "onnxmicro/kernels/common/byte_rows.hpp"
#include "onnxmicro/kernels/common/fixed_point.hpp"
#include "onnxmicro/kernels/kernel_api.hpp"
#include "onnxmicro/kernels/quantization/quant_util.hpp"

#include "onnxmicro/core/isa.hpp"
#if ONNXMICRO_ENABLE_ISA_DISPATCH || defined(__AVX2__)
#include <immintrin.h>
#elif defined(__SSE2__)
#include <emmintrin.h>
#elif defined(__ARM_NEON)
#include <arm_neon.h>
#endif

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {
namespace integer_gemm {

constexpr std::int64_t kRows = 4;  ///< rows of a register tile (A panel height)
/// Rows of the tallest register tile: two A panels (the AVX-512 VNNI tall tiles). Buffers that take a tile's rows
/// whole (multiply_rows' `rows`) hold this many.
constexpr std::int64_t kTallRows = 2 * kRows;
#if defined(__SSE2__)
constexpr std::int64_t kColumns = 16;  ///< columns of a B panel: one AVX2 tile, or two SSE2 tiles of 8
#else
constexpr std::int64_t kColumns = 8;  ///< columns of a register tile (B panel width)
#endif

constexpr std::int64_t round_up(std::int64_t v, std::int64_t multiple) noexcept {
  return (v + multiple - 1) / multiple * multiple;
}
/// Depth of the packed operands: K rounded up to a pair.
constexpr std::int64_t packed_depth(std::int64_t k) noexcept { return round_up(k, 2); }
/// int16 elements of packed A (M x K) and of packed B (K x N).
constexpr std::int64_t packed_a_size(std::int64_t m, std::int64_t k) noexcept {
  return round_up(m, kRows) * packed_depth(k);
}
constexpr std::int64_t packed_b_size(std::int64_t k, std::int64_t n) noexcept {
  return packed_depth(k) * round_up(n, kColumns);
}

/// Where A(i, p) of an m x k matrix (kp = packed_depth(k)) lies in packed A: i's panel, then p's pair, then the row.
constexpr std::int64_t packed_a_index(std::int64_t i, std::int64_t p, std::int64_t kp) noexcept {
  return (i / kRows) * kRows * kp + ((p / 2) * kRows + i % kRows) * 2 + (p & 1);
}

/// Packs A(i, p) = src[i * row_stride + p * depth_stride] - zero(i) for i < m, p < k, where zero(i) is
/// zero_point[i * zero_stride] (0 without a zero point). T is int8_t or uint8_t.
template <typename T>
inline void pack_a(const T* src, std::int64_t row_stride, std::int64_t depth_stride, std::int64_t m, std::int64_t k,
                   const T* zero_point, std::int64_t zero_stride, std::int16_t* dst) noexcept {
  const std::int64_t kp = packed_depth(k);
  for (std::int64_t i0 = 0; i0 < m; i0 += kRows) {
    std::int16_t* panel = dst + i0 * kp;
    for (std::int64_t r = 0; r < kRows; ++r) {
      const std::int64_t i = i0 + r;
      const int zero = zero_point != nullptr && i < m ? static_cast<int>(zero_point[i * zero_stride]) : 0;
      for (std::int64_t p = 0; p < kp; ++p) {
        const bool inside = i < m && p < k;
        const int v = inside ? static_cast<int>(src[i * row_stride + p * depth_stride]) - zero : 0;
        panel[((p / 2) * kRows + r) * 2 + (p & 1)] = static_cast<std::int16_t>(v);
      }
    }
  }
}

/// dst[i] = src[i] - zero for i < count (T: int8_t or uint8_t): the int16 operands of im2col rows and of the
/// depthwise planes.
template <typename T>
inline void widen_row(const T* src, std::int64_t count, int zero, std::int16_t* dst) noexcept {
  std::int64_t i = 0;
#if defined(__SSE2__)
  const __m128i z = _mm_set1_epi16(static_cast<std::int16_t>(zero));
  for (; i + 16 <= count; i += 16) {
    const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i));
    __m128i lo, hi;
    if (std::numeric_limits<T>::is_signed) {
      lo = _mm_srai_epi16(_mm_unpacklo_epi8(bytes, bytes), 8);
      hi = _mm_srai_epi16(_mm_unpackhi_epi8(bytes, bytes), 8);
    } else {
      lo = _mm_unpacklo_epi8(bytes, _mm_setzero_si128());
      hi = _mm_unpackhi_epi8(bytes, _mm_setzero_si128());
    }
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + i), _mm_sub_epi16(lo, z));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + i + 8), _mm_sub_epi16(hi, z));
  }
#endif
  for (; i < count; ++i) dst[i] = static_cast<std::int16_t>(static_cast<int>(src[i]) - zero);
}

/// One depth pair of a B panel: `cols` (at most kColumns) columns of rows row0 and row1 (nullptr: zeros) side by side
/// into `out`, zeros past them.
inline void pack_pair(const std::int16_t* row0, const std::int16_t* row1, std::int64_t cols,
                      std::int16_t* out) noexcept {
#if defined(__SSE2__)
  if (cols == kColumns) {
    for (std::int64_t h = 0; h < kColumns; h += 8) {  // 8 columns per 16-byte vector
      const __m128i v0 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(row0 + h));
      const __m128i v1 = row1 ? _mm_loadu_si128(reinterpret_cast<const __m128i*>(row1 + h)) : _mm_setzero_si128();
      _mm_storeu_si128(reinterpret_cast<__m128i*>(out + 2 * h), _mm_unpacklo_epi16(v0, v1));
      _mm_storeu_si128(reinterpret_cast<__m128i*>(out + 2 * h + 8), _mm_unpackhi_epi16(v0, v1));
    }
    return;
  }
#endif
  for (std::int64_t c = 0; c < kColumns; ++c) {
    out[2 * c] = c < cols ? row0[c] : std::int16_t(0);
    out[2 * c + 1] = c < cols && row1 ? row1[c] : std::int16_t(0);
  }
}

/// dst[i] = src[2 * i] - zero for i < count (T: int8_t or uint8_t); reads nothing past src[2 * (count - 1)].
template <typename T>
inline void widen_even(const T* src, std::int64_t count, int zero, std::int16_t* dst) noexcept {
  std::int64_t i = 0;
#if defined(__SSE2__)
  const __m128i z = _mm_set1_epi16(static_cast<std::int16_t>(zero));
  for (; i + 9 <= count; i += 8) {  // 16 bytes from src + 2i: the last one, src[2i + 15], is before src[2 count - 2]
    const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + 2 * i));
    const __m128i even = std::numeric_limits<T>::is_signed ? _mm_srai_epi16(_mm_slli_epi16(bytes, 8), 8)
                                                           : _mm_and_si128(bytes, _mm_set1_epi16(0x00FF));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + i), _mm_sub_epi16(even, z));
  }
#endif
  for (; i < count; ++i) dst[i] = static_cast<std::int16_t>(static_cast<int>(src[2 * i]) - zero);
}

/// One phase of a zero-padded row: out[i] = line[i * stride + shift] - zero where that column is inside [0, width),
/// else 0 (also everywhere when `line` is nullptr: a padding row), for i < count. A stride-s convolution reads its
/// padded input as s phases of every s-th column, each tap a shifted window of one phase.
/// The values [lo, hi) of a phase of `count` values (widen_phase) that read input columns, lo * stride + shift onwards.
inline void phase_inside(bool has_line, std::int64_t width, std::int64_t shift, std::int64_t stride, std::int64_t count,
                         std::int64_t& lo, std::int64_t& hi) noexcept {
  // (v / stride for v >= 0, without a division at strides 1 and 2: this runs for every row of a grid)
  auto over_stride = [stride](std::int64_t v) { return stride == 1 ? v : stride == 2 ? v >> 1 : v / stride; };
  lo = shift >= 0 ? 0 : over_stride(stride - 1 - shift);
  hi = !has_line || width - shift <= 0 ? 0 : over_stride(width - shift - 1) + 1;
  if (hi > count) hi = count;
  if (lo > hi) lo = hi;
}

template <typename T>
inline void widen_phase(const T* line, std::int64_t width, std::int64_t shift, std::int64_t stride, int zero,
                        std::int64_t count, std::int16_t* out) noexcept {
  std::int64_t lo = 0, hi = 0;
  phase_inside(line != nullptr, width, shift, stride, count, lo, hi);
  for (std::int64_t i = 0; i < lo; ++i) out[i] = 0;
  if (hi > lo) {
    const T* first = line + lo * stride + shift;
    if (stride == 1) {
      widen_row(first, hi - lo, zero, out + lo);
    } else if (stride == 2) {
      widen_even(first, hi - lo, zero, out + lo);
    } else {
      for (std::int64_t i = lo; i < hi; ++i)
        out[i] = static_cast<std::int16_t>(static_cast<int>(first[(i - lo) * stride]) - zero);
    }
  }
  for (std::int64_t i = hi; i < count; ++i) out[i] = 0;
}

#if defined(__SSE2__) && (ONNXMICRO_ENABLE_ISA_DISPATCH || defined(__AVX2__))  // (ONNXMICRO_DETAIL_INTEGER_AVX2)
/// 8 values of T from p (stride 1) or its even elements p[0], p[2], ..., p[14] (stride 2), as int32 lanes.
template <typename T>
__attribute__((target("avx2"), always_inline)) inline __m256i load_phase_avx2(const T* p,
                                                                              std::int64_t stride) noexcept {
  const bool is_signed = std::numeric_limits<T>::is_signed;
  if (stride == 1) {
    const __m128i bytes = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(p));
    return is_signed ? _mm256_cvtepi8_epi32(bytes) : _mm256_cvtepu8_epi32(bytes);
  }
  const __m128i pairs = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));  // reads p[0..15]
  const __m128i even =
      is_signed ? _mm_srai_epi16(_mm_slli_epi16(pairs, 8), 8) : _mm_and_si128(pairs, _mm_set1_epi16(0xFF));
  return _mm256_cvtepi16_epi32(even);
}

/// The odd elements p[1], p[3], ..., p[15] of T, as int32 lanes.
template <typename T>
__attribute__((target("avx2"), always_inline)) inline __m256i load_odd_avx2(const T* p) noexcept {
  const __m128i pairs = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  return _mm256_cvtepi16_epi32(std::numeric_limits<T>::is_signed ? _mm_srai_epi16(pairs, 8) : _mm_srli_epi16(pairs, 8));
}

/// widen_phase into floats with AVX2 (the quantized depthwise conv's float phase planes: every value an integer,
/// exact): out[i] = line[i * stride + shift] - zero inside [0, width), else 0, for i < count; stride 1 or 2.
template <typename T>
__attribute__((target("avx2"))) inline void float_phase_avx2(const T* line, std::int64_t width, std::int64_t shift,
                                                             std::int64_t stride, int zero, std::int64_t count,
                                                             float* out) noexcept {
  std::int64_t lo = 0, hi = 0;
  phase_inside(line != nullptr, width, shift, stride, count, lo, hi);
  for (std::int64_t i = 0; i < lo; ++i) out[i] = 0.0f;
  std::int64_t i = lo;
  if (hi > lo) {
    const T* first = line + lo * stride + shift;
    const __m256 z = _mm256_set1_ps(static_cast<float>(zero));
    // A stride-2 vector reads 16 elements from its first: stop while the last one, index 2 (i - lo) + 15, is inside
    // the line (hi is at most the values whose element 2 (i - lo) lies inside).
    const std::int64_t vector_end = stride == 1 ? hi - 7 : hi - 8;
    for (; i < vector_end; i += 8) {
      const __m256i v = load_phase_avx2(first + (i - lo) * stride, stride);
      _mm256_storeu_ps(out + i, _mm256_sub_ps(_mm256_cvtepi32_ps(v), z));
    }
    if (i < hi && hi - lo > 8) {  // the last 8 values, overlapping the previous vector (no scalar tail)
      const T* last = first + (hi - 8 - lo) * stride;
      const __m256i v = stride == 1 ? load_phase_avx2(last, 1) : load_odd_avx2(last - 1);  // (ends at the last value)
      _mm256_storeu_ps(out + hi - 8, _mm256_sub_ps(_mm256_cvtepi32_ps(v), z));
      i = hi;
    }
    for (; i < hi; ++i) out[i] = static_cast<float>(static_cast<int>(first[(i - lo) * stride]) - zero);
  }
  for (; i < count; ++i) out[i] = 0.0f;
}
#endif

/// Packs B from a dense row-major int16 matrix (k rows of n values, row stride ld), already zero-point shifted.
inline void pack_b(const std::int16_t* src, std::int64_t ld, std::int64_t k, std::int64_t n,
                   std::int16_t* dst) noexcept {
  const std::int64_t kp = packed_depth(k);
  for (std::int64_t j0 = 0; j0 < n; j0 += kColumns) {
    const std::int64_t cols = n - j0 < kColumns ? n - j0 : kColumns;
    for (std::int64_t p = 0; p < kp; p += 2) {
      const std::int16_t* row0 = src + p * ld + j0;
      pack_pair(row0, p + 1 < k ? row0 + ld : nullptr, cols, dst + j0 * kp + p * kColumns);
    }
  }
}

/// Packs depth rows p and p + 1 (p even; row1 nullptr: zeros) of B, n columns each, into B packed at depth kp
/// (packed_depth(K)): `dst` points at pair p of the first panel (packed B + p * kColumns).
inline void pack_b_pair(const std::int16_t* row0, const std::int16_t* row1, std::int64_t n, std::int64_t kp,
                        std::int16_t* dst) noexcept {
  for (std::int64_t j0 = 0; j0 < n; j0 += kColumns) {
    pack_pair(row0 + j0, row1 ? row1 + j0 : nullptr, n - j0 < kColumns ? n - j0 : kColumns, dst + j0 * kp);
  }
}

/// Packs B(p, j) = base[row_offsets[p] + j] for p < k and j < round_up(n, kColumns): rows read in place (a
/// convolution's zero-padded input, each tap a shifted window of it). Whole panels are read, so `base` must be
/// readable that far past the last row's n values; the columns past n are never stored by the callers.
inline void pack_b_offsets(const std::int16_t* base, const std::int32_t* row_offsets, std::int64_t k, std::int64_t n,
                           std::int16_t* dst) noexcept {
  const std::int64_t kp = packed_depth(k);
  for (std::int64_t p = 0; p < kp; p += 2) {
    const std::int16_t* row0 = base + row_offsets[p];
    const std::int16_t* row1 = p + 1 < k ? base + row_offsets[p + 1] : nullptr;
    for (std::int64_t j0 = 0; j0 < n; j0 += kColumns) {
      pack_pair(row0 + j0, row1 ? row1 + j0 : nullptr, kColumns, dst + j0 * kp + p * kColumns);
    }
  }
}

/// Packs B from a dense row-major int8/uint8 matrix (k rows of n values, row stride ld), subtracting `zero`
/// (pointwise convolutions read their input this way, without an im2col copy).
template <typename T>
inline void pack_b_rows(const T* src, std::int64_t ld, std::int64_t k, std::int64_t n, int zero,
                        std::int16_t* dst) noexcept {
  const std::int64_t kp = packed_depth(k);
  for (std::int64_t j0 = 0; j0 < n; j0 += kColumns) {
    std::int16_t* panel = dst + j0 * kp;
    const std::int64_t cols = n - j0 < kColumns ? n - j0 : kColumns;
    for (std::int64_t p = 0; p < kp; p += 2) {
      std::int16_t* out = panel + p * kColumns;
      const T* row0 = src + p * ld + j0;
      const T* row1 = p + 1 < k ? row0 + ld : nullptr;
#if defined(__SSE2__)
      if (cols == kColumns) {
        const __m128i z = _mm_set1_epi16(static_cast<std::int16_t>(zero));
        auto widen = [&z](const T* row) {
          const __m128i bytes = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(row));
          const __m128i wide = std::numeric_limits<T>::is_signed ? _mm_srai_epi16(_mm_unpacklo_epi8(bytes, bytes), 8)
                                                                 : _mm_unpacklo_epi8(bytes, _mm_setzero_si128());
          return _mm_sub_epi16(wide, z);
        };
        for (std::int64_t h = 0; h < kColumns; h += 8) {  // 8 columns per 16-byte vector
          const __m128i v0 = widen(row0 + h);
          const __m128i v1 = row1 ? widen(row1 + h) : _mm_setzero_si128();
          _mm_storeu_si128(reinterpret_cast<__m128i*>(out + 2 * h), _mm_unpacklo_epi16(v0, v1));
          _mm_storeu_si128(reinterpret_cast<__m128i*>(out + 2 * h + 8), _mm_unpackhi_epi16(v0, v1));
        }
        continue;
      }
#endif
      for (std::int64_t c = 0; c < kColumns; ++c) {
        out[2 * c] = c < cols ? static_cast<std::int16_t>(row0[c] - zero) : std::int16_t(0);
        out[2 * c + 1] = c < cols && row1 ? static_cast<std::int16_t>(row1[c] - zero) : std::int16_t(0);
      }
    }
  }
}

/// Packs B(p, j) = src[p * depth_stride + j * column_stride] - zero (one zero point), for any strides (matrix
/// products whose activation operand is read transposed). T is int8_t or uint8_t.
template <typename T>
inline void pack_b_strided(const T* src, std::int64_t depth_stride, std::int64_t column_stride, std::int64_t k,
                           std::int64_t n, int zero, std::int16_t* dst) noexcept {
  const std::int64_t kp = packed_depth(k);
  for (std::int64_t j0 = 0; j0 < n; j0 += kColumns) {
    std::int16_t* panel = dst + j0 * kp;
    for (std::int64_t c = 0; c < kColumns; ++c) {
      const std::int64_t j = j0 + c;
      for (std::int64_t p = 0; p < kp; ++p) {
        const bool inside = j < n && p < k;
        const int v = inside ? static_cast<int>(src[p * depth_stride + j * column_stride]) - zero : 0;
        panel[(p / 2) * (2 * kColumns) + c * 2 + (p & 1)] = static_cast<std::int16_t>(v);
      }
    }
  }
}

/// A register tile: c[r * ldc + j] = sum over the packed depth kp of A panel row r times B panel column j, for
/// r < kRows, j < kColumns; TA and TB are the packed element types (int16 pairs, or the quad layout's bytes).
template <typename TA, typename TB>
using TileOf = void (*)(const TA* a, const TB* b, std::int64_t kp, std::int32_t* c, std::int64_t ldc) noexcept;
using TileFunction = TileOf<std::int16_t, std::int16_t>;
/// A tall register tile: two A panels over one B panel, kTallRows x kColumns. The second panel's rows start at
/// a + a_step and go to c's rows kRows and up.
template <typename TA, typename TB>
using TallTileOf = void (*)(const TA* a, std::int64_t a_step, const TB* b, std::int64_t kp, std::int32_t* c,
                            std::int64_t ldc) noexcept;
/// A layout's tiles for one instruction set: `tile` always, `tall` where the CPU has one (else nullptr). A pass over
/// the rows steps a panel at a time, or two (the tall tile) while more than a panel is left.
template <typename TA, typename TB>
struct TilesOf {
  TileOf<TA, TB> tile;
  TallTileOf<TA, TB> tall;
  /// Whether the step over `rows_left` rows takes two panels.
  bool takes_two(std::int64_t rows_left) const noexcept { return tall != nullptr && rows_left > kRows; }
  /// Rows of that step.
  static std::int64_t step_rows(bool two) noexcept { return two ? kTallRows : kRows; }
  /// One step's kColumns columns: the panel at a (and, with `two`, the one at a + a_step) over the B panel at b.
  void run(bool two, const TA* a, std::int64_t a_step, const TB* b, std::int64_t kp, std::int32_t* c,
           std::int64_t ldc) const noexcept {
    if (two) {
      tall(a, a_step, b, kp, c, ldc);
    } else {
      tile(a, b, kp, c, ldc);
    }
  }
};
using Tiles = TilesOf<std::int16_t, std::int16_t>;

/// Whether code for `isa` may run the AVX2 loops: the session's level is AVX2 or above, or the compiler's baseline is.
constexpr bool runs_avx2(Isa isa) noexcept {
  return ONNXMICRO_BASELINE_ISA >= 2 || isa == Isa::avx2 || isa == Isa::avx512;
}

#if defined(__SSE2__) && (ONNXMICRO_ENABLE_ISA_DISPATCH || defined(__AVX2__))
#define ONNXMICRO_DETAIL_INTEGER_AVX2 1
/// A row's (k, k + 1) pair in every 32-bit lane, read one pair at a time so that it compiles to a broadcast from
/// memory (reading the four pairs at once went through general registers: two extra vector operations per row,
/// on the ports the multiply-adds need; 46 against 73 GMAC/s).
__attribute__((target("avx2"), always_inline)) inline __m256i broadcast_pair_avx2(const std::int16_t* pair) noexcept {
  std::int32_t bits;
  std::memcpy(&bits, pair, sizeof(bits));
  return _mm256_set1_epi32(bits);
}

/// Stores a 4 x 16 tile's accumulators (row r: cr0 columns 0-7, cr1 columns 8-15) at c, rows ldc apart.
__attribute__((target("avx2"), always_inline)) inline void store_tile_avx2(std::int32_t* c, std::int64_t ldc,
                                                                           __m256i c00, __m256i c01, __m256i c10,
                                                                           __m256i c11, __m256i c20, __m256i c21,
                                                                           __m256i c30, __m256i c31) noexcept {
  const __m256i rows[kRows][2] = {{c00, c01}, {c10, c11}, {c20, c21}, {c30, c31}};
  for (int r = 0; r < kRows; ++r) {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(c + r * ldc), rows[r][0]);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(c + r * ldc + 8), rows[r][1]);
  }
}

/// 4 x 16: each row's pair broadcast from memory, two 256-bit halves of B per depth pair, 8 accumulators.
__attribute__((target("avx2"))) inline void tile_avx2(const std::int16_t* a, const std::int16_t* b, std::int64_t kp,
                                                      std::int32_t* c, std::int64_t ldc) noexcept {
  __m256i c00 = _mm256_setzero_si256(), c01 = c00, c10 = c00, c11 = c00, c20 = c00, c21 = c00, c30 = c00, c31 = c00;
  for (std::int64_t p = 0; p < kp; p += 2) {
    const __m256i b0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b));
    const __m256i b1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b + 16));
    __m256i t = broadcast_pair_avx2(a);
    c00 = _mm256_add_epi32(c00, _mm256_madd_epi16(t, b0));
    c01 = _mm256_add_epi32(c01, _mm256_madd_epi16(t, b1));
    t = broadcast_pair_avx2(a + 2);
    c10 = _mm256_add_epi32(c10, _mm256_madd_epi16(t, b0));
    c11 = _mm256_add_epi32(c11, _mm256_madd_epi16(t, b1));
    t = broadcast_pair_avx2(a + 4);
    c20 = _mm256_add_epi32(c20, _mm256_madd_epi16(t, b0));
    c21 = _mm256_add_epi32(c21, _mm256_madd_epi16(t, b1));
    t = broadcast_pair_avx2(a + 6);
    c30 = _mm256_add_epi32(c30, _mm256_madd_epi16(t, b0));
    c31 = _mm256_add_epi32(c31, _mm256_madd_epi16(t, b1));
    a += 2 * kRows;
    b += 2 * kColumns;
  }
  store_tile_avx2(c, ldc, c00, c01, c10, c11, c20, c21, c30, c31);
}

/// Row r's accumulators of one 32-bit depth step on AVX-512 VNNI: for int16 pairs vpdpwssd (multiply, add the pair,
/// accumulate), for the quad layout's bytes vpdpbusd (B's four unsigned bytes times the row's four signed ones, added
/// and accumulated without saturation).
template <typename TA>
__attribute__((target("avx2,avx512f,avx512vl,avx512vnni"), always_inline)) inline void step_row_vnni(
    const TA* a_step, __m256i b0, __m256i b1, __m256i& left, __m256i& right) noexcept {
  std::int32_t bits;
  std::memcpy(&bits, a_step, sizeof(bits));  // (a broadcast from memory, as broadcast_pair_avx2)
  const __m256i t = _mm256_set1_epi32(bits);
  if constexpr (std::is_same<TA, std::int16_t>::value) {
    left = _mm256_dpwssd_epi32(left, t, b0);
    right = _mm256_dpwssd_epi32(right, t, b1);
  } else {
    left = _mm256_dpbusd_epi32(left, b0, t);
    right = _mm256_dpbusd_epi32(right, b1, t);
  }
}

/// The 4 x 16 VNNI tile over 32-bit depth steps (2 int16 pairs' values or 4 quad bytes per row): named accumulators
/// (an array made GCC 12 copy them between registers every step) and 256-bit vectors (CPUs that split 512-bit
/// operations in two, AMD's, ran a 512-bit tile slower).
template <typename TA, typename TB>
__attribute__((target("avx2,avx512f,avx512vl,avx512vnni"), always_inline)) inline void tile_vnni(
    const TA* a, const TB* b, std::int64_t kp, std::int32_t* c, std::int64_t ldc) noexcept {
  constexpr std::int64_t kStep = 4 / sizeof(TA);  // depth values per 32-bit word
  __m256i c00 = _mm256_setzero_si256(), c01 = c00, c10 = c00, c11 = c00, c20 = c00, c21 = c00, c30 = c00, c31 = c00;
  const __m256i* bv = reinterpret_cast<const __m256i*>(b);
  for (std::int64_t p = 0; p < kp; p += kStep, a += kStep * kRows, bv += 2) {
    const __m256i b0 = _mm256_loadu_si256(bv), b1 = _mm256_loadu_si256(bv + 1);
    step_row_vnni(a, b0, b1, c00, c01);
    step_row_vnni(a + kStep, b0, b1, c10, c11);
    step_row_vnni(a + 2 * kStep, b0, b1, c20, c21);
    step_row_vnni(a + 3 * kStep, b0, b1, c30, c31);
  }
  store_tile_avx2(c, ldc, c00, c01, c10, c11, c20, c21, c30, c31);
}

/// The tall VNNI tile (TallTileOf): two A panels over one B panel, 16 accumulators. B is read half as often per
/// multiply-add as in tile_vnni, and 16 independent sums hide vpdpbusd's latency, where tile_vnni's 8 left the
/// multiply-add ports idle. Quad layout, one core, B from L2: 170 -> 215 GMAC/s.
template <typename TA, typename TB>
__attribute__((target("avx2,avx512f,avx512vl,avx512vnni"), always_inline)) inline void tall_tile_vnni(
    const TA* a, std::int64_t a_step, const TB* b, std::int64_t kp, std::int32_t* c, std::int64_t ldc) noexcept {
  constexpr std::int64_t kStep = 4 / sizeof(TA);
  __m256i c00 = _mm256_setzero_si256(), c01 = c00, c10 = c00, c11 = c00, c20 = c00, c21 = c00, c30 = c00, c31 = c00;
  __m256i c40 = c00, c41 = c00, c50 = c00, c51 = c00, c60 = c00, c61 = c00, c70 = c00, c71 = c00;
  const __m256i* bv = reinterpret_cast<const __m256i*>(b);
  const TA* a2 = a + a_step;
  for (std::int64_t p = 0; p < kp; p += kStep, a += kStep * kRows, a2 += kStep * kRows, bv += 2) {
    const __m256i b0 = _mm256_loadu_si256(bv), b1 = _mm256_loadu_si256(bv + 1);
    step_row_vnni(a, b0, b1, c00, c01);
    step_row_vnni(a + kStep, b0, b1, c10, c11);
    step_row_vnni(a + 2 * kStep, b0, b1, c20, c21);
    step_row_vnni(a + 3 * kStep, b0, b1, c30, c31);
    step_row_vnni(a2, b0, b1, c40, c41);
    step_row_vnni(a2 + kStep, b0, b1, c50, c51);
    step_row_vnni(a2 + 2 * kStep, b0, b1, c60, c61);
    step_row_vnni(a2 + 3 * kStep, b0, b1, c70, c71);
  }
  store_tile_avx2(c, ldc, c00, c01, c10, c11, c20, c21, c30, c31);
  store_tile_avx2(c + kRows * ldc, ldc, c40, c41, c50, c51, c60, c61, c70, c71);
}

/// tall_tile_vnni on int16 pairs (vpdpwssd).
__attribute__((target("avx2,avx512f,avx512vl,avx512vnni"))) inline void tall_tile_avx512_vnni(
    const std::int16_t* a, std::int64_t a_step, const std::int16_t* b, std::int64_t kp, std::int32_t* c,
    std::int64_t ldc) noexcept {
  tall_tile_vnni(a, a_step, b, kp, c, ldc);
}

/// 4 x 16 int16 pairs on AVX-512 VNNI: tile_avx2's vpaddd beside every vpmaddwd competed for the vector ports (about
/// 60% of the multiply-add peak); vpdpwssd does both. Same layout and wrapping sums, so the bits are tile_avx2's.
__attribute__((target("avx2,avx512f,avx512vl,avx512vnni"))) inline void tile_avx512_vnni(
    const std::int16_t* a, const std::int16_t* b, std::int64_t kp, std::int32_t* c, std::int64_t ldc) noexcept {
  tile_vnni(a, b, kp, c, ldc);
}

/// 4 x 16 on the quad layout (see pack_a_quads): twice tile_avx512_vnni's multiply-adds per instruction, and B
/// packed as bytes, half the int16 pairs' traffic.
__attribute__((target("avx2,avx512f,avx512vl,avx512vnni"))) inline void quad_tile_avx512_vnni(
    const std::int8_t* a, const std::uint8_t* b, std::int64_t kq, std::int32_t* c, std::int64_t ldc) noexcept {
  tile_vnni(a, b, kq, c, ldc);
}

/// tall_tile_vnni on the quad layout (vpdpbusd).
__attribute__((target("avx2,avx512f,avx512vl,avx512vnni"))) inline void quad_tall_tile_avx512_vnni(
    const std::int8_t* a, std::int64_t a_step, const std::uint8_t* b, std::int64_t kq, std::int32_t* c,
    std::int64_t ldc) noexcept {
  tall_tile_vnni(a, a_step, b, kq, c, ldc);
}

/// Column 0's depth quads p and p + 4 of a quad-layout B panel, in the low and high four 32-bit lanes.
__attribute__((target("avx2"), always_inline)) inline __m256i column_quads_avx2(const std::uint8_t* b,
                                                                                std::int64_t p) noexcept {
  std::int32_t low, high;
  std::memcpy(&low, b + p * kColumns, 4);
  std::memcpy(&high, b + (p + 4) * kColumns, 4);
  return _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_set1_epi32(low)), _mm_set1_epi32(high), 1);
}

/// Column 0 of the quad layout's 4 x 16 tile only (c[r * ldc] for r < kRows), a matrix-vector product (a
/// classifier at batch 1): one vpdpbusd takes two depth quads of all four rows against the column's two quads, so
/// the time is that of reading A, half the int16 pairs' bytes.
__attribute__((target("avx2,avx512f,avx512vl,avx512vnni"))) inline void quad_column_tile_avx512_vnni(
    const std::int8_t* a, const std::uint8_t* b, std::int64_t kq, std::int32_t* c, std::int64_t ldc) noexcept {
  __m256i even = _mm256_setzero_si256(), odd = even;  // two sums in flight
  std::int64_t p = 0;
  for (; p + 16 <= kq; p += 16) {  // A: [quad p rows 0-3][quad p + 4 rows 0-3] per vector
    const __m256i* av = reinterpret_cast<const __m256i*>(a + p * kRows);
    even = _mm256_dpbusd_epi32(even, column_quads_avx2(b, p), _mm256_loadu_si256(av));
    odd = _mm256_dpbusd_epi32(odd, column_quads_avx2(b, p + 8), _mm256_loadu_si256(av + 1));
  }
  even = _mm256_add_epi32(even, odd);
  __m128i sums = _mm_add_epi32(_mm256_castsi256_si128(even), _mm256_extracti128_si256(even, 1));
  for (; p < kq; p += 4) {  // up to three quads left, one at a time
    std::int32_t quad;
    std::memcpy(&quad, b + p * kColumns, 4);
    sums =
        _mm_dpbusd_epi32(sums, _mm_set1_epi32(quad), _mm_loadu_si128(reinterpret_cast<const __m128i*>(a + p * kRows)));
  }
  alignas(16) std::int32_t rows[kRows];
  _mm_store_si128(reinterpret_cast<__m128i*>(rows), sums);
  for (int r = 0; r < kRows; ++r) c[r * ldc] = rows[r];
}

/// Column 0's depth pair (p, p + 1) of a packed B panel (p even), as one 32-bit word.
inline std::int32_t column_pair(const std::int16_t* b, std::int64_t p) noexcept {
  std::int32_t bits;
  std::memcpy(&bits, b + p * kColumns, sizeof(bits));
  return bits;
}

/// Column 0's pair p in the low four 32-bit lanes, its pair p + 2 in the high four.
__attribute__((target("avx2"), always_inline)) inline __m256i column_pairs_avx2(const std::int16_t* b,
                                                                                std::int64_t p) noexcept {
  return _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_set1_epi32(column_pair(b, p))),
                                 _mm_set1_epi32(column_pair(b, p + 2)), 1);
}

/// Column 0 of a 4 x 16 tile only (c[r * ldc] for r < kRows): a matrix-vector product, such as a classifier's last
/// layer at batch 1. A full tile spends 16 columns' multiply-adds on it; here one vpmaddwd takes two depth pairs of
/// all four rows against the column's two pairs, so the time is that of reading A.
__attribute__((target("avx2"))) inline void column_tile_avx2(const std::int16_t* a, const std::int16_t* b,
                                                             std::int64_t kp, std::int32_t* c,
                                                             std::int64_t ldc) noexcept {
  __m256i even = _mm256_setzero_si256(), odd = even;  // two sums in flight
  std::int64_t p = 0;
  for (; p + 8 <= kp; p += 8) {  // A: [pair p rows 0-3][pair p + 2 rows 0-3] per vector
    const __m256i* av = reinterpret_cast<const __m256i*>(a + p * kRows);
    even = _mm256_add_epi32(even, _mm256_madd_epi16(_mm256_loadu_si256(av), column_pairs_avx2(b, p)));
    odd = _mm256_add_epi32(odd, _mm256_madd_epi16(_mm256_loadu_si256(av + 1), column_pairs_avx2(b, p + 4)));
  }
  even = _mm256_add_epi32(even, odd);
  __m128i sums = _mm_add_epi32(_mm256_castsi256_si128(even), _mm256_extracti128_si256(even, 1));
  for (; p < kp; p += 2) {  // up to three pairs left, one at a time
    const __m128i av = _mm_loadu_si128(reinterpret_cast<const __m128i*>(a + p * kRows));
    sums = _mm_add_epi32(sums, _mm_madd_epi16(av, _mm_set1_epi32(column_pair(b, p))));
  }
  alignas(16) std::int32_t rows[kRows];
  _mm_store_si128(reinterpret_cast<__m128i*>(rows), sums);
  for (int r = 0; r < kRows; ++r) c[r * ldc] = rows[r];
}

#else
#define ONNXMICRO_DETAIL_INTEGER_AVX2 0
#endif

/// The tile of the compile-time baseline: SSE2 (a 16-column panel as two 4 x 8 tiles), NEON 4 x 8, or scalar.
inline void tile_baseline(const std::int16_t* a, const std::int16_t* b, std::int64_t kp, std::int32_t* c,
                          std::int64_t ldc) noexcept {
#if defined(__SSE2__)
  for (std::int64_t half = 0; half < kColumns; half += 8) {
    __m128i c00 = _mm_setzero_si128(), c01 = c00, c10 = c00, c11 = c00, c20 = c00, c21 = c00, c30 = c00, c31 = c00;
    const std::int16_t* ap = a;
    const std::int16_t* bp = b + 2 * half;
    // Row by row, each pair broadcast just before its two multiply-adds: 8 accumulators, the 4 pairs, 2 B vectors
    // and a temporary fit the 16 SSE registers without spills.
    for (std::int64_t p = 0; p < kp; p += 2) {
      const __m128i b0 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(bp));
      const __m128i b1 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(bp + 8));
      const __m128i pairs = _mm_loadu_si128(reinterpret_cast<const __m128i*>(ap));
      __m128i t = _mm_shuffle_epi32(pairs, 0x00);
      c00 = _mm_add_epi32(c00, _mm_madd_epi16(t, b0));
      c01 = _mm_add_epi32(c01, _mm_madd_epi16(t, b1));
      t = _mm_shuffle_epi32(pairs, 0x55);
      c10 = _mm_add_epi32(c10, _mm_madd_epi16(t, b0));
      c11 = _mm_add_epi32(c11, _mm_madd_epi16(t, b1));
      t = _mm_shuffle_epi32(pairs, 0xAA);
      c20 = _mm_add_epi32(c20, _mm_madd_epi16(t, b0));
      c21 = _mm_add_epi32(c21, _mm_madd_epi16(t, b1));
      t = _mm_shuffle_epi32(pairs, 0xFF);
      c30 = _mm_add_epi32(c30, _mm_madd_epi16(t, b0));
      c31 = _mm_add_epi32(c31, _mm_madd_epi16(t, b1));
      ap += 2 * kRows;
      bp += 2 * kColumns;
    }
    _mm_storeu_si128(reinterpret_cast<__m128i*>(c + 0 * ldc + half), c00);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(c + 0 * ldc + half + 4), c01);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(c + 1 * ldc + half), c10);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(c + 1 * ldc + half + 4), c11);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(c + 2 * ldc + half), c20);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(c + 2 * ldc + half + 4), c21);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(c + 3 * ldc + half), c30);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(c + 3 * ldc + half + 4), c31);
  }
#elif defined(__ARM_NEON)
  int32x4_t c00 = vdupq_n_s32(0), c01 = c00, c10 = c00, c11 = c00, c20 = c00, c21 = c00, c30 = c00, c31 = c00;
  for (std::int64_t p = 0; p < kp; p += 2) {
    const int16x4x2_t av = vld2_s16(a);   // val[0]: rows 0..3 at k, val[1]: at k + 1
    const int16x8x2_t bv = vld2q_s16(b);  // val[0]: columns 0..7 at k, val[1]: at k + 1
    for (int h = 0; h < 2; ++h) {
      const int16x4_t blo = vget_low_s16(bv.val[h]);
      const int16x4_t bhi = vget_high_s16(bv.val[h]);
      const int16x4_t ak = av.val[h];
      c00 = vmlal_lane_s16(c00, blo, ak, 0);
      c01 = vmlal_lane_s16(c01, bhi, ak, 0);
      c10 = vmlal_lane_s16(c10, blo, ak, 1);
      c11 = vmlal_lane_s16(c11, bhi, ak, 1);
      c20 = vmlal_lane_s16(c20, blo, ak, 2);
      c21 = vmlal_lane_s16(c21, bhi, ak, 2);
      c30 = vmlal_lane_s16(c30, blo, ak, 3);
      c31 = vmlal_lane_s16(c31, bhi, ak, 3);
    }
    a += 2 * kRows;
    b += 2 * kColumns;
  }
  vst1q_s32(c + 0 * ldc, c00);
  vst1q_s32(c + 0 * ldc + 4, c01);
  vst1q_s32(c + 1 * ldc, c10);
  vst1q_s32(c + 1 * ldc + 4, c11);
  vst1q_s32(c + 2 * ldc, c20);
  vst1q_s32(c + 2 * ldc + 4, c21);
  vst1q_s32(c + 3 * ldc, c30);
  vst1q_s32(c + 3 * ldc + 4, c31);
#else
  // Portable: unsigned accumulation wraps without undefined behaviour; each pair's sum fits in int32.
  std::uint32_t sum[kRows][kColumns] = {};
  for (std::int64_t p = 0; p < kp; p += 2) {
    for (int r = 0; r < kRows; ++r) {
      const std::int32_t a0 = a[2 * r], a1 = a[2 * r + 1];
      for (int j = 0; j < kColumns; ++j) {
        sum[r][j] += static_cast<std::uint32_t>(a0 * b[2 * j] + a1 * b[2 * j + 1]);
      }
    }
    a += 2 * kRows;
    b += 2 * kColumns;
  }
  for (int r = 0; r < kRows; ++r)
    for (int j = 0; j < kColumns; ++j) c[r * ldc + j] = static_cast<std::int32_t>(sum[r][j]);
#endif
}

/// The tile for the session's instruction set `isa`: AVX-512 with VNNI tile_avx512_vnni, else AVX2 and up tile_avx2
/// (the layouts are the same).
inline TileFunction tile_for(Isa isa) noexcept {
#if ONNXMICRO_DETAIL_INTEGER_AVX2
  if (isa == Isa::avx512 && detected_avx512_vnni()) return &tile_avx512_vnni;
  if (runs_avx2(isa)) return &tile_avx2;
#endif
  static_cast<void>(isa);
  return &tile_baseline;
}

/// The tile for products of n columns: column_tile_avx2 for one column on AVX2 and up (it fills column 0 only),
/// else tile_for(isa).
inline TileFunction tile_for_columns(Isa isa, std::int64_t n) noexcept {
#if ONNXMICRO_DETAIL_INTEGER_AVX2
  if (n == 1 && runs_avx2(isa)) return &column_tile_avx2;
#endif
  static_cast<void>(n);
  return tile_for(isa);
}

/// The tall tile for `isa`: tall_tile_avx512_vnni at the avx512 level on a CPU with AVX-512 VNNI, else nullptr (AVX2
/// has 16 vector registers, too few for 16 sums).
inline TallTileOf<std::int16_t, std::int16_t> tall_tile_for(Isa isa) noexcept {
#if ONNXMICRO_DETAIL_INTEGER_AVX2
  if (isa == Isa::avx512 && detected_avx512_vnni()) return &tall_tile_avx512_vnni;
#endif
  static_cast<void>(isa);
  return nullptr;
}

/// The tiles for products of n columns on `isa`: tile_for_columns, and the tall tile unless n is one column.
inline Tiles tiles_for_columns(Isa isa, std::int64_t n) noexcept {
  return Tiles{tile_for_columns(isa, n), n == 1 ? nullptr : tall_tile_for(isa)};
}

/// C = A * B for packed A (m rows) and packed B (n columns) of packed depth kp (packed_depth(K)), on the tiles of
/// `isa`. For every register tile calls epilogue(row, column, rows, columns, acc): rows x columns (at most kRows x
/// kColumns) valid values acc[r][c] = C(row + r, column + c).
template <typename Epilogue>
inline void multiply(Isa isa, const std::int16_t* a, std::int64_t m, const std::int16_t* b, std::int64_t n,
                     std::int64_t kp, Epilogue&& epilogue) noexcept {
  // One row panel of A stays in L1 while it passes over the B tile (kept in L2 by the callers' tile sizes).
  const TileFunction tile = tile_for_columns(isa, n);
  std::int32_t acc[kRows][kColumns];
  for (std::int64_t i0 = 0; i0 < m; i0 += kRows) {
    const std::int16_t* a_panel = a + i0 * kp;
    const std::int64_t rows = m - i0 < kRows ? m - i0 : kRows;
    for (std::int64_t j0 = 0; j0 < n; j0 += kColumns) {
      tile(a_panel, b + j0 * kp, kp, &acc[0][0], kColumns);
      epilogue(i0, j0, rows, n - j0 < kColumns ? n - j0 : kColumns, acc);
    }
  }
}

/// multiply_rows() on the register tiles `tiles`, for either packed layout (kp: its packed depth): two panels at a
/// time on the tall tile where there is one and more than a panel of rows is left.
template <typename TA, typename TB, typename Epilogue>
inline void multiply_rows_on(TilesOf<TA, TB> tiles, const TA* a, std::int64_t m, const TB* b, std::int64_t n,
                             std::int64_t kp, std::int32_t* rows, Epilogue&& epilogue) noexcept {
  const std::int64_t ldc = round_up(n, kColumns);
  for (std::int64_t i0 = 0; i0 < m;) {
    const TA* a_panel = a + i0 * kp;
    const bool two = tiles.takes_two(m - i0);
    for (std::int64_t j0 = 0; j0 < n; j0 += kColumns)
      tiles.run(two, a_panel, kRows * kp, b + j0 * kp, kp, rows + j0, ldc);
    const std::int64_t panel_rows = tiles.step_rows(two);
    epilogue(i0, m - i0 < panel_rows ? m - i0 : panel_rows, static_cast<const std::int32_t*>(rows), ldc);
    i0 += panel_rows;
  }
}

/// multiply() for epilogues that take whole rows: the register tiles of one or two row panels go into `rows`
/// (kTallRows rows of round_up(n, kColumns) int32), then epilogue(row, count, rows, ldc) gets their `count` (at most
/// kTallRows) rows of n values, row r at rows + r * ldc. Costs per-tile work (a requantisation's setup) once per row
/// of n values.
template <typename Epilogue>
inline void multiply_rows(Isa isa, const std::int16_t* a, std::int64_t m, const std::int16_t* b, std::int64_t n,
                          std::int64_t kp, std::int32_t* rows, Epilogue&& epilogue) noexcept {
  multiply_rows_on(tiles_for_columns(isa, n), a, m, b, n, kp, rows, epilogue);
}

// ---- the quad layout: 8-bit operands as they are, four depth values per 32-bit lane (AVX-512 VNNI's vpdpbusd) ----
// For int8 weights whose zero point is 0 (what onnxruntime's quantizer writes for weights): A holds w itself and B
// the activations as unsigned bytes (int8 ones with the sign bit flipped: x + 128, and x_zero + 128), so
//   sum_k w (x - x_zero) = sum_k w x - x_zero * sum_k w,
// the last term from row sums made when A is packed. Both sides are exact modulo 2^32, as the int16 pairs' sums
// are, so the results are the same bits.
//  - A in panels of kRows rows; for each depth quad (k, ..., k + 3), each row's four bytes: [r0k0..r0k3 r1k0 ... r3k3].
//  - B in panels of kColumns columns; for each depth quad, [c0k0..c0k3 c1k0 ... c15k3] (64 bytes).
// A is zero past K, so B's bytes there may be anything (the packers write zeros).

/// Depth of the quad layout: K rounded up to a quad.
constexpr std::int64_t packed_quad_depth(std::int64_t k) noexcept { return round_up(k, 4); }
/// Bytes of an m x k A in the quad layout (and of B: packed_quad_depth(k) * round_up(n, kColumns)).
constexpr std::int64_t packed_a_quads_size(std::int64_t m, std::int64_t k) noexcept {
  return round_up(m, kRows) * packed_quad_depth(k);
}

/// Whether `isa` runs the quad tiles: the avx512 level on a CPU with AVX-512 VNNI (elsewhere the int16 pairs are
/// faster than quad_tile_portable).
inline bool quad_tiles_run(Isa isa) noexcept {
#if ONNXMICRO_DETAIL_INTEGER_AVX2
  return isa == Isa::avx512 && detected_avx512_vnni();
#else
  return static_cast<void>(isa), false;
#endif
}

/// Packs A(i, p) = src[i * row_stride + p * depth_stride] (m x k, int8, zero point 0) in the quad layout;
/// row_sums[i] = the sum of row i.
inline void pack_a_quads(const std::int8_t* src, std::int64_t row_stride, std::int64_t depth_stride, std::int64_t m,
                         std::int64_t k, std::int8_t* dst, std::int32_t* row_sums) noexcept {
  const std::int64_t kq = packed_quad_depth(k);
  for (std::int64_t i0 = 0; i0 < m; i0 += kRows) {
    std::int8_t* panel = dst + i0 * kq;
    for (std::int64_t r = 0; r < kRows; ++r) {
      const std::int64_t i = i0 + r;
      std::int32_t sum = 0;  // |sum| <= 128 k
      for (std::int64_t p = 0; p < kq; ++p) {
        const std::int8_t v = i < m && p < k ? src[i * row_stride + p * depth_stride] : std::int8_t(0);
        panel[((p / 4) * kRows + r) * 4 + (p & 3)] = v;
        sum += v;
      }
      if (i < m) row_sums[i] = sum;
    }
  }
}

/// Sign-bit flip that turns T's bytes into the quad layout's unsigned ones (x + 128 for int8).
template <typename T>
constexpr std::uint8_t quad_flip() noexcept {
  return std::numeric_limits<T>::is_signed ? 0x80 : 0;
}

/// One depth quad of a B panel in the quad layout: `cols` (at most kColumns) bytes of rows[0..3] (nullptr: zeros), each
/// xor `flip`, interleaved four by four into `out`, zeros past them.
inline void pack_quad(const std::uint8_t* const rows[4], std::uint8_t flip, std::int64_t cols,
                      std::uint8_t* out) noexcept {
#if defined(__SSE2__)
  if (cols == kColumns) {  // a 4 x 16 byte transpose: two rounds of interleaving
    const __m128i f = _mm_set1_epi8(static_cast<char>(flip));
    auto load = [&f](const std::uint8_t* row) {
      return row ? _mm_xor_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(row)), f) : _mm_setzero_si128();
    };
    const __m128i r0 = load(rows[0]), r1 = load(rows[1]), r2 = load(rows[2]), r3 = load(rows[3]);
    const __m128i low01 = _mm_unpacklo_epi8(r0, r1), high01 = _mm_unpackhi_epi8(r0, r1);
    const __m128i low23 = _mm_unpacklo_epi8(r2, r3), high23 = _mm_unpackhi_epi8(r2, r3);
    __m128i* o = reinterpret_cast<__m128i*>(out);
    _mm_storeu_si128(o, _mm_unpacklo_epi16(low01, low23));
    _mm_storeu_si128(o + 1, _mm_unpackhi_epi16(low01, low23));
    _mm_storeu_si128(o + 2, _mm_unpacklo_epi16(high01, high23));
    _mm_storeu_si128(o + 3, _mm_unpackhi_epi16(high01, high23));
    return;
  }
#endif
  for (std::int64_t c = 0; c < kColumns; ++c) {
    for (std::int64_t q = 0; q < 4; ++q) {
      out[c * 4 + q] = c < cols && rows[q] ? static_cast<std::uint8_t>(rows[q][c] ^ flip) : std::uint8_t(0);
    }
  }
}

/// Packs B from a dense row-major int8/uint8 matrix (k rows of n values, row stride ld) in the quad layout, int8
/// values with their sign bit flipped (pointwise convolutions read their input this way).
template <typename T>
inline void pack_b_rows_quads(const T* src, std::int64_t ld, std::int64_t k, std::int64_t n,
                              std::uint8_t* dst) noexcept {
  const std::int64_t kq = packed_quad_depth(k);
  const std::uint8_t* bytes = reinterpret_cast<const std::uint8_t*>(src);  // (int8's bits, flipped below)
  for (std::int64_t j0 = 0; j0 < n; j0 += kColumns) {
    const std::int64_t cols = n - j0 < kColumns ? n - j0 : kColumns;
    for (std::int64_t p = 0; p < kq; p += 4) {
      const std::uint8_t* rows[4];
      for (std::int64_t q = 0; q < 4; ++q) rows[q] = p + q < k ? bytes + (p + q) * ld + j0 : nullptr;
      pack_quad(rows, quad_flip<T>(), cols, dst + j0 * kq + p * kColumns);
    }
  }
}

/// Packs B(p, j) = src[j * column_stride + p] (each column's depth contiguous: the rows of a row-major activation
/// matrix, as QGemm reads them) in the quad layout, int8 values with their sign bit flipped.
template <typename T>
inline void pack_b_columns_quads(const T* src, std::int64_t column_stride, std::int64_t k, std::int64_t n,
                                 std::uint8_t* dst) noexcept {
  const std::int64_t kq = packed_quad_depth(k);
  const std::uint32_t flip = quad_flip<T>() * 0x01010101u;
  const std::uint8_t* bytes = reinterpret_cast<const std::uint8_t*>(src);  // (int8's bits, flipped below)
  for (std::int64_t j0 = 0; j0 < n; j0 += kColumns) {
    std::uint8_t* panel = dst + j0 * kq;
    for (std::int64_t c = 0; c < kColumns; ++c) {
      const std::uint8_t* column = j0 + c < n ? bytes + (j0 + c) * column_stride : nullptr;
      for (std::int64_t p = 0; p < kq; p += 4) {
        std::uint32_t quad = 0;  // zeros past the depth and past the last column
        if (column != nullptr && p + 4 <= k) {
          std::memcpy(&quad, column + p, 4);
          quad ^= flip;
        } else if (column != nullptr) {
          std::uint8_t part[4] = {0, 0, 0, 0};
          for (std::int64_t q = 0; p + q < k; ++q) part[q] = static_cast<std::uint8_t>(column[p + q] ^ quad_flip<T>());
          std::memcpy(&quad, part, 4);
        }
        std::memcpy(panel + p * kColumns + c * 4, &quad, 4);
      }
    }
  }
}

/// Packs B(p, j) = base[row_offsets[p] + j] for p < k and j < round_up(n, kColumns) in the quad layout, bytes
/// already in its form: the grid's windows (pack_b_offsets). Whole panels are read, as there.
inline void pack_b_offsets_quads(const std::uint8_t* base, const std::int32_t* row_offsets, std::int64_t k,
                                 std::int64_t n, std::uint8_t* dst) noexcept {
  const std::int64_t kq = packed_quad_depth(k);
  for (std::int64_t p = 0; p < kq; p += 4) {
    const std::uint8_t* rows[4];
    for (std::int64_t q = 0; q < 4; ++q) rows[q] = p + q < k ? base + row_offsets[p + q] : nullptr;
    for (std::int64_t j0 = 0; j0 < n; j0 += kColumns) {
      const std::uint8_t* shifted[4];
      for (std::int64_t q = 0; q < 4; ++q) shifted[q] = rows[q] ? rows[q] + j0 : nullptr;
      pack_quad(shifted, 0, kColumns, dst + j0 * kq + p * kColumns);
    }
  }
}

/// widen_phase for the quad layout: out[i] = line[i * stride + shift] as its unsigned byte (quad_flip) inside [0,
/// width), else `pad` (the zero point's byte), for i < count.
template <typename T>
inline void copy_phase_bytes(const T* line, std::int64_t width, std::int64_t shift, std::int64_t stride,
                             std::uint8_t pad, std::int64_t count, std::uint8_t* out) noexcept {
  std::int64_t lo = 0, hi = 0;
  phase_inside(line != nullptr, width, shift, stride, count, lo, hi);
  std::memset(out, pad, static_cast<std::size_t>(lo));
  if (hi > lo) {
    const std::uint8_t* first = reinterpret_cast<const std::uint8_t*>(line + lo * stride + shift);
    byte_rows::copy_flipped(first, hi - lo, stride, quad_flip<T>(), out + lo);
  }
  std::memset(out + hi, pad, static_cast<std::size_t>(count - hi));
}

/// The quad layout's 4 x 16 tile in portable code (the reference the vector tile is tested against).
inline void quad_tile_portable(const std::int8_t* a, const std::uint8_t* b, std::int64_t kq, std::int32_t* c,
                               std::int64_t ldc) noexcept {
  std::uint32_t sum[kRows][kColumns] = {};  // unsigned: wraps without undefined behaviour
  for (std::int64_t p = 0; p < kq; p += 4, a += 4 * kRows, b += 4 * kColumns) {
    for (int r = 0; r < kRows; ++r) {
      for (int j = 0; j < kColumns; ++j) {
        std::int32_t four = 0;
        for (int q = 0; q < 4; ++q) four += a[4 * r + q] * b[4 * j + q];
        sum[r][j] += static_cast<std::uint32_t>(four);
      }
    }
  }
  for (int r = 0; r < kRows; ++r)
    for (int j = 0; j < kColumns; ++j) c[r * ldc + j] = static_cast<std::int32_t>(sum[r][j]);
}

/// The quad layout's tiles for products of n columns on `isa`: where quad_tiles_run(isa), quad_tile_avx512_vnni and
/// its tall twin, or quad_column_tile_avx512_vnni alone for one column; else the portable tile alone.
inline TilesOf<std::int8_t, std::uint8_t> quad_tiles_for_columns(Isa isa, std::int64_t n) noexcept {
#if ONNXMICRO_DETAIL_INTEGER_AVX2
  if (quad_tiles_run(isa) && n == 1) return {&quad_column_tile_avx512_vnni, nullptr};
  if (quad_tiles_run(isa)) return {&quad_tile_avx512_vnni, &quad_tall_tile_avx512_vnni};
#endif
  static_cast<void>(isa), static_cast<void>(n);
  return {&quad_tile_portable, nullptr};
}

/// multiply_rows() on the quad layout (kq = packed_quad_depth(K)): the raw sums sum_k w x, without the zero point's
/// term.
template <typename Epilogue>
inline void multiply_rows_quads(Isa isa, const std::int8_t* a, std::int64_t m, const std::uint8_t* b, std::int64_t n,
                                std::int64_t kq, std::int32_t* rows, Epilogue&& epilogue) noexcept {
  multiply_rows_on(quad_tiles_for_columns(isa, n), a, m, b, n, kq, rows, epilogue);
}

/// acc[i] += in[i] * w for i < count (wrapping int32; the depthwise convolution's inner loop).
inline void multiply_add_row(std::int32_t* acc, const std::int16_t* in, std::int64_t count, std::int16_t w) noexcept {
  std::int64_t i = 0;
#if defined(__SSE2__)
  const __m128i wv = _mm_set1_epi16(w);
  for (; i + 8 <= count; i += 8) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + i));
    const __m128i lo = _mm_mullo_epi16(v, wv);  // low and high halves of the exact 32-bit products
    const __m128i hi = _mm_mulhi_epi16(v, wv);
    __m128i* a = reinterpret_cast<__m128i*>(acc + i);
    _mm_storeu_si128(a, _mm_add_epi32(_mm_loadu_si128(a), _mm_unpacklo_epi16(lo, hi)));
    _mm_storeu_si128(a + 1, _mm_add_epi32(_mm_loadu_si128(a + 1), _mm_unpackhi_epi16(lo, hi)));
  }
#endif
  for (; i < count; ++i) {
    acc[i] = static_cast<std::int32_t>(static_cast<std::uint32_t>(acc[i]) +
                                       static_cast<std::uint32_t>(static_cast<std::int32_t>(in[i]) * w));
  }
}

/// Matrix products whose activation operand is read through strides (QLinearMatMul, QGemm): C = W * X for
/// packed weights W (w_rows rows, depth k) and X(p, j) = x[p * depth_stride + j * column_stride] - x_zero,
/// j < columns. X is packed `tile` columns at a time into `packed` (packed_b_size(k, tile) elements); every
/// register tile goes to epilogue(row, column, rows, columns, acc) with column counted from 0.
template <typename T, typename Epilogue>
inline void multiply_strided(Isa isa, const std::int16_t* weights, std::int64_t w_rows, const T* x,
                             std::int64_t depth_stride, std::int64_t column_stride, std::int64_t k,
                             std::int64_t columns, int x_zero, std::int64_t tile, std::int16_t* packed,
                             Epilogue&& epilogue) noexcept {
  const std::int64_t kp = packed_depth(k);
  for (std::int64_t first = 0; first < columns; first += tile) {
    const std::int64_t count = columns - first < tile ? columns - first : tile;
    pack_b_strided(x + first * column_stride, depth_stride, column_stride, k, count, x_zero, packed);
    multiply(isa, weights, w_rows, packed, count, kp,
             [&](std::int64_t row, std::int64_t column, std::int64_t rows, std::int64_t cols,
                 const std::int32_t(*acc)[kColumns]) { epilogue(row, first + column, rows, cols, acc); });
  }
}

/// GEMM columns per activation tile for depth k: packed tiles of about 32 KiB, at least one register tile,
/// at most all `columns`.
inline std::int64_t activation_tile(std::int64_t k, std::int64_t columns) noexcept {
  std::int64_t tile = 16 * 1024 / packed_depth(k) / kColumns * kColumns;
  if (tile < kColumns) tile = kColumns;
  const std::int64_t all = round_up(columns, kColumns);
  return tile < all ? tile : all;
}

// ---- shared by the kernels built on the core -------------------------------------------------------------------

/// Scratch laid out as 16-byte aligned blocks one after another: reserve() hands out a block's byte offset,
/// `bytes` is the total to request.
struct ScratchLayout {
  std::size_t bytes = 0;
  std::size_t reserve(std::size_t size) noexcept {
    const std::size_t at = bytes;
    bytes += (size + 15) / 16 * 16;
    return at;
  }
};

/// pick(TA{}, TB{}) for the element types of `a` and `b`, each int8 or uint8: the switch over the instantiations
/// of a kernel's compute function.
template <typename Pick>
inline auto pick_8bit(DataType a, DataType b, Pick&& pick) noexcept {
  if (a == DataType::int8) {
    return b == DataType::int8 ? pick(std::int8_t{}, std::int8_t{}) : pick(std::int8_t{}, std::uint8_t{});
  }
  return b == DataType::int8 ? pick(std::uint8_t{}, std::int8_t{}) : pick(std::uint8_t{}, std::uint8_t{});
}

/// Whether every input in `inputs` is known at prepare time.
inline bool all_constant(const PrepareContext& ctx, std::initializer_list<int> inputs) noexcept {
  for (int i : inputs) {
    if (!ctx.input(i).is_constant || ctx.input(i).const_data == nullptr) return false;
  }
  return true;
}

/// Whether input `data` and its optional zero point `zero` are both known at prepare time, so weights made of
/// them can be packed once there.
inline bool constant_with_zero_point(const PrepareContext& ctx, int data, int zero) noexcept {
  const TensorInfo& d = ctx.input(data);
  return d.is_constant && d.const_data != nullptr &&
         (!ctx.has_input(zero) || (ctx.input(zero).is_constant && ctx.input(zero).const_data != nullptr));
}

/// Whether input `w` can be packed in the quad layout for `isa`: the level runs quad tiles, and w is an int8
/// constant whose zero point (input `zero`) is absent or constant zeros.
inline bool quad_weights_fit(const PrepareContext& ctx, Isa isa, int w, int zero) noexcept {
  if (!quad_tiles_run(isa) || ctx.input(w).dtype != DataType::int8 || !constant_with_zero_point(ctx, w, zero)) {
    return false;
  }
  if (!ctx.has_input(zero)) return true;
  const TensorInfo& z = ctx.input(zero);
  const std::int8_t* values = static_cast<const std::int8_t*>(z.const_data);
  for (std::int64_t i = 0; i < z.shape.element_count(); ++i) {
    if (values[i] != 0) return false;
  }
  return true;
}

/// Packs `matrices` row-major K x N matrices of B, one after another, as core rows (B's columns: the products
/// run as y^T = B^T A^T), packed_a_size(n, k) elements each. `zero`: B's zero point, N values when
/// `per_column`, else one, or nullptr.
template <typename T>
inline void pack_matrices(const T* b, const T* zero, std::int64_t k, std::int64_t n, std::int64_t matrices,
                          bool per_column, std::int16_t* dst) noexcept {
  const std::int64_t size = packed_a_size(n, k);
  for (std::int64_t i = 0; i < matrices; ++i) {
    pack_a(b + i * k * n, 1, n, n, k, zero, per_column ? 1 : 0, dst + i * size);
  }
}

/// pack_matrices at prepare, into persistent memory: input `b` (int8 or uint8) and its zero point (input `zero`,
/// or absent) must be constant (constant_with_zero_point). `packed` receives the packed matrices.
inline Status pack_constant_matrices(PrepareContext& ctx, int b, int zero, std::int64_t k, std::int64_t n,
                                     std::int64_t matrices, bool per_column, const std::int16_t*& packed) noexcept {
  Span<std::int16_t> dst;
  ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_persistent(static_cast<std::size_t>(matrices * packed_a_size(n, k)), dst));
  const TensorInfo& bi = ctx.input(b);
  const void* z = ctx.has_input(zero) ? ctx.input(zero).const_data : nullptr;
  if (bi.dtype == DataType::int8) {
    pack_matrices(static_cast<const std::int8_t*>(bi.const_data), static_cast<const std::int8_t*>(z), k, n, matrices,
                  per_column, dst.data());
  } else {
    pack_matrices(static_cast<const std::uint8_t*>(bi.const_data), static_cast<const std::uint8_t*>(z), k, n, matrices,
                  per_column, dst.data());
  }
  packed = dst.data();
  return {};
}

/// Calls f(batch, a_offset, b_offset) for every output matrix of `plan` (numpy.matmul's batch broadcasting):
/// the element offsets of its A and B matrices.
template <typename F>
inline void for_each_matrix(const quant_util::MatMulPlan& plan, F&& f) noexcept {
  std::int64_t index[kMaxRank] = {};
  std::int64_t a_offset = 0, b_offset = 0;
  for (std::int64_t batch = 0; batch < plan.batch_count; ++batch) {
    f(batch, a_offset, b_offset);
    for (int axis = plan.batch_rank - 1; axis >= 0; --axis) {  // odometer over the output batch axes
      a_offset += plan.a_batch_stride[axis];
      b_offset += plan.b_batch_stride[axis];
      if (++index[axis] < plan.batch_dims[axis]) break;
      a_offset -= plan.a_batch_stride[axis] * plan.batch_dims[axis];
      b_offset -= plan.b_batch_stride[axis] * plan.batch_dims[axis];
      index[axis] = 0;
    }
  }
}

/// The batched products of MatMulInteger and QLinearMatMul: y^T = B^T (A - a_zero)^T for every output matrix of
/// `plan`, B's matrices as pack_matrices wrote them, A's rows packed `tile` at a time into `packed`. Every
/// register tile goes to store(batch, row, column, rows, columns, acc): `row` counts y's columns, `column` y's
/// rows.
template <typename T, typename Store>
inline void multiply_matrices(Isa isa, const quant_util::MatMulPlan& plan, const std::int16_t* weights, const T* a,
                              int a_zero, std::int64_t tile, std::int16_t* packed, Store&& store) noexcept {
  const std::int64_t m = plan.m, n = plan.n, k = plan.k;
  const std::int64_t matrix_size = packed_a_size(n, k);
  for_each_matrix(plan, [&](std::int64_t batch, std::int64_t a_offset, std::int64_t b_offset) {
    const std::int16_t* w = weights + (k * n == 0 ? 0 : b_offset / (k * n)) * matrix_size;
    multiply_strided(isa, w, n, a + a_offset, 1, k, k, m, a_zero, tile, packed,
                     [&](std::int64_t row, std::int64_t column, std::int64_t rows, std::int64_t cols,
                         const std::int32_t(*acc)[kColumns]) { store(batch, row, column, rows, cols, acc); });
  });
}

// ---- requantisation ----------------------------------------------------------------------------------------

/// How one output channel (or column) turns an int32 sum into the output type: round(sum * real) + zero point,
/// ties to even, as the ONNX reference computes in float64 (`real` is the float32 multiplier widened).
struct Requant {
  fixed_point::FixedPointMultiplier fixed;
  double real = 0.0;
  bool use_fixed = false;   ///< false for multipliers fixed point cannot express (negative, inf, NaN: run-time scales)
  bool use_vector = false;  ///< use_fixed and below 2: a product with |acc| < 2^29 converts to int32 without overflow
};

inline Requant make_requant(double multiplier) noexcept {
  Requant q;
  q.real = multiplier;
  q.use_fixed = multiplier >= 0.0 && multiplier <= 3.4028234663852886e38;  // finite, not negative, not NaN
  q.use_vector = q.use_fixed && multiplier < 2.0;
  if (q.use_fixed) q.fixed = fixed_point::to_fixed_point(multiplier);
  return q;
}

/// The multiplier the ONNX reference computes: float32(float32(x_scale * w_scale) / y_scale).
inline double reference_multiplier(float x_scale, float w_scale, float y_scale) noexcept {
  using quant_util::Precision;
  using quant_util::round_to;
  return round_to(Precision::float32,
                  round_to(Precision::float32, static_cast<double>(x_scale) * w_scale) / static_cast<double>(y_scale));
}

/// clamp(round(acc * q) + zero, low, high). The fixed-point product is exact, and so is the reference's float64
/// product while |acc| < 2^29 (29 + 24 mantissa bits fit in a double); beyond that the reference's own rounded
/// float64 product is reproduced.
inline std::int32_t requantize(std::int32_t acc, const Requant& q, std::int32_t zero, std::int32_t low,
                               std::int32_t high) noexcept {
  constexpr std::int32_t kExactLimit = std::int32_t(1) << 29;
#if defined(__SSE2__)
  // The exact float64 product rounded half to even by cvtsd2si (default rounding mode): as the fixed point does.
  if (q.use_vector && acc < kExactLimit && acc > -kExactLimit) {
    std::int32_t v = _mm_cvtsd_si32(_mm_set_sd(static_cast<double>(acc) * q.real)) + zero;
    return v < low ? low : (v > high ? high : v);
  }
#endif
  if (q.use_fixed && acc < kExactLimit && acc > -kExactLimit) {
    return fixed_point::requantize(acc, q.fixed, zero, low, high);
  }
  return static_cast<std::int32_t>(quant_util::round_and_saturate(static_cast<double>(acc) * q.real, zero, low, high));
}

#if ONNXMICRO_DETAIL_INTEGER_AVX2
/// Stores 8 int32 lanes as T (int8_t or uint8_t), saturated to T's range, at out.
template <typename T>
__attribute__((target("avx2"), always_inline)) inline void store_saturated_avx2(__m256i v, T* out) noexcept {
  const __m128i words = _mm_packs_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
  const __m128i bytes =
      std::numeric_limits<T>::is_signed ? _mm_packs_epi16(words, words) : _mm_packus_epi16(words, words);
  _mm_storel_epi64(reinterpret_cast<__m128i*>(out), bytes);
}

/// Stores 8 rounded products (r0: values 0-3, r1: 4-7; |r| < 2^30, so int16 saturation keeps every value the clamp
/// keeps) plus `zero`, clamped to [lowest, highest], as T.
template <typename T>
__attribute__((target("avx2"), always_inline)) inline void store_requantized_avx2(__m128i r0, __m128i r1, __m128i zero,
                                                                                  __m128i lowest, __m128i highest,
                                                                                  T* out) noexcept {
  __m128i r = _mm_adds_epi16(_mm_packs_epi32(r0, r1), zero);
  r = _mm_min_epi16(_mm_max_epi16(r, lowest), highest);
  const __m128i bytes = std::numeric_limits<T>::is_signed ? _mm_packs_epi16(r, r) : _mm_packus_epi16(r, r);
  _mm_storel_epi64(reinterpret_cast<__m128i*>(out), bytes);
}

/// requantize_row's vector loop on AVX2 (4 float64 lanes per conversion); returns how many values it wrote: it
/// stops before the first block of 8 holding an accumulator beyond 2^29.
template <typename T>
__attribute__((target("avx2"))) inline std::int64_t requantize_avx2(const std::int32_t* acc, std::int64_t count,
                                                                    std::uint32_t bias, const Requant& q,
                                                                    std::int32_t zero, std::int32_t low,
                                                                    std::int32_t high, T* out) noexcept {
  const __m256i b = _mm256_set1_epi32(static_cast<std::int32_t>(bias));
  const __m256i half_range = _mm256_set1_epi32(std::int32_t(1) << 29);
  const __m256d m = _mm256_set1_pd(q.real);
  const __m128i z = _mm_set1_epi16(static_cast<std::int16_t>(zero));
  const __m128i lowest = _mm_set1_epi16(static_cast<std::int16_t>(low));
  const __m128i highest = _mm_set1_epi16(static_cast<std::int16_t>(high));
  std::int64_t done = 0;
  for (; done + 8 <= count; done += 8) {
    const __m256i v = _mm256_add_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(acc + done)), b);
    const __m256i top = _mm256_srli_epi32(_mm256_add_epi32(v, half_range), 30);  // 0 where |v| < 2^29
    if (!_mm256_testz_si256(top, top)) break;
    const __m128i r0 = _mm256_cvtpd_epi32(_mm256_mul_pd(_mm256_cvtepi32_pd(_mm256_castsi256_si128(v)), m));
    const __m128i r1 = _mm256_cvtpd_epi32(_mm256_mul_pd(_mm256_cvtepi32_pd(_mm256_extracti128_si256(v, 1)), m));
    store_requantized_avx2(r0, r1, z, lowest, highest, out + done);
  }
  return done;
}
#endif

/// out[c] = requantize(acc[c] + bias) for c < count (T: int8_t or uint8_t; low/high inside T's range), the vector
/// loops those of `isa`. With SSE2, every 8 values go 2 lanes at a time through float64 (AVX2: 4): while |acc| < 2^29
/// the product with the float32 multiplier is exact, and cvtpd2dq rounds it half to even (the default rounding
/// mode), which is what the fixed-point path computes, at a fraction of the cost.
template <typename T>
inline void requantize_row(Isa isa, const std::int32_t* acc, std::int64_t count, std::uint32_t bias, const Requant& q,
                           std::int32_t zero, std::int32_t low, std::int32_t high, T* out) noexcept {
  std::int64_t done = 0;
#if ONNXMICRO_DETAIL_INTEGER_AVX2
  if (q.use_vector && runs_avx2(isa)) {
    done = requantize_avx2(acc, count, bias, q, zero, low, high, out);
    acc += done;
    out += done;
  }
#endif
  static_cast<void>(isa);
#if defined(__SSE2__)
  for (; q.use_vector && done + 8 <= count; done += 8, acc += 8, out += 8) {
    const __m128i b = _mm_set1_epi32(static_cast<std::int32_t>(bias));
    const __m128i v0 = _mm_add_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(acc)), b);
    const __m128i v1 = _mm_add_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(acc + 4)), b);
    // |v| < 2^29 in every lane: (v + 2^29) as unsigned is below 2^30, i.e. its top two bits are clear.
    const __m128i half_range = _mm_set1_epi32(std::int32_t(1) << 29);
    const __m128i top = _mm_or_si128(_mm_srli_epi32(_mm_add_epi32(v0, half_range), 30),
                                     _mm_srli_epi32(_mm_add_epi32(v1, half_range), 30));
    if (_mm_movemask_epi8(_mm_cmpeq_epi32(top, _mm_setzero_si128())) == 0xFFFF) {
      const __m128d m = _mm_set1_pd(q.real);
      const __m128i r0 = _mm_unpacklo_epi64(_mm_cvtpd_epi32(_mm_mul_pd(_mm_cvtepi32_pd(v0), m)),
                                            _mm_cvtpd_epi32(_mm_mul_pd(_mm_cvtepi32_pd(_mm_srli_si128(v0, 8)), m)));
      const __m128i r1 = _mm_unpacklo_epi64(_mm_cvtpd_epi32(_mm_mul_pd(_mm_cvtepi32_pd(v1), m)),
                                            _mm_cvtpd_epi32(_mm_mul_pd(_mm_cvtepi32_pd(_mm_srli_si128(v1, 8)), m)));
      // |round(v * m)| < 2^30: int16 saturation keeps every value that survives the clamp below exact.
      __m128i r = _mm_adds_epi16(_mm_packs_epi32(r0, r1), _mm_set1_epi16(static_cast<std::int16_t>(zero)));
      r = _mm_max_epi16(r, _mm_set1_epi16(static_cast<std::int16_t>(low)));
      r = _mm_min_epi16(r, _mm_set1_epi16(static_cast<std::int16_t>(high)));
      const __m128i bytes = std::numeric_limits<T>::is_signed ? _mm_packs_epi16(r, r) : _mm_packus_epi16(r, r);
      _mm_storel_epi64(reinterpret_cast<__m128i*>(out), bytes);
      continue;
    }
    break;  // an accumulator beyond 2^29: the exact scalar path below takes the rest
  }
#endif
  for (std::int64_t c = 0; c < count - done; ++c) {
    const std::int32_t total = static_cast<std::int32_t>(static_cast<std::uint32_t>(acc[c]) + bias);
    out[c] = static_cast<T>(requantize(total, q, zero, low, high));
  }
}

#if ONNXMICRO_DETAIL_INTEGER_AVX2
/// requantize_float_row's vector loop on AVX2: returns how many values it wrote, stopping before the first block of
/// 8 whose sum with the bias reaches 2^29.
template <typename T>
__attribute__((target("avx2"))) inline std::int64_t requantize_floats_avx2(const float* sums, std::int64_t count,
                                                                           std::int32_t bias, const Requant& q,
                                                                           std::int32_t zero, std::int32_t low,
                                                                           std::int32_t high, T* out) noexcept {
  const __m256d b = _mm256_set1_pd(static_cast<double>(bias)), m = _mm256_set1_pd(q.real);
  const __m256d limit = _mm256_set1_pd(536870912.0),
                magnitude = _mm256_castsi256_pd(_mm256_set1_epi64x(0x7FFFFFFFFFFFFFFF));
  const __m128i z = _mm_set1_epi16(static_cast<std::int16_t>(zero));
  const __m128i lowest = _mm_set1_epi16(static_cast<std::int16_t>(low));
  const __m128i highest = _mm_set1_epi16(static_cast<std::int16_t>(high));
  std::int64_t done = 0;
  for (; done + 8 <= count; done += 8) {
    const __m256 v = _mm256_loadu_ps(sums + done);
    const __m256d lo = _mm256_add_pd(_mm256_cvtps_pd(_mm256_castps256_ps128(v)), b);  // exact: integers below 2^53
    const __m256d hi = _mm256_add_pd(_mm256_cvtps_pd(_mm256_extractf128_ps(v, 1)), b);
    const __m256d big = _mm256_or_pd(_mm256_cmp_pd(_mm256_and_pd(lo, magnitude), limit, _CMP_GE_OQ),
                                     _mm256_cmp_pd(_mm256_and_pd(hi, magnitude), limit, _CMP_GE_OQ));
    if (_mm256_movemask_pd(big) != 0) break;
    store_requantized_avx2(_mm256_cvtpd_epi32(_mm256_mul_pd(lo, m)), _mm256_cvtpd_epi32(_mm256_mul_pd(hi, m)), z,
                           lowest, highest, out + done);
  }
  return done;
}
/// requantize_floats_avx2 at the avx512 level: 16 values a step, each half of 8 through float64 at once (the same exact
/// products), stored as the AVX2 loop stores them. The quantized depthwise conv spent as long requantising its sums
/// as summing them. (The masked conversions: GCC 12's unmasked ones start from an "undefined" vector that
/// -Wmaybe-uninitialized reports.)
template <typename T>
__attribute__((target("avx2,avx512f"))) inline std::int64_t requantize_floats_avx512(
    const float* sums, std::int64_t count, std::int32_t bias, const Requant& q, std::int32_t zero, std::int32_t low,
    std::int32_t high, T* out) noexcept {
  const __m512d b = _mm512_set1_pd(static_cast<double>(bias)), m = _mm512_set1_pd(q.real);
  const __m512d limit = _mm512_set1_pd(536870912.0);
  const __m128i z = _mm_set1_epi16(static_cast<std::int16_t>(zero));
  const __m128i lowest = _mm_set1_epi16(static_cast<std::int16_t>(low));
  const __m128i highest = _mm_set1_epi16(static_cast<std::int16_t>(high));
  std::int64_t done = 0;
  for (; done + 16 <= count; done += 16) {
    // exact: integers below 2^53
    const __m512d lo = _mm512_add_pd(_mm512_maskz_cvtps_pd(0xff, _mm256_loadu_ps(sums + done)), b);
    const __m512d hi = _mm512_add_pd(_mm512_maskz_cvtps_pd(0xff, _mm256_loadu_ps(sums + done + 8)), b);
    if ((_mm512_cmp_pd_mask(_mm512_abs_pd(lo), limit, _CMP_GE_OQ) |
         _mm512_cmp_pd_mask(_mm512_abs_pd(hi), limit, _CMP_GE_OQ)) != 0)
      break;
    const __m256i r0 = _mm512_maskz_cvtpd_epi32(0xff, _mm512_mul_pd(lo, m));
    const __m256i r1 = _mm512_maskz_cvtpd_epi32(0xff, _mm512_mul_pd(hi, m));
    store_requantized_avx2(_mm256_castsi256_si128(r0), _mm256_extracti128_si256(r0, 1), z, lowest, highest, out + done);
    store_requantized_avx2(_mm256_castsi256_si128(r1), _mm256_extracti128_si256(r1, 1), z, lowest, highest,
                           out + done + 8);
  }
  return done;
}
#endif

/// requantize_row for sums held as floats (exact integers below 2^24 in magnitude: the quantized depthwise conv's):
/// out[c] = requantize(int32(sums[c]) + bias), the same bits, without a pass converting them to int32 first.
template <typename T>
inline void requantize_float_row(Isa isa, const float* sums, std::int64_t count, std::int32_t bias, const Requant& q,
                                 std::int32_t zero, std::int32_t low, std::int32_t high, T* out) noexcept {
  std::int64_t done = 0;
#if ONNXMICRO_DETAIL_INTEGER_AVX2
  if (q.use_vector && isa == Isa::avx512) done = requantize_floats_avx512(sums, count, bias, q, zero, low, high, out);
  if (q.use_vector && runs_avx2(isa))
    done += requantize_floats_avx2(sums + done, count - done, bias, q, zero, low, high, out + done);
#endif
  static_cast<void>(isa);
  for (; done < count; ++done) {
    const std::uint32_t acc =
        static_cast<std::uint32_t>(static_cast<std::int32_t>(sums[done])) + static_cast<std::uint32_t>(bias);
    out[done] = static_cast<T>(requantize(static_cast<std::int32_t>(acc), q, zero, low, high));
  }
}

/// out[i] = x[i] - zero as floats for i < count (exact: every value an integer), with float_phase_avx2's vectors
/// where `isa` runs AVX2 (the quantized depthwise conv's narrow planes, a whole plane as one row).
template <typename T>
inline void widen_floats(Isa isa, const T* x, std::int64_t count, int zero, float* out) noexcept {
#if ONNXMICRO_DETAIL_INTEGER_AVX2
  if (runs_avx2(isa)) return float_phase_avx2(x, count, 0, 1, zero, count, out);
#endif
  static_cast<void>(isa);
  for (std::int64_t i = 0; i < count; ++i) out[i] = static_cast<float>(static_cast<int>(x[i]) - zero);
}

#if ONNXMICRO_DETAIL_INTEGER_AVX2
template <typename T>
__attribute__((target("avx2"))) inline std::int64_t narrow_floats_avx2(const float* in, std::int64_t count,
                                                                       T* out) noexcept {
  std::int64_t i = 0;
  for (; i + 8 <= count; i += 8) {
    // Below T's range only float's lowest, which converts to INT_MIN and saturates to T's lowest.
    store_saturated_avx2(_mm256_cvtps_epi32(_mm256_loadu_ps(in + i)), out + i);
  }
  return i;
}
#endif

/// out[i] = in[i] as T for i < count, where every in[i] is a value of T or below T's range (a window in the padding):
/// those give T's lowest. The inverse of widen_floats at zero 0 (the 8-bit pools' planes), vectors where `isa` runs
/// AVX2.
template <typename T>
inline void narrow_floats(Isa isa, const float* in, std::int64_t count, T* out) noexcept {
  std::int64_t i = 0;
#if ONNXMICRO_DETAIL_INTEGER_AVX2
  if (runs_avx2(isa)) i = narrow_floats_avx2(in, count, out);
#endif
  static_cast<void>(isa);
  const float lowest = static_cast<float>(std::numeric_limits<T>::lowest());
  for (; i < count; ++i) out[i] = static_cast<T>(in[i] < lowest ? lowest : in[i]);
}

/// Output bounds of an integer output type T with a fused Relu/Clip: the type's range narrowed to
/// [quantize(min), quantize(max)], quantize(v) = saturate(round(v / y_scale) + y_zero) in float32 as
/// QuantizeLinear computes it.
template <typename T>
inline void output_bounds(const FusedClamp& clamp, float y_scale, std::int32_t y_zero, std::int32_t& low,
                          std::int32_t& high) noexcept {
  const double type_low = static_cast<double>(std::numeric_limits<T>::min());
  const double type_high = static_cast<double>(std::numeric_limits<T>::max());
  low = static_cast<std::int32_t>(type_low);
  high = static_cast<std::int32_t>(type_high);
  if (clamp.has_min) {
    const double q =
        quant_util::round_and_saturate(static_cast<double>(clamp.min / y_scale), y_zero, type_low, type_high);
    if (q > low) low = static_cast<std::int32_t>(q);
  }
  if (clamp.has_max) {
    const double q =
        quant_util::round_and_saturate(static_cast<double>(clamp.max / y_scale), y_zero, type_low, type_high);
    if (q < high) high = static_cast<std::int32_t>(q);
  }
}

}  // namespace integer_gemm
}  // namespace kernels
ONNXMICRO_NAMESPACE_END
