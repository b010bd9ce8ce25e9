// SPDX-License-Identifier: MIT
// A control-flow node's subgraph (an If branch, a Loop or Scan body) prepared as a Model and Session of its own.
// Both objects live in the parent session's metadata and are never destroyed: they draw every byte from the
// parent's metadata allocator (tables, state), so there is nothing to free. The subgraph's tensors live either in
// the parent's arena (place_arena_in_scratch(): the node asks for scratch_bytes() of scratch and bind_outer()
// moves the plan there each run, so the subgraph is part of the parent's memory plan), or, when the node runs
// the subgraph at prepare time (unrolled loops, SequenceMap), in an arena carved from the metadata.
// The subgraph's inputs are its own ("formal") inputs followed by the enclosing-scope values it reads, which the
// parent node receives as implicit inputs (model::Node::inputs) and which are copied in at every run.
#pragma once
#include <cstring>
#include <new>

#include "onnxmicro/runtime/session.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace detail {

class Subgraph {
 public:
  /// Loads GRAPH attribute `attribute` of the node being prepared (not prepared yet).
  Status load(kernels::PrepareContext& ctx, std::string_view attribute) noexcept {
    attribute_ = attribute;
    proto::Attribute a;
    if (!ctx.find_attribute(attribute, a)) {
      return Status(StatusCode::invalid_model) << "required attribute '" << attribute << "' (GRAPH) is missing";
    }
    ONNXMICRO_RETURN_IF_ERROR(kernels::PrepareContext::expect_type(a, proto::AttributeType::graph));
    if (ctx.model() == nullptr) {
      return Status(StatusCode::invalid_argument) << "subgraph '" << attribute << "' needs the node's model";
    }
    MetadataAllocator& allocator = ctx.metadata_allocator();
    const int explicit_inputs = ctx.explicit_input_count();
    const std::size_t outer_count = static_cast<std::size_t>(ctx.input_count() - explicit_inputs);
    Span<OuterValue> outer;
    ONNXMICRO_RETURN_IF_ERROR(allocator.allocate_array(outer_count, outer));
    for (std::size_t i = 0; i < outer_count; ++i) {
      const kernels::TensorInfo& info = ctx.input(explicit_inputs + static_cast<int>(i));
      outer[i] = OuterValue{info.name, info.dtype};
    }
    ONNXMICRO_RETURN_IF_ERROR(construct(allocator, model_));
    ONNXMICRO_RETURN_IF_ERROR(construct(allocator, session_));
    LoadOptions options;
    options.metadata_allocator = &allocator;
    Status st = model_->load_subgraph(*ctx.model(), a.g, outer, ctx.model()->graph().depth + 1, options);
    if (!st.ok()) return st.prepend("': ").prepend(attribute).prepend("subgraph '");
    // The builder lists the subgraph's own inputs first (declared inputs that are not initializers), then the
    // enclosing-scope values it reads.
    const model::Graph& graph = model_->graph();
    formal_inputs_ = 0;
    for (const proto::ValueInfo& info : model_->proto().graph.inputs()) {
      for (model::ValueId id : graph.inputs)
        if (graph.values[id].name == info.name) ++formal_inputs_;
    }
    ONNXMICRO_RETURN_IF_ERROR(allocator.allocate_array(graph.inputs.size(), outer_source_));
    for (std::size_t i = 0; i < graph.inputs.size(); ++i) {
      outer_source_[i] = -1;
      if (i < formal_inputs_) continue;
      const std::string_view name = graph.values[graph.inputs[i]].name;
      for (int k = explicit_inputs; k < ctx.input_count(); ++k)
        if (ctx.input(k).name == name) outer_source_[i] = k;
    }
    return {};
  }

  /// Call before prepare(): the subgraph's tensors will live in the node's scratch buffer (see scratch_bytes()),
  /// which bind_outer() attaches at every run. The subgraph then cannot run before the node does.
  void place_arena_in_scratch() noexcept { arena_in_scratch_ = true; }
  /// Scratch bytes the node must request (RunContext::scratch) after prepare(); 0 unless place_arena_in_scratch().
  std::size_t scratch_bytes() const noexcept { return arena_in_scratch_ ? session_->required_arena_bytes() : 0; }

  /// The subgraph's own inputs (excluding enclosing-scope values), in declaration order.
  std::size_t formal_input_count() const noexcept { return formal_inputs_; }
  std::size_t output_count() const noexcept { return model_->graph().outputs.size(); }
  Model& model() noexcept { return *model_; }
  Session& session() noexcept { return *session_; }
  std::string_view name() const noexcept { return attribute_; }

