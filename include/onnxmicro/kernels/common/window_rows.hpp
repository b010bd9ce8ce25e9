// SPDX-License-Identifier: MIT
// 2-D sliding windows over float planes (1-D windows are planes of height 1) for depthwise Conv (multiply-add) and
// MaxPool (max), each output being `fill` combined with its taps inside the plane in row-major tap order, as the
// generic window walk visits them (results match it up to FMA rounding). Padding costs nothing and any kernel
// size, stride and dilation works.
//  - portable: per kernel tap, one strided update of every output row it reaches (no per-output bookkeeping);
//  - AVX2 (also the AVX-512 level): up to 32 outputs of a row at a time with all their taps accumulated in
//    registers (strides 1 and 2, where the taps stay inside the row), the few padded border outputs one by one;
//  - padded planes (strides 1 and 2, AVX2 and AVX-512, when the caller gives scratch: depthwise Conv): the plane
//    copied once with its padding (split into its stride phases), so that vectors run over the whole plane with no
//    border, tail or de-interleaving;
//  - max (MaxPool) on AVX2 and AVX-512: separably, each window's column maxima first, then their maxima along the row.
#pragma once
#include <cstdint>
#include <cstring>
#include <limits>

#include "onnxmicro/core/isa.hpp"
#include "onnxmicro/kernels/common/byte_rows.hpp"
#include "onnxmicro/kernels/common/lanes_x86.hpp"
#include "onnxmicro/kernels/common/output_clamp.hpp"
#include "onnxmicro/kernels/common/sliding_window.hpp"

#if ONNXMICRO_ENABLE_ISA_DISPATCH
#include <immintrin.h>
#elif defined(__SSE2__)
#include <emmintrin.h>
#endif

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {
namespace window_rows {

/// The geometry of one plane.
struct PlaneGeometry {
  std::int64_t in_h, in_w, out_h, out_w;
  std::int64_t kernel_h, kernel_w, stride_h, stride_w, pad_top, pad_left, dilation_h, dilation_w;
};

/// The plane of a 1-D or 2-D window (rank <= 2; callers check).
inline PlaneGeometry plane_of(const sliding_window::WindowGeometry& g) noexcept {
  const bool two_d = g.rank == 2;
  const int w = g.rank - 1;
  return PlaneGeometry{two_d ? g.input[0] : 1,     g.input[w],     two_d ? g.output[0] : 1,   g.output[w],
                       two_d ? g.kernel[0] : 1,    g.kernel[w],    two_d ? g.stride[0] : 1,   g.stride[w],
                       two_d ? g.pad_begin[0] : 0, g.pad_begin[w], two_d ? g.dilation[0] : 1, g.dilation[w]};
}

/// The output positions [first, last) whose input position o * stride - pad + offset lies in [0, size).
inline void valid_range(std::int64_t out_size, std::int64_t size, std::int64_t stride, std::int64_t pad,
                        std::int64_t offset, std::int64_t& first, std::int64_t& last) noexcept {
  const std::int64_t shift = offset - pad;  // input position of output position 0
  first = shift >= 0 ? 0 : (-shift + stride - 1) / stride;
  last = size - shift <= 0 ? 0 : (size - shift - 1) / stride + 1;
  if (last > out_size) last = out_size;
  if (first > last) first = last;
}

/// How a tap combines an input row into an output row.
enum class RowOp { multiply_add, max };

// ---- the row updates: for `rows` rows r, y_r[i] = op(y_r[i], x_r[i * stride]) for i in [0, count), where
// y_r = y + r * y_step and x_r = x + r * x_step. One call per kernel tap covers every output row it reaches, so the
// per-call cost (a call into another instruction set is never inlined) is paid once per tap and plane. ----

template <RowOp Op>
inline void update_rows_portable(std::int64_t rows, std::int64_t count, float w, const float* x, std::int64_t x_step,
                                 std::int64_t stride, float* y, std::int64_t y_step) noexcept {
  for (std::int64_t r = 0; r < rows; ++r, x += x_step, y += y_step) {
    for (std::int64_t i = 0; i < count; ++i) {
      const float v = x[i * stride];
      if constexpr (Op == RowOp::multiply_add) {
        y[i] += w * v;
      } else {
        y[i] = v > y[i] ? v : y[i];  // NaN compares false and never wins
      }
    }
  }
}

#if ONNXMICRO_ENABLE_ISA_DISPATCH
template <RowOp Op>
__attribute__((target("avx2,fma"))) inline __m256 combine_avx2(__m256 w, __m256 x, __m256 y) noexcept {
  if constexpr (Op == RowOp::multiply_add) {
    return _mm256_fmadd_ps(w, x, y);
  } else {
    return _mm256_max_ps(x, y);  // y where x is NaN, as the portable loop
  }
}

/// The 8 input values of 8 consecutive outputs' same tap: p[0..7] for stride 1, the even elements of p[0..15] for
/// stride 2 (two loads de-interleaved instead of a gather).
__attribute__((target("avx2,fma"))) inline __m256 load_lanes_avx2(const float* p, std::int64_t stride) noexcept {
  if (stride == 1) return _mm256_loadu_ps(p);
  const __m256 mixed = _mm256_shuffle_ps(_mm256_loadu_ps(p), _mm256_loadu_ps(p + 8), 0x88);
  return _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(mixed), 0xd8));
}

/// `Vectors` x 8 outputs of one row starting at input column `left` (every tap inside the row), each accumulating
/// all its taps in a register; independent accumulators hide the multiply-add latency.
template <RowOp Op, int Vectors>
__attribute__((target("avx2,fma"))) inline void window_vectors_avx2(const PlaneGeometry& g, const float* x,
                                                                    const float* weights, float fill, std::int64_t oy,
                                                                    std::int64_t left, float* y) noexcept {
  __m256 acc[Vectors];
#pragma GCC unroll 4
  for (int v = 0; v < Vectors; ++v) acc[v] = _mm256_set1_ps(fill);
  const std::int64_t lane_step = 8 * g.stride_w;
  for (std::int64_t ky = 0; ky < g.kernel_h; ++ky) {
    const std::int64_t iy = oy * g.stride_h - g.pad_top + ky * g.dilation_h;
    if (iy < 0 || iy >= g.in_h) continue;
    const float* x_tap = x + iy * g.in_w + left;
    for (std::int64_t kx = 0; kx < g.kernel_w; ++kx, x_tap += g.dilation_w) {
      const __m256 w = _mm256_set1_ps(Op == RowOp::multiply_add ? weights[ky * g.kernel_w + kx] : 0.0f);
#pragma GCC unroll 4
      for (int v = 0; v < Vectors; ++v) {
        acc[v] = combine_avx2<Op>(w, load_lanes_avx2(x_tap + v * lane_step, g.stride_w), acc[v]);
      }
    }
  }
#pragma GCC unroll 4
  for (int v = 0; v < Vectors; ++v) _mm256_storeu_ps(y + 8 * v, acc[v]);
}

