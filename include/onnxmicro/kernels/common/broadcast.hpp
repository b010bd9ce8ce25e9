// SPDX-License-Identifier: MIT
// Numpy-style (multidirectional) broadcasting, shared by every kernel that combines tensors of different
// shapes elementwise (Add/Sub/Mul/Div, Where, Expand, comparisons, ...). Two steps:
//
//   prepare():
//     Shape out;
//     ONNXMICRO_RETURN_IF_ERROR(broadcast_input_shapes(ctx, {kA, kB}, out));    // error names the inputs
//     ONNXMICRO_RETURN_IF_ERROR(make_broadcast_plan({&ctx.input(kA).shape, &ctx.input(kB).shape}, out,
//                                                   state->plan));              // BroadcastPlan<2> in State
//   run():
//     state.plan.for_each_row([&](const std::int64_t* in_offsets, std::int64_t out_offset, std::int64_t n) {
//       // n output elements starting at out_offset; operand i starts at in_offsets[i] and advances by
//       // state.plan.inner_stride(i) (1: walks, 0: repeats one value) per output element.
//     });
//
// The plan folds the iteration to the fewest dimensions that describe it: size-1 output dimensions are dropped
// and neighbouring dimensions are merged when every operand walks (or repeats) through both alike. So
// same-shape operands become one row of output_count elements with inner strides all 1 (is_elementwise()),
// a scalar operand gets inner stride 0 on one long row, and a per-channel bias [C,1,1] on [N,C,H,W] becomes
// N*C rows of H*W. Offsets and strides count elements, not bytes (multiply by the element size for
// dtype-agnostic copies). Planning is O(rank); run-time cost is one call of the row function per row.
//
// Also the broadcast loop of binary kernels with mixed dtypes or a prepare-time operation (run_broadcast_binary,
// used by Pow, Mod, BitShift and Sum).
#pragma once
#include <cstdint>
#include <string_view>

#include "onnxmicro/kernels/kernel_api.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

/// One operand of broadcast_shapes(): its shape and how error messages name it ("<label> <index> '<name>'",
/// e.g. "input 1 'B'", or "value of input 1 'shape'" for Expand's target shape).
struct BroadcastOperand {
  const Shape* shape = nullptr;
  std::string_view label = "input";
  int index = 0;
  std::string_view name;
};

/// Computes the numpy broadcast of `operands` into `out`: shapes are aligned at their last dimension, missing
/// leading dimensions count as 1, and each output dimension is the common size where sizes are equal or 1
/// (a 0 broadcasts with 1 to 0). An unknown dim (Shape::kUnknownDim) yields the other operands' size, or
/// unknown when all are unknown or 1. Fails with invalid_model naming both operands, their shapes, the
/// output axis and the two sizes. `out` is unspecified on failure.
inline Status broadcast_shapes(Span<const BroadcastOperand> operands, Shape& out) noexcept {
  int rank = 0;
  for (const BroadcastOperand& op : operands)
    if (op.shape->rank() > rank) rank = op.shape->rank();
  out = Shape();
  out.resize(rank);
  for (int axis = 0; axis < rank; ++axis) {
    std::int64_t size = 1;
    std::size_t decided_by = 0;  // operand that set `size`, for the message
    bool unknown = false;
    for (std::size_t i = 0; i < operands.size(); ++i) {
      const Shape& shape = *operands[i].shape;
      const int own_axis = axis - (rank - shape.rank());
      if (own_axis < 0) continue;  // missing leading dimension: size 1
      const std::int64_t dim = shape[own_axis];
      if (dim == Shape::kUnknownDim) {
        unknown = true;
        continue;
      }
      if (dim == 1) continue;
      if (size == 1) {
        size = dim;
        decided_by = i;
        continue;
      }
      if (dim != size) {
        const BroadcastOperand& a = operands[decided_by];
        const BroadcastOperand& b = operands[i];
        return Status(StatusCode::invalid_model)
               << a.label << " " << a.index << " '" << a.name << "' with shape " << *a.shape << " and " << b.label
               << " " << b.index << " '" << b.name << "' with shape " << *b.shape
               << " cannot be broadcast: output axis " << axis << " would need size " << size << " and " << dim
               << " (numpy rules: sizes must be equal or one of them 1)";
      }
    }
    out[axis] = (size == 1 && unknown) ? Shape::kUnknownDim : size;
  }
  return {};
}

