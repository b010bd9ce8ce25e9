// SPDX-License-Identifier: MIT
// Where: output = condition ? X : Y elementwise, numpy broadcasting over all three inputs.
// Versions: 9 introduced it; 16 only added bfloat16, so one kernel covers every version. Elements are only
// copied, so the kernel works on element sizes, not dtypes. Strings and complex128 are not supported yet.
#pragma once
#include <cstdint>

#include "onnxmicro/kernels/common/broadcast.hpp"
#include "onnxmicro/kernels/kernel_api.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

namespace where_detail {

/// The implementation of Where (see the file comment).
struct WhereImpl : KernelDefaults {
  static constexpr std::string_view kOpType = "Where";
  static constexpr int kInputCondition = 0;
  static constexpr int kInputX = 1;
  static constexpr int kInputY = 2;
  static constexpr int kOutput = 0;

  struct State {
    BroadcastPlan<3> plan;
    void (*compute)(const BroadcastPlan<3>& plan, const bool* condition, const void* x, const void* y,
                    void* out) noexcept;
  };

  static Status prepare(PrepareContext& ctx) noexcept {
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kInputCondition));
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kInputX));
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kInputY));
    const TensorInfo& condition = ctx.input(kInputCondition);
    if (condition.dtype != DataType::boolean) {
      return ctx.input_error(kInputCondition) << " has dtype " << dtype_name(condition.dtype) << ", expected bool";
    }
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_same_dtype(kInputX, kInputY));
    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
    const DataType dtype = ctx.input(kInputX).dtype;
    switch (dtype) {
      case DataType::string:
      case DataType::complex128:
      case DataType::undefined: return ctx.unsupported_input_dtype(kInputX);
      default: break;
    }
    if (is_sub_byte(dtype)) return ctx.unsupported_input_dtype(kInputX);
    switch (dtype_size(dtype)) {
      case 1: state->compute = &compute<std::uint8_t>; break;
      case 2: state->compute = &compute<std::uint16_t>; break;
      case 4: state->compute = &compute<std::uint32_t>; break;
      case 8: state->compute = &compute<std::uint64_t>; break;
      default: return ctx.unsupported_input_dtype(kInputX);
    }
    Shape output;
    ONNXMICRO_RETURN_IF_ERROR(broadcast_input_shapes(ctx, {kInputCondition, kInputX, kInputY}, output));
    ONNXMICRO_RETURN_IF_ERROR(make_broadcast_plan(
        {&condition.shape, &ctx.input(kInputX).shape, &ctx.input(kInputY).shape}, output, state->plan));
    ctx.set_output(kOutput, dtype, output);
    return {};
  }

  static Status run(RunContext& ctx) noexcept {
    const State& state = ctx.state<State>();
    state.compute(state.plan, static_cast<const bool*>(ctx.input(kInputCondition).data), ctx.input(kInputX).data,
                  ctx.input(kInputY).data, ctx.output(kOutput).data);
    return {};
  }

 private:
  // Bits is an unsigned integer of the element size: values are moved, never interpreted.
  template <typename Bits>
  static void compute(const BroadcastPlan<3>& plan, const bool* condition, const void* x, const void* y,
                      void* out) noexcept {
    const Bits* x_base = static_cast<const Bits*>(x);
    const Bits* y_base = static_cast<const Bits*>(y);
    Bits* out_base = static_cast<Bits*>(out);
    const std::int64_t c_step = plan.inner_stride(0);
    const std::int64_t x_step = plan.inner_stride(1);
    const std::int64_t y_step = plan.inner_stride(2);
    plan.for_each_row([&](const std::int64_t* offsets, std::int64_t out_offset, std::int64_t n) noexcept {
      const bool* rc = condition + offsets[0];
      const Bits* rx = x_base + offsets[1];
      const Bits* ry = y_base + offsets[2];
      Bits* ro = out_base + out_offset;
      for (std::int64_t i = 0; i < n; ++i) ro[i] = rc[i * c_step] ? rx[i * x_step] : ry[i * y_step];
    });
  }
};

}  // namespace where_detail

// Opset 9+.
using Where_9 = VersionedKernel<where_detail::WhereImpl, 9>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
