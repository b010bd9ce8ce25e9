// SPDX-License-Identifier: MIT
// SequenceMap (opset 17): applies `body` to each element of the input sequence (and the same position of every
// further sequence input; tensor inputs are passed whole to every application); each body output becomes a
// sequence of the per-element results. Sequences are values known at prepare time in this build, so the map
// runs at prepare time (the body prepared for each element's actual shapes) and run() copies the results.
#pragma once
#include "onnxmicro/kernels/sequence/sequence_util.hpp"
#include "onnxmicro/runtime/control_flow/subgraph.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

namespace sequence_map_detail {

/// The implementation of SequenceMap (see the file comment).
struct SequenceMapImpl : KernelDefaults {
  static constexpr std::string_view kOpType = "SequenceMap";

  struct State {
    detail::Subgraph body;
    Span<Span<ValueRef>> results;  ///< per output: the sequence
  };

  static Status prepare(PrepareContext& ctx) noexcept {
    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
    MetadataAllocator& allocator = ctx.metadata_allocator();
    const int inputs = ctx.explicit_input_count();
    ONNXMICRO_RETURN_IF_ERROR(sequence_util::require_container(ctx, 0));
    const std::int64_t length = sequence_util::count_of(ctx.input(0));
    for (int i = 0; i < ctx.input_count(); ++i) {
      ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(i));
      ONNXMICRO_RETURN_IF_ERROR(ctx.require_constant_input(i));
      if (i < inputs && ctx.input(i).dtype == DataType::sequence && sequence_util::count_of(ctx.input(i)) != length) {
        return ctx.input_error(i, {}, StatusCode::invalid_argument)
               << " has " << sequence_util::count_of(ctx.input(i)) << " elements, input 0 has " << length;
      }
    }
    ONNXMICRO_RETURN_IF_ERROR(state->body.load(ctx, "body"));
    if (state->body.formal_input_count() != static_cast<std::size_t>(inputs) ||
        state->body.output_count() != static_cast<std::size_t>(ctx.output_count())) {
      return Status(StatusCode::invalid_model)
             << "subgraph 'body' has " << state->body.formal_input_count() << " inputs and "
             << state->body.output_count() << " outputs, the node " << inputs << " and " << ctx.output_count();
    }
    ONNXMICRO_RETURN_IF_ERROR(allocator.allocate_array(static_cast<std::size_t>(ctx.output_count()), state->results));
    for (Span<ValueRef>& r : state->results)
      ONNXMICRO_RETURN_IF_ERROR(allocator.allocate_array(static_cast<std::size_t>(length), r));
    Span<TensorInfo> formal;
    ONNXMICRO_RETURN_IF_ERROR(allocator.allocate_array(static_cast<std::size_t>(inputs), formal));
    for (std::int64_t e = 0; e < length; ++e) {
      for (int i = 0; i < inputs; ++i) {
        const TensorInfo& in = ctx.input(i);
        TensorInfo& f = formal[static_cast<std::size_t>(i)];
        f = in;
        if (in.dtype == DataType::sequence) {
          const ConstTensorView element = view_of(sequence_util::elements_of(in)[e]);
          f.dtype = element.dtype;
          f.shape = element.shape;
          f.const_data = element.data;
        }
      }
      ONNXMICRO_RETURN_IF_ERROR(state->body.prepare(ctx, formal));
      ONNXMICRO_RETURN_IF_ERROR(state->body.run());
      for (int k = 0; k < ctx.output_count(); ++k) {
        const ConstTensorView out = state->body.session().output(static_cast<std::size_t>(k));
        const std::size_t bytes = out.byte_size();
        void* copy = allocator.allocate(bytes == 0 ? 1 : bytes, ONNXMICRO_TENSOR_ALIGNMENT);
        if (copy == nullptr) return Status(StatusCode::out_of_memory) << "metadata allocator exhausted in SequenceMap";
        if (bytes != 0) std::memcpy(copy, out.data, bytes);
        state->results[static_cast<std::size_t>(k)][static_cast<std::size_t>(e)] =
            value_ref_of(ConstTensorView(out.dtype, out.shape, copy));
      }
    }
    for (int k = 0; k < ctx.output_count(); ++k) ctx.set_output(k, DataType::sequence, Shape{length});
    return {};
  }

  static Status run(RunContext& ctx) noexcept {
    const State& state = ctx.state<State>();
    for (int k = 0; k < ctx.output_count(); ++k) {
      const Span<ValueRef>& r = state.results[static_cast<std::size_t>(k)];
      if (ctx.has_output(k) && !r.empty()) std::memcpy(ctx.output(k).data, r.data(), r.size() * sizeof(ValueRef));
    }
    return {};
  }
};

}  // namespace sequence_map_detail

// Opset 17+: the only version.
using SequenceMap_17 = VersionedKernel<sequence_map_detail::SequenceMapImpl, 17>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
