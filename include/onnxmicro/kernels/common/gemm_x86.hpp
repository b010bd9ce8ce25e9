// SPDX-License-Identifier: MIT
// The float GEMM's x86-64 micro-kernels, compiled with per-function target attributes (no -march needed) and
// chosen at run time (core/isa.hpp): AVX2+FMA tiles of 6 rows x 16 columns (12 ymm accumulators) and AVX-512F tiles
// of 8 rows x 32 columns (16 zmm accumulators). The last columns of a row are the same tile with masked loads
// and stores, so no scalar tail is left; on AVX2, when at most 8 are left, a 12 x 8 tile (half the work: a 7x7
// map's 49th column cost a fourth of the product in a 16-column tile). Each step broadcasts one A value per row and
// fuses it with a row of B (B row-major and read in place, or striped by Conv's im2col: BColumns; a depth panel of
// 16/32 columns stays in L1 while every row tile passes over it).
// A tile's first panel may start from the rows' bias instead of loading C, and its last panel may clamp before
// storing (a fused Relu/Clip): Conv's bias and activation cost no pass of their own. Products of one or two rows (a
// recurrent step at batch 1 or 2) take four strips at once instead (`wide`): a 2-accumulator tile would wait on
// FMA latency at every step. Per element every path does the same operations in the same order, so results do not
// depend on the tile that computed them. Loops over the tile are unrolled by pragma, so the accumulators stay in
// registers at -O2 as at -O3.
#pragma once
#include "onnxmicro/core/config.hpp"

#if ONNXMICRO_ENABLE_ISA_DISPATCH
#include <immintrin.h>

#include <cstdint>

#include "onnxmicro/core/version.hpp"
#include "onnxmicro/kernels/common/output_clamp.hpp"