/// One output (a border, or a stride without vectors): its taps inside the plane, in order.
template <RowOp Op>
__attribute__((target("avx2,fma"))) inline float window_output_avx2(const PlaneGeometry& g, const float* x,
                                                                    const float* weights, float fill, std::int64_t oy,
                                                                    std::int64_t left) noexcept {
  float sum = fill;
  for (std::int64_t ky = 0; ky < g.kernel_h; ++ky) {
    const std::int64_t iy = oy * g.stride_h - g.pad_top + ky * g.dilation_h;
    if (iy < 0 || iy >= g.in_h) continue;
    for (std::int64_t kx = 0; kx < g.kernel_w; ++kx) {
      const std::int64_t ix = left + kx * g.dilation_w;
      if (ix < 0 || ix >= g.in_w) continue;
      const float v = x[iy * g.in_w + ix];
      if constexpr (Op == RowOp::multiply_add) {
        sum = __builtin_fmaf(weights[ky * g.kernel_w + kx], v, sum);
      } else {
        sum = v > sum ? v : sum;
      }
    }
  }
  return sum;
}

// Narrow planes: rows of at most 32 outputs whose taps mostly touch padding (MobileNet's 7x7 and 14x14 maps).
constexpr std::int64_t kNarrowPlaneCapacity = 4096;  ///< floats of the column-padded copy of one input plane

/// The floats of one padded row of a narrow plane with `vectors` vectors per output row: every column its taps
/// read, the odd element a stride-2 de-interleave loads included.
inline std::int64_t narrow_row_width(const PlaneGeometry& g, std::int64_t vectors) noexcept {
  return (8 * vectors - 1) * g.stride_w + (g.kernel_w - 1) * g.dilation_w + g.stride_w + 1;
}

/// The plane with its columns padded: rows of `width` floats, input columns at pad_left.. and `pad` elsewhere.
/// `pad` never changes a result: 0 adds nothing to a sum, -inf never wins a max. (Rows outside the plane are
/// skipped by the caller instead, as the other paths skip them.)
__attribute__((target("avx2,fma"))) inline void pad_columns(const PlaneGeometry& g, const float* x, float pad,
                                                            std::int64_t width, float* padded) noexcept {
  for (std::int64_t j = 0; j < g.in_h * width; ++j) padded[j] = pad;
  const std::int64_t count = g.pad_left + g.in_w <= width ? g.in_w : width - g.pad_left;
  if (count <= 0) return;
  for (std::int64_t iy = 0; iy < g.in_h; ++iy)
    __builtin_memcpy(padded + iy * width + g.pad_left, x + iy * g.in_w,
                     static_cast<std::size_t>(count) * sizeof(float));
}

/// A narrow plane, every output a vector lane: the plane is copied once with padded columns, so borders need no
/// special case.
template <RowOp Op, int Vectors>
__attribute__((target("avx2,fma"))) inline void window_narrow_plane_avx2(const PlaneGeometry& g, const float* x,
                                                                         const float* weights, float fill,
                                                                         float* y) noexcept {
  const float pad = Op == RowOp::multiply_add ? 0.0f : -__builtin_inff();
  const std::int64_t width = narrow_row_width(g, Vectors);
  const std::int64_t lane_step = 8 * g.stride_w;
  const std::int64_t tail = g.out_w - 8 * (Vectors - 1);  // lanes of the last vector
  alignas(32) float padded[kNarrowPlaneCapacity];
  pad_columns(g, x, pad, width, padded);
  for (std::int64_t oy = 0; oy < g.out_h; ++oy) {
    __m256 acc[Vectors];
#pragma GCC unroll 4
    for (int v = 0; v < Vectors; ++v) acc[v] = _mm256_set1_ps(fill);
    for (std::int64_t ky = 0; ky < g.kernel_h; ++ky) {
      const std::int64_t iy = oy * g.stride_h - g.pad_top + ky * g.dilation_h;
      if (iy < 0 || iy >= g.in_h) continue;
      const float* row = padded + iy * width;
      for (std::int64_t kx = 0; kx < g.kernel_w; ++kx) {
        const __m256 w = _mm256_set1_ps(Op == RowOp::multiply_add ? weights[ky * g.kernel_w + kx] : 0.0f);
        const float* tap = row + kx * g.dilation_w;
#pragma GCC unroll 4
        for (int v = 0; v < Vectors; ++v) {
          acc[v] = combine_avx2<Op>(w, load_lanes_avx2(tap + v * lane_step, g.stride_w), acc[v]);
        }
      }
    }
    float* y_row = y + oy * g.out_w;
#pragma GCC unroll 4
    for (int v = 0; v + 1 < Vectors; ++v) _mm256_storeu_ps(y_row + 8 * v, acc[v]);
    lanes_x86::store_first(y_row + 8 * (Vectors - 1), acc[Vectors - 1], tail);
  }
}

// MaxPool's planes, separably: a maximum over a window is the maximum over its columns of each column's maximum over
// the window's rows, so each output row takes one vertical pass over its input rows (stride-1 loads) and one
// horizontal pass over the column maxima, then keeps every stride-th: kernel_h + kernel_w operations per output
// instead of kernel_h x kernel_w de-interleaved loads. Both passes start from the lowest float and skip NaN (max
// keeps the accumulator on NaN), padding is the lowest float: the same maxima as the window walk. (Only a tie of +0
// and -0 may keep the other zero: the order in which the taps meet changes.)

constexpr std::int64_t kSeparableCapacity = 8192;  ///< floats of the column maxima of a block of output rows

/// Column maxima an output row needs (v below): the padded columns its windows span, rounded so that the vector
/// passes may read whole vectors past the end.
inline std::int64_t separable_columns(const PlaneGeometry& g) noexcept {
  const std::int64_t outputs = (g.out_w + 7) / 8 * 8;
  return outputs * g.stride_w + (g.kernel_w - 1) * g.dilation_w + 8;
}

/// Most window rows the separable path takes (kernel_h).
constexpr std::int64_t kSeparableMaxRows = 16;

