// SPDX-License-Identifier: MIT
// The blocked matrix-multiply engine: C += A * B in register tiles and depth panels that stay in L1, for
// float, double and the 32/64-bit integers (float16/bfloat16 are converted to float first). Used by Gemm,
// MatMul and Conv.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "onnxmicro/core/isa.hpp"
#include "onnxmicro/kernels/common/compute_type.hpp"
#include "onnxmicro/kernels/common/gemm_x86.hpp"
#include "onnxmicro/kernels/common/output_clamp.hpp"
#include "onnxmicro/kernels/kernel_api.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {
namespace gemm {

// Register tile: kTileRows rows x (kTileVectors x 16 bytes) columns of C stay in registers while the shared
// dimension is walked; each step broadcasts one A value per row and multiply-adds it onto a row of B.
constexpr int kTileRows = 4;
constexpr int kTileVectors = 4;
constexpr int kVectorBytes = 16;
// Depth of one pass over the shared dimension: a kDepth-row panel of B (16 KiB for float) stays in L1 while
// every row tile of A passes over it.
constexpr std::int64_t kDepth = 256;

/// Columns of one register tile for element type T (16 for 4-byte types, 8 for 8-byte ones).
template <typename T>
constexpr std::int64_t tile_columns() noexcept {
  return kTileVectors * (kVectorBytes / static_cast<int>(sizeof(T)));
}

#if defined(__GNUC__)
// GCC and Clang: explicit 16-byte vectors (SSE, NEON, or scalar code on targets without SIMD), so the
// register tile compiles the same way in every calling context instead of depending on the auto-vectoriser.
template <typename T>
struct VectorOf;
template <>
struct VectorOf<float> {
  typedef float type __attribute__((vector_size(kVectorBytes)));
};
template <>
struct VectorOf<double> {
  typedef double type __attribute__((vector_size(kVectorBytes)));
};
template <>
struct VectorOf<std::uint32_t> {
  typedef std::uint32_t type __attribute__((vector_size(kVectorBytes)));
};
template <>
struct VectorOf<std::uint64_t> {
  typedef std::uint64_t type __attribute__((vector_size(kVectorBytes)));
};

/// `vectors` x 16 bytes of C rows [0, rows) += A(rows x depth) * B(depth x columns). Rows and vectors are
/// compile-time so the accumulators live in registers.
template <typename T, int Rows, int Vectors>
inline void vector_tile(std::int64_t depth, const T* a, std::int64_t a_row, std::int64_t a_col, const T* b,
                        std::int64_t ldb, T* c, std::int64_t ldc) noexcept {
  using V = typename VectorOf<T>::type;
  constexpr int kLanes = static_cast<int>(sizeof(V) / sizeof(T));
  V acc[Rows][Vectors];
  for (int r = 0; r < Rows; ++r)
    for (int v = 0; v < Vectors; ++v) std::memcpy(&acc[r][v], c + r * ldc + v * kLanes, sizeof(V));
  for (std::int64_t p = 0; p < depth; ++p) {
    V b_row[Vectors];
    for (int v = 0; v < Vectors; ++v) std::memcpy(&b_row[v], b + p * ldb + v * kLanes, sizeof(V));
    for (int r = 0; r < Rows; ++r) {
      const T a_value = a[r * a_row + p * a_col];
      for (int v = 0; v < Vectors; ++v) acc[r][v] += b_row[v] * a_value;
    }
  }
  for (int r = 0; r < Rows; ++r)
    for (int v = 0; v < Vectors; ++v) std::memcpy(c + r * ldc + v * kLanes, &acc[r][v], sizeof(V));
}

/// Columns [0, n) of rows [0, m): full register tiles, then narrower vector tiles; returns the columns done
/// (the rest, fewer than one vector, is left to the scalar path).
template <typename T>
inline std::int64_t vector_columns(std::int64_t m, std::int64_t n, std::int64_t depth, const T* a, std::int64_t a_row,
                                   std::int64_t a_col, const T* b, std::int64_t ldb, T* c, std::int64_t ldc) noexcept {
  constexpr std::int64_t kLanes = kVectorBytes / static_cast<std::int64_t>(sizeof(T));
  constexpr std::int64_t kColumns = tile_columns<T>();
  std::int64_t j0 = 0;
  for (; j0 + kColumns <= n; j0 += kColumns) {
    std::int64_t i0 = 0;
    for (; i0 + kTileRows <= m; i0 += kTileRows) {
      vector_tile<T, kTileRows, kTileVectors>(depth, a + i0 * a_row, a_row, a_col, b + j0, ldb, c + i0 * ldc + j0, ldc);
    }
    for (; i0 < m; ++i0) {
      vector_tile<T, 1, kTileVectors>(depth, a + i0 * a_row, a_row, a_col, b + j0, ldb, c + i0 * ldc + j0, ldc);
    }
  }
  for (; j0 + kLanes <= n; j0 += kLanes) {
    std::int64_t i0 = 0;
    for (; i0 + kTileRows <= m; i0 += kTileRows) {
      vector_tile<T, kTileRows, 1>(depth, a + i0 * a_row, a_row, a_col, b + j0, ldb, c + i0 * ldc + j0, ldc);
    }
    for (; i0 < m; ++i0) vector_tile<T, 1, 1>(depth, a + i0 * a_row, a_row, a_col, b + j0, ldb, c + i0 * ldc + j0, ldc);
  }
  return j0;
}

template <typename T>
constexpr bool kHasVectors = std::is_same<T, float>::value || std::is_same<T, double>::value ||
                             std::is_same<T, std::uint32_t>::value || std::is_same<T, std::uint64_t>::value;
#else
template <typename T>
constexpr bool kHasVectors = false;
template <typename T>
inline std::int64_t vector_columns(std::int64_t, std::int64_t, std::int64_t, const T*, std::int64_t, std::int64_t,
                                   const T*, std::int64_t, T*, std::int64_t) noexcept {
  return 0;
}
#endif

/// Portable register tile (compilers without vector extensions): MR x NR accumulators in a local array.
template <typename T, int MR, int NR>
inline void scalar_tile(std::int64_t depth, const T* a, std::int64_t a_row, std::int64_t a_col, const T* b,
                        std::int64_t ldb, T* c, std::int64_t ldc) noexcept {
  T acc[MR][NR];
  for (int r = 0; r < MR; ++r)
    for (int j = 0; j < NR; ++j) acc[r][j] = c[r * ldc + j];
  for (std::int64_t p = 0; p < depth; ++p) {
    const T* b_row = b + p * ldb;
    for (int r = 0; r < MR; ++r) {
      const T a_value = a[r * a_row + p * a_col];
      for (int j = 0; j < NR; ++j) acc[r][j] += a_value * b_row[j];
    }
  }
  for (int r = 0; r < MR; ++r)
    for (int j = 0; j < NR; ++j) c[r * ldc + j] = acc[r][j];
}

/// C[m x n] += A[m x k] * B[k x n] with B(p, j) = b[p * b_row + j * b_col]: one plain loop nest. The tiles'
/// edges (and everything on compilers without vector extensions beyond the scalar tiles) with b_col = 1; all of
/// it with ONNXMICRO_OPTIMIZE_FOR_SIZE; a transposed B read in place.
template <typename T>
inline void strided_accumulate(std::int64_t m, std::int64_t n, std::int64_t k, const T* a, std::int64_t a_row,
                               std::int64_t a_col, const T* b, std::int64_t b_row, std::int64_t b_col, T* c,
                               std::int64_t ldc) noexcept {
  for (std::int64_t i = 0; i < m; ++i) {
    T* c_row = c + i * ldc;
    for (std::int64_t p = 0; p < k; ++p) {
      const T a_value = a[i * a_row + p * a_col];
      const T* b_p = b + p * b_row;
      for (std::int64_t j = 0; j < n; ++j) c_row[j] += a_value * b_p[j * b_col];
    }
  }
}

/// Matrix-vector case (one column): independent partial sums keep the loop from being latency bound.
template <typename T>
inline void gemv(std::int64_t m, std::int64_t k, const T* a, std::int64_t a_row, std::int64_t a_col, const T* b,
                 std::int64_t ldb, T* c, std::int64_t ldc) noexcept {
  for (std::int64_t i = 0; i < m; ++i) {
    const T* a_i = a + i * a_row;
    T s0 = T(0), s1 = T(0), s2 = T(0), s3 = T(0);
    std::int64_t p = 0;
    for (; p + 4 <= k; p += 4) {
      s0 += a_i[p * a_col] * b[p * ldb];
      s1 += a_i[(p + 1) * a_col] * b[(p + 1) * ldb];
      s2 += a_i[(p + 2) * a_col] * b[(p + 2) * ldb];
      s3 += a_i[(p + 3) * a_col] * b[(p + 3) * ldb];
    }
    for (; p < k; ++p) s0 += a_i[p * a_col] * b[p * ldb];
    c[i * ldc] += (s0 + s1) + (s2 + s3);
  }
}

/// C[m x n] += A[m x k] * B[k x n].
/// A(i, p) = a[i * a_row + p * a_col] (any strides, so a transposed A needs no copy); B is row-major with row
/// stride ldb; C is row-major with row stride ldc. T is float, double, or an unsigned integer type (wrapping
/// arithmetic: signed integer matrices are multiplied through their unsigned counterpart).
template <typename T>
inline void accumulate(std::int64_t m, std::int64_t n, std::int64_t k, const T* a, std::int64_t a_row,
                       std::int64_t a_col, const T* b, std::int64_t ldb, T* c, std::int64_t ldc) noexcept {
  if (m <= 0 || n <= 0 || k <= 0) return;
#if ONNXMICRO_OPTIMIZE_FOR_SIZE
  strided_accumulate<T>(m, n, k, a, a_row, a_col, b, ldb, 1, c, ldc);
#else
  if (n == 1) {
    gemv(m, k, a, a_row, a_col, b, ldb, c, ldc);
    return;
  }
  for (std::int64_t p0 = 0; p0 < k; p0 += kDepth) {
    const std::int64_t depth = k - p0 < kDepth ? k - p0 : kDepth;
    const T* a_p = a + p0 * a_col;
    const T* b_p = b + p0 * ldb;
    std::int64_t j0 = 0;
    if constexpr (kHasVectors<T>) {
      j0 = vector_columns<T>(m, n, depth, a_p, a_row, a_col, b_p, ldb, c, ldc);
    } else {
      constexpr int kColumns = static_cast<int>(tile_columns<T>());
      for (; j0 + kColumns <= n; j0 += kColumns) {
        std::int64_t i0 = 0;
        for (; i0 + kTileRows <= m; i0 += kTileRows) {
          scalar_tile<T, kTileRows, kColumns>(depth, a_p + i0 * a_row, a_row, a_col, b_p + j0, ldb, c + i0 * ldc + j0,
                                              ldc);
        }
        if (i0 < m)
          strided_accumulate<T>(m - i0, kColumns, depth, a_p + i0 * a_row, a_row, a_col, b_p + j0, ldb, 1,
                                c + i0 * ldc + j0, ldc);
      }
    }
    if (j0 < n) strided_accumulate<T>(m, n - j0, depth, a_p, a_row, a_col, b_p + j0, ldb, 1, c + j0, ldc);
  }
#endif
}

/// C[m x n] = (row_bias[i] for row i, or C's current values when row_bias is null) + A[m x k] * B[k x n], then
/// `clamp` (a fused Relu/Clip): the float product on the micro-kernels of `isa` (the session's choice, which a kernel
/// keeps in its state), where the bias and clamp cost nothing extra; the portable path (and a single column) adds
/// them in passes of their own.
inline void multiply(Isa isa, std::int64_t m, std::int64_t n, std::int64_t k, const float* a, std::int64_t a_row,
                     std::int64_t a_col, const float* b, std::int64_t ldb, float* c, std::int64_t ldc,
                     const float* row_bias = nullptr, const OutputClamp& clamp = OutputClamp{}) noexcept {
#if ONNXMICRO_ENABLE_ISA_DISPATCH
  if (isa != Isa::baseline && m > 0 && n > 1 && k > 0) {
    const x86::ARows rows{a, a_row, a_col, a_row};
    const x86::BColumns columns{b, ldb};
    if (isa == Isa::avx512) {
      x86::multiply_avx512(m, n, k, rows, columns, c, ldc, row_bias, clamp);
    } else {
      x86::multiply_avx2(m, n, k, rows, columns, c, ldc, row_bias, clamp);
    }
    return;
  }
#endif
  static_cast<void>(isa);
  if (row_bias != nullptr)
    for (std::int64_t i = 0; i < m; ++i)
      for (std::int64_t j = 0; j < n; ++j) c[i * ldc + j] = row_bias[i];
  accumulate<float>(m, n, k, a, a_row, a_col, b, ldb, c, ldc);
  if (clamp.enabled)
    for (std::int64_t i = 0; i < m; ++i) clamp.apply_to(c + i * ldc, n);
}

/// C[m x n] += A[m x k] * B[k x n] as accumulate<T>; float takes the micro-kernels of `isa` (multiply()).
template <typename T>
inline void accumulate(Isa isa, std::int64_t m, std::int64_t n, std::int64_t k, const T* a, std::int64_t a_row,
                       std::int64_t a_col, const T* b, std::int64_t ldb, T* c, std::int64_t ldc) noexcept {
#if ONNXMICRO_ENABLE_ISA_DISPATCH
  if constexpr (std::is_same<T, float>::value) {
    multiply(isa, m, n, k, a, a_row, a_col, b, ldb, c, ldc);
    return;
  }
#endif
  static_cast<void>(isa);
  accumulate<T>(m, n, k, a, a_row, a_col, b, ldb, c, ldc);
}

// ---- split over threads ----

/// Rows of C per task come in multiples of this (whole 8-row AVX-512 panels), columns in multiples of
/// kSplitColumns (whole 32-column tiles), so every element is computed by the same tile code as without a split.
constexpr std::int64_t kSplitRows = 8;
constexpr std::int64_t kSplitColumns = 32;

/// What reading one element of B costs in multiply-adds, for the split's work estimate: a product of few rows
/// streams B from memory at a few GFLOP/s (MobileNetV2's 1280 x 1000 classifier on one row: 4.7 GFLOP/s on AVX2,
/// against about 100 for a deep product), so it is worth a second thread long before its multiply-adds are.
constexpr double kStreamedBCost = 16;

/// The share of the tasks' time spent working when `units` whole units are split among `tasks` (the largest task
/// sets the time): 1 when they divide evenly, 3/4 for 3 units over 2 tasks.
constexpr double split_balance(std::int64_t units, std::size_t tasks) noexcept {
  const std::int64_t count = static_cast<std::int64_t>(tasks);
  return units <= 0 ? 0.0 : static_cast<double>(units) / static_cast<double>((units + count - 1) / count * count);
}

/// Calls block(rows, columns) (SplitRange each) for the blocks of C (m x n) that a product split over `workers`
/// computes, as tasks on the workers. Rows when each task gets at least one panel and they share out as evenly as
/// the columns do (MobileNetV2's 24-channel 1x1 convs have 3 row panels: 2 and 1 over two tasks), else columns.
/// (Rows also keep a conv's channel halves on the cores whose depthwise split takes those channels next; columns
/// on ties, which would stream only a share of B per task, measured no better within this host's noise.) A block
/// never holds a lone column that the whole product would not (the matrix-vector path adds in another order).
template <typename Block>
inline void split_product(const Workers& workers, std::int64_t m, std::int64_t n, std::int64_t k, Block& block,
                          std::int64_t row_granule = kSplitRows) noexcept {
  const std::int64_t row_units = (m + row_granule - 1) / row_granule;
  const std::int64_t column_units = (n + kSplitColumns - 1) / kSplitColumns;
  const double work = (static_cast<double>(m) + kStreamedBCost) * static_cast<double>(n) * static_cast<double>(k);
  const std::size_t tasks = workers.tasks_for(work, kMinTaskWork, row_units > column_units ? row_units : column_units);
  if (tasks <= 1) {  // (always, without ONNXMICRO_ENABLE_THREADS: the rest compiles out)
    block(SplitRange{0, m}, SplitRange{0, n});
    return;
  }
  const bool rows_fill = row_units >= static_cast<std::int64_t>(tasks);
  const bool columns_fill = column_units >= static_cast<std::int64_t>(tasks);
  const double row_balance = split_balance(row_units, tasks), column_balance = split_balance(column_units, tasks);
  const bool by_rows = rows_fill ? !columns_fill || row_balance >= column_balance : row_units >= column_units;
  const bool lone_column = !by_rows && n > 1 && n % kSplitColumns == 1;
  auto task = [&](std::size_t t) noexcept {
    if (by_rows) {
      const SplitRange rows = split_range(m, tasks, t, row_granule);
      if (rows.size() > 0) block(rows, SplitRange{0, n});
      return;
    }
    SplitRange columns = split_range(lone_column ? n - 1 : n, tasks, t, kSplitColumns);
    if (lone_column && columns.size() > 0 && columns.end == n - 1) columns.end = n;  // (not an empty part's)
    if (columns.size() > 0) block(SplitRange{0, m}, columns);
  };
  workers.run(tasks, task);
}

/// multiply() with C split over `workers` (bit-identical to the unsplit product).
inline void multiply(const Workers& workers, Isa isa, std::int64_t m, std::int64_t n, std::int64_t k, const float* a,
                     std::int64_t a_row, std::int64_t a_col, const float* b, std::int64_t ldb, float* c,
                     std::int64_t ldc, const float* row_bias = nullptr,
                     const OutputClamp& clamp = OutputClamp{}) noexcept {
  auto block = [&](SplitRange rows, SplitRange columns) noexcept {
    multiply(isa, rows.size(), columns.size(), k, a + rows.begin * a_row, a_row, a_col, b + columns.begin, ldb,
             c + rows.begin * ldc + columns.begin, ldc, row_bias != nullptr ? row_bias + rows.begin : nullptr, clamp);
  };
  split_product(workers, m, n, k, block);
}

// ---- A packed at prepare (constant weights): per depth pass of the micro-kernels, every row tile of that pass one
// after another, each tile depth-major, so that a pass over the rows streams through memory (a tile of plain A reads
// `tile rows` strided rows instead, and tiles laid out whole would start a new page every few kilobytes, where the
// prefetchers stop). The layout follows the instruction set the session chose. ----

/// The level a convolution's float micro-kernels run at in a session of level `isa`: avx2 at the avx512 level on CPUs
/// that split 512-bit operations (detected_split_512bit()), else `isa`. On AMD Zen 4 the 6 x 16 tiles ran ResNet-18's
/// convolutions 10-30% faster than the 8 x 32 ones (the FMA rate per cycle is the same), while MatMul's products of
/// few rows (BERT-tiny: 0.64 against 0.85 ms) and the LSTM gained from the wider tiles, so only Conv steps down.
inline Isa convolution_isa(Isa isa) noexcept { return isa == Isa::avx512 && detected_split_512bit() ? Isa::avx2 : isa; }

/// Rows of one packed tile for `isa` (0: no micro-kernels, nothing to pack).
constexpr std::int64_t packed_tile_rows(Isa isa) noexcept {
#if ONNXMICRO_ENABLE_ISA_DISPATCH
  return isa == Isa::avx512 ? x86::avx512::kRows : isa == Isa::avx2 ? x86::avx2::kRows : 0;
#else
  return static_cast<void>(isa), 0;
#endif
}

/// Depth of one pass of the micro-kernels of `isa` (0: none).
constexpr std::int64_t packed_panel_depth(Isa isa) noexcept {
#if ONNXMICRO_ENABLE_ISA_DISPATCH
  return isa == Isa::avx512 ? x86::kDepthAvx512 : isa == Isa::avx2 ? x86::kDepthAvx2 : 0;
#else
  return static_cast<void>(isa), 0;
#endif
}

/// Floats pack_a writes for an m x k A (the last tile padded with zero rows).
constexpr std::int64_t packed_a_floats(Isa isa, std::int64_t m, std::int64_t k) noexcept {
  const std::int64_t rows = packed_tile_rows(isa);
  return rows == 0 ? 0 : (m + rows - 1) / rows * rows * k;
}

/// Packs A(i, p) = a[i * a_row + p * a_col] (m x k) for multiply_packed on `isa` (packed_tile_rows(isa) > 0).
inline void pack_a(Isa isa, std::int64_t m, std::int64_t k, const float* a, std::int64_t a_row, std::int64_t a_col,
                   float* packed) noexcept {
  const std::int64_t rows = packed_tile_rows(isa), panel = packed_panel_depth(isa);
  for (std::int64_t p0 = 0; p0 < k; p0 += panel) {
    const std::int64_t depth = k - p0 < panel ? k - p0 : panel;
    for (std::int64_t i0 = 0; i0 < m; i0 += rows, packed += rows * depth) {
      for (std::int64_t r = 0; r < rows; ++r) {  // row by row: reads along a row of a plain weight matrix
        const float* a_r = a + (i0 + r) * a_row;
        for (std::int64_t p = 0; p < depth; ++p) packed[p * rows + r] = i0 + r < m ? a_r[(p0 + p) * a_col] : 0.0f;
      }
    }
  }
}

/// Where pack_a puts A(i, p) of an m x k A for `isa` (packed_tile_rows(isa) > 0), for kernels that write their packed
/// weights straight from a transform of their own (Conv's Winograd filters).
constexpr std::int64_t packed_a_index(Isa isa, std::int64_t m, std::int64_t k, std::int64_t i,
                                      std::int64_t p) noexcept {
  const std::int64_t rows = packed_tile_rows(isa), panel = packed_panel_depth(isa);
  const std::int64_t padded_m = (m + rows - 1) / rows * rows, p0 = p / panel * panel;
  const std::int64_t depth = k - p0 < panel ? k - p0 : panel;
  return p0 * padded_m + i / rows * rows * depth + (p - p0) * rows + i % rows;
}

/// Columns of one strip of a striped B for the micro-kernels of `isa` (0: none): Conv's im2col writes its column
/// matrix in strips of this width (x86::BColumns), each strip's k rows one after another.
constexpr std::int64_t b_strip_columns(Isa isa) noexcept {
#if ONNXMICRO_ENABLE_ISA_DISPATCH
  return isa == Isa::avx512 ? x86::avx512::kColumns : isa == Isa::avx2 ? x86::avx2::kColumns : 0;
#else
  return static_cast<void>(isa), 0;
#endif
}

/// The columns the micro-kernels of `isa` (b_strip_columns(isa) > 0) compute for an n-column product, its work being
/// proportional to them: whole strips, the last one half as dear on AVX2 when at most 8 columns are left in it.
constexpr std::int64_t computed_columns(Isa isa, std::int64_t n) noexcept {
  const std::int64_t strip = b_strip_columns(isa);
  if (strip == 0) return n;
  const std::int64_t edge = n % strip;
  const bool narrow_edge = isa == Isa::avx2 && edge > 0 && edge <= strip / 2;
  return n - edge + (edge == 0 ? 0 : narrow_edge ? strip / 2 : strip);
}

#if ONNXMICRO_ENABLE_ISA_DISPATCH
/// C[m x n] = (row_bias, or C) + A * B, then `clamp`, on the micro-kernels of `isa`, A and B as x86::ARows and
/// x86::BColumns describe them, C split over `workers` (rows in multiples of `row_granule`, columns of kSplitColumns:
/// whole tiles and strips).
inline void multiply_split(const Workers& workers, Isa isa, std::int64_t m, std::int64_t n, std::int64_t k,
                           const x86::ARows& a, const x86::BColumns& b, float* c, std::int64_t ldc,
                           const float* row_bias, const OutputClamp& clamp, std::int64_t row_granule) noexcept {
  auto block = [&](SplitRange rows, SplitRange columns) noexcept {
    if (rows.size() <= 0 || columns.size() <= 0 || k <= 0) return;
    const x86::ARows a_block = a.from_row(rows.begin);
    const x86::BColumns b_block = b.from_column(columns.begin);
    const float* bias = row_bias != nullptr ? row_bias + rows.begin : nullptr;
    float* c_block = c + rows.begin * ldc + columns.begin;
    if (isa == Isa::avx512) {
      x86::multiply_avx512(rows.size(), columns.size(), k, a_block, b_block, c_block, ldc, bias, clamp);
    } else {
      x86::multiply_avx2(rows.size(), columns.size(), k, a_block, b_block, c_block, ldc, bias, clamp);
    }
  };
  split_product(workers, m, n, k, block, row_granule);
}

/// A packed by pack_a for `isa` (m rows) as the micro-kernels read it.
inline x86::ARows packed_rows(Isa isa, std::int64_t m, const float* packed_a) noexcept {
  const std::int64_t tile_rows = packed_tile_rows(isa);
  return x86::ARows{packed_a, 1, tile_rows, 0, (m + tile_rows - 1) / tile_rows * tile_rows, 0};
}
#endif

/// multiply() with A packed by pack_a for the same `isa`, C split over `workers` at tile boundaries (bit-identical
/// to multiply() on the unpacked A: the same tiles add the same products in the same order).
inline void multiply_packed(const Workers& workers, Isa isa, std::int64_t m, std::int64_t n, std::int64_t k,
                            const float* packed_a, const float* b, std::int64_t ldb, float* c, std::int64_t ldc,
                            const float* row_bias = nullptr, const OutputClamp& clamp = OutputClamp{}) noexcept {
#if ONNXMICRO_ENABLE_ISA_DISPATCH
  multiply_split(workers, isa, m, n, k, packed_rows(isa, m, packed_a), x86::BColumns{b, ldb}, c, ldc, row_bias, clamp,
                 packed_tile_rows(isa));
#else
  static_cast<void>(workers), static_cast<void>(isa), static_cast<void>(m), static_cast<void>(n);
  static_cast<void>(k), static_cast<void>(packed_a), static_cast<void>(b), static_cast<void>(ldb);
  static_cast<void>(c), static_cast<void>(ldc), static_cast<void>(row_bias), static_cast<void>(clamp);
#endif
}

/// multiply_packed() with B striped for `isa` (b_strip_columns(isa) > 0): column j, row p at striped_b[j / w * k * w +
/// p * w + j % w] for strips w wide; the last strip's columns past n are never read. Bit-identical to multiply_packed()
/// on the same B row-major: only where the tiles find their B rows changes.
inline void multiply_packed_striped(const Workers& workers, Isa isa, std::int64_t m, std::int64_t n, std::int64_t k,
                                    const float* packed_a, const float* striped_b, float* c, std::int64_t ldc,
                                    const float* row_bias = nullptr,
                                    const OutputClamp& clamp = OutputClamp{}) noexcept {
#if ONNXMICRO_ENABLE_ISA_DISPATCH
  const std::int64_t width = b_strip_columns(isa);
  multiply_split(workers, isa, m, n, k, packed_rows(isa, m, packed_a), x86::BColumns{striped_b, width, k * width}, c,
                 ldc, row_bias, clamp, packed_tile_rows(isa));
#else
  static_cast<void>(workers), static_cast<void>(isa), static_cast<void>(m), static_cast<void>(n);
  static_cast<void>(k), static_cast<void>(packed_a), static_cast<void>(striped_b), static_cast<void>(c);
  static_cast<void>(ldc), static_cast<void>(row_bias), static_cast<void>(clamp);
#endif
}

/// multiply_packed() with B's rows anywhere, for Isa::avx2 only (the one level whose micro-kernels read rows through
/// offsets): B(p, j) = b[offsets[p] + j]. Conv reads a 3x3 conv's B so straight from its padded input (an implicit
/// GEMM). Bit-identical to multiply_packed() on the same B row-major.
inline void multiply_packed_offsets(const Workers& workers, Isa isa, std::int64_t m, std::int64_t n, std::int64_t k,
                                    const float* packed_a, const float* b, const std::int32_t* offsets, float* c,
                                    std::int64_t ldc, const float* row_bias = nullptr,
                                    const OutputClamp& clamp = OutputClamp{}) noexcept {
#if ONNXMICRO_ENABLE_ISA_DISPATCH
  if (isa != Isa::avx2) return;  // (callers check reads_b_through_offsets first)
  multiply_split(workers, isa, m, n, k, packed_rows(isa, m, packed_a), x86::BColumns{b, 0, 0, offsets}, c, ldc,
                 row_bias, clamp, packed_tile_rows(isa));
#else
  static_cast<void>(workers), static_cast<void>(isa), static_cast<void>(m), static_cast<void>(n);
  static_cast<void>(k), static_cast<void>(packed_a), static_cast<void>(b), static_cast<void>(offsets);
  static_cast<void>(c), static_cast<void>(ldc), static_cast<void>(row_bias), static_cast<void>(clamp);
#endif
}

/// Whether multiply_packed_offsets() runs on `isa`.
constexpr bool reads_b_through_offsets(Isa isa) noexcept { return ONNXMICRO_ENABLE_ISA_DISPATCH && isa == Isa::avx2; }

/// Floats a k x n B striped for `isa` takes (the last strip padded to its full width; 0 without micro-kernels).
constexpr std::int64_t striped_b_floats(Isa isa, std::int64_t k, std::int64_t n) noexcept {
  const std::int64_t width = b_strip_columns(isa);
  return width == 0 ? 0 : k * ((n + width - 1) / width * width);
}

/// Writes B(p, j) = b[p * b_row + j * b_col] (k x n) striped for `isa` (b_strip_columns(isa) > 0), the padding
/// columns zero: constant weights packed once at prepare, so that a product reads each depth panel as one block (and
/// a one-row product streams its weights in order instead of a short piece of every row).
inline void pack_b_striped(Isa isa, std::int64_t k, std::int64_t n, const float* b, std::int64_t b_row,
                           std::int64_t b_col, float* striped) noexcept {
  const std::int64_t width = b_strip_columns(isa);
  for (std::int64_t j0 = 0; j0 < n; j0 += width) {
    for (std::int64_t p = 0; p < k; ++p, striped += width) {
      for (std::int64_t q = 0; q < width; ++q) striped[q] = j0 + q < n ? b[p * b_row + (j0 + q) * b_col] : 0.0f;
    }
  }
}

/// multiply() (A plain) with B striped for `isa` as pack_b_striped lays it out, C split over `workers`: bit-identical
/// to multiply() on the same B row-major.
inline void multiply_striped(const Workers& workers, Isa isa, std::int64_t m, std::int64_t n, std::int64_t k,
                             const float* a, std::int64_t a_row, std::int64_t a_col, const float* striped_b, float* c,
                             std::int64_t ldc, const float* row_bias = nullptr,
                             const OutputClamp& clamp = OutputClamp{}) noexcept {
  const std::int64_t width = b_strip_columns(isa);
  if (n == 1) {  // one column: the matrix-vector path, reading the first strip's column
    multiply(workers, isa, m, n, k, a, a_row, a_col, striped_b, width, c, ldc, row_bias, clamp);
    return;
  }
#if ONNXMICRO_ENABLE_ISA_DISPATCH
  multiply_split(workers, isa, m, n, k, x86::ARows{a, a_row, a_col, a_row}, x86::BColumns{striped_b, width, k * width},
                 c, ldc, row_bias, clamp, kSplitRows);
#endif
}

/// accumulate<T>(isa, ...) with C split over `workers` (bit-identical to the unsplit product).
template <typename T>
inline void accumulate(const Workers& workers, Isa isa, std::int64_t m, std::int64_t n, std::int64_t k, const T* a,
                       std::int64_t a_row, std::int64_t a_col, const T* b, std::int64_t ldb, T* c,
                       std::int64_t ldc) noexcept {
  auto block = [&](SplitRange rows, SplitRange columns) noexcept {
    accumulate<T>(isa, rows.size(), columns.size(), k, a + rows.begin * a_row, a_row, a_col, b + columns.begin, ldb,
                  c + rows.begin * ldc + columns.begin, ldc);
  };
  split_product(workers, m, n, k, block);
}

/// dst (cols x rows) = transpose of src (rows x cols), both dense row-major. Walks blocks so both sides stay
/// in cache.
template <typename T>
inline void transpose(const T* src, std::int64_t rows, std::int64_t cols, T* dst) noexcept {
  constexpr std::int64_t kBlock = 32;
  for (std::int64_t r0 = 0; r0 < rows; r0 += kBlock) {
    const std::int64_t r1 = r0 + kBlock < rows ? r0 + kBlock : rows;
    for (std::int64_t c0 = 0; c0 < cols; c0 += kBlock) {
      const std::int64_t c1 = c0 + kBlock < cols ? c0 + kBlock : cols;
      for (std::int64_t r = r0; r < r1; ++r)
        for (std::int64_t c = c0; c < c1; ++c) dst[c * rows + r] = src[r * cols + c];
    }
  }
}

/// The type a GEMM on elements of T runs in: float for float/float16/bfloat16, double for double, the
/// unsigned counterpart for integers (two's complement wrap-around without undefined behaviour).
template <typename T>
struct AccumulatorOf {
  using type = compute_type::ComputeType<T>;
};
template <>
struct AccumulatorOf<std::int32_t> {
  using type = std::uint32_t;
};
template <>
struct AccumulatorOf<std::int64_t> {
  using type = std::uint64_t;
};
template <typename T>
using Accumulator = typename AccumulatorOf<T>::type;

/// True when T is stored as-is in its accumulator type (no conversion pass needed).
template <typename T>
constexpr bool kSameRepresentation = sizeof(T) == sizeof(Accumulator<T>) && !compute_type::kIsHalf<T>;

/// Element dtypes Gemm (9+) and MatMul (9+) accept.
constexpr bool is_matrix_dtype(DataType dtype) noexcept {
  switch (compiled_dtype(dtype)) {
    case DataType::float32:
    case DataType::float64:
    case DataType::float16:
    case DataType::bfloat16:
    case DataType::int32:
    case DataType::int64:
    case DataType::uint32:
    case DataType::uint64: return true;
    default: return false;
  }
}

/// Converts `count` elements of T into the accumulator type (identity bits for the integer types).
template <typename T>
inline void to_accumulator(const T* src, Accumulator<T>* dst, std::int64_t count) noexcept {
  for (std::int64_t i = 0; i < count; ++i) {
    if constexpr (compute_type::kIsHalf<T>) {
      dst[i] = src[i].to_float();
    } else {
      dst[i] = static_cast<Accumulator<T>>(src[i]);
    }
  }
}

}  // namespace gemm
}  // namespace kernels
ONNXMICRO_NAMESPACE_END
