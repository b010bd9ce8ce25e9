// SPDX-License-Identifier: MIT
// Winograd F(2x2, 3x3) on integers, for quantized stride-1 3x3 convolutions (QLinearConv): the float algorithm of
// common/winograd.hpp with the filter transform scaled by 4 so that it stays in integers,
//   U' = (2G) g (2G)ᵀ = 4 G g Gᵀ,   V = Bᵀ d B,   Y' = Aᵀ [sum over channels of U' ⊙ V] A = 4 Y,
// on operands already shifted by their zero points (g = w - w_zero, d = x - x_zero: at most 255 in magnitude).
// Every step is a ring operation that wraps modulo 2^32, so Y' is 4 x the direct sum modulo 2^32, and Y' / 4 is the
// direct sum itself whenever that sum stays below 2^29 in magnitude, which fits_exactly() proves from the weights at
// prepare. So, unlike the float version, it gives the direct path's bits, with 2.25x fewer multiply-adds.
// The operands fit the integer GEMM core's int16 (common/integer_gemm.hpp): |U'| <= 9 x 255, |V| <= 4 x 255.
//
// A block of tile rows of one image goes through two steps, each of which the caller may split over threads:
//  - transform_inputs(): per pair of channels, each channel's padded input rows (int16, even columns then odd, as
//    the float version keeps them) become V rows of the block's tiles, then the pair is packed into the 16 GEMMs'
//    B operands (one depth pair of each).
//  - multiply_outputs(): per panel of kRows output channels, the 16 products (int32), then each channel's tile rows
//    back through Aᵀ M A and / 4 into two rows of accumulators, handed to the caller (which requantises them).
// The transforms run on AVX2 (QLinearConv uses this only where the integer GEMM's AVX2 tile runs).
#pragma once
#include <cstdint>
#include <cstring>

#include "onnxmicro/core/isa.hpp"
#include "onnxmicro/kernels/common/integer_gemm.hpp"
#include "onnxmicro/kernels/common/winograd.hpp"

