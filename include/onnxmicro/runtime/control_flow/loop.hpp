// SPDX-License-Identifier: MIT
// Loop: runs `body` while the trip count M (optional) is not reached and the condition (optional) holds,
// carrying N values from iteration to iteration and stacking K per-iteration scan outputs along a new axis 0.
// Versions 1, 11, 13, 16, 19, 21, 23, 24 and 25 only widened the dtype lists (13/16: sequence and optional
// values, which this build does not have), so one kernel serves them all.
// Two ways to run, chosen at prepare time:
//  - every input (and every enclosing-scope value the body reads) is known at prepare time: the loop runs right
//    there, each iteration's body prepared with its actual values, so carried values may change shape and body
//    ops may take shape-deciding inputs from them; run() then only copies the results;
//  - otherwise the body is prepared once for the initial carried shapes and run() iterates it, allocating
//    nothing. That needs carried values whose shapes do not change and no scan outputs (their length depends on
//    when the loop stops): other loops need their inputs when planning (Session::run(inputs) offers them).
// Either way the number of iterations is bounded by ONNXMICRO_MAX_LOOP_ITERATIONS.
#pragma once
#include "onnxmicro/runtime/control_flow/subgraph.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

namespace loop_detail {

/// The implementation of Loop (see the file comment).
struct LoopImpl : KernelDefaults {
  static constexpr std::string_view kOpType = "Loop";
  static constexpr int kTripCount = 0;
  static constexpr int kCondition = 1;
  static constexpr int kFirstCarried = 2;

  struct Result {
    DataType dtype;
    Shape shape;
    const void* data;
  };
  struct State {
    detail::Subgraph body;
    int carried;            ///< N
    int scans;              ///< K
    bool unrolled;          ///< ran at prepare time (first way): run() copies `results`
    Span<Result> results;   ///< node outputs computed at prepare time
    Shape iteration_shape;  ///< shape of the body's iteration-number and condition inputs ([] or [1])
    Shape condition_shape;
  };

  static Status prepare(PrepareContext& ctx) noexcept {
    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
    const int explicit_inputs = ctx.explicit_input_count();
    if (explicit_inputs < 2) {
      return Status(StatusCode::invalid_model)
             << "Loop needs inputs M and cond (either may be empty), got " << explicit_inputs;
    }
    state->carried = explicit_inputs - kFirstCarried;
    state->scans = ctx.output_count() - state->carried;
    if (state->scans < 0) {
      return Status(StatusCode::invalid_model)
             << "Loop has " << state->carried << " loop-carried inputs but only " << ctx.output_count() << " outputs";
    }
    if (ctx.has_input(kTripCount)) {
      const TensorInfo& m = ctx.input(kTripCount);
      if (m.dtype != DataType::int64) return ctx.unsupported_input_dtype(kTripCount);
      if (m.shape.element_count() != 1) {
        return ctx.input_error(kTripCount, "M") << " must hold one value, got shape " << m.shape;
      }
    }
    if (ctx.has_input(kCondition)) {
      const TensorInfo& c = ctx.input(kCondition);
      if (c.dtype != DataType::boolean) return ctx.unsupported_input_dtype(kCondition);
      if (c.shape.element_count() != 1) {
        return ctx.input_error(kCondition, "cond") << " must hold one value, got shape " << c.shape;
      }
    }
    for (int i = 0; i < state->carried; ++i) ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kFirstCarried + i));
    detail::Subgraph& body = state->body;
    ONNXMICRO_RETURN_IF_ERROR(body.load(ctx, "body"));
    if (body.formal_input_count() != static_cast<std::size_t>(2 + state->carried) ||
        body.output_count() != static_cast<std::size_t>(1 + state->carried + state->scans)) {
      return Status(StatusCode::invalid_model)
             << "subgraph 'body' has " << body.formal_input_count() << " inputs and " << body.output_count()
             << " outputs; a Loop with " << state->carried << " carried values and " << state->scans
             << " scan outputs needs " << (2 + state->carried) << " and " << (1 + state->carried + state->scans);
    }
    // The body declares its iteration number and condition as scalars or (in older exports) [1].
    const model::Graph& graph = body.model().graph();
    state->iteration_shape = declared_one_element_shape(graph.values[graph.inputs[0]]);
    state->condition_shape = declared_one_element_shape(graph.values[graph.inputs[1]]);