#define ONNXMICRO_DETAIL_TARGET_AVX2 __attribute__((target("avx2,fma")))
#define ONNXMICRO_DETAIL_TARGET_AVX512 __attribute__((target("avx512f")))

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {
namespace gemm {
namespace x86 {

// Rows of B one pass over the shared dimension keeps in L1 (16 KiB of B for 16 columns, 16 KiB for 32).
constexpr std::int64_t kDepthAvx2 = 256;
constexpr std::int64_t kDepthAvx512 = 128;

/// What one depth panel does at the ends of its tiles: start from the rows' bias (first panel), clamp (last).
struct PanelEnds {
  const float* row_bias;  ///< the tile's first row's bias when the panel starts from it, else null
  bool clamp;
  float low, high;
};

inline PanelEnds panel_ends(bool first, bool last, const float* row_bias, const OutputClamp& clamp) noexcept {
  return PanelEnds{first ? row_bias : nullptr, last && clamp.enabled, clamp.low, clamp.high};
}

/// The same ends for the tile `rows` rows further down.
inline PanelEnds rows_below(PanelEnds ends, std::int64_t rows) noexcept {
  if (ends.row_bias != nullptr) ends.row_bias += rows;
  return ends;
}

/// Where a tile's A values are: A(i, p) = data[i * row + p * column] within a tile, the tile starting at row i (a
/// multiple of the tile rows) at data + i * tile_row. Plain strided A: tile_row = row, panel_stride = 0. A packed by
/// gemm::pack_a: panel by panel (one per depth pass), each panel's row tiles one after another, each tile depth-major
/// (row = 1, column = tile rows), so that a pass over the rows reads one contiguous stream the prefetchers follow.
struct ARows {
  const float* data;
  std::int64_t row, column, tile_row;
  std::int64_t panel_stride = 0;  ///< packed: floats per depth step over all the (tile-padded) rows; 0: plain
  std::int64_t first_row = 0;     ///< packed: the first row of the block this multiplies (a multiple of tile rows)
  const float* at(std::int64_t i) const noexcept { return data + i * tile_row; }
  /// The rows from i on (packed: i a multiple of the tile rows).
  ARows from_row(std::int64_t i) const noexcept {
    if (panel_stride == 0) return ARows{data + i * row, row, column, tile_row};
    return ARows{data, row, column, tile_row, panel_stride, first_row + i};
  }
  /// The depth panel [p, p + depth).
  ARows from_depth(std::int64_t p, std::int64_t depth) const noexcept {
    if (panel_stride == 0) return ARows{data + p * column, row, column, tile_row};
    return ARows{data + p * panel_stride + first_row * depth, row, column, depth};
  }
};

/// Where B's rows are. Plain: row-major, B(p, j) = data[p * row + j], strip_stride = 0. Striped (written so by Conv's
/// im2col): the columns in strips of the micro-kernel's width (`row` columns), each strip its k rows one after another,
/// strip s at data + s * strip_stride. A striped depth panel is one contiguous block that stays in L1 whatever the
/// matrix's width, where plain rows a wide row apart compete for the same cache sets and pages.
struct BColumns {
  const float* data;
  std::int64_t row;
  std::int64_t strip_stride = 0;
  /// Rows anywhere (AVX2 only): B(p, j) = data[offsets[p] + j]. Conv reads a 3x3 conv's rows this way straight from
  /// its padded input, each row (channel, tap) one offset, with no column matrix (implicit GEMM).
  const std::int32_t* offsets = nullptr;
  bool striped() const noexcept { return strip_stride != 0; }
  /// Row p from column j (striped: j a multiple of the strip width).
  const float* at(std::int64_t p, std::int64_t j) const noexcept {
    if (offsets != nullptr) return data + offsets[p] + j;
    return striped() ? data + j / row * strip_stride + p * row : data + p * row + j;
  }
  /// Where the micro-kernels start a depth panel from row p0 at column j: row p0 itself, or with offsets the column's
  /// base (the panel's rows then at base + panel_offsets(p0)[p]).
  const float* panel(std::int64_t p0, std::int64_t j) const noexcept {
    return offsets != nullptr ? data + j : at(p0, j);
  }
  const std::int32_t* panel_offsets(std::int64_t p0) const noexcept {
    return offsets != nullptr ? offsets + p0 : nullptr;
  }
  /// The columns from j on (striped: j a multiple of the strip width).
  BColumns from_column(std::int64_t j) const noexcept {
    if (offsets != nullptr) return BColumns{data + j, row, 0, offsets};
    return BColumns{at(0, j), row, strip_stride};
  }
};

// ---- AVX2 + FMA: 6 x 16 ----

namespace avx2 {
constexpr int kRows = 6;
constexpr int kLanes = 8;
constexpr std::int64_t kColumns = 2 * kLanes;

/// The lanes [0, count) of a 16-column tile edge as two 8-lane load/store masks.
ONNXMICRO_DETAIL_TARGET_AVX2 inline void edge_masks(std::int64_t count, __m256i& low, __m256i& high) noexcept {
  const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  low = _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int>(count)), lane);
  high = _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int>(count) - kLanes), lane);
}

/// acc[0, Count) clamped (clamp_lanes_avx2) when the panel's ends say so. Always inlined, so the accumulators stay in
/// registers.
template <int Count>
ONNXMICRO_DETAIL_TARGET_AVX2 __attribute__((always_inline)) inline void clamp_ends(__m256* acc,
                                                                                   const PanelEnds& ends) noexcept {
  if (!ends.clamp) return;
  const __m256 lowest = _mm256_set1_ps(ends.low), highest = _mm256_set1_ps(ends.high);
#pragma GCC unroll 24
  for (int v = 0; v < Count; ++v) acc[v] = clamp_lanes_avx2(acc[v], lowest, highest);
}