#if ONNXMICRO_ENABLE_ISA_DISPATCH
#include <immintrin.h>

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {
namespace integer_winograd {

using winograd::kPoints;
using winograd::Tiling;

/// U' = (2G) g (2G)ᵀ for one 3x3 filter `g` (row-major), with 2G = [2 0 0; 1 1 1; 1 -1 1; 0 0 2], into `u` (row-major).
inline void transform_filter(const int (&g)[9], int (&u)[kPoints]) noexcept {
  int t[4][3];
  for (int j = 0; j < 3; ++j) {
    const int a = g[j], b = g[3 + j], c = g[6 + j];
    t[0][j] = 2 * a, t[1][j] = a + b + c, t[2][j] = a - b + c, t[3][j] = 2 * c;
  }
  for (int i = 0; i < 4; ++i) {
    const int a = t[i][0], b = t[i][1], c = t[i][2];
    u[4 * i] = 2 * a, u[4 * i + 1] = a + b + c, u[4 * i + 2] = a - b + c, u[4 * i + 3] = 2 * c;
  }
}

/// Whether every output channel's sum stays below 2^29 in magnitude for any input: 255 x the sum of its |w - w_zero|
/// (`zero`: one value per channel `zero_stride` apart, or nullptr). Then Y' / 4 is exact (see the file comment).
template <typename TW>
inline bool fits_exactly(const TW* w, const TW* zero, std::int64_t zero_stride, std::int64_t out_channels,
                         std::int64_t channels) noexcept {
  constexpr std::int64_t kLimit = (std::int64_t(1) << 29) / 255;
  for (std::int64_t m = 0; m < out_channels; ++m) {
    const int z = zero != nullptr ? static_cast<int>(zero[m * zero_stride]) : 0;
    std::int64_t sum = 0;
    for (std::int64_t i = 0; i < channels * 9; ++i) {
      const int v = static_cast<int>(w[m * channels * 9 + i]) - z;
      sum += v < 0 ? -v : v;
    }
    if (sum >= kLimit) return false;
  }
  return true;
}

/// int16 elements of the packed filters (kPoints GEMM A operands of out_channels x channels).
inline std::int64_t filter_elements(std::int64_t out_channels, std::int64_t channels) noexcept {
  return kPoints * integer_gemm::packed_a_size(out_channels, channels);
}
/// Where the A panel of output channels [i0, i0 + kRows) of point xi starts in the packed filters: a panel's 16 points
/// one after another, so that the products read the filters as one sequential stream (16 streams a page apart
/// defeated the prefetcher on filters that come from memory).
inline std::int64_t filter_panel(std::int64_t i0, std::int64_t xi, std::int64_t channels) noexcept {
  const std::int64_t panel = integer_gemm::kRows * integer_gemm::packed_depth(channels);
  return (i0 / integer_gemm::kRows * kPoints + xi) * panel;
}

/// The transformed filters U'_xi of w - w_zero (M x C x 3 x 3) packed for the integer GEMM (filter_elements()).
template <typename TW>
inline void pack_filters(const TW* w, const TW* zero, std::int64_t zero_stride, std::int64_t out_channels,
                         std::int64_t channels, std::int16_t* dst) noexcept {
  const std::int64_t kp = integer_gemm::packed_depth(channels);
  std::memset(dst, 0, static_cast<std::size_t>(filter_elements(out_channels, channels)) * sizeof(std::int16_t));
  for (std::int64_t m = 0; m < out_channels; ++m) {
    const int z = zero != nullptr ? static_cast<int>(zero[m * zero_stride]) : 0;
    for (std::int64_t c = 0; c < channels; ++c) {
      int g[9], u[kPoints];
      for (int i = 0; i < 9; ++i) g[i] = static_cast<int>(w[(m * channels + c) * 9 + i]) - z;
      transform_filter(g, u);
      const std::int64_t at = integer_gemm::packed_a_index(m % integer_gemm::kRows, c, kp);
      for (int xi = 0; xi < kPoints; ++xi) dst[filter_panel(m, xi, channels) + at] = static_cast<std::int16_t>(u[xi]);
    }
  }
}

// ---- working memory ----------------------------------------------------------------------------------------------
// The transforms run whole vectors (16 tiles in, 8 out) past the end of a row of tiles rather than finish it one tile
// at a time (which took a third of a 64-channel 56x56 conv's time): the lanes past it read and write kSlack elements
// of slack after each padded input row, each point's V rows and the output rows, and their values are never used.

/// Elements of slack after each buffer a vector may run past.
constexpr std::int64_t kSlack = 16;
/// Elements from one padded input row to the next in transform_inputs()'s working memory.
inline std::int64_t row_stride(const Tiling& g) noexcept { return g.row_floats() + kSlack; }

/// Columns of a block's GEMMs: its tiles, rounded up to whole B panels.
inline std::int64_t block_columns(const Tiling& g, std::int64_t tile_rows) noexcept {
  return integer_gemm::round_up(tile_rows * g.tiles_w(), integer_gemm::kColumns);
}
/// int16 elements of a block's packed V: the 16 GEMMs' B operands, packed_b_size(channels, tiles) each.
inline std::int64_t packed_v_elements(const Tiling& g, std::int64_t channels, std::int64_t tile_rows) noexcept {
  return kPoints * integer_gemm::packed_b_size(channels, tile_rows * g.tiles_w());
}
/// int16 elements of transform_inputs()'s working memory: the padded input rows and a channel pair's V rows.
inline std::int64_t input_work_elements(const Tiling& g, std::int64_t tile_rows) noexcept {
  return Tiling::input_rows(tile_rows) * row_stride(g) + 2 * kPoints * (block_columns(g, tile_rows) + kSlack);
}
/// int32 elements of an output row of multiply_outputs() (two tiles' columns each, with slack).
inline std::int64_t output_row_elements(const Tiling& g) noexcept { return 2 * g.tiles_w() + kSlack; }
/// int32 elements of multiply_outputs()'s working memory: the 16 products of a tall tile's rows (two panels) and two
/// rows of accumulators.
inline std::int64_t output_work_elements(const Tiling& g, std::int64_t tile_rows) noexcept {
  return kPoints * integer_gemm::kTallRows * block_columns(g, tile_rows) + 2 * output_row_elements(g);
}

// ---- input transform ---------------------------------------------------------------------------------------------

/// Padded input row `iy` of `plane` (zeros outside), x - zero, as its even columns, then its odd ones (half_row()
/// values each), then kSlack zeros, into `out`: padded column q is input column q - pad_left.
template <typename T>
inline void fill_row(const Tiling& t, const T* plane, int zero, std::int64_t iy, std::int16_t* out) noexcept {
  const T* line = iy >= 0 && iy < t.in_h ? plane + iy * t.in_w : nullptr;
  const std::int64_t half = t.half_row();
  for (std::int64_t phase = 0; phase < 2; ++phase, out += half)
    integer_gemm::widen_phase(line, t.in_w, phase - t.pad_left, 2, zero, half, out);
  for (std::int64_t i = 0; i < kSlack; ++i) out[i] = 0;
}

#define ONNXMICRO_DETAIL_IWINOGRAD_AVX2 __attribute__((target("avx2"), always_inline))

/// Lane-wise arithmetic of the transforms: 16 int16 tiles per AVX2 vector (no lane overflows: |V| <= 4 x 255), 8
/// int32 per vector for the outputs (wrapping).
struct Int16x16 {
  using V = __m256i;
  ONNXMICRO_DETAIL_IWINOGRAD_AVX2 static V add(V a, V b) noexcept { return _mm256_add_epi16(a, b); }
  ONNXMICRO_DETAIL_IWINOGRAD_AVX2 static V sub(V a, V b) noexcept { return _mm256_sub_epi16(a, b); }
};
struct Int32x8 {
  using V = __m256i;
  ONNXMICRO_DETAIL_IWINOGRAD_AVX2 static V add(V a, V b) noexcept { return _mm256_add_epi32(a, b); }
  ONNXMICRO_DETAIL_IWINOGRAD_AVX2 static V sub(V a, V b) noexcept { return _mm256_sub_epi32(a, b); }
};

/// V = Bᵀ d B for a vector of 4x4 tiles d, Bᵀ = [1 0 -1 0; 0 1 1 0; 0 -1 1 0; 0 1 0 -1].
template <typename Ops>
ONNXMICRO_DETAIL_IWINOGRAD_AVX2 inline void input_tile(const typename Ops::V (&d)[4][4],
                                                       typename Ops::V (&v)[kPoints]) noexcept {
  typename Ops::V r[4][4];
  for (int j = 0; j < 4; ++j) {
    r[0][j] = Ops::sub(d[0][j], d[2][j]), r[1][j] = Ops::add(d[1][j], d[2][j]);
    r[2][j] = Ops::sub(d[2][j], d[1][j]), r[3][j] = Ops::sub(d[1][j], d[3][j]);
  }
  for (int i = 0; i < 4; ++i) {
    v[4 * i] = Ops::sub(r[i][0], r[i][2]), v[4 * i + 1] = Ops::add(r[i][1], r[i][2]);
    v[4 * i + 2] = Ops::sub(r[i][2], r[i][1]), v[4 * i + 3] = Ops::sub(r[i][1], r[i][3]);
  }
}

/// Y' = Aᵀ M A for a vector of tiles' 16 points, Aᵀ = [1 1 1 0; 0 1 -1 -1]: y = (y00, y01, y10, y11).
template <typename Ops>
ONNXMICRO_DETAIL_IWINOGRAD_AVX2 inline void output_tile(const typename Ops::V (&m)[kPoints],
                                                        typename Ops::V (&y)[4]) noexcept {
  typename Ops::V s[2][4];
  for (int j = 0; j < 4; ++j) {
    s[0][j] = Ops::add(Ops::add(m[j], m[4 + j]), m[8 + j]);
    s[1][j] = Ops::sub(Ops::sub(m[4 + j], m[8 + j]), m[12 + j]);
  }
  for (int a = 0; a < 2; ++a) {
    y[2 * a] = Ops::add(Ops::add(s[a][0], s[a][1]), s[a][2]);
    y[2 * a + 1] = Ops::sub(Ops::sub(s[a][1], s[a][2]), s[a][3]);
  }
}

/// The 16 points of the `tiles` tiles of one tile row into v (point xi of tile t at v[xi * point_stride + t], up to
/// 15 values of slack past the last tile), from its 4 padded input rows (`rows`, row_stride() apart, as fill_row leaves
/// them).
__attribute__((target("avx2"))) inline void transform_input_row(const std::int16_t* rows, std::int64_t stride,
                                                                std::int64_t half, std::int64_t tiles, std::int16_t* v,
                                                                std::int64_t point_stride) noexcept {
  for (std::int64_t t = 0; t < tiles; t += 16) {
    __m256i d[4][4], out[kPoints];
    for (int k = 0; k < 4; ++k) {
      const std::int16_t* even = rows + k * stride + t;
      d[k][0] = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(even));
      d[k][1] = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(even + half));
      d[k][2] = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(even + 1));
      d[k][3] = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(even + half + 1));
    }
    input_tile<Int16x16>(d, out);
    for (int xi = 0; xi < kPoints; ++xi)
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(v + xi * point_stride + t), out[xi]);
  }
}

