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

// kMaxReduction: the last reduction the version defines (none: no `reduction` attribute).
template <index_util::Reduction kMaxReduction>
struct ScatterElementsKernel : KernelDefaults {
  static constexpr std::string_view kDomain = "";
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

  static Status prepare(PrepareContext& ctx) noexcept {
    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
    ONNXMICRO_RETURN_IF_ERROR(
        index_util::prepare_scatter_inputs(ctx, kMaxReduction, true, state->element_bytes, state->combine));
    const TensorInfo& indices = ctx.input(kIndices);
    const TensorInfo& updates = ctx.input(kUpdates);
    if (indices.shape != updates.shape) {
      return Status(StatusCode::invalid_model)
             << "input 2 '" << updates.name << "' has shape " << updates.shape << ", expected the shape of input 1 '"
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
struct ScatterElements_11 : scatter_elements_detail::ScatterElementsKernel<index_util::Reduction::none> {
  static constexpr std::string_view kOpType = "ScatterElements";
  static constexpr int kSinceVersion = 11;
  static constexpr int kUntilVersion = 16;
};

// Opset 16: adds the `reduction` attribute with add and mul.
struct ScatterElements_16 : scatter_elements_detail::ScatterElementsKernel<index_util::Reduction::mul> {
  static constexpr std::string_view kOpType = "ScatterElements";
  static constexpr int kSinceVersion = 16;
  static constexpr int kUntilVersion = 18;
};

// Opset 18: adds the max and min reductions.
struct ScatterElements_18 : scatter_elements_detail::ScatterElementsKernel<index_util::Reduction::min> {
  static constexpr std::string_view kOpType = "ScatterElements";
  static constexpr int kSinceVersion = 18;
};

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