/// C[Rows x 16] (+)= A[Rows x depth] * B[depth x 16] for one depth panel, with the panel's ends; Masked: only the
/// columns the masks select are read and written. B's row p is at b + p * ldb, or (Indirect) at b + offsets[p].
template <int Rows, bool Masked, bool Indirect>
ONNXMICRO_DETAIL_TARGET_AVX2 inline void tile(std::int64_t depth, const float* a, std::int64_t a_row,
                                              std::int64_t a_col, const float* b, std::int64_t ldb,
                                              const std::int32_t* offsets, float* c, std::int64_t ldc, __m256i low,
                                              __m256i high, const PanelEnds& ends) noexcept {
  __m256 acc[Rows][2];
#pragma GCC unroll 8
  for (int r = 0; r < Rows; ++r) {
    if (ends.row_bias != nullptr) {
      acc[r][0] = acc[r][1] = _mm256_set1_ps(ends.row_bias[r]);
    } else if constexpr (Masked) {
      acc[r][0] = _mm256_maskload_ps(c + r * ldc, low);
      acc[r][1] = _mm256_maskload_ps(c + r * ldc + kLanes, high);
    } else {
      acc[r][0] = _mm256_loadu_ps(c + r * ldc);
      acc[r][1] = _mm256_loadu_ps(c + r * ldc + kLanes);
    }
  }
  const float* b_row = b;
  for (std::int64_t p = 0; p < depth; ++p) {
    if constexpr (Indirect) b_row = b + offsets[p];
    __m256 b0, b1;
    if constexpr (Masked) {
      b0 = _mm256_maskload_ps(b_row, low);
      b1 = _mm256_maskload_ps(b_row + kLanes, high);
    } else {
      b0 = _mm256_loadu_ps(b_row);
      b1 = _mm256_loadu_ps(b_row + kLanes);
    }
#pragma GCC unroll 8
    for (int r = 0; r < Rows; ++r) {
      const __m256 a_value = _mm256_set1_ps(a[r * a_row]);
      acc[r][0] = _mm256_fmadd_ps(a_value, b0, acc[r][0]);
      acc[r][1] = _mm256_fmadd_ps(a_value, b1, acc[r][1]);
    }
    a += a_col;
    if constexpr (!Indirect) b_row += ldb;
  }
  clamp_ends<2 * Rows>(&acc[0][0], ends);
#pragma GCC unroll 8
  for (int r = 0; r < Rows; ++r) {
    if constexpr (Masked) {
      _mm256_maskstore_ps(c + r * ldc, low, acc[r][0]);
      _mm256_maskstore_ps(c + r * ldc + kLanes, high, acc[r][1]);
    } else {
      _mm256_storeu_ps(c + r * ldc, acc[r][0]);
      _mm256_storeu_ps(c + r * ldc + kLanes, acc[r][1]);
    }
  }
}

/// Strips a few-row product takes at once: 1 row x 64 columns, 8 accumulators.
constexpr int kWideStrips = 4;
constexpr std::int64_t kWideColumns = kWideStrips * kColumns;
constexpr std::int64_t kWideRows = 1;

/// tile<1, false> over kWideStrips strips side by side, strip s of B at b + s * strip_step (plain B: kColumns; striped:
/// its strip stride): 8 independent accumulators (the same per-element steps).
ONNXMICRO_DETAIL_TARGET_AVX2 inline void wide(std::int64_t depth, const float* a, std::int64_t a_col, const float* b,
                                              std::int64_t strip_step, std::int64_t ldb, float* c,
                                              const PanelEnds& ends) noexcept {
  constexpr int kVectors = 2 * kWideStrips;
  __m256 acc[kVectors];
#pragma GCC unroll 8
  for (int v = 0; v < kVectors; ++v)
    acc[v] = ends.row_bias != nullptr ? _mm256_set1_ps(ends.row_bias[0]) : _mm256_loadu_ps(c + v * kLanes);
  for (std::int64_t p = 0; p < depth; ++p) {
    const __m256 a_value = _mm256_set1_ps(*a);
#pragma GCC unroll 8
    for (int v = 0; v < kVectors; ++v) {
      const __m256 b_value = _mm256_loadu_ps(b + v / 2 * strip_step + v % 2 * kLanes);
      acc[v] = _mm256_fmadd_ps(a_value, b_value, acc[v]);
    }
    a += a_col;
    b += ldb;
  }
  clamp_ends<kVectors>(acc, ends);
#pragma GCC unroll 8
  for (int v = 0; v < kVectors; ++v) _mm256_storeu_ps(c + v * kLanes, acc[v]);
}