  /// Prepares the session. Formal input i takes formal[i]'s dtype and shape, and its value when it is constant;
  /// enclosing-scope inputs take the parent's input info (and value when constant there).
  Status prepare(kernels::PrepareContext& ctx, Span<const kernels::TensorInfo> formal) noexcept {
    const model::Graph& graph = model_->graph();
    missing_formal_ = -1;
    if (formal.size() != formal_inputs_) {
      return Status(StatusCode::invalid_model)
             << "subgraph '" << attribute_ << "' has " << formal_inputs_ << " inputs, the op passes " << formal.size();
    }
    MetadataAllocator& allocator = ctx.metadata_allocator();
    Span<InputShape> shapes;
    Span<InputValue> values;
    ONNXMICRO_RETURN_IF_ERROR(allocator.allocate_array(graph.inputs.size(), shapes));
    ONNXMICRO_RETURN_IF_ERROR(allocator.allocate_array(graph.inputs.size(), values));
    std::size_t value_count = 0;
    for (std::size_t i = 0, f = 0; i < graph.inputs.size(); ++i) {
      model::Value& input = graph.values[graph.inputs[i]];
      kernels::TensorInfo info = outer_source_[i] >= 0 ? ctx.input(outer_source_[i]) : formal[f++];
      if (input.dtype == DataType::optional && info.dtype != DataType::optional && info.is_constant) {
        // A value passed where the subgraph declares an optional: an optional holding it (Loop-16 carries
        // optional(seq) in, seq out).
        Span<ValueRef> wrapped;
        ONNXMICRO_RETURN_IF_ERROR(allocator.allocate_array(1, wrapped));
        wrapped[0] = value_ref_of(ConstTensorView(info.dtype, info.shape, info.const_data));
        info.dtype = DataType::optional;
        info.shape = Shape{1};
        info.const_data = wrapped.data();
      }
      // Function-expanded bodies may leave their inputs untyped: the op's values decide (this Model is ours).
      if (input.dtype == DataType::undefined) input.dtype = info.dtype;
      if (input.dtype != info.dtype) {
        return Status(StatusCode::invalid_model)
               << "subgraph '" << attribute_ << "' input '" << input.name << "' is declared " << dtype_name(input.dtype)
               << ", the op passes " << dtype_name(info.dtype);
      }
      shapes[i] = InputShape{input.name, info.shape};
      if (info.is_constant) {
        values[value_count++] = InputValue{input.name, ConstTensorView(info.dtype, info.shape, info.const_data)};
      }
    }
    SessionOptions options;
    options.metadata_allocator = &allocator;
    options.inputs_outlive_run = true;  // the next iteration's inputs are written while outputs are read
    options.size_optimized_kernels = ctx.size_optimized();
    options.winograd_convolutions = ctx.winograd_allowed();
    options.max_isa = ctx.isa();
    options.thread_pool = ctx.thread_workers().pool();
    options.input_shapes = shapes;
    options.input_values = values.subspan(0, value_count);
    // Strings built inside a subgraph would need a pool of their own: none, so such a run fails clearly.
    options.string_pool = &no_string_pool_;
    options.string_pool_bytes = 0;
    alignas(ONNXMICRO_TENSOR_ALIGNMENT) static unsigned char no_arena[ONNXMICRO_TENSOR_ALIGNMENT];
    options.arena = arena_bytes_ > 0 ? arena_ : no_arena;
    options.arena_bytes = arena_bytes_;
    if (arena_in_scratch_) {
      // Planned against a stand-in address, never written before bind_outer() moves the plan to the scratch.
      options.arena = no_arena;
      options.arena_bytes = static_cast<std::size_t>(-1) / 4;
    }
    Status st = session_->prepare(*model_, ctx.registry(), options);
    if (!arena_in_scratch_ && st.code() == StatusCode::out_of_memory &&
        session_->required_arena_bytes() > arena_bytes_) {
      // First preparation (or a bigger one): carve the arena the plan asks for, and prepare again.
      const std::size_t bytes = session_->required_arena_bytes();
      void* arena = allocator.allocate(bytes, ONNXMICRO_TENSOR_ALIGNMENT);
      if (arena == nullptr) {
        return Status(StatusCode::out_of_memory)
               << "subgraph '" << attribute_ << "': metadata allocator exhausted for " << bytes << " arena bytes";
      }
      arena_ = arena;
      arena_bytes_ = bytes;
      options.arena = arena_;
      options.arena_bytes = arena_bytes_;
      st = session_->prepare(*model_, ctx.registry(), options);
    }
    if (!st.ok()) {
      // A value needed at prepare time that comes from the enclosing scope: ask the parent session for it, so
      // it binds the graph input behind it (when offered) and prepares again.
      const std::int32_t missing = session_->missing_input_value();
      if (missing >= 0 && outer_source_[static_cast<std::size_t>(missing)] >= 0) {
        (void)ctx.require_constant_input(outer_source_[static_cast<std::size_t>(missing)]);
      }
      if (missing >= 0 && outer_source_[static_cast<std::size_t>(missing)] < 0) missing_formal_ = missing;
      return st.prepend("': ").prepend(attribute_).prepend("subgraph '");
    }
    // Values known now but not needed by any kernel at prepare time are ordinary inputs: filled now, or at every
    // run when the arena is the node's scratch (shared with other tensors between runs).
    std::size_t deferred = 0;
    for (std::size_t i = 0; i < value_count; ++i) {
      std::size_t index = 0;
      ONNXMICRO_RETURN_IF_ERROR(session_->input_index(values[i].name, index));
      if (session_->input_bound_at_prepare(index)) continue;
      if (arena_in_scratch_)
        values[deferred++] = values[i];
      else
        ONNXMICRO_RETURN_IF_ERROR(session_->set_input(index, values[i].value));
    }
    constant_inputs_ = values.subspan(0, deferred);
    return {};
  }

