// SPDX-License-Identifier: MIT
// Size: the input's element count as an int64 scalar. Only the shape is read, never the data, so any dtype (even
// string) is accepted and the session folds the node as soon as the shape is known (kNeedsInputData = false).
#pragma once
#include <cstdint>
#include <cstring>

#include "onnxmicro/kernels/kernel_api.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

namespace size_detail {

/// The implementation of Size (see the file comment).
struct SizeImpl : KernelDefaults {
  static constexpr std::string_view kOpType = "Size";
  static constexpr bool kNeedsInputData = false;
  static constexpr int kInput = 0;
  static constexpr int kOutput = 0;

  struct State {
    std::int64_t count;
  };

  static Status prepare(PrepareContext& ctx) noexcept {
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kInput));
    const TensorInfo& in = ctx.input(kInput);
    if (!in.shape.is_static()) {
      return ctx.input_error(kInput, {}, StatusCode::unsupported) << " has shape " << in.shape << " with unknown dims";
    }
    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
    ONNXMICRO_RETURN_IF_ERROR(in.shape.checked_element_count(state->count));
    ctx.set_output(kOutput, DataType::int64, Shape());
    return {};
  }

  static Status run(RunContext& ctx) noexcept {
    std::memcpy(ctx.output(kOutput).data, &ctx.state<State>().count, sizeof(std::int64_t));
    return {};
  }
};

}  // namespace size_detail

// Opset 1: the first version (later versions only add dtypes).
using Size_1 = VersionedKernel<size_detail::SizeImpl, 1>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