/// One 16-column strip (or its masked edge) of every row of C (B's rows as tile() reads them).
template <bool Masked, bool Indirect>
ONNXMICRO_DETAIL_TARGET_AVX2 inline void strip(std::int64_t m, std::int64_t depth, const ARows& a, const float* b,
                                               std::int64_t ldb, const std::int32_t* offsets, float* c,
                                               std::int64_t ldc, __m256i low, __m256i high,
                                               const PanelEnds& ends) noexcept {
  const std::int64_t a_row = a.row, a_col = a.column;
  std::int64_t i = 0;
  for (; i + kRows <= m; i += kRows)
    tile<kRows, Masked, Indirect>(depth, a.at(i), a_row, a_col, b, ldb, offsets, c + i * ldc, ldc, low, high,
                                  rows_below(ends, i));
  const float* a_i = a.at(i);
  float* c_i = c + i * ldc;
  const PanelEnds ends_i = rows_below(ends, i);
  switch (m - i) {
    case 5: tile<5, Masked, Indirect>(depth, a_i, a_row, a_col, b, ldb, offsets, c_i, ldc, low, high, ends_i); break;
    case 4: tile<4, Masked, Indirect>(depth, a_i, a_row, a_col, b, ldb, offsets, c_i, ldc, low, high, ends_i); break;
    case 3: tile<3, Masked, Indirect>(depth, a_i, a_row, a_col, b, ldb, offsets, c_i, ldc, low, high, ends_i); break;
    case 2: tile<2, Masked, Indirect>(depth, a_i, a_row, a_col, b, ldb, offsets, c_i, ldc, low, high, ends_i); break;
    case 1: tile<1, Masked, Indirect>(depth, a_i, a_row, a_col, b, ldb, offsets, c_i, ldc, low, high, ends_i); break;
    default: break;
  }
}
/// Rows of a narrow edge tile: two row tiles of A at once, so that 12 accumulators of 8 columns hide the FMA latency.
constexpr int kNarrowRows = 2 * kRows;

/// C[Rows x 8] (+)= A[Rows x depth] * B[depth x 8] for the last columns of a product when at most 8 are left (`mask`
/// selects them): half the work of a masked 16-column tile, in the same per-element steps. Rows [0, kRows) of A at
/// `a_top`, the rest at `a_bottom` (the next row tile's start).
template <int Rows, bool Indirect>
ONNXMICRO_DETAIL_TARGET_AVX2 inline void narrow_tile(std::int64_t depth, const float* a_top, const float* a_bottom,
                                                     std::int64_t a_row, std::int64_t a_col, const float* b,
                                                     std::int64_t ldb, const std::int32_t* offsets, float* c,
                                                     std::int64_t ldc, __m256i mask, const PanelEnds& ends) noexcept {
  __m256 acc[Rows];
#pragma GCC unroll 12
  for (int r = 0; r < Rows; ++r)
    acc[r] = ends.row_bias != nullptr ? _mm256_set1_ps(ends.row_bias[r]) : _mm256_maskload_ps(c + r * ldc, mask);
  const float* b_row = b;
  for (std::int64_t p = 0; p < depth; ++p) {
    if constexpr (Indirect) b_row = b + offsets[p];
    const __m256 b_value = _mm256_maskload_ps(b_row, mask);
#pragma GCC unroll 12
    for (int r = 0; r < Rows; ++r) {
      const __m256 a_value = _mm256_set1_ps(r < kRows ? a_top[r * a_row] : a_bottom[(r - kRows) * a_row]);
      acc[r] = _mm256_fmadd_ps(a_value, b_value, acc[r]);
    }
    a_top += a_col;
    a_bottom += a_col;
    if constexpr (!Indirect) b_row += ldb;
  }
  clamp_ends<Rows>(acc, ends);
#pragma GCC unroll 12
  for (int r = 0; r < Rows; ++r) _mm256_maskstore_ps(c + r * ldc, mask, acc[r]);
}