/// Whether max_plane_separable_avx2 takes the plane: strides 1 and 2 along the row, a few rows' maxima in the buffer.
inline bool separable_max_plane(const PlaneGeometry& g) noexcept {
  return (g.stride_w == 1 || g.stride_w == 2) && g.out_w >= 1 && g.kernel_h <= kSeparableMaxRows &&
         g.pad_left < separable_columns(g) && 4 * separable_columns(g) <= kSeparableCapacity;
}

/// max over rows[0, count) of 8 x Vectors floats from column c, into v + c.
template <int Vectors>
__attribute__((target("avx2,fma"))) inline void column_vectors_avx2(const float* const* rows, std::int64_t count,
                                                                    std::int64_t c, float* v) noexcept {
  __m256 acc[Vectors];
#pragma GCC unroll 4
  for (int u = 0; u < Vectors; ++u) acc[u] = _mm256_set1_ps(std::numeric_limits<float>::lowest());
  for (std::int64_t r = 0; r < count; ++r) {
#pragma GCC unroll 4
    for (int u = 0; u < Vectors; ++u) acc[u] = _mm256_max_ps(_mm256_loadu_ps(rows[r] + c + 8 * u), acc[u]);
  }
#pragma GCC unroll 4
  for (int u = 0; u < Vectors; ++u) _mm256_storeu_ps(v + c + 8 * u, acc[u]);
}

/// v[pad_left + c] = the maximum over the window rows of output row oy of column c, c < count (lowest where no row
/// is inside the plane).
__attribute__((target("avx2,fma"))) inline void column_maxima_avx2(const PlaneGeometry& g, const float* x,
                                                                   std::int64_t oy, std::int64_t count,
                                                                   float* v) noexcept {
  const float* rows[kSeparableMaxRows];
  std::int64_t inside = 0;
  for (std::int64_t ky = 0; ky < g.kernel_h; ++ky) {
    const std::int64_t iy = oy * g.stride_h - g.pad_top + ky * g.dilation_h;
    if (iy >= 0 && iy < g.in_h) rows[inside++] = x + iy * g.in_w;
  }
  v += g.pad_left;
  std::int64_t c = 0;
  for (; c + 32 <= count; c += 32) column_vectors_avx2<4>(rows, inside, c, v);
  for (; c + 8 <= count; c += 8) column_vectors_avx2<1>(rows, inside, c, v);
  if (c < count && count >= 8) column_vectors_avx2<1>(rows, inside, count - 8, v);  // overlaps: the same values
  if (count >= 8) return;
  for (; c < count; ++c) {
    float acc = std::numeric_limits<float>::lowest();
    for (std::int64_t r = 0; r < inside; ++r) acc = rows[r][c] > acc ? rows[r][c] : acc;
    v[c] = acc;
  }
}

/// Output row oy from its column maxima v: the maximum of each window's columns, every stride-th kept.
__attribute__((target("avx2,fma"))) inline void row_maxima_avx2(const PlaneGeometry& g, const float* v, float* h,
                                                                float* y_row) noexcept {
  const std::int64_t starts = (g.out_w + 7) / 8 * 8 * g.stride_w;  // window starts the maxima are taken at
  for (std::int64_t j = 0; j < starts; j += 16) {                  // (starts: a multiple of 8; h has room for 8 more)
    __m256 first = _mm256_set1_ps(std::numeric_limits<float>::lowest()), second = first;
    for (std::int64_t kx = 0; kx < g.kernel_w; ++kx) {
      first = _mm256_max_ps(_mm256_loadu_ps(v + j + kx * g.dilation_w), first);
      second = _mm256_max_ps(_mm256_loadu_ps(v + j + 8 + kx * g.dilation_w), second);
    }
    _mm256_store_ps(h + j, first);
    _mm256_store_ps(h + j + 8, second);
  }
  std::int64_t ox = 0;
  for (; ox + 8 < g.out_w; ox += 8) _mm256_storeu_ps(y_row + ox, load_lanes_avx2(h + ox * g.stride_w, g.stride_w));
  lanes_x86::store_first(y_row + ox, load_lanes_avx2(h + ox * g.stride_w, g.stride_w), g.out_w - ox);
}

/// The plane's maxima (fill: the lowest float), separably: the column maxima of a block of output rows first, then
/// their rows (read back long after they were stored: loads that straddle stores still in flight would stall).
__attribute__((target("avx2,fma"))) inline void max_plane_separable_avx2(const PlaneGeometry& g, const float* x,
                                                                         float* y) noexcept {
  alignas(32) float v[kSeparableCapacity];
  alignas(32) float h[kSeparableCapacity / 4 + 8];
  const float lowest = std::numeric_limits<float>::lowest();
  const std::int64_t columns = separable_columns(g);
  const std::int64_t block = kSeparableCapacity / columns < g.out_h ? kSeparableCapacity / columns : g.out_h;
  const std::int64_t inside = g.pad_left + g.in_w < columns ? g.in_w : columns - g.pad_left;
  for (std::int64_t r = 0; r < block; ++r) {  // the padding columns (the inside ones are rewritten per row)
    for (std::int64_t j = 0; j < g.pad_left; ++j) v[r * columns + j] = lowest;
    for (std::int64_t j = g.pad_left + inside; j < columns; ++j) v[r * columns + j] = lowest;
  }
  for (std::int64_t first = 0; first < g.out_h; first += block) {
    const std::int64_t rows = g.out_h - first < block ? g.out_h - first : block;
    for (std::int64_t r = 0; r < rows; ++r) column_maxima_avx2(g, x, first + r, inside, v + r * columns);
    for (std::int64_t r = 0; r < rows; ++r) row_maxima_avx2(g, v + r * columns, h, y + (first + r) * g.out_w);
  }
}

/// Whether window_narrow_plane_avx2 takes the plane: strides 1 and 2, at most 32 outputs a row, and a padded copy
/// that fits its buffer.
inline bool narrow_plane(const PlaneGeometry& g) noexcept {
  if ((g.stride_w != 1 && g.stride_w != 2) || g.out_w > 32 || g.out_w < 1) return false;
  const std::int64_t width = narrow_row_width(g, (g.out_w + 7) / 8);
  return g.in_h * width <= kNarrowPlaneCapacity && g.pad_left < width;
}

