// SPDX-License-Identifier: MIT
// Winograd F(2x2, 3x3) for stride-1 3x3 convolutions (Lavin and Gray, "Fast Algorithms for Convolutional Neural
// Networks", 2015). Each 2x2 block of outputs (a "tile") comes from a 4x4 block of input: in a transformed space
// the 3x3 window becomes 16 element-wise products instead of 36 multiply-adds. Summed over the input channels, each
// of the 16 points of that space is one GEMM,
//   M_xi (out channels x tiles) = U_xi (out channels x in channels) * V_xi (in channels x tiles),
// so a conv runs as 16 products of depth C (2.25x fewer multiply-adds than im2col's one product of depth 9C) between
// two cheap transforms:
//   U = G g Gᵀ (each 3x3 filter g, once at prepare), V = Bᵀ d B (each 4x4 input tile d), Y = Aᵀ M A (each 2x2 output).
// The transforms add and subtract in an order of their own, so results differ from the direct sum in the last bits
// (errors of a few units of float rounding of the sum of |products|). Conv uses this only where the session allows it
// (SessionOptions::winograd_convolutions) and reports each node that does (NodeReport::rounding).
//
// Layouts: a padded input row is kept as its even columns, then its odd ones (half_row() floats each), so the four
// columns of consecutive tiles are consecutive floats: tile t reads even[t], odd[t], even[t + 1], odd[t + 1]. V and M
// are 16 matrices one after another (`point_stride` floats apart), rows of `ld` floats, one column per tile.
// The transforms run on AVX2 (Conv uses Winograd only with the packed GEMM micro-kernels: AVX2 and AVX-512).
#pragma once
#include <cstdint>

#include "onnxmicro/core/isa.hpp"
#include "onnxmicro/core/threads.hpp"
#include "onnxmicro/kernels/common/output_clamp.hpp"
#include "onnxmicro/kernels/common/strided_copy.hpp"