/// narrow_tile<Rows> for the rows from i on (A's row tiles at i and, past kRows rows, i + kRows).
template <int Rows, bool Indirect>
ONNXMICRO_DETAIL_TARGET_AVX2 inline void narrow_rows(std::int64_t i, std::int64_t depth, const ARows& a, const float* b,
                                                     std::int64_t ldb, const std::int32_t* offsets, float* c,
                                                     std::int64_t ldc, __m256i mask, const PanelEnds& ends) noexcept {
  const float* a_bottom = a.at(Rows > kRows ? i + kRows : i);
  narrow_tile<Rows, Indirect>(depth, a.at(i), a_bottom, a.row, a.column, b, ldb, offsets, c + i * ldc, ldc, mask,
                              rows_below(ends, i));
}

/// The last (at most 8) columns of every row of C, `mask` selecting them.
template <bool Indirect>
ONNXMICRO_DETAIL_TARGET_AVX2 inline void narrow_strip(std::int64_t m, std::int64_t depth, const ARows& a,
                                                      const float* b, std::int64_t ldb, const std::int32_t* offsets,
                                                      float* c, std::int64_t ldc, __m256i mask,
                                                      const PanelEnds& ends) noexcept {
  std::int64_t i = 0;
  for (; i + kNarrowRows <= m; i += kNarrowRows)
    narrow_rows<kNarrowRows, Indirect>(i, depth, a, b, ldb, offsets, c, ldc, mask, ends);
  switch (m - i) {
    case 11: narrow_rows<11, Indirect>(i, depth, a, b, ldb, offsets, c, ldc, mask, ends); break;
    case 10: narrow_rows<10, Indirect>(i, depth, a, b, ldb, offsets, c, ldc, mask, ends); break;
    case 9: narrow_rows<9, Indirect>(i, depth, a, b, ldb, offsets, c, ldc, mask, ends); break;
    case 8: narrow_rows<8, Indirect>(i, depth, a, b, ldb, offsets, c, ldc, mask, ends); break;
    case 7: narrow_rows<7, Indirect>(i, depth, a, b, ldb, offsets, c, ldc, mask, ends); break;
    case 6: narrow_rows<6, Indirect>(i, depth, a, b, ldb, offsets, c, ldc, mask, ends); break;
    case 5: narrow_rows<5, Indirect>(i, depth, a, b, ldb, offsets, c, ldc, mask, ends); break;
    case 4: narrow_rows<4, Indirect>(i, depth, a, b, ldb, offsets, c, ldc, mask, ends); break;
    case 3: narrow_rows<3, Indirect>(i, depth, a, b, ldb, offsets, c, ldc, mask, ends); break;
    case 2: narrow_rows<2, Indirect>(i, depth, a, b, ldb, offsets, c, ldc, mask, ends); break;
    case 1: narrow_rows<1, Indirect>(i, depth, a, b, ldb, offsets, c, ldc, mask, ends); break;
    default: break;
  }
}
}  // namespace avx2

namespace avx2 {
/// Depth panel [p0, p0 + depth) of multiply_avx2 over all of C's columns; Indirect: B's rows through b.offsets. Never
/// inlined: inlined into multiply_avx2 with both instances, GCC 12 spilled the tiles' A row offsets to the stack and
/// folded B's loads into every FMA (a 3x3 conv ran 2x slower).
template <bool Indirect>
ONNXMICRO_DETAIL_TARGET_AVX2 __attribute__((noinline)) inline void panel(std::int64_t m, std::int64_t n,
                                                                         std::int64_t p0, std::int64_t depth,
                                                                         const ARows& a_p, const BColumns& b, float* c,
                                                                         std::int64_t ldc,
                                                                         const PanelEnds& ends) noexcept {
  __m256i all_low, all_high, edge_low, edge_high;
  edge_masks(kColumns, all_low, all_high);
  edge_masks(n % kColumns, edge_low, edge_high);
  const std::int64_t full_columns = n - n % kColumns;
  const std::int32_t* offsets = b.panel_offsets(p0);
  std::int64_t j = 0;
  if (!Indirect && m >= 1 && m <= kWideRows) {
    const std::int64_t strip_step = b.striped() ? b.strip_stride : kColumns;
    for (; j + kWideColumns <= full_columns; j += kWideColumns)
      wide(depth, a_p.at(0), a_p.column, b.at(p0, j), strip_step, b.row, c + j, ends);
  }
  for (; j < full_columns; j += kColumns)
    strip<false, Indirect>(m, depth, a_p, b.panel(p0, j), b.row, offsets, c + j, ldc, all_low, all_high, ends);
  const float* b_edge = b.panel(p0, full_columns);
  if (n - full_columns > kLanes) {
    strip<true, Indirect>(m, depth, a_p, b_edge, b.row, offsets, c + full_columns, ldc, edge_low, edge_high, ends);
  } else if (full_columns < n) {
    narrow_strip<Indirect>(m, depth, a_p, b_edge, b.row, offsets, c + full_columns, ldc, edge_low, ends);
  }
}
}  // namespace avx2