/// The whole plane with AVX2 (also the AVX-512 level's: short rows gain nothing from 16 lanes). Per row, the
/// outputs whose taps all read inside the row (strides 1 and 2) go 32, 16 or 8 at a time (a last vector may
/// overlap the previous one, recomputing the same values); the few border outputs that touch padding go one at
/// a time.
template <RowOp Op>
__attribute__((target("avx2,fma"))) inline void window_plane_avx2(const PlaneGeometry& g, const float* x,
                                                                  const float* weights, float fill, float* y) noexcept {
  // Interior outputs [begin, end): input column ox * stride - pad >= 0 and the last tap (plus the odd element a
  // stride-2 de-interleave loads) < in_w.
  const std::int64_t span = (g.kernel_w - 1) * g.dilation_w + (g.stride_w - 1);
  std::int64_t begin = (g.pad_left + g.stride_w - 1) / g.stride_w;
  std::int64_t end = g.in_w - 1 - span + g.pad_left < 0 ? 0 : (g.in_w - 1 - span + g.pad_left) / g.stride_w + 1;
  if (end > g.out_w) end = g.out_w;
  if (begin > end || (g.stride_w != 1 && g.stride_w != 2) || end - begin < 8) {
    if (narrow_plane(g)) {
      switch ((g.out_w + 7) / 8) {
        case 1: return window_narrow_plane_avx2<Op, 1>(g, x, weights, fill, y);
        case 2: return window_narrow_plane_avx2<Op, 2>(g, x, weights, fill, y);
        case 3: return window_narrow_plane_avx2<Op, 3>(g, x, weights, fill, y);
        default: return window_narrow_plane_avx2<Op, 4>(g, x, weights, fill, y);
      }
    }
    begin = end = g.out_w;
  }
  for (std::int64_t oy = 0; oy < g.out_h; ++oy) {
    float* y_row = y + oy * g.out_w;
    for (std::int64_t ox = 0; ox < begin; ++ox)
      y_row[ox] = window_output_avx2<Op>(g, x, weights, fill, oy, ox * g.stride_w - g.pad_left);
    std::int64_t ox = begin;
    while (ox < end) {
      std::int64_t vectors = (end - ox) / 8;
      if (vectors == 0) ox = end - 8;  // the last vector overlaps the previous one
      vectors = vectors > 4 ? 4 : vectors < 1 ? 1 : vectors;
      const std::int64_t left = ox * g.stride_w - g.pad_left;
      switch (vectors) {
        case 4: window_vectors_avx2<Op, 4>(g, x, weights, fill, oy, left, y_row + ox); break;
        case 3: window_vectors_avx2<Op, 3>(g, x, weights, fill, oy, left, y_row + ox); break;
        case 2: window_vectors_avx2<Op, 2>(g, x, weights, fill, oy, left, y_row + ox); break;
        default: window_vectors_avx2<Op, 1>(g, x, weights, fill, oy, left, y_row + ox); break;
      }
      ox += 8 * vectors;
    }
    for (ox = end > begin ? end : begin; ox < g.out_w; ++ox)
      y_row[ox] = window_output_avx2<Op>(g, x, weights, fill, oy, ox * g.stride_w - g.pad_left);
  }
}
#endif

// ---- Padded planes (strides 1 and 2). Output (r, c) reads padded input (r * stride_h + ky * dilation_h, c * stride_w
// + kx * dilation_w), padded row/column q being input q - pad_top / q - pad_left. The padded plane is copied once into
// scratch as its stride phases: phase (a, b) holds the padded rows a, a + stride_h, ... and columns b, b + stride_w,
// ..., with rows as wide as the output grid computed from it, so each tap reads one phase at one fixed offset from
// the output's flat grid index: vectors run over the flat grid (crossing row ends, no empty lanes on 14- or 7-wide
// rows), a tap is one load and one multiply-add at unit stride (a stride-2 conv de-interleaves each input value once,
// in the copy, instead of once per tap), and the grid's extra columns are dropped when its rows are copied out.
// Padding is the copy's `pad` value (0 adds nothing, -inf never wins a max); taps are accumulated in row-major order,
// as on the other paths. ----

constexpr std::int64_t kMaxPaddedTaps = 64;       ///< kernel_h * kernel_w the tap table holds
constexpr std::int64_t kPaddedGridStep = 64;      ///< outputs per step (4 vectors of 16)
constexpr std::int64_t kPaddedGridStepAvx2 = 32;  ///< AVX2's (4 vectors of 8)
constexpr std::int64_t kPhaseSlack = 16;          ///< floats past each phase's spare row (a copy's last vector)

/// The padded plane's phases and output grid of a plane geometry; `columns` is 0 when the path does not take it.
struct PaddedLayout {
  std::int64_t rows = 0, columns = 0;  ///< of each phase; `columns` is also the output grid's width
  std::int64_t phase_floats = 0;       ///< from one phase to the next: its rows, a spare row and kPhaseSlack
  std::int64_t plane_floats = 0;       ///< the phases, with room for the last step's reads
  std::int64_t grid_floats = 0;        ///< the output grid, with room for the last step's writes
};

/// Whether the phases take a stride: 1, or 2 where every phase holds taps (dilation 1, kernel 2 or more; a 1x1
/// stride-2 window would copy four phases to read one).
inline bool phase_stride(std::int64_t stride, std::int64_t kernel, std::int64_t dilation) noexcept {
  return stride == 1 || (stride == 2 && dilation == 1 && kernel >= 2);
}

inline PaddedLayout padded_layout(const PlaneGeometry& g) noexcept {
  PaddedLayout l;
  if (!phase_stride(g.stride_h, g.kernel_h, g.dilation_h) || !phase_stride(g.stride_w, g.kernel_w, g.dilation_w) ||
      g.dilation_h < 1 || g.dilation_w < 1 || g.out_h < 1 || g.out_w < 1 || g.kernel_h * g.kernel_w > kMaxPaddedTaps)
    return l;
  l.columns = g.out_w + (((g.kernel_w - 1) * g.dilation_w) >> (g.stride_w - 1));  // (strides 1 and 2: shifts)
  l.rows = g.out_h + (((g.kernel_h - 1) * g.dilation_h) >> (g.stride_h - 1));
  // A phase's copy writes up to a vector past a row (into the next row, the spare one or the slack); the last step
  // reads up to a step past the grid from the last tap on.
  l.phase_floats = (l.rows + 1) * l.columns + kPhaseSlack;
  l.plane_floats = g.stride_h * g.stride_w * l.phase_floats + kPaddedGridStep;
  l.grid_floats = g.out_h * l.columns + kPaddedGridStep;
  if (l.plane_floats > (std::int64_t{1} << 28)) return PaddedLayout{};
  return l;
}

/// Scratch floats window_plane needs for the padded path on `g` (0: the plane does not take it).
inline std::int64_t padded_scratch_floats(const PlaneGeometry& g) noexcept {
  const PaddedLayout l = padded_layout(g);
  return l.columns > 0 ? l.plane_floats + l.grid_floats : 0;
}