#if ONNXMICRO_ENABLE_ISA_DISPATCH
#include <immintrin.h>
#endif

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {
namespace winograd {

/// Points of the transformed 4x4 tile: one GEMM each.
constexpr std::int64_t kPoints = 16;

/// A 3x3 stride-1 conv's planes cut into 2x2 output tiles (the last row and column of tiles partly outside an odd
/// output).
struct Tiling {
  std::int64_t in_h, in_w, out_h, out_w, pad_top, pad_left;
  std::int64_t tiles_h() const noexcept { return (out_h + 1) / 2; }
  std::int64_t tiles_w() const noexcept { return (out_w + 1) / 2; }
  /// Floats of one half (even or odd columns) of a padded input row.
  std::int64_t half_row() const noexcept { return tiles_w() + 1; }
  std::int64_t row_floats() const noexcept { return 2 * half_row(); }
  /// Padded input rows a block of `tile_rows` tile rows reads.
  static std::int64_t input_rows(std::int64_t tile_rows) noexcept { return 2 * tile_rows + 2; }
};

/// Tile rows per block of work: as many as `budget` bytes hold at `row_bytes` a tile row (at least one, at most the
/// image). With `share_out` (several tasks, filters that stay in the cache), blocks that would not share out over
/// the tasks (too few for `batch` images, not a multiple) are made smaller, up to a multiple of the tasks.
inline std::int64_t block_rows(const Tiling& g, std::int64_t row_bytes, std::int64_t budget, std::int64_t batch,
                               std::int64_t tasks, bool share_out) noexcept {
  std::int64_t rows = budget / row_bytes;
  if (rows < 1) rows = 1;
  if (rows > g.tiles_h()) rows = g.tiles_h();
  std::int64_t blocks = (g.tiles_h() + rows - 1) / rows;
  if (share_out && tasks > 1 && blocks % tasks != 0 && batch * blocks < 4 * tasks) {
    blocks = (blocks + tasks - 1) / tasks * tasks;
    if (blocks > g.tiles_h()) blocks = g.tiles_h();
  }
  return (g.tiles_h() + blocks - 1) / blocks;
}

/// Runs run_item(item, task, tasks, split) for every item in [0, items) (an image's block of tile rows): with enough
/// items to share out, `tasks` tasks (for `work` multiply-adds, one per `work_per_task`) claim them one by one, each
/// item on its own (tasks 1, split a single worker); else the items run one after another, each split over all the
/// tasks (`split`: the workers to split it with, tasks numbered from `task` 0). Bits never depend on the split.
template <typename RunItem>
inline void run_items(const Workers& workers, double work, double work_per_task, std::int64_t items,
                      RunItem& run_item) noexcept {
  const std::size_t tasks = workers.tasks_for(work, work_per_task, static_cast<std::int64_t>(workers.count()));
  const std::int64_t task_count = static_cast<std::int64_t>(tasks);
  if (tasks > 1 && (items % task_count == 0 || items >= 4 * task_count)) {
    auto items_in = [&](std::size_t t, std::int64_t first, std::int64_t end) noexcept {
      for (std::int64_t item = first; item < end; ++item) run_item(item, t, 1, Workers());
    };
    workers.claim_ranges(tasks, items, 1, items_in);
    return;
  }
  for (std::int64_t item = 0; item < items; ++item) run_item(item, 0, tasks, tasks > 1 ? workers : Workers());
}

/// U = G g Gᵀ for one 3x3 filter `g` (row-major) into `u` (16 floats, row-major), with G = [1 0 0; 1/2 1/2 1/2;
/// 1/2 -1/2 1/2; 0 0 1]: in double, rounded once.
inline void transform_filter(const float* g, float* u) noexcept {
  double t[4][3];
  for (int j = 0; j < 3; ++j) {
    const double a = g[j], b = g[3 + j], c = g[6 + j];
    t[0][j] = a, t[1][j] = 0.5 * (a + b + c), t[2][j] = 0.5 * (a - b + c), t[3][j] = c;
  }
  for (int i = 0; i < 4; ++i) {
    const double a = t[i][0], b = t[i][1], c = t[i][2];
    u[4 * i] = static_cast<float>(a);
    u[4 * i + 1] = static_cast<float>(0.5 * (a + b + c));
    u[4 * i + 2] = static_cast<float>(0.5 * (a - b + c));
    u[4 * i + 3] = static_cast<float>(c);
  }
}

/// Padded input row `iy` of `plane` (zeros when outside) as its even columns, then its odd ones, into `out`
/// (row_floats()): padded column q is input column q - pad_left.
inline void fill_row(Isa isa, const Tiling& t, const float* plane, std::int64_t iy, float* out) noexcept {
  const float* line = iy >= 0 && iy < t.in_h ? plane + iy * t.in_w : nullptr;
  strided_copy::fill_phases(isa, line, t.in_w, t.pad_left, 2, t.half_row(), out);
}

#if ONNXMICRO_ENABLE_ISA_DISPATCH
#define ONNXMICRO_DETAIL_WINOGRAD_AVX2 __attribute__((target("avx2,fma"), always_inline))

/// V = Bᵀ d B for one 4x4 tile d (or 8 tiles side by side, V = __m256), with Bᵀ = [1 0 -1 0; 0 1 1 0; 0 -1 1 0;
/// 0 1 0 -1]: rows first, then columns.
template <typename V>
ONNXMICRO_DETAIL_WINOGRAD_AVX2 inline void input_tile(const V (&d)[4][4], V (&v)[kPoints]) noexcept {
  V r[4][4];
  for (int j = 0; j < 4; ++j) {
    r[0][j] = d[0][j] - d[2][j], r[1][j] = d[1][j] + d[2][j];
    r[2][j] = d[2][j] - d[1][j], r[3][j] = d[1][j] - d[3][j];
  }
  for (int i = 0; i < 4; ++i) {
    v[4 * i] = r[i][0] - r[i][2], v[4 * i + 1] = r[i][1] + r[i][2];
    v[4 * i + 2] = r[i][2] - r[i][1], v[4 * i + 3] = r[i][1] - r[i][3];
  }
}

/// Y = Aᵀ M A for one tile's 16 points (or 8 tiles'), with Aᵀ = [1 1 1 0; 0 1 -1 -1]: y = (y00, y01, y10, y11).
template <typename V>
ONNXMICRO_DETAIL_WINOGRAD_AVX2 inline void output_tile(const V (&m)[kPoints], V (&y)[4]) noexcept {
  V s[2][4];
  for (int j = 0; j < 4; ++j) {
    s[0][j] = m[j] + m[4 + j] + m[8 + j];
    s[1][j] = m[4 + j] - m[8 + j] - m[12 + j];
  }
  for (int a = 0; a < 2; ++a) {
    y[2 * a] = s[a][0] + s[a][1] + s[a][2];
    y[2 * a + 1] = s[a][1] - s[a][2] - s[a][3];
  }
}

/// The 16 points of the `tiles` tiles of one tile row into v (point xi of tile t at v[xi * point_stride + t]), from
/// its 4 padded input rows (`rows`, row_floats apart, each as fill_row leaves it).
__attribute__((target("avx2,fma"))) inline void transform_input_row(const float* rows, std::int64_t row_floats,
                                                                    std::int64_t half, std::int64_t tiles, float* v,
                                                                    std::int64_t point_stride) noexcept {
  std::int64_t t = 0;
  for (; t + 8 <= tiles; t += 8) {
    __m256 d[4][4], out[kPoints];
    for (int k = 0; k < 4; ++k) {
      const float* even = rows + k * row_floats + t;
      d[k][0] = _mm256_loadu_ps(even), d[k][1] = _mm256_loadu_ps(even + half);
      d[k][2] = _mm256_loadu_ps(even + 1), d[k][3] = _mm256_loadu_ps(even + half + 1);
    }
    input_tile(d, out);
    for (int xi = 0; xi < kPoints; ++xi) _mm256_storeu_ps(v + xi * point_stride + t, out[xi]);
  }
  for (; t < tiles; ++t) {
    float d[4][4], out[kPoints];
    for (int k = 0; k < 4; ++k) {
      const float* even = rows + k * row_floats + t;
      d[k][0] = even[0], d[k][1] = even[half], d[k][2] = even[1], d[k][3] = even[half + 1];
    }
    input_tile(d, out);
    for (int xi = 0; xi < kPoints; ++xi) v[xi * point_stride + t] = out[xi];
  }
}

/// `value` plus `bias`, through `clamp` (8 lanes).
__attribute__((target("avx2,fma"), always_inline)) inline __m256 finish(__m256 value, __m256 bias, __m256 low,
                                                                        __m256 high, bool clamped) noexcept {
  value = _mm256_add_ps(value, bias);
  return clamped ? _mm256_min_ps(_mm256_max_ps(value, low), high) : value;
}

/// One output channel's tile row `tile_row` from its 16 points (`m`: point xi of tile t at m[xi * point_stride + t]):
/// output rows 2 * tile_row and the next (when inside), plus `bias`, through `clamp`, into `plane` (out_h x out_w).
__attribute__((target("avx2,fma"))) inline void transform_output_row(const Tiling& g, const float* m,
                                                                     std::int64_t point_stride, std::int64_t tile_row,
                                                                     float bias, const OutputClamp& clamp,
                                                                     float* plane) noexcept {
  float* top = plane + 2 * tile_row * g.out_w;
  float* bottom = 2 * tile_row + 1 < g.out_h ? top + g.out_w : nullptr;
  const __m256 bias8 = _mm256_set1_ps(bias), low = _mm256_set1_ps(clamp.low), high = _mm256_set1_ps(clamp.high);
  const std::int64_t whole = g.out_w / 2;  // tiles with both columns inside
  std::int64_t t = 0;
  for (; t + 8 <= whole; t += 8) {
    __m256 points[kPoints], y[4];
    for (int xi = 0; xi < kPoints; ++xi) points[xi] = _mm256_loadu_ps(m + xi * point_stride + t);
    output_tile(points, y);
    for (int a = 0; a < 2; ++a) {
      float* row = a == 0 ? top : bottom;
      if (row == nullptr) break;
      const __m256 left = finish(y[2 * a], bias8, low, high, clamp.enabled);
      const __m256 right = finish(y[2 * a + 1], bias8, low, high, clamp.enabled);
      const __m256 lo = _mm256_unpacklo_ps(left, right), hi = _mm256_unpackhi_ps(left, right);
      _mm256_storeu_ps(row + 2 * t, _mm256_permute2f128_ps(lo, hi, 0x20));
      _mm256_storeu_ps(row + 2 * t + 8, _mm256_permute2f128_ps(lo, hi, 0x31));
    }
  }
  for (; t < g.tiles_w(); ++t) {
    float points[kPoints], y[4];
    for (int xi = 0; xi < kPoints; ++xi) points[xi] = m[xi * point_stride + t];
    output_tile(points, y);
    for (int a = 0; a < 2; ++a) {
      float* row = a == 0 ? top : bottom;
      if (row == nullptr) break;
      for (int b = 0; b < 2 && 2 * t + b < g.out_w; ++b) {
        const float value = y[2 * a + b] + bias;
        row[2 * t + b] = clamp.enabled ? clamp.apply(value) : value;
      }
    }
  }
}
#undef ONNXMICRO_DETAIL_WINOGRAD_AVX2

/// One input channel's tile rows [first_row, first_row + tile_rows) into v (tile (row r, column t) at column
/// r * tiles_w + t; point xi at xi * point_stride), through `rows` (Tiling::input_rows(tile_rows) x row_floats
/// floats of scratch).
inline void transform_input(Isa isa, const Tiling& g, const float* plane, std::int64_t first_row,
                            std::int64_t tile_rows, float* rows, float* v, std::int64_t point_stride) noexcept {
  const std::int64_t row_floats = g.row_floats();
  for (std::int64_t r = 0; r < Tiling::input_rows(tile_rows); ++r)
    fill_row(isa, g, plane, 2 * first_row + r - g.pad_top, rows + r * row_floats);
  for (std::int64_t r = 0; r < tile_rows; ++r)
    transform_input_row(rows + 2 * r * row_floats, row_floats, g.half_row(), g.tiles_w(), v + r * g.tiles_w(),
                        point_stride);
}

/// One output channel's tile rows [first_row, first_row + tile_rows) from its points in m (laid out as
/// transform_input writes v), plus `bias`, through `clamp`, into its output plane.
inline void transform_output(const Tiling& g, const float* m, std::int64_t point_stride, std::int64_t first_row,
                             std::int64_t tile_rows, float bias, const OutputClamp& clamp, float* plane) noexcept {
  for (std::int64_t r = 0; r < tile_rows; ++r)
    transform_output_row(g, m + r * g.tiles_w(), point_stride, first_row + r, bias, clamp, plane);
}
#endif  // ONNXMICRO_ENABLE_ISA_DISPATCH

}  // namespace winograd
}  // namespace kernels
ONNXMICRO_NAMESPACE_END