  /// After a failed prepare(): the formal input whose value a body kernel needed at prepare time, or -1.
  std::int32_t missing_formal_input() const noexcept { return missing_formal_; }

  /// Copies the enclosing-scope inputs from the parent node's run-time inputs (those not bound at prepare).
  Status bind_outer(const kernels::RunContext& ctx) noexcept {
    if (arena_in_scratch_) {
      if (ctx.scratch_bytes() < session_->required_arena_bytes()) {
        return Status(StatusCode::internal)
               << "subgraph '" << attribute_ << "' needs " << session_->required_arena_bytes()
               << " scratch bytes, the node has " << ctx.scratch_bytes();
      }
      session_->rebase_arena(ctx.scratch());
      for (const InputValue& value : constant_inputs_)
        ONNXMICRO_RETURN_IF_ERROR(session_->set_input(value.name, value.value));
    }
    for (std::size_t i = 0; i < outer_source_.size(); ++i) {
      if (outer_source_[i] < 0 || session_->input_bound_at_prepare(i)) continue;
      ONNXMICRO_RETURN_IF_ERROR(session_->set_input(i, ctx.input(outer_source_[i])));
    }
    return {};
  }

  /// Runs the prepared session; errors name the subgraph.
  Status run() noexcept {
    Status st = session_->run();
    if (!st.ok()) return st.prepend("': ").prepend(attribute_).prepend("subgraph '");
    return {};
  }

  /// Copies `value` into formal input `index` (unless it was bound at prepare time).
  Status set_formal_input(std::size_t index, const ConstTensorView& value) noexcept {
    if (session_->input_bound_at_prepare(index)) return {};
    return session_->set_input(index, value);
  }

 private:
  template <typename T>
  static Status construct(MetadataAllocator& allocator, T*& out) noexcept {
    void* p = allocator.allocate(sizeof(T), alignof(T));
    if (p == nullptr) return Status(StatusCode::out_of_memory) << "metadata allocator exhausted for a subgraph";
    out = new (p) T();
    return {};
  }
  std::string_view attribute_;
  Model* model_ = nullptr;
  Session* session_ = nullptr;
  std::size_t formal_inputs_ = 0;
  Span<std::int32_t> outer_source_;
  void* arena_ = nullptr;
  std::size_t arena_bytes_ = 0;
  std::int32_t missing_formal_ = -1;
  char no_string_pool_ = 0;
  bool arena_in_scratch_ = false;
  Span<InputValue> constant_inputs_;  ///< known at prepare, not bound: copied in at every run (scratch arena)
};

/// Copies a tensor's bytes (any dtype; a string tensor's element views).
inline void copy_tensor(const TensorView& to, const ConstTensorView& from) noexcept {
  const std::size_t bytes = from.byte_size();
  if (bytes != 0 && to.data != from.data) std::memcpy(to.data, from.data, bytes);
}

}  // namespace detail
ONNXMICRO_NAMESPACE_END
