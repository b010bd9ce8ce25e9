// SPDX-License-Identifier: MIT
// MatMul: numpy.matmul. A 1-D A is a row vector and a 1-D B a column vector (the added axis is dropped from
// the output); leading (batch) axes broadcast numpy-style. Versions 1, 9 and 13 compute the same thing and
// only widened the dtype list (9: int32/int64/uint32/uint64, 13: bfloat16), so one kernel serves every
// version. Integers wrap around on overflow like numpy; float16/bfloat16 are computed in float32.
// A float32 MatMul may carry the bias Add, GELU and Relu/Clip the session folded into it
// (PrepareContext::fused_epilogue/fused_clamp; input 2 is then the bias): applied to the output rows after the
// product (kernels/common/output_epilogue.hpp).
#pragma once
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "onnxmicro/kernels/common/compute_type.hpp"
#include "onnxmicro/kernels/common/gemm.hpp"
#include "onnxmicro/kernels/common/output_epilogue.hpp"
#include "onnxmicro/kernels/common/scratch.hpp"
#include "onnxmicro/kernels/kernel_api.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {
namespace matmul_detail {

/// Implementation of MatMul (every version).
struct MatMulImpl : kernels::KernelDefaults {
  static constexpr std::string_view kOpType = "MatMul";
  using RunContext = kernels::RunContext;
  static constexpr int kA = 0;
  static constexpr int kB = 1;
  static constexpr int kBias = 2;  ///< only in a node the session fused (PrepareContext::fused_epilogue)
  static constexpr int kY = 0;

  struct State {
    void (*compute)(const State&, RunContext&) noexcept;
    std::int64_t m, n, k;
    /// Output batch axes, with each input's element stride per axis (0 where the input broadcasts).
    int batch_rank;
    std::int64_t batch_dims[kMaxRank];
    std::int64_t a_batch_stride[kMaxRank];
    std::int64_t b_batch_stride[kMaxRank];
    std::int64_t batch_count;
    /// B is one matrix shared by every batch: A's batch axes fold into M and one GEMM does everything.
    bool fold_batch;
    Isa isa;  ///< the GEMM micro-kernels to use (PrepareContext::isa)
    std::int64_t a_elements, b_elements, y_elements;
    std::size_t a_offset, b_offset, y_offset;  ///< scratch for the float copies of half-type tensors
#if ONNXMICRO_ENABLE_FAST_PATHS                // (fusion exists only with fast paths: no state bytes without)
    kernels::OutputEpilogue epilogue;          ///< the bias, GELU and clamp fused into this node
#endif
  };