/// broadcast_shapes() over inputs of a node, named by index and tensor name in errors. Every listed input
/// must be present (check with require_input first).
template <std::size_t N>
Status broadcast_input_shapes(const PrepareContext& ctx, const int (&inputs)[N], Shape& out) noexcept {
  BroadcastOperand operands[N];
  for (std::size_t i = 0; i < N; ++i) {
    operands[i].shape = &ctx.input(inputs[i]).shape;
    operands[i].index = inputs[i];
    operands[i].name = ctx.input(inputs[i]).name;
  }
  return broadcast_shapes(Span<const BroadcastOperand>(operands, N), out);
}

/// Precomputed iteration of an output over N broadcast operands (see the file comment). Trivially
/// destructible: keep it in a kernel's State.
template <int N>
struct BroadcastPlan {
  static_assert(N >= 1, "a broadcast plan needs at least one operand");
  static constexpr int kOperands = N;

  int rank = 1;                            ///< folded rank, >= 1
  std::int64_t dims[kMaxRank] = {};        ///< folded output dimensions, outermost first
  std::int64_t strides[N][kMaxRank] = {};  ///< element stride of each operand per folded dim (0: broadcast)
  std::int64_t output_count = 0;           ///< output elements (0: for_each_row does nothing)

  /// Elements per row (the innermost folded dimension).
  std::int64_t row_length() const noexcept { return dims[rank - 1]; }
  /// Stride of operand `i` along a row: 1 (one element per output element) or 0 (one value for the row).
  std::int64_t inner_stride(int i) const noexcept { return strides[i][rank - 1]; }
  /// True when no operand is broadcast: one row, every operand read in step with the output.
  bool is_elementwise() const noexcept {
    if (rank != 1) return false;
    for (int i = 0; i < N; ++i)
      if (strides[i][0] != 1) return false;
    return true;
  }

  /// Calls `row(const std::int64_t* operand_offsets, std::int64_t output_offset, std::int64_t length)` once
  /// per row, in output order. Offsets are in elements. Allocates nothing.
  template <typename RowFunction>
  void for_each_row(RowFunction&& row) const noexcept {
    if (output_count == 0) return;
    const std::int64_t length = dims[rank - 1];
    std::int64_t offsets[N] = {};
    std::int64_t index[kMaxRank] = {};
    std::int64_t output_offset = 0;
    for (;;) {
      row(static_cast<const std::int64_t*>(offsets), output_offset, length);
      output_offset += length;
      // Odometer over the outer dimensions, innermost first; a wrapped dimension rewinds its offsets.
      int d = rank - 2;
      for (; d >= 0; --d) {
        if (++index[d] < dims[d]) {
          for (int i = 0; i < N; ++i) offsets[i] += strides[i][d];
          break;
        }
        index[d] = 0;
        for (int i = 0; i < N; ++i) offsets[i] -= strides[i][d] * (dims[d] - 1);
      }
      if (d < 0) return;
    }
  }
};