/// Offset of tap (ky, kx)'s read from the grid's flat index: row (ky * dilation_h) / stride_h and column
/// (kx * dilation_w) / stride_w of phase ((ky * dilation_h) % stride_h, (kx * dilation_w) % stride_w).
inline std::int64_t padded_tap_offset(const PlaneGeometry& g, const PaddedLayout& l, std::int64_t ky,
                                      std::int64_t kx) noexcept {
  const std::int64_t dy = ky * g.dilation_h, dx = kx * g.dilation_w;  // (strides 1 and 2: masks and shifts)
  const std::int64_t phase = (dy & (g.stride_h - 1)) * g.stride_w + (dx & (g.stride_w - 1));
  return phase * l.phase_floats + (dy >> (g.stride_h - 1)) * l.columns + (dx >> (g.stride_w - 1));
}

/// Where the grid's reads of the padded plane end, the grid computed `step` outputs at a time: the tap that reads
/// furthest, plus the whole steps over the grid. Only [the last phase's rows, that) of the room past the phases'
/// rows is padded per plane (the whole room cost a 7x7 plane a third of its time); the other phases' spare rows
/// are read only by the grid's extra columns and lanes, which are dropped.
inline std::int64_t padded_reads_end(const PlaneGeometry& g, const PaddedLayout& l, std::int64_t step) noexcept {
  std::int64_t furthest = 0;
  for (std::int64_t ky = 0; ky < g.kernel_h; ++ky)
    for (std::int64_t kx = 0; kx < g.kernel_w; ++kx) {
      const std::int64_t offset = padded_tap_offset(g, l, ky, kx);
      furthest = offset > furthest ? offset : furthest;
    }
  const std::int64_t end = furthest + (g.out_h * l.columns + step - 1) / step * step;
  return end < l.plane_floats ? end : l.plane_floats;
}

/// Where the copy of the last phase's rows ends (the padding of padded_reads_end starts there).
inline std::int64_t padded_rows_end(const PlaneGeometry& g, const PaddedLayout& l) noexcept {
  return (g.stride_h * g.stride_w - 1) * l.phase_floats + l.rows * l.columns;
}

/// What the padded path works out from a plane's geometry alone: made once for all the planes of a node
/// (plan_padded), it spares each plane the layout's arithmetic and loops (a 7 x 7 plane's taps take about as long).
struct PaddedPlan {
  Isa isa = Isa::baseline;
  PlaneGeometry g{};
  PaddedLayout l{};                           ///< columns 0: the plane does not take the padded path
  std::int64_t taps = 0;                      ///< kernel_h * kernel_w
  std::int64_t offsets[kMaxPaddedTaps] = {};  ///< each tap's read from the grid's flat index (padded_tap_offset)
  std::int64_t rows_end = 0, reads_end = 0;   ///< the padding past the last phase's rows (padded_reads_end)
  bool taken() const noexcept { return l.columns > 0; }
};

/// The padded path's plan of `g` on `isa` (not taken: the geometry or the instruction set has no padded path).
inline PaddedPlan plan_padded(Isa isa, const PlaneGeometry& g) noexcept {
  PaddedPlan p;
  if (isa != Isa::avx2 && isa != Isa::avx512) return p;
  p.isa = isa, p.g = g, p.l = padded_layout(g);
  if (!p.taken()) return p;
  for (std::int64_t ky = 0; ky < g.kernel_h; ++ky)
    for (std::int64_t kx = 0; kx < g.kernel_w; ++kx) p.offsets[p.taps++] = padded_tap_offset(g, p.l, ky, kx);
  p.rows_end = padded_rows_end(g, p.l);
  p.reads_end = padded_reads_end(g, p.l, isa == Isa::avx512 ? kPaddedGridStep : kPaddedGridStepAvx2);
  return p;
}

#if ONNXMICRO_ENABLE_ISA_DISPATCH

/// The input row that row r of phase (a, ·) copies: null in the padding.
inline const float* padded_row_source(const PlaneGeometry& g, const float* x, std::int64_t a, std::int64_t r) noexcept {
  const std::int64_t iy = r * g.stride_h + a - g.pad_top;
  return iy >= 0 && iy < g.in_h ? x + iy * g.in_w : nullptr;
}

/// Input columns [column, column + 16) of `line` (all `pad` when null), masked loads reading only the row.
__attribute__((target("avx512f"), always_inline)) inline __m512 load_padded_avx512(const PlaneGeometry& g,
                                                                                   const float* line,
                                                                                   std::int64_t column,
                                                                                   __m512 pad) noexcept {
  if (line == nullptr) return pad;
  const __m512i lane = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
  const __m512i at = _mm512_add_epi32(_mm512_set1_epi32(static_cast<int>(column)), lane);
  const __mmask16 in_row = _mm512_cmplt_epu32_mask(at, _mm512_set1_epi32(static_cast<int>(g.in_w)));
  return _mm512_mask_loadu_ps(pad, in_row, line + column);
}

/// Copies every phase of the padded plane into scratch, row r of each phase in turn, 16 floats a step (a stride-2
/// row's 32 input columns de-interleaved into phases (a, 0) and (a, 1)). A step may spill past its row: into the
/// next row (rewritten when it is copied), the spare row or the slack.
__attribute__((target("avx512f"))) inline void fill_padded_avx512(const PlaneGeometry& g, const PaddedLayout& l,
                                                                  const float* x, float pad, float* plane) noexcept {
  const __m512 pad_v = _mm512_set1_ps(pad);
  const __m512i lane = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
  const __m512i evens = _mm512_add_epi32(lane, lane), odds = _mm512_add_epi32(evens, _mm512_set1_epi32(1));
  for (std::int64_t r = 0; r < l.rows; ++r) {
    for (std::int64_t a = 0; a < g.stride_h; ++a) {
      const float* line = padded_row_source(g, x, a, r);
      float* row = plane + a * g.stride_w * l.phase_floats + r * l.columns;
      for (std::int64_t j = 0; j < l.columns; j += 16) {
        const std::int64_t column = j * g.stride_w - g.pad_left;  // input column of phase 0's lane 0
        const __m512 low = load_padded_avx512(g, line, column, pad_v);
        if (g.stride_w == 1) {
          _mm512_storeu_ps(row + j, low);
          continue;
        }
        const __m512 high = load_padded_avx512(g, line, column + 16, pad_v);
        _mm512_storeu_ps(row + j, _mm512_permutex2var_ps(low, evens, high));
        _mm512_storeu_ps(row + l.phase_floats + j, _mm512_permutex2var_ps(low, odds, high));
      }
    }
  }
}

