// SPDX-License-Identifier: MIT
// MatMulInteger (opset 10, the only version): numpy.matmul of int8/uint8 A and B after subtracting their zero
// points, into int32 (the accumulation wraps around in 32 bits, the only overflow the spec allows). a_zero_point
// is a scalar or per row of A ([M] or [.., M, 1]); b_zero_point a scalar or per column of B ([N] or [.., 1, N]).
// (The ONNX reference subtracts a 1-D a_zero_point along K, against the spec's per-row meaning; the suite only
// has one-value zero points.)
// A per-tensor a_zero_point with b_zero_point per tensor or per column (the same for every batch) runs on the
// integer GEMM core (common/integer_gemm.hpp): y^T = (B - b_zero)^T (A - a_zero)^T, B packed once at prepare when it
// and its zero point are constants (else into scratch at every run), A packed per tile. Other layouts use the reference
// loops.
#pragma once
#include <cstddef>
#include <cstdint>

#include "onnxmicro/kernels/common/integer_gemm.hpp"
#include "onnxmicro/kernels/common/scratch.hpp"
#include "onnxmicro/kernels/kernel_api.hpp"
#include "onnxmicro/kernels/quantization/quant_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

namespace matmul_integer_detail {

/// The implementation of MatMulInteger (see the file comment).
struct MatMulIntegerImpl : KernelDefaults {
  static constexpr std::string_view kOpType = "MatMulInteger";
  static constexpr int kA = 0;
  static constexpr int kB = 1;
  static constexpr int kAZeroPoint = 2;
  static constexpr int kBZeroPoint = 3;
  static constexpr int kY = 0;

  struct State {
    quant_util::MatMulPlan plan;
    quant_util::LoadElement load_a, load_b;
    // Integer path (compute != nullptr): see the file comment.
    void (*compute)(const State&, RunContext&) noexcept;
    Isa isa;                      ///< the session's instruction set: the integer GEMM's tiles
    bool per_column;              ///< b_zero_point has N values
    std::int64_t b_matrices;      ///< distinct K x N matrices of B
    std::int64_t tile;            ///< columns (rows of A) per packed tile
    const std::int16_t* weights;  ///< packed B, or nullptr: packed at run into scratch
    std::size_t weights_offset, packed_offset;
  };

