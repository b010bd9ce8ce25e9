// SPDX-License-Identifier: MIT
// Gemm: Y = alpha * op(A) * op(B) + beta * C, op = optional transpose (transA/transB), C broadcast to (M, N).
// Also holds the blocked matrix-multiply core (detail::blocked_gemm) that MatMul and Conv use.
//
// Versions: 1 (C required; the `broadcast` attribute decides whether C may broadcast), 6 (only dropped the
// legacy "C can be in place" note), 7 (no `broadcast`: C always broadcasts unidirectionally), 9 (integer
// dtypes), 11 (C optional), 13 (bfloat16).
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "onnxmicro/kernels/common/conv_pool_util.hpp"
#include "onnxmicro/kernels/kernel_api.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace detail {
namespace blocked_gemm {

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
  using type = conv_pool::ComputeType<T>;
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
constexpr bool kSameRepresentation = sizeof(T) == sizeof(Accumulator<T>) && !conv_pool::kIsHalf<T>;

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
    if constexpr (conv_pool::kIsHalf<T>) {
      dst[i] = src[i].to_float();
    } else {
      dst[i] = static_cast<Accumulator<T>>(src[i]);
    }
  }
}

}  // namespace blocked_gemm

/// Shared implementation of every Gemm version.
struct GemmImpl : kernels::KernelDefaults {
  static constexpr std::string_view kOpType = "Gemm";
  using RunContext = kernels::RunContext;
  static constexpr int kA = 0;
  static constexpr int kB = 1;
  static constexpr int kC = 2;
  static constexpr int kY = 0;

  /// What changes between versions.
  struct Rules {
    bool c_optional;      ///< 11+
    bool broadcast_attr;  ///< 1 and 6: C broadcasts only when broadcast=1
  };

  struct State {
    void (*compute)(const State&, RunContext&) noexcept;
    std::int64_t m, n, k;
    bool trans_a, trans_b;
    float alpha, beta;
    bool use_c;                                ///< C present and beta != 0
    std::int64_t c_row_stride;                 ///< 0 when C broadcasts along rows
    std::int64_t c_col_stride;                 ///< 0 when C broadcasts along columns
    const void* packed_b;                      ///< op(B) as a dense K x N accumulator matrix, made at prepare (or null)
    std::size_t a_offset, b_offset, y_offset;  ///< scratch sub-buffers (see prepare)
    bool a_in_scratch, b_in_scratch, y_in_scratch;
  };

