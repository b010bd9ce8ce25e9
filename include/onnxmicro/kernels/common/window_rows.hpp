// SPDX-License-Identifier: MIT
// 2-D sliding windows over float planes (1-D windows are planes of height 1) for depthwise Conv (multiply-add) and
// MaxPool (max), each output being `fill` combined with its taps inside the plane in row-major tap order, as the
// generic window walk visits them (results match it up to FMA rounding). Padding costs nothing and any kernel
// size, stride and dilation works.
//  - portable: per kernel tap, one strided update of every output row it reaches (no per-output bookkeeping);
//  - AVX2 (also the AVX-512 level): up to 32 outputs of a row at a time with all their taps accumulated in
//    registers (strides 1 and 2, where the taps stay inside the row), the few padded border outputs one by one.
#pragma once
#include <cstdint>

#include "onnxmicro/core/isa.hpp"
#include "onnxmicro/kernels/common/sliding_window.hpp"

#if ONNXMICRO_ENABLE_ISA_DISPATCH
#include <immintrin.h>
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
  const __m256i tail_mask =
      _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int>(tail)), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
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
    _mm256_maskstore_ps(y_row + 8 * (Vectors - 1), tail_mask, acc[Vectors - 1]);
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

/// The output positions [first, last) whose input position o * stride - pad + offset lies in [0, size).
inline void valid_range(std::int64_t out_size, std::int64_t size, std::int64_t stride, std::int64_t pad,
                        std::int64_t offset, std::int64_t& first, std::int64_t& last) noexcept {
  const std::int64_t shift = offset - pad;  // input position of output position 0
  first = shift >= 0 ? 0 : (-shift + stride - 1) / stride;
  last = size - shift <= 0 ? 0 : (size - shift - 1) / stride + 1;
  if (last > out_size) last = out_size;
  if (first > last) first = last;
}

/// y (out_h x out_w) = fill, then for each tap (ky, kx) in order, y = Op(y, weights[ky * kernel_w + kx], shifted x)
/// over the outputs whose input lies inside the plane; the weights are ignored for RowOp::max (pass nullptr).
template <RowOp Op>
inline void window_plane(Isa isa, const PlaneGeometry& g, const float* x, const float* weights, float fill,
                         float* y) noexcept {
#if ONNXMICRO_ENABLE_ISA_DISPATCH
  if (isa != Isa::baseline) return window_plane_avx2<Op>(g, x, weights, fill, y);
#endif
  static_cast<void>(isa);
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
}

}  // namespace window_rows
}  // namespace kernels
ONNXMICRO_NAMESPACE_END
