// SPDX-License-Identifier: MIT
// GatherElements: output[i][j][k] = data[index][j][k] for axis 0 (index = indices[i][j][k]; likewise for the
// other axes). Output shape = indices shape; indices (int32/int64, negative ones count from the back) have the
// rank of data and no dim larger than data's outside the axis. Elements move as raw bytes (any fixed-size
// dtype; strings as views). An index outside the axis is a run-time out_of_range naming the indices element,
// its value and the bound.
#pragma once
#include <cstdint>
#include <cstring>

#include "onnxmicro/kernels/tensor/index_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

namespace gather_elements_detail {

/// The implementation of GatherElements (see the file comment).
struct GatherElementsImpl : KernelDefaults {
  static constexpr std::string_view kOpType = "GatherElements";
  static constexpr int kData = 0;
  static constexpr int kIndices = 1;
  static constexpr int kOutput = 0;

  struct State {
    index_util::ElementsAddressing addressing;
    std::size_t element_bytes;
  };

  static Status prepare(PrepareContext& ctx) noexcept {
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kData));
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kIndices));
    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
    ONNXMICRO_RETURN_IF_ERROR(index_util::input_element_bytes(ctx, kData, state->element_bytes));
    ONNXMICRO_RETURN_IF_ERROR(index_util::prepare_elements_addressing(ctx, state->addressing));
    ctx.set_output(kOutput, ctx.input(kData).dtype, ctx.input(kIndices).shape);
    return {};
  }

  static Status run(RunContext& ctx) noexcept {
    const State& s = ctx.state<State>();
    const unsigned char* src = static_cast<const unsigned char*>(ctx.input(kData).data);
    unsigned char* dst = static_cast<unsigned char*>(ctx.output(kOutput).data);
    const std::size_t size = s.element_bytes;
    return index_util::for_each_addressed_element(
        s.addressing, ctx.input(kData), ctx.input(kIndices), [&](std::int64_t k, std::int64_t offset) noexcept {
          std::memcpy(dst + static_cast<std::size_t>(k) * size, src + static_cast<std::size_t>(offset) * size, size);
        });
  }
};

}  // namespace gather_elements_detail

// Opset 11 introduced it; 13 only added bfloat16, so one kernel serves every version.
using GatherElements_11 = VersionedKernel<gather_elements_detail::GatherElementsImpl, 11>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