  static Status prepare(kernels::PrepareContext& ctx, int since) noexcept {
    const Rules rules{/*c_optional=*/since >= 11, /*broadcast_attr=*/since < 7};
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kA));
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kB));
    if (!rules.c_optional) ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kC));
    const kernels::TensorInfo& a = ctx.input(kA);
    const kernels::TensorInfo& b = ctx.input(kB);
    if (!blocked_gemm::is_matrix_dtype(a.dtype)) return ctx.unsupported_input_dtype(kA);
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_same_dtype(kA, kB));
    const bool has_c = ctx.has_input(kC);
    if (has_c) ONNXMICRO_RETURN_IF_ERROR(ctx.require_same_dtype(kA, kC));
    if (a.shape.rank() != 2) {
      return Status(StatusCode::invalid_model)
             << "input 0 '" << a.name << "' (A) has shape " << a.shape << ", expected rank 2";
    }
    if (b.shape.rank() != 2) {
      return Status(StatusCode::invalid_model)
             << "input 1 '" << b.name << "' (B) has shape " << b.shape << ", expected rank 2";
    }
    std::int64_t trans_a = 0, trans_b = 0;
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("transA", trans_a, 0));
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("transB", trans_b, 0));
    float alpha = 1.0f, beta = 1.0f;
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("alpha", alpha, 1.0f));
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("beta", beta, 1.0f));
    std::int64_t broadcast = 1;
    if (rules.broadcast_attr) ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("broadcast", broadcast, 0));

    const std::int64_t m = trans_a ? a.shape[1] : a.shape[0];
    const std::int64_t k = trans_a ? a.shape[0] : a.shape[1];
    const std::int64_t kb = trans_b ? b.shape[1] : b.shape[0];
    const std::int64_t n = trans_b ? b.shape[0] : b.shape[1];
    if (k != kb) {
      return Status(StatusCode::invalid_model)
             << "inner dimensions differ: op(A) of input 0 '" << a.name << "' " << a.shape << " (transA=" << trans_a
             << ") has K=" << static_cast<long long>(k) << ", op(B) of input 1 '" << b.name << "' " << b.shape
             << " (transB=" << trans_b << ") has K=" << static_cast<long long>(kb);
    }

    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
    state->m = m;
    state->n = n;
    state->k = k;
    state->trans_a = trans_a != 0;
    state->trans_b = trans_b != 0;
    state->alpha = alpha;
    state->beta = beta;
    state->use_c = has_c && beta != 0.0f;  // beta = 0 ignores C entirely (also its NaNs), as onnx's reference
    if (has_c) {
      const Shape& c = ctx.input(kC).shape;
      ONNXMICRO_RETURN_IF_ERROR(c_strides(ctx, c, m, n, broadcast != 0, state->c_row_stride, state->c_col_stride));
    }
    ctx.set_output(kY, a.dtype, Shape{m, n});

    switch (compiled_dtype(a.dtype)) {
      case DataType::float32: return plan<float>(ctx, *state);
      case DataType::float64: return plan<double>(ctx, *state);
      case DataType::float16: return plan<float16_t>(ctx, *state);
      case DataType::bfloat16: return plan<bfloat16_t>(ctx, *state);
      case DataType::int32: return plan<std::int32_t>(ctx, *state);
      case DataType::int64: return plan<std::int64_t>(ctx, *state);
      case DataType::uint32: return plan<std::uint32_t>(ctx, *state);
      case DataType::uint64: return plan<std::uint64_t>(ctx, *state);
      default: return ctx.unsupported_input_dtype(kA);
    }
  }

  static Status run(RunContext& ctx) noexcept {
    const State& state = ctx.state<State>();
    state.compute(state, ctx);
    return {};
  }

 private:
  /// C must broadcast unidirectionally to (M, N): rank <= 2, each dim 1 or equal (right-aligned).
  static Status c_strides(const kernels::PrepareContext& ctx, const Shape& c, std::int64_t m, std::int64_t n,
                          bool broadcast, std::int64_t& row_stride, std::int64_t& col_stride) noexcept {
    const std::int64_t rows = c.rank() == 2 ? c[0] : 1;
    const std::int64_t cols = c.rank() >= 1 ? c[c.rank() - 1] : 1;
    const bool fits = c.rank() <= 2 && (rows == 1 || rows == m) && (cols == 1 || cols == n);
    if (!fits) {
      return Status(StatusCode::invalid_model) << "input 2 '" << ctx.input(kC).name << "' (C) has shape " << c
                                               << ", which does not broadcast to the output ["
                                               << static_cast<long long>(m) << "," << static_cast<long long>(n) << "]";
    }
    if (!broadcast && !(c.rank() == 2 && rows == m && cols == n)) {
      return Status(StatusCode::invalid_model) << "input 2 '" << ctx.input(kC).name << "' (C) has shape " << c
                                               << " but attribute 'broadcast' is 0, so it must be exactly ["
                                               << static_cast<long long>(m) << "," << static_cast<long long>(n) << "]";
    }
    row_stride = rows == 1 ? 0 : cols;
    col_stride = cols == 1 ? 0 : 1;
    return {};
  }

  /// Chooses buffers: op(B) is packed once at prepare when B is constant and needs a conversion, or a transpose
  /// (size-optimised: read in place instead); otherwise such work goes to scratch at run. Half types accumulate
  /// into a float scratch.
  template <typename T>
  static Status plan(kernels::PrepareContext& ctx, State& state) noexcept {
    using Acc = blocked_gemm::Accumulator<T>;
    constexpr bool kConvert = !blocked_gemm::kSameRepresentation<T>;
    const kernels::TensorInfo& b = ctx.input(kB);
    const std::int64_t kn = state.k * state.n;
    conv_pool::ScratchLayout layout;
    const bool b_needs_work = (!ctx.size_optimized() && state.trans_b) || kConvert;
    if (b_needs_work && b.is_constant && kn > 0) {
      Span<Acc> packed;
      ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_persistent(static_cast<std::size_t>(kn), packed));
      pack_b<T>(static_cast<const T*>(b.const_data), state, packed.data());
      state.packed_b = packed.data();
    } else if (b_needs_work) {
      state.b_in_scratch = true;
      state.b_offset = layout.reserve<Acc>(kn);
    }
    if (kConvert) {
      state.a_in_scratch = true;
      state.a_offset = layout.reserve<Acc>(state.m * state.k);
      state.y_in_scratch = true;
      state.y_offset = layout.reserve<Acc>(state.m * state.n);
    }
    ctx.request_scratch(layout.bytes());
    state.compute = &compute<T>;
    return {};
  }

  /// Writes op(B) as a dense K x N matrix of accumulators.
  template <typename T>
  static void pack_b(const T* b, const State& state, blocked_gemm::Accumulator<T>* dst) noexcept {
    using Acc = blocked_gemm::Accumulator<T>;
    const std::int64_t kn = state.k * state.n;
    if (!state.trans_b) {
      blocked_gemm::to_accumulator(b, dst, kn);
      return;
    }
    if constexpr (blocked_gemm::kSameRepresentation<T>) {
      blocked_gemm::transpose(reinterpret_cast<const Acc*>(b), state.n, state.k, dst);
    } else {
      for (std::int64_t j = 0; j < state.n; ++j)
        for (std::int64_t p = 0; p < state.k; ++p) dst[p * state.n + j] = conv_pool::widen(b[j * state.k + p]);
    }
  }

  template <typename T>
  static void compute(const State& state, RunContext& ctx) noexcept {
    using Acc = blocked_gemm::Accumulator<T>;
    void* scratch = ctx.scratch();
    const std::int64_t m = state.m, n = state.n, k = state.k;
    const T* a_data = static_cast<const T*>(ctx.input(kA).data);
    T* y_data = static_cast<T*>(ctx.output(kY).data);

    const Acc* a = reinterpret_cast<const Acc*>(a_data);
    if (state.a_in_scratch) {
      Acc* converted = conv_pool::scratch_at<Acc>(scratch, state.a_offset);
      blocked_gemm::to_accumulator(a_data, converted, m * k);
      a = converted;
    }
    const Acc* b = static_cast<const Acc*>(state.packed_b);
    std::int64_t b_row = n, b_col = 1;  // B(p, j) = b[p * b_row + j * b_col]
    // Size-optimised builds and sessions read a transposed B in place instead of packing a dense K x N copy:
    // less code, and constant weights stay where the model keeps them (flash on a microcontroller) instead of
    // being copied into metadata. Such builds pack B only to convert it, so pack_b drops out for float here.
    constexpr bool kMayPackB = !ONNXMICRO_OPTIMIZE_FOR_SIZE || !blocked_gemm::kSameRepresentation<T>;
    if (kMayPackB && state.b_in_scratch) {
      Acc* packed = conv_pool::scratch_at<Acc>(scratch, state.b_offset);
      pack_b<T>(static_cast<const T*>(ctx.input(kB).data), state, packed);
      b = packed;
    } else if (b == nullptr) {
      b = static_cast<const Acc*>(ctx.input(kB).data);
      if (state.trans_b) {  // size-optimised: (N x K) B read in place
        b_row = 1;
        b_col = k;
      }
    }
    Acc* y = state.y_in_scratch ? conv_pool::scratch_at<Acc>(scratch, state.y_offset) : reinterpret_cast<Acc*>(y_data);
    for (std::int64_t i = 0; i < m * n; ++i) y[i] = Acc(0);
    const std::int64_t a_row = state.trans_a ? 1 : k;
    const std::int64_t a_col = state.trans_a ? m : 1;
    if (b_col == 1) {
      blocked_gemm::accumulate<Acc>(m, n, k, a, a_row, a_col, b, b_row, y, n);
    } else {
      blocked_gemm::strided_accumulate<Acc>(m, n, k, a, a_row, a_col, b, b_row, b_col, y, n);
    }
    epilogue<T>(state, y, state.use_c ? static_cast<const T*>(ctx.input(kC).data) : nullptr, y_data);
  }

  /// y_out = alpha * acc + beta * C, converted to T.
  template <typename T>
  static void epilogue(const State& state, const blocked_gemm::Accumulator<T>* acc, const T* c, T* y) noexcept {
    const std::int64_t m = state.m, n = state.n;
    if constexpr (std::is_integral<T>::value) {
      using Acc = blocked_gemm::Accumulator<T>;
      const bool exact = state.alpha == 1.0f && (c == nullptr || state.beta == 1.0f);
      for (std::int64_t i = 0; i < m; ++i) {
        for (std::int64_t j = 0; j < n; ++j) {
          const Acc product = acc[i * n + j];
          const Acc bias = c ? static_cast<Acc>(c[i * state.c_row_stride + j * state.c_col_stride]) : Acc(0);
          if (exact) {
            y[i * n + j] = static_cast<T>(static_cast<Acc>(product + bias));
          } else {
            // alpha/beta are floats: scale in double, truncate toward zero, saturate instead of overflowing.
            double v = static_cast<double>(state.alpha) * static_cast<double>(static_cast<T>(product));
            if (c) v += static_cast<double>(state.beta) * static_cast<double>(static_cast<T>(bias));
            y[i * n + j] = saturate<T>(v);
          }
        }
      }
    } else {
      using C = conv_pool::ComputeType<T>;
      const C alpha = static_cast<C>(state.alpha);
      const C beta = static_cast<C>(state.beta);
      for (std::int64_t i = 0; i < m; ++i) {
        for (std::int64_t j = 0; j < n; ++j) {
          C v = alpha == C(1) ? acc[i * n + j] : alpha * acc[i * n + j];
          if (c) v += beta * conv_pool::widen(c[i * state.c_row_stride + j * state.c_col_stride]);
          y[i * n + j] = conv_pool::narrow<T>(v);
        }
      }
    }
  }

  template <typename T>
  static T saturate(double v) noexcept {
    if (v != v) return T(0);
    if (v <= static_cast<double>(std::numeric_limits<T>::lowest())) return std::numeric_limits<T>::lowest();
    if (v >= static_cast<double>(std::numeric_limits<T>::max())) return std::numeric_limits<T>::max();
    return static_cast<T>(v);
  }
};

}  // namespace detail

namespace kernels {

// Gemm-1 (also 6, which only dropped the legacy in-place note on C): C required; the `broadcast` attribute
// (default 0) must be 1 for C to broadcast.
using Gemm_1 = VersionedKernel<detail::GemmImpl, 1, 7>;
// Gemm-7: `broadcast` removed, C always broadcasts unidirectionally to (M, N); 9 added integer dtypes.
using Gemm_7 = VersionedKernel<detail::GemmImpl, 7, 11>;
// Gemm-11: C became optional; 13 added bfloat16.
using Gemm_11 = VersionedKernel<detail::GemmImpl, 11>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