/// load_padded_avx512 with AVX2: columns [column, column + 8).
__attribute__((target("avx2,fma"), always_inline)) inline __m256 load_padded_avx2(const PlaneGeometry& g,
                                                                                  const float* line,
                                                                                  std::int64_t column,
                                                                                  __m256 pad) noexcept {
  if (line == nullptr) return pad;
  const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  const __m256i at = _mm256_add_epi32(_mm256_set1_epi32(static_cast<int>(column)), lane);
  const __m256i in_row = _mm256_and_si256(_mm256_cmpgt_epi32(at, _mm256_set1_epi32(-1)),
                                          _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int>(g.in_w)), at));
  return _mm256_blendv_ps(pad, _mm256_maskload_ps(line + column, in_row), _mm256_castsi256_ps(in_row));
}

/// fill_padded_avx512 with AVX2, 8 floats a step.
__attribute__((target("avx2,fma"))) inline void fill_padded_avx2(const PlaneGeometry& g, const PaddedLayout& l,
                                                                 const float* x, float pad, float* plane) noexcept {
  const __m256 pad_v = _mm256_set1_ps(pad);
  for (std::int64_t r = 0; r < l.rows; ++r) {
    for (std::int64_t a = 0; a < g.stride_h; ++a) {
      const float* line = padded_row_source(g, x, a, r);
      float* row = plane + a * g.stride_w * l.phase_floats + r * l.columns;
      for (std::int64_t j = 0; j < l.columns; j += 8) {
        const std::int64_t column = j * g.stride_w - g.pad_left;
        const __m256 low = load_padded_avx2(g, line, column, pad_v);
        if (g.stride_w == 1) {
          _mm256_storeu_ps(row + j, low);
          continue;
        }
        const __m256 high = load_padded_avx2(g, line, column + 8, pad_v);
        // lanes 0 2 8 10 | 4 6 12 14 (and the odd ones), then the 64-bit pairs reordered
        const __m256d even = _mm256_castps_pd(_mm256_shuffle_ps(low, high, 0x88));
        const __m256d odd = _mm256_castps_pd(_mm256_shuffle_ps(low, high, 0xdd));
        _mm256_storeu_ps(row + j, _mm256_castpd_ps(_mm256_permute4x64_pd(even, 0xd8)));
        _mm256_storeu_ps(row + l.phase_floats + j, _mm256_castpd_ps(_mm256_permute4x64_pd(odd, 0xd8)));
      }
    }
  }
}

template <RowOp Op>
__attribute__((target("avx512f"))) inline __m512 combine_avx512(__m512 w, __m512 x, __m512 y) noexcept {
  if constexpr (Op == RowOp::multiply_add) {
    return _mm512_fmadd_ps(w, x, y);
  } else {
    return _mm512_maskz_max_ps(0xffff, x, y);  // y where x is NaN (the masked form: see gemm_x86.hpp)
  }
}

/// grid[o] = Op over the taps t of (weights[t], plane[offsets[t] + o]) from `fill`, for o < round_up(outputs, 64),
/// 64 outputs (4 vectors) a step, each accumulating every tap in a register: a window over a flat grid (the padded
/// plane's, or a quantized depthwise conv's phase planes), reading up to a step past the last output's taps.
template <RowOp Op>
__attribute__((target("avx512f"))) inline void tap_grid_avx512(const float* plane, const std::int64_t* offsets,
                                                               std::int64_t taps, const float* weights, float fill,
                                                               std::int64_t outputs, float* grid) noexcept {
  for (std::int64_t o = 0; o < outputs; o += kPaddedGridStep) {
    __m512 acc[4];
#pragma GCC unroll 4
    for (int v = 0; v < 4; ++v) acc[v] = _mm512_set1_ps(fill);
    for (std::int64_t t = 0; t < taps; ++t) {
      const __m512 w = _mm512_set1_ps(Op == RowOp::multiply_add ? weights[t] : 0.0f);
      const float* tap = plane + offsets[t] + o;
#pragma GCC unroll 4
      for (int v = 0; v < 4; ++v) acc[v] = combine_avx512<Op>(w, _mm512_loadu_ps(tap + 16 * v), acc[v]);
    }
#pragma GCC unroll 4
    for (int v = 0; v < 4; ++v) _mm512_storeu_ps(grid + o + 16 * v, acc[v]);
  }
}

/// tap_grid_avx512 with AVX2: 32 outputs (4 vectors) a step.
template <RowOp Op>
__attribute__((target("avx2,fma"))) inline void tap_grid_avx2(const float* plane, const std::int64_t* offsets,
                                                              std::int64_t taps, const float* weights, float fill,
                                                              std::int64_t outputs, float* grid) noexcept {
  for (std::int64_t o = 0; o < outputs; o += kPaddedGridStepAvx2) {
    __m256 acc[4];
#pragma GCC unroll 4
    for (int v = 0; v < 4; ++v) acc[v] = _mm256_set1_ps(fill);
    for (std::int64_t t = 0; t < taps; ++t) {
      const __m256 w = _mm256_set1_ps(Op == RowOp::multiply_add ? weights[t] : 0.0f);
      const float* tap = plane + offsets[t] + o;
#pragma GCC unroll 4
      for (int v = 0; v < 4; ++v) acc[v] = combine_avx2<Op>(w, _mm256_loadu_ps(tap + 8 * v), acc[v]);
    }
#pragma GCC unroll 4
    for (int v = 0; v < 4; ++v) _mm256_storeu_ps(grid + o + 8 * v, acc[v]);
  }
}

/// clamp_lanes_avx2(v) when Clamped, else v.
template <bool Clamped>
__attribute__((target("avx2,fma"))) inline __m256 clamped_if(__m256 v, __m256 lowest, __m256 highest) noexcept {
  return Clamped ? clamp_lanes_avx2(v, lowest, highest) : v;
}

/// The plane's rows from the output grid (rows `columns` wide), 8 floats a step, each row's last ones
/// masked, clamped on the way when `clamp` is enabled (Conv's fused Relu/Clip costs no pass of its own).
template <bool Clamped>
__attribute__((target("avx2,fma"))) inline void copy_grid_rows(const PlaneGeometry& g, const PaddedLayout& l,
                                                               const float* grid, float* y,
                                                               const OutputClamp& clamp) noexcept {
  const std::int64_t tail = g.out_w % 8 == 0 ? 8 : g.out_w % 8;
  const std::int64_t body = g.out_w - tail;
  const __m256 lowest = _mm256_set1_ps(clamp.low), highest = _mm256_set1_ps(clamp.high);
  for (std::int64_t r = 0; r < g.out_h; ++r) {
    const float* from = grid + r * l.columns;
    float* to = y + r * g.out_w;
    for (std::int64_t j = 0; j < body; j += 8)
      _mm256_storeu_ps(to + j, clamped_if<Clamped>(_mm256_loadu_ps(from + j), lowest, highest));
    lanes_x86::store_first(to + body, clamped_if<Clamped>(_mm256_loadu_ps(from + body), lowest, highest), tail);
  }
}