/// Channels [2 * first_pair, 2 * end_pair) (the last may be past `channels`: zeros) of `image` (channels planes of
/// g.in_h x g.in_w, x - x_zero), tile rows [first_row, first_row + tile_rows), transformed and packed into
/// `packed_v` (packed_v_elements(g, channels, tile_rows)), through `work` (input_work_elements()).
template <typename T>
inline void transform_inputs(const Tiling& g, const T* image, int x_zero, std::int64_t channels,
                             std::int64_t first_pair, std::int64_t end_pair, std::int64_t first_row,
                             std::int64_t tile_rows, std::int16_t* work, std::int16_t* packed_v) noexcept {
  const std::int64_t stride = row_stride(g), tiles_w = g.tiles_w(), tiles = tile_rows * tiles_w;
  const std::int64_t columns = block_columns(g, tile_rows) + kSlack, kp = integer_gemm::packed_depth(channels);
  const std::int64_t point_packed = integer_gemm::packed_b_size(channels, tiles);
  std::int16_t* rows = work;
  std::int16_t* pair_v = rows + Tiling::input_rows(tile_rows) * stride;  // [channel of the pair][point][tile]
  const std::int64_t plane = g.in_h * g.in_w;
  for (std::int64_t pair = first_pair; pair < end_pair; ++pair) {
    const std::int64_t count = channels - 2 * pair < 2 ? channels - 2 * pair : 2;
    for (std::int64_t k = 0; k < count; ++k) {
      const T* channel_plane = image + (2 * pair + k) * plane;
      for (std::int64_t r = 0; r < Tiling::input_rows(tile_rows); ++r)
        fill_row(g, channel_plane, x_zero, 2 * first_row + r - g.pad_top, rows + r * stride);
      for (std::int64_t r = 0; r < tile_rows; ++r)
        transform_input_row(rows + 2 * r * stride, stride, g.half_row(), tiles_w,
                            pair_v + k * kPoints * columns + r * tiles_w, columns);
    }
    for (std::int64_t xi = 0; xi < kPoints; ++xi) {
      const std::int16_t* row0 = pair_v + xi * columns;
      integer_gemm::pack_b_pair(row0, count == 2 ? row0 + kPoints * columns : nullptr, tiles, kp,
                                packed_v + xi * point_packed + 2 * pair * integer_gemm::kColumns);
    }
  }
}