    bool all_constant = true;
    for (int i = 0; i < ctx.input_count(); ++i)
      if (ctx.has_input(i) && !ctx.input(i).is_constant) all_constant = false;
    if (all_constant) return unroll_at_prepare(ctx, *state);
    Status st = prepare_static_body(ctx, *state);
    if (!st.ok() && (state->scans > 0 || state->body.missing_formal_input() >= 0)) {
      // Running the loop at prepare time would work: ask the session for the inputs' values (it binds the
      // graph inputs behind them when the caller offered them, and prepares again).
      for (int i = 0; i < ctx.input_count(); ++i) {
        if (ctx.has_input(i) && !ctx.input(i).is_constant) {
          (void)ctx.require_constant_input(i);
          break;
        }
      }
    }
    return st;
  }

  static Status run(RunContext& ctx) noexcept {
    State& state = ctx.state<State>();
    if (state.unrolled) {
      for (int k = 0; k < ctx.output_count(); ++k) {
        const Result& r = state.results[static_cast<std::size_t>(k)];
        if (ctx.has_output(k)) detail::copy_tensor(ctx.output(k), ConstTensorView(r.dtype, r.shape, r.data));
      }
      return {};
    }
    detail::Subgraph& body = state.body;
    Session& session = body.session();
    ONNXMICRO_RETURN_IF_ERROR(body.bind_outer(ctx));
    const std::int64_t trip_count =
        ctx.has_input(kTripCount) ? *ctx.input(kTripCount).data_as<std::int64_t>() : ONNXMICRO_MAX_LOOP_ITERATIONS;
    bool condition = ctx.has_input(kCondition) ? *ctx.input(kCondition).data_as<bool>() : true;
    std::int64_t i = 0;
    for (; i < trip_count && condition; ++i) {
      if (i == ONNXMICRO_MAX_LOOP_ITERATIONS) return too_many_iterations();
      ONNXMICRO_RETURN_IF_ERROR(body.set_formal_input(0, ConstTensorView(DataType::int64, state.iteration_shape, &i)));
      ONNXMICRO_RETURN_IF_ERROR(
          body.set_formal_input(1, ConstTensorView(DataType::boolean, state.condition_shape, &condition)));
      for (int c = 0; c < state.carried; ++c) {
        // Iteration 0 reads the node's inputs, later ones the previous iteration's outputs.
        const ConstTensorView value =
            i == 0 ? ctx.input(kFirstCarried + c) : session.output(static_cast<std::size_t>(1 + c));
        ONNXMICRO_RETURN_IF_ERROR(body.set_formal_input(static_cast<std::size_t>(2 + c), value));
      }
      ONNXMICRO_RETURN_IF_ERROR(body.run());
      condition = *session.output(0).data_as<bool>();
    }
    for (int c = 0; c < state.carried; ++c) {
      if (!ctx.has_output(c)) continue;
      detail::copy_tensor(ctx.output(c),
                          i == 0 ? ctx.input(kFirstCarried + c) : session.output(static_cast<std::size_t>(1 + c)));
    }
    return {};
  }

 private:
  static Shape declared_one_element_shape(const model::Value& input) noexcept {
    return input.has_declared_shape && input.declared_rank == 1 ? Shape{1} : Shape();
  }
  static Status too_many_iterations() noexcept {
    return Status(StatusCode::limit_exceeded) << "the loop ran ONNXMICRO_MAX_LOOP_ITERATIONS ("
                                              << ONNXMICRO_MAX_LOOP_ITERATIONS << ") iterations without stopping";
  }

  // The second way: one preparation of the body, iterated by run().
  static Status prepare_static_body(PrepareContext& ctx, State& state) noexcept {
    if (state.scans > 0) {
      return Status(StatusCode::unsupported)
             << "a Loop with scan outputs needs every input known at prepare time: the outputs' length depends on "
                "when the loop stops: shapes that depend on values are planned with those values "
                "(Session::run(inputs))";
    }
    Span<TensorInfo> formal;
    ONNXMICRO_RETURN_IF_ERROR(ctx.metadata_allocator().allocate_array(2 + state.carried, formal));
    formal[0].dtype = DataType::int64;
    formal[0].shape = state.iteration_shape;
    formal[1].dtype = DataType::boolean;
    formal[1].shape = state.condition_shape;
    for (int c = 0; c < state.carried; ++c) {
      formal[2 + c] = ctx.input(kFirstCarried + c);
      formal[2 + c].is_constant = false;  // changes from iteration to iteration
    }
    for (TensorInfo& f : formal) f.present = true;
    state.body.place_arena_in_scratch();
    ONNXMICRO_RETURN_IF_ERROR(state.body.prepare(ctx, formal));
    ctx.request_scratch(state.body.scratch_bytes());
    Session& session = state.body.session();
    for (int c = 0; c < state.carried; ++c) {
      const ConstTensorView out = session.output(static_cast<std::size_t>(1 + c));
      const TensorInfo& in = ctx.input(kFirstCarried + c);
      if (out.dtype != in.dtype || out.shape != in.shape) {
        return ctx.input_error(kFirstCarried + c, {}, StatusCode::unsupported)
               << " (loop-carried value " << c << ") enters as " << dtype_name(in.dtype) << " " << in.shape
               << " but the body returns " << dtype_name(out.dtype) << " " << out.shape
               << "; a carried value that changes shape needs every input known at prepare time";
      }
      ctx.set_output(c, in.dtype, in.shape);
    }
    return {};
  }

  // The first way: every input is known, so run the whole loop now.
  static Status unroll_at_prepare(PrepareContext& ctx, State& state) noexcept {
    MetadataAllocator& allocator = ctx.metadata_allocator();
    detail::Subgraph& body = state.body;
    Span<TensorInfo> formal;
    ONNXMICRO_RETURN_IF_ERROR(allocator.allocate_array(2 + state.carried, formal));
    for (TensorInfo& f : formal) {
      f.present = true;
      f.is_constant = true;
    }
    std::int64_t iteration = 0;
    bool condition = ctx.has_input(kCondition) ? *static_cast<const bool*>(ctx.input(kCondition).const_data) : true;
    formal[0].dtype = DataType::int64;
    formal[0].shape = state.iteration_shape;
    formal[0].const_data = &iteration;
    formal[1].dtype = DataType::boolean;
    formal[1].shape = state.condition_shape;
    formal[1].const_data = &condition;
    for (int c = 0; c < state.carried; ++c) formal[2 + c] = ctx.input(kFirstCarried + c);
    const std::int64_t trip_count = ctx.has_input(kTripCount)
                                        ? *static_cast<const std::int64_t*>(ctx.input(kTripCount).const_data)
                                        : ONNXMICRO_MAX_LOOP_ITERATIONS;
    // Per scan output: every iteration's slice (a growing array of pointers) and the slice's dtype/shape.
    Span<Span<const void*>> slices;
    Span<Result> slice_info;
    ONNXMICRO_RETURN_IF_ERROR(allocator.allocate_array(static_cast<std::size_t>(state.scans), slices));
    ONNXMICRO_RETURN_IF_ERROR(allocator.allocate_array(static_cast<std::size_t>(state.scans), slice_info));
    for (; iteration < trip_count && condition; ++iteration) {
      if (iteration == ONNXMICRO_MAX_LOOP_ITERATIONS) return too_many_iterations();
      ONNXMICRO_RETURN_IF_ERROR(body.prepare(ctx, formal));
      Session& session = body.session();
      ONNXMICRO_RETURN_IF_ERROR(body.run());
      const ConstTensorView cond_out = session.output(0);
      if (cond_out.dtype != DataType::boolean || cond_out.element_count() != 1) {
        return Status(StatusCode::invalid_model) << "subgraph 'body' output 0 (the condition) must be one bool, got "
                                                 << dtype_name(cond_out.dtype) << " " << cond_out.shape;
      }
      const bool next_condition = *cond_out.data_as<bool>();
      // Carried values move to metadata (the body's arena is reused by the next preparation).
      for (int c = 0; c < state.carried; ++c) {
        const ConstTensorView out = session.output(static_cast<std::size_t>(1 + c));
        const void* copy = nullptr;
        ONNXMICRO_RETURN_IF_ERROR(keep(allocator, out, copy));
        formal[2 + c].dtype = out.dtype;
        formal[2 + c].shape = out.shape;
        formal[2 + c].const_data = copy;
      }
      for (int k = 0; k < state.scans; ++k) {
        const ConstTensorView out = session.output(static_cast<std::size_t>(1 + state.carried + k));
        Result& info = slice_info[static_cast<std::size_t>(k)];
        if (iteration == 0) {
          info.dtype = out.dtype;
          info.shape = out.shape;
        } else if (out.dtype != info.dtype || out.shape != info.shape) {
          return Status(StatusCode::invalid_model)
                 << "scan output " << k << " is " << dtype_name(out.dtype) << " " << out.shape << " at iteration "
                 << iteration << " but " << dtype_name(info.dtype) << " " << info.shape
                 << " before; scan outputs must keep their shape";
        }
        Span<const void*>& list = slices[static_cast<std::size_t>(k)];
        if (static_cast<std::size_t>(iteration) == list.size()) {
          Span<const void*> grown;
          ONNXMICRO_RETURN_IF_ERROR(allocator.allocate_array(list.empty() ? 8 : list.size() * 2, grown));
          for (std::size_t j = 0; j < list.size(); ++j) grown[j] = list[j];
          list = grown;
        }
        ONNXMICRO_RETURN_IF_ERROR(keep(allocator, out, list[static_cast<std::size_t>(iteration)]));
      }
      condition = next_condition;
    }
    state.unrolled = true;
    ONNXMICRO_RETURN_IF_ERROR(allocator.allocate_array(static_cast<std::size_t>(ctx.output_count()), state.results));
    for (int c = 0; c < state.carried; ++c) {
      Result& r = state.results[static_cast<std::size_t>(c)];
      r = Result{formal[2 + c].dtype, formal[2 + c].shape, formal[2 + c].const_data};
      ctx.set_output(c, r.dtype, r.shape);
    }
    for (int k = 0; k < state.scans; ++k) {
      Result& r = state.results[static_cast<std::size_t>(state.carried + k)];
      const Result& info = slice_info[static_cast<std::size_t>(k)];
      if (iteration == 0) {
        // No iteration ran: the slice shape is unknown; the body's declared output gives the best answer.
        return Status(StatusCode::unsupported)
               << "the loop runs zero iterations, so scan output " << k << " has an unknown slice shape";
      }
      if (info.shape.rank() + 1 > kMaxRank) {
        return Status(StatusCode::limit_exceeded) << "scan output " << k << " would exceed ONNXMICRO_MAX_RANK";
      }
      Shape stacked;
      stacked.resize(info.shape.rank() + 1);
      stacked[0] = iteration;
      for (int d = 0; d < info.shape.rank(); ++d) stacked[d + 1] = info.shape[d];
      const std::size_t slice_bytes = byte_size_of(info.dtype, info.shape.element_count());
      std::size_t total = 0;
      ONNXMICRO_RETURN_IF_ERROR(checked_byte_size(info.dtype, stacked, total));
      auto* data = static_cast<unsigned char*>(allocator.allocate(total == 0 ? 1 : total, ONNXMICRO_TENSOR_ALIGNMENT));
      if (data == nullptr) return Status(StatusCode::out_of_memory) << "metadata allocator exhausted for scan output";
      for (std::int64_t t = 0; t < iteration; ++t) {
        if (slice_bytes != 0) {
          std::memcpy(data + static_cast<std::size_t>(t) * slice_bytes, slices[static_cast<std::size_t>(k)][t],
                      slice_bytes);
        }
      }
      r = Result{info.dtype, stacked, data};
      ctx.set_output(state.carried + k, r.dtype, r.shape);
    }
    return {};
  }

  static Status keep(MetadataAllocator& allocator, const ConstTensorView& value, const void*& out) noexcept {
    const std::size_t bytes = value.byte_size();
    void* copy = allocator.allocate(bytes == 0 ? 1 : bytes, ONNXMICRO_TENSOR_ALIGNMENT);
    if (copy == nullptr) return Status(StatusCode::out_of_memory) << "metadata allocator exhausted in a Loop";
    if (bytes != 0) std::memcpy(copy, value.data, bytes);
    out = copy;
    return {};
  }
};

}  // namespace loop_detail

// Opset 1+: one kernel for every version (see the file comment).
using Loop_1 = VersionedKernel<loop_detail::LoopImpl, 1>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