/// values[0, count) clamped in place with AVX2 (OutputClamp::apply_to's results).
__attribute__((target("avx2,fma"))) inline void clamp_avx2(float* values, std::int64_t count,
                                                           const OutputClamp& clamp) noexcept {
  const __m256 lowest = _mm256_set1_ps(clamp.low), highest = _mm256_set1_ps(clamp.high);
  std::int64_t i = 0;
  for (; i + 8 <= count; i += 8)
    _mm256_storeu_ps(values + i, clamp_lanes_avx2(_mm256_loadu_ps(values + i), lowest, highest));
  for (; i < count; ++i) values[i] = clamp.apply(values[i]);
}

/// tap_grid_avx512 at the avx512 level `isa`, else tap_grid_avx2 (an AVX2 level or above).
template <RowOp Op>
inline void tap_grid(Isa isa, const float* plane, const std::int64_t* offsets, std::int64_t taps, const float* weights,
                     float fill, std::int64_t outputs, float* grid) noexcept {
  if (isa == Isa::avx512) {
    tap_grid_avx512<Op>(plane, offsets, taps, weights, fill, outputs, grid);
  } else {
    tap_grid_avx2<Op>(plane, offsets, taps, weights, fill, outputs, grid);
  }
}

/// The whole plane through its padded copy in `scratch` (padded_scratch_floats(g) floats, non-zero), as `plan`
/// (taken) says: the phases copied in, the grid computed, its rows copied out. (Doing this a block of output rows
/// at a time, so that the block stayed in the first-level cache between the three, measured no faster on 112 x 112
/// planes.)
template <RowOp Op>
inline void window_padded_plane(const PaddedPlan& plan, const float* x, const float* weights, float fill, float* y,
                                float* scratch, const OutputClamp& clamp) noexcept {
  const PlaneGeometry& g = plan.g;
  const PaddedLayout& l = plan.l;
  const float pad = Op == RowOp::multiply_add ? 0.0f : -__builtin_inff();
  if (plan.isa == Isa::avx512) {
    fill_padded_avx512(g, l, x, pad, scratch);
  } else {
    fill_padded_avx2(g, l, x, pad, scratch);
  }
  for (std::int64_t j = plan.rows_end; j < plan.reads_end; ++j) scratch[j] = pad;
  float* grid = scratch + l.plane_floats;
  tap_grid<Op>(plan.isa, scratch, plan.offsets, plan.taps, weights, fill, g.out_h * l.columns, grid);
  if (clamp.enabled) {
    copy_grid_rows<true>(g, l, grid, y, clamp);
  } else {
    copy_grid_rows<false>(g, l, grid, y, clamp);
  }
}
#endif

/// y (out_h x out_w) = fill, then for each tap (ky, kx) in order, y = Op(y, weights[ky * kernel_w + kx], shifted x)
/// over the outputs whose input lies inside the plane; the weights are ignored for RowOp::max (pass nullptr).
/// With `scratch` of padded_scratch_floats(g) floats (non-zero: strides 1 and 2), AVX2 and AVX-512 take the padded
/// path.
/// Then `clamp` (a Conv's fused Relu/Clip; disabled by default), while the padded path copies its rows out.
template <RowOp Op>
inline void window_plane(Isa isa, const PlaneGeometry& g, const float* x, const float* weights, float fill, float* y,
                         float* scratch = nullptr, const OutputClamp& clamp = OutputClamp{}) noexcept {
#if ONNXMICRO_ENABLE_ISA_DISPATCH
  if (isa != Isa::baseline && scratch != nullptr && padded_layout(g).columns > 0)
    return window_padded_plane<Op>(plan_padded(isa, g), x, weights, fill, y, scratch, clamp);
  if (Op == RowOp::max && isa != Isa::baseline && fill == std::numeric_limits<float>::lowest() &&
      separable_max_plane(g))
    return max_plane_separable_avx2(g, x, y);
  if (isa != Isa::baseline) {
    window_plane_avx2<Op>(g, x, weights, fill, y);
    if (clamp.enabled) clamp_avx2(y, g.out_h * g.out_w, clamp);
    return;
  }
#endif
  static_cast<void>(isa);
  static_cast<void>(scratch);
  for (std::int64_t i = 0; i < g.out_h * g.out_w; ++i) y[i] = fill;
  for (std::int64_t ky = 0; ky < g.kernel_h; ++ky) {
    std::int64_t row_first = 0, row_last = 0;
    valid_range(g.out_h, g.in_h, g.stride_h, g.pad_top, ky * g.dilation_h, row_first, row_last);
    if (row_first >= row_last) continue;
    const std::int64_t iy = row_first * g.stride_h - g.pad_top + ky * g.dilation_h;
    for (std::int64_t kx = 0; kx < g.kernel_w; ++kx) {
      std::int64_t first = 0, last = 0;
      valid_range(g.out_w, g.in_w, g.stride_w, g.pad_left, kx * g.dilation_w, first, last);
      if (first >= last) continue;
      const float* x_first = x + iy * g.in_w + first * g.stride_w - g.pad_left + kx * g.dilation_w;
      const float w = weights != nullptr ? weights[ky * g.kernel_w + kx] : 0.0f;
      update_rows_portable<Op>(row_last - row_first, last - first, w, x_first, g.stride_h * g.in_w, g.stride_w,
                               y + row_first * g.out_w + first, g.out_w);
    }
  }
  clamp.apply_to(y, g.out_h * g.out_w);
}

/// window_plane for one of many planes of one geometry: through the padded path when `plan` (plan_padded of the
/// planes' geometry and instruction set, made once) is taken and `scratch` given, else as window_plane.
template <RowOp Op>
inline void window_plane(const PaddedPlan& plan, Isa isa, const PlaneGeometry& g, const float* x, const float* weights,
                         float fill, float* y, float* scratch, const OutputClamp& clamp) noexcept {
#if ONNXMICRO_ENABLE_ISA_DISPATCH
  if (plan.taken() && scratch != nullptr) return window_padded_plane<Op>(plan, x, weights, fill, y, scratch, clamp);
#endif
  static_cast<void>(plan);
  window_plane<Op>(isa, g, x, weights, fill, y, scratch, clamp);
}

