// SPDX-License-Identifier: MIT
// ConcatFromSequence (opset 11): concatenates the sequence's tensors along 'axis', or (new_axis = 1) stacks
// them along a new axis; negative axes count from the end (of the output rank when stacking).
#pragma once
#include "onnxmicro/kernels/sequence/sequence_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

namespace concat_from_sequence_detail {

/// The implementation of ConcatFromSequence (see the file comment).
struct ConcatFromSequenceImpl : KernelDefaults {
  static constexpr std::string_view kOpType = "ConcatFromSequence";
  static Status prepare(PrepareContext& ctx) noexcept {
    ONNXMICRO_RETURN_IF_ERROR(sequence_util::require_container(ctx, 0));
    std::int64_t axis = 0, new_axis = 0;
    ONNXMICRO_RETURN_IF_ERROR(ctx.required_attribute("axis", axis));
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("new_axis", new_axis, 0));
    const std::int64_t n = sequence_util::count_of(ctx.input(0));
    if (n == 0) return Status(StatusCode::invalid_argument) << "cannot concatenate an empty sequence";
    const ValueRef* elements = sequence_util::elements_of(ctx.input(0));
    const ConstTensorView first = view_of(elements[0]);
    const int rank = first.shape.rank();
    const int out_rank = rank + (new_axis != 0 ? 1 : 0);
    if (axis < -out_rank || axis >= out_rank || (new_axis == 0 && rank == 0)) {
      return Status(StatusCode::invalid_model)
             << "attribute 'axis' " << axis << " is out of range for rank " << out_rank;
    }
    if (axis < 0) axis += out_rank;
    const int a = static_cast<int>(axis);
    Shape out;
    out.resize(out_rank);
    for (int d = 0, k = 0; d < out_rank; ++d) out[d] = (new_axis != 0 && d == a) ? n : first.shape[k++];
    if (new_axis == 0) out[a] = 0;
    for (std::int64_t i = 0; i < n; ++i) {
      const ConstTensorView e = view_of(elements[i]);
      bool fits = e.dtype == first.dtype && e.shape.rank() == rank;
      for (int d = 0; fits && d < rank; ++d) fits = (new_axis == 0 && d == a) || e.shape[d] == first.shape[d];
      if (!fits) {
        return Status(StatusCode::invalid_argument)
               << "element " << i << " is " << dtype_name(e.dtype) << " " << e.shape << ", which does not join "
               << dtype_name(first.dtype) << " " << first.shape;
      }
      if (new_axis == 0) out[a] += e.shape[a];
    }
    std::size_t bytes = 0;
    ONNXMICRO_RETURN_IF_ERROR(checked_byte_size(first.dtype, out, bytes));
    Span<unsigned char> data;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_persistent(bytes == 0 ? 1 : bytes, data));
    // Blocks before the axis, each holding every element's slab in order.
    std::int64_t outer = 1;
    for (int d = 0; d < a; ++d) outer *= out[d];
    std::size_t offset = 0;
    for (std::int64_t o = 0; o < outer; ++o) {
      for (std::int64_t i = 0; i < n; ++i) {
        const ConstTensorView e = view_of(elements[i]);
        const std::size_t slab = byte_size_of(e.dtype, outer == 0 ? 0 : e.element_count() / outer);
        if (slab != 0) std::memcpy(data.data() + offset, static_cast<const unsigned char*>(e.data) + o * slab, slab);
        offset += slab;
      }
    }
    return sequence_util::set_tensor_result(ctx, ConstTensorView(first.dtype, out, data.data()));
  }
  static Status run(RunContext& ctx) noexcept { return sequence_util::PreparedResult::run(ctx); }
};

}  // namespace concat_from_sequence_detail

using ConcatFromSequence_11 = VersionedKernel<concat_from_sequence_detail::ConcatFromSequenceImpl, 11>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
