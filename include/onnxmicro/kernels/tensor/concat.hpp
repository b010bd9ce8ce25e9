// SPDX-License-Identifier: MIT
// Concat: joins inputs of equal rank along `axis`; every other dim must match. Elements move as raw bits (any
// fixed-size dtype, including the packed sub-byte types). Opset 13 only added bfloat16.
#pragma once
#include <cstdint>

#include "onnxmicro/kernels/common/shape_util.hpp"
#include "onnxmicro/kernels/kernel_api.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

/// Shared implementation of every Concat version; they differ only in how 'axis' is read.
struct ConcatBase : KernelDefaults {
  static constexpr std::string_view kDomain = "";
  static constexpr std::string_view kOpType = "Concat";
  static constexpr int kOutput = 0;

  struct State {
    std::int64_t outer;      ///< product of the dims before the axis
    std::int64_t out_chunk;  ///< elements of the output per outer index (axis dim x inner)
    std::size_t element_bits;
  };

  static Status prepare_with_axis(PrepareContext& ctx, std::int64_t axis_value, bool allow_negative) noexcept {
    if (ctx.input_count() < 1) return Status(StatusCode::invalid_model) << "Concat needs at least one input";
    for (int i = 0; i < ctx.input_count(); ++i) ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(i));
    const TensorInfo& first = ctx.input(0);
    std::size_t bits = 0;
    ONNXMICRO_RETURN_IF_ERROR(shape_util::input_element_bits(ctx, 0, bits));
    const int rank = first.shape.rank();
    if (rank == 0) {
      return ctx.input_error(0) << " is a scalar; Concat needs rank >= 1";
    }
    int axis = 0;
    ONNXMICRO_RETURN_IF_ERROR(shape_util::normalize_axis(axis_value, rank, "attribute 'axis'", allow_negative, axis));

    Shape out = first.shape;
    for (int i = 1; i < ctx.input_count(); ++i) {
      ONNXMICRO_RETURN_IF_ERROR(ctx.require_same_dtype(0, i));
      const TensorInfo& in = ctx.input(i);
      bool compatible = in.shape.rank() == rank;
      for (int d = 0; compatible && d < rank; ++d) compatible = d == axis || in.shape[d] == first.shape[d];
      if (!compatible) {
        return ctx.input_error(i) << " has shape " << in.shape << ", incompatible with input 0 '" << first.name
                                  << "' of shape " << first.shape << " for concatenation along axis " << axis
                                  << " (all dims but the axis must match)";
      }
      out[axis] += in.shape[axis];
    }
    std::size_t bytes = 0;
    ONNXMICRO_RETURN_IF_ERROR(checked_byte_size(first.dtype, out, bytes));
    ctx.set_output(kOutput, first.dtype, out);

    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
    state->outer = shape_util::dims_product(out, 0, axis);
    state->out_chunk = shape_util::dims_product(out, axis, rank);
    state->element_bits = bits;
    return {};
  }

  /// Work of one byte copied, in the multiply-adds Workers::tasks_for counts: a copy moves ~12 GB/s across this
  /// host's cores where the GEMM does ~50 G multiply-adds/s. So a copy of about 256 KiB or more splits.
  static constexpr double kByteCost = 4.0;

  static Status run(RunContext& ctx) noexcept {
    const State& state = ctx.state<State>();
    if (state.outer == 0) return {};
    const std::int64_t elements = state.outer * state.out_chunk;
    // Sub-byte types copy bits at unaligned offsets: one task, so that no two share a byte.
    const std::size_t tasks = state.element_bits % 8 != 0
                                  ? 1
                                  : ctx.workers().tasks_for(static_cast<double>(elements) *
                                                                static_cast<double>(state.element_bits / 8) * kByteCost,
                                                            kMinTaskWork, elements);
    auto part = [&](std::size_t task) noexcept { copy_part(ctx, state, task, tasks); };
    ctx.workers().run(tasks, part);
    if (state.element_bits < 8) {
      shape_util::clear_padding_bits(ctx.output(kOutput).data, elements, state.element_bits);
    }
    return {};
  }

 private:
  /// Task `task` of `tasks`: its share of the output rows (output row `o` is row `o` of input 0, then of input 1, ...;
  /// rows are contiguous in every tensor), or, with fewer rows than tasks, its share of every row's pieces (a node
  /// split alike before, say two convs' channel halves, left that share in this task's core's cache).
  static void copy_part(RunContext& ctx, const State& state, std::size_t task, std::size_t tasks) noexcept {
    void* dst = ctx.output(kOutput).data;
    const bool by_rows = state.outer >= static_cast<std::int64_t>(tasks);
    const SplitRange rows = by_rows ? split_range(state.outer, tasks, task) : SplitRange{0, state.outer};
    std::int64_t offset_in_row = 0;
    for (int i = 0; i < ctx.input_count(); ++i) {
      const ConstTensorView& in = ctx.input(i);
      const std::int64_t chunk = in.element_count() / state.outer;
      const SplitRange piece = by_rows ? SplitRange{0, chunk} : split_range(chunk, tasks, task);
      for (std::int64_t o = rows.begin; o < rows.end && piece.size() > 0; ++o) {
        shape_util::copy_elements(dst, o * state.out_chunk + offset_in_row + piece.begin, in.data,
                                  o * chunk + piece.begin, piece.size(), state.element_bits);
      }
      offset_in_row += chunk;
    }
  }
};

/// Concat's version rules (VersionedKernel): prepare reads what version `since` accepts; ConcatBase holds the
/// rest.
struct ConcatImpl : ConcatBase {
  static Status prepare(PrepareContext& ctx, int since) noexcept {
    std::int64_t axis = 0;
    if (since < 4) {
      ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("axis", axis, 1));
    } else {
      ONNXMICRO_RETURN_IF_ERROR(ctx.required_attribute("axis", axis));
    }
    return prepare_with_axis(ctx, axis, /*allow_negative=*/since >= 11);
  }
};

// Opset 1: 'axis' is optional and defaults to 1.
using Concat_1 = VersionedKernel<ConcatImpl, 1, 4>;
// Opset 4: 'axis' becomes required (and more dtypes); it is still non-negative.
using Concat_4 = VersionedKernel<ConcatImpl, 4, 11>;
// Opset 11: negative 'axis' counts from the back (opset 13 only adds bfloat16).
using Concat_11 = VersionedKernel<ConcatImpl, 11>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