// ---- 8-bit max pools: bytes as they are ------------------------------------------------------------------------
// A max needs no widening: the plane is pooled as bytes in their unsigned form (int8 with the sign bit flipped, an
// order-keeping map), separably: the maxima of each output row's window rows go into a row padded with zeros (the
// lowest byte, so a window's padding never wins and a window entirely in it gives the type's lowest), then each output
// takes the max of its columns; at stride 2 the padded row is first split into its even and odd bytes, so every tap
// is a unit-stride read. 16 bytes a step with SSE2; a row's last 16 overlap the vector before them (stores only: a
// max taken twice is the same max), so no byte goes through a scalar tail.

/// max_plane_bytes()'s row buffers: the padded row (its columns, zero slack past them), its even and odd bytes, and
/// the output row, each with a vector of slack.
struct MaxBytesRows {
  std::int64_t padded_w, half, out_w;
  explicit MaxBytesRows(const PlaneGeometry& g) noexcept {
    const std::int64_t span = (g.out_w - 1) * g.stride_w + g.kernel_w;  // padded columns the windows read
    padded_w = (span > g.pad_left + g.in_w ? span : g.pad_left + g.in_w) + 32;
    half = padded_w / 2 + 32;
    out_w = g.out_w + 16;
  }
  std::int64_t bytes() const noexcept { return 2 * padded_w + 2 * half + out_w; }
};

/// Bytes of max_plane_bytes()'s scratch for `g`.
inline std::int64_t max_bytes_scratch(const PlaneGeometry& g) noexcept { return MaxBytesRows(g).bytes(); }

/// Whether max_plane_bytes() pools `g`: strides 1 or 2 along the row, no dilation.
inline bool max_bytes_fit(const PlaneGeometry& g) noexcept {
  return (g.stride_w == 1 || g.stride_w == 2) && g.dilation_h == 1 && g.dilation_w == 1;
}

/// dst[i] = the max over rows r < count (at row + r * row_stride, count >= 1) of row[i] ^ flip, for i < width.
inline void max_rows_bytes(const std::uint8_t* row, std::int64_t row_stride, std::int64_t count, std::int64_t width,
                           std::uint8_t flip, std::uint8_t* dst) noexcept {
  std::int64_t i = 0;
#if defined(__SSE2__)
  if (width >= 16) {
    const __m128i f = _mm_set1_epi8(static_cast<char>(flip));
    for (;; i += 16) {
      if (i + 16 > width) i = width - 16;
      __m128i m = _mm_xor_si128(byte_rows::load_bytes(row + i), f);
      for (std::int64_t r = 1; r < count; ++r)
        m = _mm_max_epu8(m, _mm_xor_si128(byte_rows::load_bytes(row + r * row_stride + i), f));
      _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + i), m);
      if (i + 16 == width) return;
    }
  }
#endif
  for (; i < width; ++i) {
    std::uint8_t m = static_cast<std::uint8_t>(row[i] ^ flip);
    for (std::int64_t r = 1; r < count; ++r) {
      const std::uint8_t v = static_cast<std::uint8_t>(row[r * row_stride + i] ^ flip);
      m = v > m ? v : m;
    }
    dst[i] = m;
  }
}

/// out[o] = the max over taps k of a window's columns, for o < count: at stride 1 column o + k of `even` (the padded
/// row itself), at stride 2 column o + k / 2 of `even` (k even) or `odd`. out has a vector of slack; the rows are
/// readable to the last output's taps plus 15.
inline void max_window_bytes(const std::uint8_t* even, const std::uint8_t* odd, std::int64_t stride, std::int64_t taps,
                             std::int64_t count, std::uint8_t* out) noexcept {
  auto tap_row = [&](std::int64_t k) noexcept { return stride == 1 ? even + k : ((k & 1) ? odd : even) + k / 2; };
  std::int64_t o = 0;
#if defined(__SSE2__)
  for (; o < count; o += 16) {
    __m128i m = byte_rows::load_bytes(even + o);
    for (std::int64_t k = 1; k < taps; ++k) m = _mm_max_epu8(m, byte_rows::load_bytes(tap_row(k) + o));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + o), m);
  }
#endif
  for (; o < count; ++o) {
    std::uint8_t m = even[o];
    for (std::int64_t k = 1; k < taps; ++k) m = tap_row(k)[o] > m ? tap_row(k)[o] : m;
    out[o] = m;
  }
}

/// MaxPool of one plane of T (int8_t or uint8_t) with geometry g (max_bytes_fit), y = out_h x out_w; `scratch`:
/// max_bytes_scratch(g) bytes.
template <typename T>
inline void max_plane_bytes(const PlaneGeometry& g, const T* x, T* y, std::uint8_t* scratch) noexcept {
  const std::uint8_t flip = std::numeric_limits<T>::is_signed ? 0x80 : 0;
  const MaxBytesRows rows(g);
  std::uint8_t* padded = scratch;
  std::uint8_t* even = padded + 2 * rows.padded_w;
  std::uint8_t* odd = even + rows.half;
  std::uint8_t* out = odd + rows.half;
  std::memset(scratch, 0, static_cast<std::size_t>(rows.bytes()));  // (padding and slack stay zero)
  const std::uint8_t* bytes = reinterpret_cast<const std::uint8_t*>(x);
  for (std::int64_t oy = 0; oy < g.out_h; ++oy) {
    const std::int64_t top = oy * g.stride_h - g.pad_top;  // the window's rows [top, top + kernel_h), clipped
    const std::int64_t first = top > 0 ? top : 0;
    const std::int64_t end = top + g.kernel_h < g.in_h ? top + g.kernel_h : g.in_h;
    if (end > first) {
      max_rows_bytes(bytes + first * g.in_w, g.in_w, end - first, g.in_w, flip, padded + g.pad_left);
    } else {
      std::memset(padded + g.pad_left, 0, static_cast<std::size_t>(g.in_w));
    }
    if (g.stride_w == 2) byte_rows::split(padded, rows.padded_w / 2, even, odd);
    max_window_bytes(g.stride_w == 2 ? even : padded, odd, g.stride_w, g.kernel_w, g.out_w, out);
    byte_rows::copy_flipped(out, g.out_w, 1, flip, reinterpret_cast<std::uint8_t*>(y + oy * g.out_w));
  }
}

}  // namespace window_rows
}  // namespace kernels
ONNXMICRO_NAMESPACE_END