/// C[m x n] = (row_bias[i], or C) + A[m x k] * B[k x n], then `clamp`, with AVX2+FMA; A and B as ARows and BColumns
/// say (a striped B in strips of avx2::kColumns; B's rows through offsets), C row-major.
ONNXMICRO_DETAIL_TARGET_AVX2 inline void multiply_avx2(std::int64_t m, std::int64_t n, std::int64_t k, const ARows& a,
                                                       const BColumns& b, float* c, std::int64_t ldc,
                                                       const float* row_bias, const OutputClamp& clamp) noexcept {
  for (std::int64_t p0 = 0; p0 < k; p0 += kDepthAvx2) {
    const std::int64_t depth = k - p0 < kDepthAvx2 ? k - p0 : kDepthAvx2;
    const ARows a_p = a.from_depth(p0, depth);
    const PanelEnds ends = panel_ends(p0 == 0, p0 + depth >= k, row_bias, clamp);
    if (b.offsets != nullptr) {
      avx2::panel<true>(m, n, p0, depth, a_p, b, c, ldc, ends);
    } else {
      avx2::panel<false>(m, n, p0, depth, a_p, b, c, ldc, ends);
    }
  }
}

// ---- AVX-512F: 8 x 32 ----

namespace avx512 {
constexpr int kRows = 8;
constexpr int kLanes = 16;
constexpr std::int64_t kColumns = 2 * kLanes;
// The masked forms of max/min: GCC 12's unmasked ones start from an "undefined" vector that -Wmaybe-uninitialized
// reports.
constexpr __mmask16 kAll = 0xffff;

template <int Rows>
ONNXMICRO_DETAIL_TARGET_AVX512 inline void tile(std::int64_t depth, const float* a, std::int64_t a_row,
                                                std::int64_t a_col, const float* b, std::int64_t ldb, float* c,
                                                std::int64_t ldc, __mmask16 low, __mmask16 high,
                                                const PanelEnds& ends) noexcept {
  __m512 acc[Rows][2];
#pragma GCC unroll 8
  for (int r = 0; r < Rows; ++r) {
    if (ends.row_bias != nullptr) {
      acc[r][0] = acc[r][1] = _mm512_set1_ps(ends.row_bias[r]);
    } else {
      acc[r][0] = _mm512_maskz_loadu_ps(low, c + r * ldc);
      acc[r][1] = _mm512_maskz_loadu_ps(high, c + r * ldc + kLanes);
    }
  }
  for (std::int64_t p = 0; p < depth; ++p) {
    const __m512 b0 = _mm512_maskz_loadu_ps(low, b);
    const __m512 b1 = _mm512_maskz_loadu_ps(high, b + kLanes);
#pragma GCC unroll 8
    for (int r = 0; r < Rows; ++r) {
      const __m512 a_value = _mm512_set1_ps(a[r * a_row]);
      acc[r][0] = _mm512_fmadd_ps(a_value, b0, acc[r][0]);
      acc[r][1] = _mm512_fmadd_ps(a_value, b1, acc[r][1]);
    }
    a += a_col;
    b += ldb;
  }
  if (ends.clamp) {  // max(low, v) then min(high, v): v where v is NaN, as OutputClamp::apply
    const __m512 lowest = _mm512_set1_ps(ends.low), highest = _mm512_set1_ps(ends.high);
#pragma GCC unroll 8
    for (int r = 0; r < Rows; ++r) {
      acc[r][0] = _mm512_maskz_min_ps(kAll, highest, _mm512_maskz_max_ps(kAll, lowest, acc[r][0]));
      acc[r][1] = _mm512_maskz_min_ps(kAll, highest, _mm512_maskz_max_ps(kAll, lowest, acc[r][1]));
    }
  }
#pragma GCC unroll 8
  for (int r = 0; r < Rows; ++r) {
    _mm512_mask_storeu_ps(c + r * ldc, low, acc[r][0]);
    _mm512_mask_storeu_ps(c + r * ldc + kLanes, high, acc[r][1]);
  }
}

/// Strips a few-row product takes at once: up to 2 rows x 128 columns, 8 accumulators a row.
constexpr int kWideStrips = 4;
constexpr std::int64_t kWideColumns = kWideStrips * kColumns;
constexpr std::int64_t kWideRows = 2;

/// tile<Rows> over kWideStrips full strips side by side, strip s of B at b + s * strip_step (as avx2::wide): 8
/// independent accumulators a row (the same per-element steps).
template <int Rows>
ONNXMICRO_DETAIL_TARGET_AVX512 inline void wide(std::int64_t depth, const float* a, std::int64_t a_row,
                                                std::int64_t a_col, const float* b, std::int64_t strip_step,
                                                std::int64_t ldb, float* c, std::int64_t ldc,
                                                const PanelEnds& ends) noexcept {
  constexpr int kVectors = 2 * kWideStrips;
  __m512 acc[Rows][kVectors];
#pragma GCC unroll 8
  for (int r = 0; r < Rows; ++r) {
#pragma GCC unroll 8
    for (int v = 0; v < kVectors; ++v) {
      acc[r][v] =
          ends.row_bias != nullptr ? _mm512_set1_ps(ends.row_bias[r]) : _mm512_loadu_ps(c + r * ldc + v * kLanes);
    }
  }
  for (std::int64_t p = 0; p < depth; ++p) {
    __m512 b_values[kVectors];
#pragma GCC unroll 8
    for (int v = 0; v < kVectors; ++v) b_values[v] = _mm512_loadu_ps(b + v / 2 * strip_step + v % 2 * kLanes);
#pragma GCC unroll 8
    for (int r = 0; r < Rows; ++r) {
      const __m512 a_value = _mm512_set1_ps(a[r * a_row]);
#pragma GCC unroll 8
      for (int v = 0; v < kVectors; ++v) acc[r][v] = _mm512_fmadd_ps(a_value, b_values[v], acc[r][v]);
    }
    a += a_col;
    b += ldb;
  }
  if (ends.clamp) {
    const __m512 lowest = _mm512_set1_ps(ends.low), highest = _mm512_set1_ps(ends.high);
#pragma GCC unroll 8
    for (int r = 0; r < Rows; ++r) {
#pragma GCC unroll 8
      for (int v = 0; v < kVectors; ++v)
        acc[r][v] = _mm512_maskz_min_ps(kAll, highest, _mm512_maskz_max_ps(kAll, lowest, acc[r][v]));
    }
  }
#pragma GCC unroll 8
  for (int r = 0; r < Rows; ++r) {
#pragma GCC unroll 8
    for (int v = 0; v < kVectors; ++v) _mm512_storeu_ps(c + r * ldc + v * kLanes, acc[r][v]);
  }
}

ONNXMICRO_DETAIL_TARGET_AVX512 inline void strip(std::int64_t m, std::int64_t depth, const ARows& a, const float* b,
                                                 std::int64_t ldb, float* c, std::int64_t ldc, __mmask16 low,
                                                 __mmask16 high, const PanelEnds& ends) noexcept {
  const std::int64_t a_row = a.row, a_col = a.column;
  std::int64_t i = 0;
  for (; i + kRows <= m; i += kRows)
    tile<kRows>(depth, a.at(i), a_row, a_col, b, ldb, c + i * ldc, ldc, low, high, rows_below(ends, i));
  const float* a_i = a.at(i);
  float* c_i = c + i * ldc;
  const PanelEnds ends_i = rows_below(ends, i);
  switch (m - i) {
    case 7: tile<7>(depth, a_i, a_row, a_col, b, ldb, c_i, ldc, low, high, ends_i); break;
    case 6: tile<6>(depth, a_i, a_row, a_col, b, ldb, c_i, ldc, low, high, ends_i); break;
    case 5: tile<5>(depth, a_i, a_row, a_col, b, ldb, c_i, ldc, low, high, ends_i); break;
    case 4: tile<4>(depth, a_i, a_row, a_col, b, ldb, c_i, ldc, low, high, ends_i); break;
    case 3: tile<3>(depth, a_i, a_row, a_col, b, ldb, c_i, ldc, low, high, ends_i); break;
    case 2: tile<2>(depth, a_i, a_row, a_col, b, ldb, c_i, ldc, low, high, ends_i); break;
    case 1: tile<1>(depth, a_i, a_row, a_col, b, ldb, c_i, ldc, low, high, ends_i); break;
    default: break;
  }
}

/// The lanes [0, count) of a 32-column tile as two 16-lane masks.
constexpr void edge_masks(std::int64_t count, __mmask16& low, __mmask16& high) noexcept {
  low = static_cast<__mmask16>(count >= kLanes ? 0xffffu : (1u << count) - 1u);
  high = static_cast<__mmask16>(count >= kColumns ? 0xffffu : count <= kLanes ? 0u : (1u << (count - kLanes)) - 1u);
}
}  // namespace avx512