  static Status prepare(kernels::PrepareContext& ctx, int /*since: every version accepts the same*/) noexcept {
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kA));
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kB));
    const kernels::TensorInfo& a = ctx.input(kA);
    const kernels::TensorInfo& b = ctx.input(kB);
    if (!gemm::is_matrix_dtype(a.dtype)) return ctx.unsupported_input_dtype(kA);
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_same_dtype(kA, kB));
    const Shape& sa = a.shape;
    const Shape& sb = b.shape;
    if (sa.rank() < 1 || sb.rank() < 1) {
      const int bad = sa.rank() < 1 ? kA : kB;
      return ctx.input_error(bad) << " is a scalar; MatMul needs rank >= 1";
    }
    const int ra = sa.rank(), rb = sb.rank();
    const std::int64_t m = ra >= 2 ? sa[ra - 2] : 1;
    const std::int64_t k = sa[ra - 1];
    const std::int64_t kb = rb >= 2 ? sb[rb - 2] : sb[0];
    const std::int64_t n = rb >= 2 ? sb[rb - 1] : 1;
    if (k != kb) {
      return Status(StatusCode::invalid_model)
             << "inner dimensions differ: input 0 '" << a.name << "' " << sa << " has K=" << k << ", input 1 '"
             << b.name << "' " << sb << " has K=" << kb;
    }

    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
    state->m = m;
    state->n = n;
    state->k = k;
    if (ONNXMICRO_ENABLE_ISA_DISPATCH) state->isa = ctx.isa();  // (else baseline, as allocated)

    // Batch axes, right-aligned; strides are in elements of each input.
    const int a_batch = ra > 2 ? ra - 2 : 0;
    const int b_batch = rb > 2 ? rb - 2 : 0;
    const int batch_rank = a_batch > b_batch ? a_batch : b_batch;
    state->batch_rank = batch_rank;
    std::int64_t a_stride = m * k, b_stride = k * n;
    state->batch_count = 1;
    bool b_single = true;
    for (int i = batch_rank - 1; i >= 0; --i) {
      const int ia = i - (batch_rank - a_batch);
      const int ib = i - (batch_rank - b_batch);
      const std::int64_t da = ia >= 0 ? sa[ia] : 1;
      const std::int64_t db = ib >= 0 ? sb[ib] : 1;
      if (da != db && da != 1 && db != 1) {
        return Status(StatusCode::invalid_model)
               << "batch axes do not broadcast: input 0 '" << a.name << "' " << sa << " and input 1 '" << b.name << "' "
               << sb << " (axis " << i << " of the batch: " << da << " vs " << db << ")";
      }
      state->batch_dims[i] = da == 1 ? db : da;
      state->a_batch_stride[i] = da == 1 ? 0 : a_stride;
      state->b_batch_stride[i] = db == 1 ? 0 : b_stride;
      a_stride *= da;
      b_stride *= db;
      state->batch_count *= state->batch_dims[i];
      b_single = b_single && db == 1;
    }
    state->fold_batch = b_single;

    Shape y;
    {
      std::int64_t dims[kMaxRank] = {};
      int rank = 0;
      for (int i = 0; i < batch_rank; ++i) dims[rank++] = state->batch_dims[i];
      if (ra >= 2) dims[rank++] = m;
      if (rb >= 2) dims[rank++] = n;
      ONNXMICRO_RETURN_IF_ERROR(y.assign(dims, static_cast<std::size_t>(rank)));
    }
    ctx.set_output(kY, a.dtype, y);
    state->a_elements = sa.element_count();
    state->b_elements = sb.element_count();
    state->y_elements = y.element_count();
    ONNXMICRO_RETURN_IF_ERROR(prepare_epilogue(ctx, *state));

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
  /// The fused bias/GELU/clamp: float32 only, the bias as long as the last axis (the fusion rules guarantee both).
  static Status prepare_epilogue(kernels::PrepareContext& ctx, State& state) noexcept {
    const kernels::FusedEpilogue& fused = ctx.fused_epilogue();
    if (!fused.present() && !ctx.fused_clamp().present()) return {};
#if ONNXMICRO_ENABLE_FAST_PATHS
    if (ctx.input(kA).dtype != DataType::float32) {
      return Status(StatusCode::internal) << "a fused bias/activation on a " << dtype_name(ctx.input(kA).dtype)
                                          << " MatMul (fusion takes float32 only)";
    }
    if (fused.bias) {
      if (!ctx.has_input(kBias)) return Status(StatusCode::internal) << "a fused bias Add without its bias input";
      const kernels::TensorInfo& bias = ctx.input(kBias);
      if (bias.dtype != DataType::float32 || bias.shape.rank() != 1 || bias.shape[0] != state.n) {
        return ctx.input_error(kBias) << " (the fused bias) is " << dtype_name(bias.dtype) << ' ' << bias.shape
                                      << "; the fused Add needs float32 [" << state.n << "]";
      }
    }
    state.epilogue = kernels::OutputEpilogue::from(fused, ctx.fused_clamp());
    return {};
#else
    static_cast<void>(state);
    return Status(StatusCode::internal) << "a fused bias/activation in a build without fast paths";
#endif
  }

  /// Applies the fused epilogue to the float32 output y (every row of n), split over the workers by rows.
  static void apply_epilogue(const State& state, RunContext& ctx, float* y) noexcept {
#if ONNXMICRO_ENABLE_FAST_PATHS
    const kernels::OutputEpilogue& e = state.epilogue;
    if (!e.enabled()) return;
    const float* bias = e.bias ? static_cast<const float*>(ctx.input(kBias).data) : nullptr;
    const std::int64_t n = state.n, rows = state.n == 0 ? 0 : state.y_elements / state.n;
    auto rows_in = [&](std::int64_t first, std::int64_t end) noexcept {
      kernels::apply_epilogue_rows(state.isa, e, bias, y + first * n, end - first, n);
    };
    // Work per element for the split: GELU's erf costs about 40 vector operations, a bias or clamp about 2.
    ctx.workers().for_each_range(rows, static_cast<double>(n) * (e.gelu ? 40 : 2), rows_in);
#else
    static_cast<void>(state), static_cast<void>(ctx), static_cast<void>(y);
#endif
  }

  template <typename T>
  static Status plan(kernels::PrepareContext& ctx, State& state) noexcept {
    using Acc = gemm::Accumulator<T>;
    if constexpr (!gemm::kSameRepresentation<T>) {
      scratch::ScratchLayout layout;
      state.a_offset = layout.reserve<Acc>(state.a_elements);
      state.b_offset = layout.reserve<Acc>(state.b_elements);
      state.y_offset = layout.reserve<Acc>(state.y_elements);
      ctx.request_scratch(layout.bytes());
    }
    state.compute = &compute<T>;
    return {};
  }

  /// Where output batch `batch` (row-major over the batch axes) reads A and B: each input's element offset.
  static void batch_offsets(const State& state, std::int64_t batch, std::int64_t& a_offset,
                            std::int64_t& b_offset) noexcept {
    for (int axis = state.batch_rank - 1; axis >= 0; --axis) {
      const std::int64_t index = batch % state.batch_dims[axis];
      batch /= state.batch_dims[axis];
      a_offset += index * state.a_batch_stride[axis];
      b_offset += index * state.b_batch_stride[axis];
    }
  }

  template <typename T>
  static void compute(const State& state, RunContext& ctx) noexcept {
    using Acc = gemm::Accumulator<T>;
    const T* a_data = static_cast<const T*>(ctx.input(kA).data);
    const T* b_data = static_cast<const T*>(ctx.input(kB).data);
    T* y_data = static_cast<T*>(ctx.output(kY).data);
    const Acc* a = reinterpret_cast<const Acc*>(a_data);
    const Acc* b = reinterpret_cast<const Acc*>(b_data);
    Acc* y = reinterpret_cast<Acc*>(y_data);
    if constexpr (!gemm::kSameRepresentation<T>) {
      Acc* a_converted = scratch::scratch_at<Acc>(ctx.scratch(), state.a_offset);
      Acc* b_converted = scratch::scratch_at<Acc>(ctx.scratch(), state.b_offset);
      gemm::to_accumulator(a_data, a_converted, state.a_elements);
      gemm::to_accumulator(b_data, b_converted, state.b_elements);
      a = a_converted;
      b = b_converted;
      y = scratch::scratch_at<Acc>(ctx.scratch(), state.y_offset);
    }
    for (std::int64_t i = 0; i < state.y_elements; ++i) y[i] = Acc(0);
    const std::int64_t m = state.m, n = state.n, k = state.k;
    const Workers& workers = ctx.workers();
    if (state.fold_batch) {
      // Every batch uses the same B; A's batches are contiguous (broadcast A axes are size 1 here), so the
      // whole product is one (batch * M) x K by K x N multiply.
      gemm::accumulate<Acc>(workers, state.isa, state.batch_count * m, n, k, a, k, 1, b, n, y, n);
    } else if (state.batch_count >= static_cast<std::int64_t>(workers.count())) {
      // Whole batches per task (enough of them to go round).
      auto batches_in = [&](std::int64_t first, std::int64_t end) noexcept {
        for (std::int64_t batch = first; batch < end; ++batch) {
          std::int64_t a_offset = 0, b_offset = 0;
          batch_offsets(state, batch, a_offset, b_offset);
          gemm::accumulate<Acc>(state.isa, m, n, k, a + a_offset, k, 1, b + b_offset, n, y + batch * m * n, n);
        }
      };
      workers.for_each_range(state.batch_count, static_cast<double>(m) * n * k, batches_in);
    } else {
      for (std::int64_t batch = 0; batch < state.batch_count; ++batch) {  // few batches: each product split
        std::int64_t a_offset = 0, b_offset = 0;
        batch_offsets(state, batch, a_offset, b_offset);
        gemm::accumulate<Acc>(workers, state.isa, m, n, k, a + a_offset, k, 1, b + b_offset, n, y + batch * m * n, n);
      }
    }
    if constexpr (!gemm::kSameRepresentation<T>) {
      for (std::int64_t i = 0; i < state.y_elements; ++i) y_data[i] = compute_type::narrow<T>(y[i]);
    }
    if constexpr (std::is_same_v<T, float>) apply_epilogue(state, ctx, y);
  }
};

}  // namespace matmul_detail

// MatMul-1 (also 9 and 13, which only added dtypes): numpy matmul with 1-D operands and batch broadcasting.
using MatMul_1 = VersionedKernel<matmul_detail::MatMulImpl, 1>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