// ---- products and output transform -------------------------------------------------------------------------------

/// One output channel's tile row from its 16 points (`m`: point xi of tile t at m[xi * point_stride + t], readable 7
/// values past the last tile), Y' / 4 into `top` and `bottom` (output_row_elements(); of an odd output width only
/// out_w are meaningful). Y' is 4 x a sum below 2^29 in magnitude: an exact int32, which the shift divides exactly.
__attribute__((target("avx2"))) inline void transform_output_row(const std::int32_t* m, std::int64_t point_stride,
                                                                 std::int64_t tiles_w, std::int32_t* top,
                                                                 std::int32_t* bottom) noexcept {
  for (std::int64_t t = 0; t < tiles_w; t += 8) {
    __m256i points[kPoints], y[4];
    for (int xi = 0; xi < kPoints; ++xi)
      points[xi] = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(m + xi * point_stride + t));
    output_tile<Int32x8>(points, y);
    for (int a = 0; a < 2; ++a) {
      std::int32_t* row = a == 0 ? top : bottom;
      const __m256i left = _mm256_srai_epi32(y[2 * a], 2), right = _mm256_srai_epi32(y[2 * a + 1], 2);
      const __m256i lo = _mm256_unpacklo_epi32(left, right), hi = _mm256_unpackhi_epi32(left, right);
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(row + 2 * t), _mm256_permute2x128_si256(lo, hi, 0x20));
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(row + 2 * t + 8), _mm256_permute2x128_si256(lo, hi, 0x31));
    }
  }
}

