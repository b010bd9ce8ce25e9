// SPDX-License-Identifier: MIT
// Compress: keeps the slices of `input` along `axis` whose entry in the 1-D bool `condition` is true (without
// `axis`: the elements of the flattened input). A condition shorter than the axis drops the remaining slices; a
// longer one may only have false entries past the end (as numpy.compress). The output size depends on the
// condition's values, so the condition must be known at prepare time (Session::run(inputs) offers it; run-time
// data-dependent output shapes come with dynamic axes). Elements move as raw bytes (any fixed-size dtype; strings as
// views).
#pragma once
#include <cstdint>
#include <cstring>

#include "onnxmicro/kernels/tensor/index_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {
namespace compress_detail {

/// Implementation shared by the Compress versions.
struct CompressImpl : KernelDefaults {
  static constexpr std::string_view kOpType = "Compress";
  static constexpr int kInput = 0;
  static constexpr int kCondition = 1;
  static constexpr int kOutput = 0;

  struct State {
    std::int64_t outer;       ///< product of dims before the axis (1 without axis)
    std::int64_t axis_size;   ///< slices along the axis (all elements without axis)
    std::int64_t inner;       ///< elements per slice (1 without axis)
    std::int64_t considered;  ///< condition entries that address a slice: min(length, axis_size)
    std::int64_t kept;        ///< true entries among them, as counted at prepare time
    std::size_t element_bytes;
  };

  /// Negative axes are accepted from opset 11.
  static Status prepare(PrepareContext& ctx, int since) noexcept {
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kInput));
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kCondition));
    const TensorInfo& input = ctx.input(kInput);
    const TensorInfo& condition = ctx.input(kCondition);
    std::size_t element_bytes = 0;
    ONNXMICRO_RETURN_IF_ERROR(index_util::input_element_bytes(ctx, kInput, element_bytes));
    if (condition.dtype != DataType::boolean || condition.shape.rank() != 1) {
      return ctx.input_error(kCondition, "condition")
             << " is " << dtype_name(condition.dtype) << " " << condition.shape << ", expected a 1-D bool tensor";
    }
    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
    index_util::AxisSplit split;
    ONNXMICRO_RETURN_IF_ERROR(index_util::split_at_optional_axis(ctx, input.shape, since >= 11, split));
    state->outer = split.outer;
    state->axis_size = split.n;
    state->inner = split.inner;
    const int axis = split.axis;
    state->element_bytes = element_bytes;
    const std::int64_t length = condition.shape[0];
    state->considered = length < state->axis_size ? length : state->axis_size;
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_constant_input(kCondition));
    ONNXMICRO_RETURN_IF_ERROR(
        count_kept(*state, static_cast<const std::uint8_t*>(condition.const_data), length, state->kept));
    Shape out;
    if (axis < 0) {
      out = Shape{state->kept};
    } else {
      out = input.shape;
      out[axis] = state->kept;
    }
    ctx.set_output(kOutput, input.dtype, out);
    return {};
  }

  static Status run(RunContext& ctx) noexcept {
    const State& s = ctx.state<State>();
    const ConstTensorView& condition_view = ctx.input(kCondition);
    const std::uint8_t* condition = static_cast<const std::uint8_t*>(condition_view.data);
    std::int64_t kept = 0;
    ONNXMICRO_RETURN_IF_ERROR(count_kept(s, condition, condition_view.shape[0], kept));
    if (kept != s.kept) {
      // The output buffer was sized for the prepare-time condition.
      return Status(StatusCode::invalid_argument)
             << "input 1 (condition) keeps " << kept << " slices, but the output was sized for " << s.kept
             << " when prepared";
    }
    const unsigned char* src = static_cast<const unsigned char*>(ctx.input(kInput).data);
    unsigned char* dst = static_cast<unsigned char*>(ctx.output(kOutput).data);
    const std::size_t slice_bytes = static_cast<std::size_t>(s.inner) * s.element_bytes;
    if (slice_bytes == 0) return {};
    for (std::int64_t o = 0; o < s.outer; ++o) {
      for (std::int64_t j = 0; j < s.considered; ++j) {
        if (!condition[j]) continue;
        std::memcpy(dst, src + static_cast<std::size_t>(o * s.axis_size + j) * slice_bytes, slice_bytes);
        dst += slice_bytes;
      }
    }
    return {};
  }

 private:
  // Counts the true entries that address a slice; a true entry past the axis is an error.
  static Status count_kept(const State& s, const std::uint8_t* condition, std::int64_t length,
                           std::int64_t& kept) noexcept {
    kept = 0;
    for (std::int64_t j = 0; j < length; ++j) {
      if (!condition[j]) continue;
      if (j >= s.axis_size) {
        return Status(StatusCode::out_of_range)
               << "input 1 (condition) element [" << j << "] is true, but the compressed axis has only " << s.axis_size
               << " slices";
      }
      ++kept;
    }
    return {};
  }
};

}  // namespace compress_detail

// Opset 9: the axis must be non-negative.
using Compress_9 = VersionedKernel<compress_detail::CompressImpl, 9, 11>;
// Opset 11: negative axes count from the back (28 only added bfloat16).
using Compress_11 = VersionedKernel<compress_detail::CompressImpl, 11>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
