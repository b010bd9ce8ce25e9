// SPDX-License-Identifier: MIT
// A broadcast loop for binary kernels that BinaryElementwise (common/elementwise.hpp) cannot express: operands
// of different dtypes (Pow since opset 12), or an operation chosen by an attribute at prepare time (Mod's
// fmod, BitShift's direction). The kernel keeps a BinaryPlanState and picks `compute` in prepare():
//
//   state->compute = &run_broadcast_binary<A, B, Out, MyOp>;   // MyOp::apply(A, B) -> Out, on raw elements
#pragma once
#include <cstdint>

#include "onnxmicro/kernels/common/broadcast.hpp"
#include "onnxmicro/kernels/kernel_api.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

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
