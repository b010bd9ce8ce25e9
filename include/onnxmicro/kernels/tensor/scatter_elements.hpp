// SPDX-License-Identifier: MIT
// ScatterElements: output = copy of data, then for every element of `updates` at position p (shape = indices
// shape), output[p with p[axis] replaced by indices[p]] = updates[p], or combined with it by `reduction`
// (add/mul from opset 16, max/min from 18). Indices are int32/int64; negative ones count from the back. An
// index outside the axis is a run-time out_of_range naming the indices element and value (nothing is written
// out of bounds). Plain scatters move raw bytes (any fixed-size dtype; strings as views); reductions need a numeric
// dtype. Output 0 may reuse data's buffer (the copy is skipped then), so a KV-style update can run in place.
#pragma once
#include <cstdint>
#include <cstring>

#include "onnxmicro/kernels/common/shape_util.hpp"
#include "onnxmicro/kernels/tensor/index_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {
namespace scatter_elements_detail {

/// Implementation shared by the ScatterElements versions (and Scatter, as version 11).
struct ScatterElementsImpl : KernelDefaults {
  static constexpr std::string_view kOpType = "ScatterElements";
  static constexpr int kInPlaceInput = 0;
  static constexpr int kData = 0;
  static constexpr int kIndices = 1;
  static constexpr int kUpdates = 2;
  static constexpr int kOutput = 0;

  struct State {
    index_util::ElementsAddressing addressing;
    std::size_t element_bytes;
    index_util::CombineFunction combine;  ///< nullptr: plain assignment
  };

  /// The reductions `since` defines: none before 16, add and mul from 16, max and min from 18.
  static Status prepare(PrepareContext& ctx, int since) noexcept {
    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
    ONNXMICRO_RETURN_IF_ERROR(index_util::prepare_scatter_inputs(ctx, index_util::max_scatter_reduction(since), true,
                                                                 state->element_bytes, state->combine));
    const TensorInfo& indices = ctx.input(kIndices);
    const TensorInfo& updates = ctx.input(kUpdates);
    if (indices.shape != updates.shape) {
      return ctx.input_error(kUpdates) << " has shape " << updates.shape << ", expected the shape of input 1 '"
                                       << indices.name << "' " << indices.shape;
    }
    ONNXMICRO_RETURN_IF_ERROR(index_util::prepare_elements_addressing(ctx, state->addressing));
    ctx.set_output(kOutput, ctx.input(kData).dtype, ctx.input(kData).shape);
    return {};
  }

  static Status run(RunContext& ctx) noexcept {
    const State& s = ctx.state<State>();
    const ConstTensorView& data = ctx.input(kData);
    const unsigned char* updates = static_cast<const unsigned char*>(ctx.input(kUpdates).data);
    unsigned char* out = static_cast<unsigned char*>(ctx.output(kOutput).data);
    shape_util::copy_unless_aliased(out, data.data, data.byte_size());
    const std::size_t size = s.element_bytes;
    return index_util::for_each_addressed_element(
        s.addressing, data, ctx.input(kIndices), [&](std::int64_t k, std::int64_t offset) noexcept {
          index_util::scatter_store(out + static_cast<std::size_t>(offset) * size,
                                    updates + static_cast<std::size_t>(k) * size, 1, size, s.combine);
        });
  }
};

}  // namespace scatter_elements_detail

// Opset 11: plain assignment (13 only added bfloat16).
using ScatterElements_11 = VersionedKernel<scatter_elements_detail::ScatterElementsImpl, 11, 16>;
// Opset 16: adds the `reduction` attribute with add and mul.
using ScatterElements_16 = VersionedKernel<scatter_elements_detail::ScatterElementsImpl, 16, 18>;
// Opset 18: adds the max and min reductions.
using ScatterElements_18 = VersionedKernel<scatter_elements_detail::ScatterElementsImpl, 18>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