  static Status prepare(PrepareContext& ctx) noexcept {
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kA));
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kB));
    for (int i : {kA, kB}) {
      if (ctx.input(i).dtype != DataType::int8 && ctx.input(i).dtype != DataType::uint8) {
        return ctx.unsupported_input_dtype(i);
      }
    }
    if (ctx.has_input(kAZeroPoint)) ONNXMICRO_RETURN_IF_ERROR(ctx.require_same_dtype(kA, kAZeroPoint));
    if (ctx.has_input(kBZeroPoint)) ONNXMICRO_RETURN_IF_ERROR(ctx.require_same_dtype(kB, kBZeroPoint));
    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
    ONNXMICRO_RETURN_IF_ERROR(quant_util::plan_matmul(ctx, kA, kB, state->plan));
    if (ctx.has_input(kAZeroPoint)) {
      ONNXMICRO_RETURN_IF_ERROR(
          quant_util::plan_matrix_params(ctx, kAZeroPoint, kA, true, state->plan, state->plan.a_params));
    }
    if (ctx.has_input(kBZeroPoint)) {
      ONNXMICRO_RETURN_IF_ERROR(
          quant_util::plan_matrix_params(ctx, kBZeroPoint, kB, false, state->plan, state->plan.b_params));
    }
    state->load_a = quant_util::loader_for(ctx.input(kA).dtype);
    state->load_b = quant_util::loader_for(ctx.input(kB).dtype);
    ONNXMICRO_RETURN_IF_ERROR(prepare_integer(ctx, *state));
    ctx.set_output(kY, DataType::int32, state->plan.output);
    return {};
  }

  static Status run(RunContext& ctx) noexcept {
    const State& s = ctx.state<State>();
    if (s.compute != nullptr) {
      s.compute(s, ctx);
      return {};
    }
    const quant_util::LoadElement load_a = s.load_a, load_b = s.load_b;
    const void* a_zero = ctx.has_input(kAZeroPoint) ? ctx.input(kAZeroPoint).data : nullptr;
    const void* b_zero = ctx.has_input(kBZeroPoint) ? ctx.input(kBZeroPoint).data : nullptr;
    std::int32_t* y = static_cast<std::int32_t*>(ctx.output(kY).data);
    s.plan.for_each_sum(
        load_a, ctx.input(kA).data, load_b, ctx.input(kB).data,
        [&](std::int64_t p) { return a_zero ? load_a(a_zero, p) : 0.0; },
        [&](std::int64_t p) { return b_zero ? load_b(b_zero, p) : 0.0; },
        [&](std::int64_t i, double sum, std::int64_t, std::int64_t) { y[i] = quant_util::wrap_int32(sum); });
    return {};
  }

 private:
  static Status prepare_integer(PrepareContext& ctx, State& s) noexcept {
    s.compute = nullptr;
    const quant_util::MatMulPlan& plan = s.plan;
    bool b_flat = true;
    for (int i = 0; i < plan.batch_rank; ++i) b_flat = b_flat && plan.b_params.batch_stride[i] == 0;
    const bool a_per_tensor = !ctx.has_input(kAZeroPoint) || ctx.input(kAZeroPoint).shape.element_count() == 1;
    if (!a_per_tensor || !b_flat || plan.k <= 0) return {};
    s.per_column = ctx.has_input(kBZeroPoint) && ctx.input(kBZeroPoint).shape.element_count() > 1;
    const DataType a = ctx.input(kA).dtype, b = ctx.input(kB).dtype;
    s.compute = integer_gemm::pick_8bit(a, b, [](auto ta, auto tb) { return &compute<decltype(ta), decltype(tb)>; });
    s.isa = ctx.isa();
    const std::int64_t k = plan.k, n = plan.n;
    s.b_matrices = k * n == 0 ? 1 : ctx.input(kB).shape.element_count() / (k * n);
    s.tile = integer_gemm::activation_tile(k, plan.m);
    const std::size_t weights_size = static_cast<std::size_t>(s.b_matrices * integer_gemm::packed_a_size(n, k));
    std::size_t offset = 0;
    s.weights = nullptr;
    if (integer_gemm::constant_with_zero_point(ctx, kB, kBZeroPoint)) {
      ONNXMICRO_RETURN_IF_ERROR(
          integer_gemm::pack_constant_matrices(ctx, kB, kBZeroPoint, k, n, s.b_matrices, s.per_column, s.weights));
    } else {
      s.weights_offset = 0;
      offset = (weights_size * sizeof(std::int16_t) + 15) / 16 * 16;
    }
    s.packed_offset = offset;
    offset += static_cast<std::size_t>(integer_gemm::packed_b_size(k, s.tile)) * sizeof(std::int16_t);
    ctx.request_scratch(offset);
    return {};
  }

  template <typename TB>
  static void pack_weights(const State& s, const TB* b, const TB* zero, std::int16_t* dst) noexcept {
    integer_gemm::pack_matrices(b, zero, s.plan.k, s.plan.n, s.b_matrices, s.per_column, dst);
  }

  template <typename TA, typename TB>
  static void compute(const State& s, RunContext& ctx) noexcept {
    const quant_util::MatMulPlan& plan = s.plan;
    void* scratch = ctx.scratch();
    const TA* a = static_cast<const TA*>(ctx.input(kA).data);
    const int a_zero =
        ctx.has_input(kAZeroPoint) ? static_cast<int>(static_cast<const TA*>(ctx.input(kAZeroPoint).data)[0]) : 0;
    std::int32_t* y = static_cast<std::int32_t*>(ctx.output(kY).data);
    const std::int16_t* weights = s.weights;
    if (weights == nullptr) {
      std::int16_t* packed = scratch::scratch_at<std::int16_t>(scratch, s.weights_offset);
      pack_weights(s, static_cast<const TB*>(ctx.input(kB).data),
                   ctx.has_input(kBZeroPoint) ? static_cast<const TB*>(ctx.input(kBZeroPoint).data) : nullptr, packed);
      weights = packed;
    }
    std::int16_t* packed = scratch::scratch_at<std::int16_t>(scratch, s.packed_offset);
    const std::int64_t m = plan.m, n = plan.n;
    integer_gemm::multiply_matrices(s.isa, plan, weights, a, a_zero, s.tile, packed,
                                    [&](std::int64_t batch, std::int64_t row, std::int64_t column, std::int64_t rows,
                                        std::int64_t cols, const std::int32_t(*acc)[integer_gemm::kColumns]) {
                                      std::int32_t* y_batch = y + batch * m * n;
                                      for (std::int64_t r = 0; r < rows; ++r) {
                                        std::int32_t* out = y_batch + column * n + row + r;
                                        for (std::int64_t c = 0; c < cols; ++c) out[c * n] = acc[r][c];
                                      }
                                    });
  }
};

}  // namespace matmul_integer_detail

// Opset 10: the only version.
using MatMulInteger_10 = VersionedKernel<matmul_integer_detail::MatMulIntegerImpl, 10>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
