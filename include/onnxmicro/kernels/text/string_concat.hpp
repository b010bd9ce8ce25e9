// SPDX-License-Identifier: MIT
// StringConcat (opset 20): y = a + b elementwise on string tensors, with numpy broadcasting. The characters of
// each result go to the session's string pool (RunContext::allocate_string), so run() allocates nothing.
#pragma once
#include <cstring>

#include "onnxmicro/kernels/common/broadcast.hpp"
#include "onnxmicro/kernels/kernel_api.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

namespace string_concat_detail {

/// The implementation of StringConcat (see the file comment).
struct StringConcatImpl : KernelDefaults {
  static constexpr std::string_view kOpType = "StringConcat";
  static constexpr int kA = 0;
  static constexpr int kB = 1;
  static constexpr int kOutput = 0;

  struct State {
    BroadcastPlan<2> plan;
  };

  static Status prepare(PrepareContext& ctx) noexcept {
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kA));
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kB));
    if (ctx.input(kA).dtype != DataType::string) return ctx.unsupported_input_dtype(kA);
    if (ctx.input(kB).dtype != DataType::string) return ctx.unsupported_input_dtype(kB);
    Shape output;
    ONNXMICRO_RETURN_IF_ERROR(broadcast_input_shapes(ctx, {kA, kB}, output));
    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
    const Shape* operands[2] = {&ctx.input(kA).shape, &ctx.input(kB).shape};
    ONNXMICRO_RETURN_IF_ERROR(make_broadcast_plan(operands, output, state->plan));
    ctx.set_output(kOutput, DataType::string, output);
    return {};
  }

  static Status run(RunContext& ctx) noexcept {
    const State& state = ctx.state<State>();
    const auto* a = ctx.input(kA).data_as<StringRef>();
    const auto* b = ctx.input(kB).data_as<StringRef>();
    auto* y = ctx.output(kOutput).data_as<StringRef>();
    const std::int64_t stride_a = state.plan.inner_stride(0);
    const std::int64_t stride_b = state.plan.inner_stride(1);
    Status status;
    state.plan.for_each_row([&](const std::int64_t* offsets, std::int64_t out, std::int64_t length) {
      for (std::int64_t j = 0; j < length && status.ok(); ++j) {
        const StringRef& left = a[offsets[0] + j * stride_a];
        const StringRef& right = b[offsets[1] + j * stride_b];
        char* chars = nullptr;
        status = ctx.allocate_string(left.size + right.size, chars);
        if (!status.ok()) return;
        if (left.size != 0) std::memcpy(chars, left.data, left.size);
        if (right.size != 0) std::memcpy(chars + left.size, right.data, right.size);
        y[out + j] = StringRef{chars, left.size + right.size};
      }
    });
    return status;
  }
};

}  // namespace string_concat_detail

using StringConcat_20 = VersionedKernel<string_concat_detail::StringConcatImpl, 20>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
