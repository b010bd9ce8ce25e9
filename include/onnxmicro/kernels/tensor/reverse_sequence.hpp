// SPDX-License-Identifier: MIT
// ReverseSequence: for every batch entry b, reverses the first sequence_lens[b] steps along `time_axis` and
// copies the rest unchanged. batch_axis and time_axis are 0 and 1 in either order (rank >= 2). A length
// outside [0, max_time] is a run-time out_of_range naming the sequence_lens element. Elements move as raw
// bytes (any fixed-size dtype; strings as views).
#pragma once
#include <cstdint>
#include <cstring>

#include "onnxmicro/kernels/common/shape_util.hpp"
#include "onnxmicro/kernels/tensor/index_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

namespace reverse_sequence_detail {

/// The implementation of ReverseSequence (see the file comment).
struct ReverseSequenceImpl : KernelDefaults {
  static constexpr std::string_view kOpType = "ReverseSequence";
  static constexpr int kInput = 0;
  static constexpr int kSequenceLens = 1;
  static constexpr int kOutput = 0;

  struct State {
    std::int64_t batch;
    std::int64_t max_time;
    std::int64_t batch_stride;  ///< in slices
    std::int64_t time_stride;   ///< in slices
    std::size_t slice_bytes;    ///< bytes per (batch, time) slice
  };

  static Status prepare(PrepareContext& ctx) noexcept {
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kInput));
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kSequenceLens));
    const TensorInfo& input = ctx.input(kInput);
    const TensorInfo& lens = ctx.input(kSequenceLens);
    std::size_t element_bytes = 0;
    ONNXMICRO_RETURN_IF_ERROR(index_util::input_element_bytes(ctx, kInput, element_bytes));
    ONNXMICRO_RETURN_IF_ERROR(index_util::check_index_dtype(ctx, kSequenceLens, "sequence_lens", false));
    const int rank = input.shape.rank();
    if (rank < 2) {
      return ctx.input_error(kInput) << " has shape " << input.shape << ", expected rank >= 2";
    }
    std::int64_t batch_axis = 1;
    std::int64_t time_axis = 0;
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("batch_axis", batch_axis, 1));
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("time_axis", time_axis, 0));
    if (!((batch_axis == 0 && time_axis == 1) || (batch_axis == 1 && time_axis == 0))) {
      return Status(StatusCode::invalid_model)
             << "attributes 'batch_axis' = " << batch_axis << " and 'time_axis' = " << time_axis
             << ": expected 0 and 1 in either order";
    }
    const std::int64_t batch = input.shape[static_cast<int>(batch_axis)];
    if (lens.shape.rank() != 1 || lens.shape[0] != batch) {
      return ctx.input_error(kSequenceLens)
             << " has shape " << lens.shape << ", expected [" << batch << "] (the batch size)";
    }
    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
    state->batch = batch;
    state->max_time = input.shape[static_cast<int>(time_axis)];
    state->batch_stride = batch_axis == 0 ? state->max_time : 1;
    state->time_stride = batch_axis == 0 ? 1 : batch;
    state->slice_bytes = static_cast<std::size_t>(shape_util::dims_product(input.shape, 2, rank)) * element_bytes;
    ctx.set_output(kOutput, input.dtype, input.shape);
    return {};
  }

  static Status run(RunContext& ctx) noexcept {
    const State& s = ctx.state<State>();
    const ConstTensorView& lens = ctx.input(kSequenceLens);
    const unsigned char* src = static_cast<const unsigned char*>(ctx.input(kInput).data);
    unsigned char* dst = static_cast<unsigned char*>(ctx.output(kOutput).data);
    for (std::int64_t b = 0; b < s.batch; ++b) {
      const std::int64_t length = index_util::read_index(lens.data, true, b);
      if (length < 0 || length > s.max_time) {
        return index_util::index_out_of_range(kSequenceLens, "sequence_lens", lens.shape, b, length, 0, s.max_time)
               << " (the time axis has " << s.max_time << " steps)";
      }
    }
    if (s.slice_bytes == 0) return {};
    for (std::int64_t b = 0; b < s.batch; ++b) {
      const std::int64_t length = index_util::read_index(lens.data, true, b);
      for (std::int64_t t = 0; t < s.max_time; ++t) {
        const std::int64_t from = t < length ? length - 1 - t : t;
        std::memcpy(dst + static_cast<std::size_t>(b * s.batch_stride + t * s.time_stride) * s.slice_bytes,
                    src + static_cast<std::size_t>(b * s.batch_stride + from * s.time_stride) * s.slice_bytes,
                    s.slice_bytes);
      }
    }
    return {};
  }
};

}  // namespace reverse_sequence_detail

// Opset 10 introduced it; 28 only added bfloat16, so one kernel serves every version.
using ReverseSequence_10 = VersionedKernel<reverse_sequence_detail::ReverseSequenceImpl, 10>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