/// Builds the plan for iterating `output` (the broadcast of `operands`, e.g. from broadcast_shapes) where
/// operand i is a dense row-major tensor of shape *operands[i]. Fails with unsupported when a shape is not
/// static, and with invalid_argument when an operand does not broadcast to `output` (a caller bug).
template <int N>
Status make_broadcast_plan(const Shape* const (&operands)[N], const Shape& output, BroadcastPlan<N>& plan) noexcept {
  plan = BroadcastPlan<N>();
  const int rank = output.rank();
  for (int i = 0; i < N; ++i) {
    if (!operands[i]->is_static() || operands[i]->rank() > rank) {
      Status s(operands[i]->is_static() ? StatusCode::invalid_argument : StatusCode::unsupported);
      return s << "broadcast operand " << i << " has shape " << *operands[i] << ", which cannot be iterated onto "
               << output << (operands[i]->is_static() ? "" : " (shapes must be known)");
    }
  }
  if (!output.is_static()) {
    return Status(StatusCode::unsupported)
           << "broadcast output shape " << output << " is not known (shapes must be known)";
  }
  plan.output_count = output.element_count();
  if (plan.output_count == 0) {
    plan.dims[0] = 0;
    return {};
  }

  // Per output axis: each operand's dense stride, or 0 where it repeats (size 1 against a larger size).
  std::int64_t full_strides[N][kMaxRank] = {};
  for (int i = 0; i < N; ++i) {
    const Shape& shape = *operands[i];
    const int offset = rank - shape.rank();
    std::int64_t stride = 1;
    for (int axis = rank - 1; axis >= 0; --axis) {
      const std::int64_t dim = axis >= offset ? shape[axis - offset] : 1;
      if (dim != 1 && dim != output[axis]) {
        return Status(StatusCode::invalid_argument)
               << "broadcast operand " << i << " has shape " << shape << ", which does not broadcast to " << output;
      }
      full_strides[i][axis] = dim == 1 ? 0 : stride;
      stride *= dim;
    }
  }

  // Fold from the innermost axis out: drop size-1 output axes, merge an axis into the one inside it when
  // every operand's stride continues there (stride * inner size) or both are 0.
  int folded = 0;  // number of folded dims, built innermost first into the tail of the arrays
  std::int64_t dims_rev[kMaxRank] = {};
  std::int64_t strides_rev[N][kMaxRank] = {};
  for (int axis = rank - 1; axis >= 0; --axis) {
    const std::int64_t dim = output[axis];
    if (dim == 1) continue;
    bool merge = folded > 0;
    for (int i = 0; merge && i < N; ++i) {
      const std::int64_t inner = strides_rev[i][folded - 1];
      const std::int64_t outer = full_strides[i][axis];
      merge = (inner == 0 && outer == 0) || (inner != 0 && outer == inner * dims_rev[folded - 1]);
    }
    if (merge) {
      dims_rev[folded - 1] *= dim;
      continue;
    }
    dims_rev[folded] = dim;
    for (int i = 0; i < N; ++i) strides_rev[i][folded] = full_strides[i][axis];
    ++folded;
  }
  if (folded == 0) {  // every dimension is 1: a single element
    plan.rank = 1;
    plan.dims[0] = 1;
    for (int i = 0; i < N; ++i) plan.strides[i][0] = 1;
    return {};
  }
  plan.rank = folded;
  for (int d = 0; d < folded; ++d) {
    plan.dims[d] = dims_rev[folded - 1 - d];
    for (int i = 0; i < N; ++i) plan.strides[i][d] = strides_rev[i][folded - 1 - d];
  }
  return {};
}

// ---- custom binary loops ---------------------------------------------------------------------------------
// For binary kernels that BinaryElementwise (common/elementwise.hpp) cannot express: operands of different
// dtypes (Pow since opset 12), or an operation chosen by an attribute at prepare time (Mod's fmod, BitShift's
// direction). The kernel keeps a BinaryPlanState and picks `compute` in prepare():
//
//   state->compute = &run_broadcast_binary<A, B, Out, MyOp>;   // MyOp::apply(A, B) -> Out, on raw elements

/// What run() of a custom binary kernel needs: the broadcast plan and the per-dtype loop.
struct BinaryPlanState {
  BroadcastPlan<2> plan;
  void (*compute)(const BroadcastPlan<2>& plan, const void* a, const void* b, void* y) noexcept = nullptr;
};

/// y = Op::apply(a, b) over `plan`. Safe when `y` aliases an operand that spans the whole output (both then
/// advance in step and each element is read before it is written).
template <typename A, typename B, typename Out, typename Op>
void run_broadcast_binary(const BroadcastPlan<2>& plan, const void* a, const void* b, void* y) noexcept {
  const A* a_base = static_cast<const A*>(a);
  const B* b_base = static_cast<const B*>(b);
  Out* y_base = static_cast<Out*>(y);
  const std::int64_t a_step = plan.inner_stride(0);
  const std::int64_t b_step = plan.inner_stride(1);
  plan.for_each_row([&](const std::int64_t* offsets, std::int64_t out_offset, std::int64_t n) noexcept {
    const A* ra = a_base + offsets[0];
    const B* rb = b_base + offsets[1];
    Out* ry = y_base + out_offset;
    for (std::int64_t i = 0; i < n; ++i) ry[i] = Op::apply(ra[i * a_step], rb[i * b_step]);
  });
}

/// Numpy-broadcasts inputs `a` and `b` of `ctx` (both must be present) and plans the iteration; `output`
/// receives the broadcast shape.
inline Status plan_broadcast_binary(const PrepareContext& ctx, int a, int b, Shape& output,
                                    BroadcastPlan<2>& plan) noexcept {
  ONNXMICRO_RETURN_IF_ERROR(broadcast_input_shapes(ctx, {a, b}, output));
  return make_broadcast_plan({&ctx.input(a).shape, &ctx.input(b).shape}, output, plan);
}

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