/// multiply_avx2 with AVX-512F (a striped B in strips of avx512::kColumns).
ONNXMICRO_DETAIL_TARGET_AVX512 inline void multiply_avx512(std::int64_t m, std::int64_t n, std::int64_t k,
                                                           const ARows& a, const BColumns& b, float* c,
                                                           std::int64_t ldc, const float* row_bias,
                                                           const OutputClamp& clamp) noexcept {
  __mmask16 edge_low = 0, edge_high = 0;
  avx512::edge_masks(n % avx512::kColumns, edge_low, edge_high);
  const std::int64_t full_columns = n - n % avx512::kColumns;
  for (std::int64_t p0 = 0; p0 < k; p0 += kDepthAvx512) {
    const std::int64_t depth = k - p0 < kDepthAvx512 ? k - p0 : kDepthAvx512;
    const ARows a_p = a.from_depth(p0, depth);
    const PanelEnds ends = panel_ends(p0 == 0, p0 + depth >= k, row_bias, clamp);
    std::int64_t j = 0;
    if (m >= 1 && m <= avx512::kWideRows) {
      const std::int64_t strip_step = b.striped() ? b.strip_stride : avx512::kColumns;
      for (; j + avx512::kWideColumns <= full_columns; j += avx512::kWideColumns) {
        const float* b_j = b.at(p0, j);
        if (m == 1) avx512::wide<1>(depth, a_p.at(0), a_p.row, a_p.column, b_j, strip_step, b.row, c + j, ldc, ends);
        if (m == 2) avx512::wide<2>(depth, a_p.at(0), a_p.row, a_p.column, b_j, strip_step, b.row, c + j, ldc, ends);
      }
    }
    for (; j < full_columns; j += avx512::kColumns)
      avx512::strip(m, depth, a_p, b.at(p0, j), b.row, c + j, ldc, 0xffff, 0xffff, ends);
    if (full_columns < n) {
      avx512::strip(m, depth, a_p, b.at(p0, full_columns), b.row, c + full_columns, ldc, edge_low, edge_high, ends);
    }
  }
}

}  // namespace x86
}  // namespace gemm
}  // namespace kernels
ONNXMICRO_NAMESPACE_END

#endif  // ONNXMICRO_ENABLE_ISA_DISPATCH
