// SPDX-License-Identifier: MIT
// Shape: the input's dims as a 1-D int64 tensor. Only the input's shape is read, never its data, so any dtype
// (even string) is accepted and the session folds the node at prepare time (kNeedsInputData = false): shape
// subgraphs (Shape -> Gather -> Concat -> Reshape) become constants. The dims are kept in the state.
#pragma once
#include <cstdint>
#include <cstring>

#include "onnxmicro/kernels/kernel_api.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

/// Shared implementation of both Shape versions.
struct ShapeBase : KernelDefaults {
  static constexpr std::string_view kDomain = "";
  static constexpr std::string_view kOpType = "Shape";
  static constexpr bool kNeedsInputData = false;
  static constexpr int kInput = 0;
  static constexpr int kOutput = 0;

  struct State {
    int count;
    std::int64_t dims[kMaxRank];
  };

  /// Outputs dims [start, end) of the input, after the opset-15 clamping rules (negative counts from the
  /// back, then clamped to [0, rank]; an empty range gives an empty output).
  static Status prepare_range(PrepareContext& ctx, std::int64_t start, std::int64_t end) noexcept {
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kInput));
    const Shape& in = ctx.input(kInput).shape;
    if (!in.is_static()) {
      return ctx.input_error(kInput, {}, StatusCode::unsupported) << " has shape " << in << " with unknown dims";
    }
    const std::int64_t rank = in.rank();
    start = clamp(start < 0 ? start + rank : start, rank);
    end = clamp(end < 0 ? end + rank : end, rank);
    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
    state->count = end > start ? static_cast<int>(end - start) : 0;
    for (int i = 0; i < state->count; ++i) state->dims[i] = in[static_cast<int>(start) + i];
    ctx.set_output(kOutput, DataType::int64, Shape{state->count});
    return {};
  }

  static Status run(RunContext& ctx) noexcept {
    const State& state = ctx.state<State>();
    std::memcpy(ctx.output(kOutput).data, state.dims, static_cast<std::size_t>(state.count) * sizeof(std::int64_t));
    return {};
  }

 private:
  static constexpr std::int64_t clamp(std::int64_t v, std::int64_t rank) noexcept {
    return v < 0 ? 0 : (v > rank ? rank : v);
  }
};

/// Shape's version rules (VersionedKernel): prepare reads what version `since` accepts; ShapeBase holds the
/// rest.
struct ShapeImpl : ShapeBase {
  static Status prepare(PrepareContext& ctx, int since) noexcept {
    if (since >= 15) return prepare_v15(ctx);
    return prepare_range(ctx, 0, kMaxRank);
  }

 private:
  static Status prepare_v15(PrepareContext& ctx) noexcept {
    std::int64_t start = 0;
    std::int64_t end = 0;
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("start", start, 0));
    bool has_end = ctx.has_attribute("end");
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("end", end, 0));
    return prepare_range(ctx, start, has_end ? end : static_cast<std::int64_t>(kMaxRank));
  }
};

// Opset 1: every dim of the input (opset 13 only adds bfloat16 inputs).
using Shape_1 = VersionedKernel<ShapeImpl, 1, 15>;
// Opset 15: adds 'start' and 'end' to take a slice of the dims.
using Shape_15 = VersionedKernel<ShapeImpl, 15>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