/// Output channels [first_channel, end_channel) (first_channel a multiple of kRows) of a block of tile rows
/// [first_row, first_row + tile_rows): the 16 products of `filters` (pack_filters) and `packed_v` (transform_inputs),
/// a panel of kRows channels at a time, or two on the tall tile where there is one (integer_gemm::tall_tile_for),
/// through `work` (output_work_elements()). For every channel and tile row calls
/// rows(channel, output_row, top, bottom): output rows output_row and output_row + 1 (bottom nullptr when that one
/// is past out_h) as out_w exact sums each.
template <typename Rows>
inline void multiply_outputs(Isa isa, const Tiling& g, const std::int16_t* filters, std::int64_t channels,
                             const std::int16_t* packed_v, std::int64_t first_row, std::int64_t tile_rows,
                             std::int64_t first_channel, std::int64_t end_channel, std::int32_t* work,
                             Rows&& rows) noexcept {
  const integer_gemm::Tiles kernels = integer_gemm::tiles_for_columns(isa, integer_gemm::kColumns);
  const std::int64_t tiles_w = g.tiles_w(), tiles = tile_rows * tiles_w, columns = block_columns(g, tile_rows);
  const std::int64_t kp = integer_gemm::packed_depth(channels);
  const std::int64_t point_packed = integer_gemm::packed_b_size(channels, tiles);
  const std::int64_t point_sums = integer_gemm::kTallRows * columns;  // a point's products: rows of `columns`
  const std::int64_t next_panel = filter_panel(integer_gemm::kRows, 0, channels);  // (the tall tile's second)
  std::int32_t* sums = work;
  std::int32_t* top = sums + kPoints * point_sums;
  std::int32_t* bottom = top + output_row_elements(g);
  for (std::int64_t i0 = first_channel; i0 < end_channel;) {
    const bool two = kernels.takes_two(end_channel - i0);
    for (std::int64_t xi = 0; xi < kPoints; ++xi) {
      const std::int16_t* a = filters + filter_panel(i0, xi, channels);
      for (std::int64_t j0 = 0; j0 < tiles; j0 += integer_gemm::kColumns)
        kernels.run(two, a, next_panel, packed_v + xi * point_packed + j0 * kp, kp, sums + xi * point_sums + j0,
                    columns);
    }
    const std::int64_t panel_rows = kernels.step_rows(two);
    for (std::int64_t r = 0; r < panel_rows && i0 + r < end_channel; ++r) {
      for (std::int64_t tr = 0; tr < tile_rows; ++tr) {
        const std::int64_t output_row = 2 * (first_row + tr);
        transform_output_row(sums + r * columns + tr * tiles_w, point_sums, tiles_w, top, bottom);
        rows(i0 + r, output_row, static_cast<const std::int32_t*>(top),
             output_row + 1 < g.out_h ? static_cast<const std::int32_t*>(bottom) : nullptr);
      }
    }
    i0 += panel_rows;
  }
}

#undef ONNXMICRO_DETAIL_IWINOGRAD_AVX2

}  // namespace integer_winograd
}  // namespace kernels
ONNXMICRO_NAMESPACE_END
#endif  // ONNXMICRO_ENABLE_ISA_DISPATCH
