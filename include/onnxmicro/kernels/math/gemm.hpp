// SPDX-License-Identifier: MIT
// Gemm: Y = alpha * op(A) * op(B) + beta * C, op = optional transpose (transA/transB), C broadcast to (M, N).
// The matrix product itself runs on the GEMM engine (kernels/common/gemm.hpp); a constant float32 B is packed at
// prepare in the micro-kernels' column strips (a batch-1 classifier then streams its weights in order). A float32 Gemm
// may carry the Relu/Clip
// the session folded into it (PrepareContext::fused_clamp), applied to Y as the removed node would.
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

#include "onnxmicro/kernels/common/compute_type.hpp"
#include "onnxmicro/kernels/common/gemm.hpp"
#include "onnxmicro/kernels/common/output_epilogue.hpp"
#include "onnxmicro/kernels/common/scratch.hpp"
#include "onnxmicro/kernels/kernel_api.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {
namespace gemm_detail {

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
    Isa isa;     ///< the GEMM micro-kernels to use (PrepareContext::isa)
    bool use_c;  ///< C present and beta != 0
    float alpha, beta;
#if ONNXMICRO_ENABLE_FAST_PATHS
    // A fused Relu/Clip (fusion exists only with fast paths), spread over what is padding without it: the state is
    // no larger, and the host plans Cortex-M firmware metadata with these sizes.
    float clamp_low;
#endif
    std::int64_t c_row_stride;  ///< 0 when C broadcasts along rows
    std::int64_t c_col_stride;  ///< 0 when C broadcasts along columns
    const void* packed_b;       ///< op(B) made at prepare (or null): striped when stripes_b, else a dense K x N matrix
    std::size_t a_offset, b_offset, y_offset;  ///< scratch sub-buffers (see prepare)
    bool a_in_scratch, b_in_scratch, y_in_scratch;
#if ONNXMICRO_ENABLE_FAST_PATHS
    bool clamp_enabled;
    float clamp_high;
#endif
  };

  static Status prepare(kernels::PrepareContext& ctx, int since) noexcept {
    const Rules rules{/*c_optional=*/since >= 11, /*broadcast_attr=*/since < 7};
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kA));
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kB));
    if (!rules.c_optional) ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kC));
    const kernels::TensorInfo& a = ctx.input(kA);
    const kernels::TensorInfo& b = ctx.input(kB);
    if (!gemm::is_matrix_dtype(a.dtype)) return ctx.unsupported_input_dtype(kA);
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_same_dtype(kA, kB));
    const bool has_c = ctx.has_input(kC);
    if (has_c) ONNXMICRO_RETURN_IF_ERROR(ctx.require_same_dtype(kA, kC));
    if (a.shape.rank() != 2) {
      return ctx.input_error(kA, "A") << " has shape " << a.shape << ", expected rank 2";
    }
    if (b.shape.rank() != 2) {
      return ctx.input_error(kB, "B") << " has shape " << b.shape << ", expected rank 2";
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
             << ") has K=" << k << ", op(B) of input 1 '" << b.name << "' " << b.shape << " (transB=" << trans_b
             << ") has K=" << kb;
    }

    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
    state->m = m;
    state->n = n;
    state->k = k;
    state->trans_a = trans_a != 0;
    state->trans_b = trans_b != 0;
    if (ONNXMICRO_ENABLE_ISA_DISPATCH) state->isa = ctx.isa();  // (else baseline, as allocated)
    state->alpha = alpha;
    state->beta = beta;
    state->use_c = has_c && beta != 0.0f;  // beta = 0 ignores C entirely (also its NaNs), as onnx's reference
    if (has_c) {
      const Shape& c = ctx.input(kC).shape;
      ONNXMICRO_RETURN_IF_ERROR(c_strides(ctx, c, m, n, broadcast != 0, state->c_row_stride, state->c_col_stride));
    }
    ctx.set_output(kY, a.dtype, Shape{m, n});
    ONNXMICRO_RETURN_IF_ERROR(prepare_clamp(ctx, *state));

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

  /// The fused Relu/Clip: float32 only (the fusion rules guarantee it).
  static Status prepare_clamp(kernels::PrepareContext& ctx, State& state) noexcept {
    if (!ctx.fused_clamp().present()) return {};
#if ONNXMICRO_ENABLE_FAST_PATHS
    if (ctx.input(kA).dtype != DataType::float32) {
      return Status(StatusCode::internal)
             << "a fused activation on a " << dtype_name(ctx.input(kA).dtype) << " Gemm (fusion takes float32 only)";
    }
    const kernels::OutputClamp clamp = kernels::OutputClamp::from(ctx.fused_clamp());
    state.clamp_enabled = clamp.enabled;
    state.clamp_low = clamp.low;
    state.clamp_high = clamp.high;
    return {};
#else
    static_cast<void>(state);
    return Status(StatusCode::internal) << "a fused activation in a build without fast paths";
#endif
  }

 private:
  /// C must broadcast unidirectionally to (M, N): rank <= 2, each dim 1 or equal (right-aligned).
  static Status c_strides(const kernels::PrepareContext& ctx, const Shape& c, std::int64_t m, std::int64_t n,
                          bool broadcast, std::int64_t& row_stride, std::int64_t& col_stride) noexcept {
    const std::int64_t rows = c.rank() == 2 ? c[0] : 1;
    const std::int64_t cols = c.rank() >= 1 ? c[c.rank() - 1] : 1;
    const bool fits = c.rank() <= 2 && (rows == 1 || rows == m) && (cols == 1 || cols == n);
    if (!fits) {
      return ctx.input_error(kC, "C") << " has shape " << c << ", which does not broadcast to the output [" << m << ","
                                      << n << "]";
    }
    if (!broadcast && !(c.rank() == 2 && rows == m && cols == n)) {
      return ctx.input_error(kC, "C") << " has shape " << c
                                      << " but attribute 'broadcast' is 0, so it must be exactly [" << m << "," << n
                                      << "]";
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
    using Acc = gemm::Accumulator<T>;
    constexpr bool kConvert = !gemm::kSameRepresentation<T>;
    const kernels::TensorInfo& b = ctx.input(kB);
    const std::int64_t kn = state.k * state.n;
    scratch::ScratchLayout layout;
    const bool b_needs_work = (!ctx.size_optimized() && state.trans_b) || kConvert;
    if (stripes_b<T>(state) && b.is_constant && kn > 0 && !ctx.size_optimized()) {
      Span<float> striped;
      const std::int64_t floats = gemm::striped_b_floats(state.isa, state.k, state.n);
      ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_persistent(static_cast<std::size_t>(floats), striped));
      const std::int64_t b_row = state.trans_b ? 1 : state.n, b_col = state.trans_b ? state.k : 1;
      gemm::pack_b_striped(state.isa, state.k, state.n, static_cast<const float*>(b.const_data), b_row, b_col,
                           striped.data());
      state.packed_b = striped.data();
    } else if (b_needs_work && b.is_constant && kn > 0) {
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

  /// True when a constant B is packed striped for the micro-kernels (gemm::pack_b_striped; float32 on a session with
  /// micro-kernels): then packed_b holds that layout, not the dense one.
  template <typename T>
  static bool stripes_b(const State& state) noexcept {
    return std::is_same<T, float>::value && gemm::b_strip_columns(state.isa) > 0;
  }

  /// Writes op(B) as a dense K x N matrix of accumulators.
  template <typename T>
  static void pack_b(const T* b, const State& state, gemm::Accumulator<T>* dst) noexcept {
    using Acc = gemm::Accumulator<T>;
    const std::int64_t kn = state.k * state.n;
    if (!state.trans_b) {
      gemm::to_accumulator(b, dst, kn);
      return;
    }
    if constexpr (gemm::kSameRepresentation<T>) {
      gemm::transpose(reinterpret_cast<const Acc*>(b), state.n, state.k, dst);
    } else {
      for (std::int64_t j = 0; j < state.n; ++j)
        for (std::int64_t p = 0; p < state.k; ++p) dst[p * state.n + j] = compute_type::widen(b[j * state.k + p]);
    }
  }

  template <typename T>
  static void compute(const State& state, RunContext& ctx) noexcept {
    using Acc = gemm::Accumulator<T>;
    void* scratch = ctx.scratch();
    const std::int64_t m = state.m, n = state.n, k = state.k;
    const T* a_data = static_cast<const T*>(ctx.input(kA).data);
    T* y_data = static_cast<T*>(ctx.output(kY).data);

    const Acc* a = reinterpret_cast<const Acc*>(a_data);
    if (state.a_in_scratch) {
      Acc* converted = scratch::scratch_at<Acc>(scratch, state.a_offset);
      gemm::to_accumulator(a_data, converted, m * k);
      a = converted;
    }
    const Acc* b = static_cast<const Acc*>(state.packed_b);
    std::int64_t b_row = n, b_col = 1;  // B(p, j) = b[p * b_row + j * b_col]
    // Size-optimised builds and sessions read a transposed B in place instead of packing a dense K x N copy:
    // less code, and constant weights stay where the model keeps them (flash on a microcontroller) instead of
    // being copied into metadata. Such builds pack B only to convert it, so pack_b drops out for float here.
    constexpr bool kMayPackB = !ONNXMICRO_OPTIMIZE_FOR_SIZE || !gemm::kSameRepresentation<T>;
    if (kMayPackB && state.b_in_scratch) {
      Acc* packed = scratch::scratch_at<Acc>(scratch, state.b_offset);
      pack_b<T>(static_cast<const T*>(ctx.input(kB).data), state, packed);
      b = packed;
    } else if (b == nullptr) {
      b = static_cast<const Acc*>(ctx.input(kB).data);
      if (state.trans_b) {  // size-optimised: (N x K) B read in place
        b_row = 1;
        b_col = k;
      }
    }
    Acc* y = state.y_in_scratch ? scratch::scratch_at<Acc>(scratch, state.y_offset) : reinterpret_cast<Acc*>(y_data);
    for (std::int64_t i = 0; i < m * n; ++i) y[i] = Acc(0);
    const std::int64_t a_row = state.trans_a ? 1 : k;
    const std::int64_t a_col = state.trans_a ? m : 1;
    if (stripes_b<T>(state) && state.packed_b != nullptr) {
      if constexpr (std::is_same<T, float>::value)
        gemm::multiply_striped(ctx.workers(), state.isa, m, n, k, a, a_row, a_col, b, y, n);
    } else if (b_col == 1) {
      gemm::accumulate<Acc>(ctx.workers(), state.isa, m, n, k, a, a_row, a_col, b, b_row, y, n);
    } else {
      gemm::strided_accumulate<Acc>(m, n, k, a, a_row, a_col, b, b_row, b_col, y, n);
    }
    epilogue<T>(state, y, state.use_c ? static_cast<const T*>(ctx.input(kC).data) : nullptr, y_data);
#if ONNXMICRO_ENABLE_FAST_PATHS
    if constexpr (std::is_same_v<T, float>) {
      if (state.clamp_enabled) {
        kernels::OutputEpilogue clamp{};
        clamp.clamp = kernels::OutputClamp{true, state.clamp_low, state.clamp_high};
        kernels::apply_epilogue_rows(state.isa, clamp, nullptr, y_data, m, n);
      }
    }
#endif
  }

  /// y_out = alpha * acc + beta * C, converted to T.
  template <typename T>
  static void epilogue(const State& state, const gemm::Accumulator<T>* acc, const T* c, T* y) noexcept {
    const std::int64_t m = state.m, n = state.n;
    if constexpr (std::is_integral<T>::value) {
      using Acc = gemm::Accumulator<T>;
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
      using C = compute_type::ComputeType<T>;
      const C alpha = static_cast<C>(state.alpha);
      const C beta = static_cast<C>(state.beta);
      for (std::int64_t i = 0; i < m; ++i) {
        for (std::int64_t j = 0; j < n; ++j) {
          C v = alpha == C(1) ? acc[i * n + j] : alpha * acc[i * n + j];
          if (c) v += beta * compute_type::widen(c[i * state.c_row_stride + j * state.c_col_stride]);
          y[i * n + j] = compute_type::narrow<T>(v);
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

}  // namespace gemm_detail

// Gemm-1 (also 6, which only dropped the legacy in-place note on C): C required; the `broadcast` attribute
// (default 0) must be 1 for C to broadcast.
using Gemm_1 = VersionedKernel<gemm_detail::GemmImpl, 1, 7>;
// Gemm-7: `broadcast` removed, C always broadcasts unidirectionally to (M, N); 9 added integer dtypes.
using Gemm_7 = VersionedKernel<gemm_detail::GemmImpl, 7, 11>;
// Gemm-11: C became optional; 13 added bfloat16.
using Gemm_11 = VersionedKernel<gemm_detail::GemmImpl, 11>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
