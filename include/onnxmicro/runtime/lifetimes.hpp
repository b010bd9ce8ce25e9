// SPDX-License-Identifier: MIT
// From prepared nodes to the planner's input (planner.hpp): every value computed at run time gets a lifetime in
// execution steps and a buffer, and the in-place decisions are made here:
//   - a value lives from the node that produces it (graph inputs: step 0) to the last node that reads it; graph
//     outputs (and, with SessionOptions::inputs_outlive_run, graph inputs) live to the end of the run;
//   - output 0 of a kernel that declares an in-place input shares that input's buffer when the input is an
//     intermediate that dies at this node and both have the same byte size (the buffer's lifetime is extended);
//   - each node's scratch is a buffer of its own, live for that step only.
// Constants (initializers, folded values, inputs bound at prepare) have no buffer: they live in the model bytes
// or in metadata.
#pragma once
#include <cstdint>

#include "onnxmicro/runtime/planner.hpp"
#include "onnxmicro/runtime/prepared_graph.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace detail {

/// Extends the lifetimes node preparation started (first_use = last_use = producer) to the last reader.
inline ONNXMICRO_DETAIL_ALWAYS_INLINE void mark_lifetimes(const model::Graph& graph, Span<const NodeRuntime> nodes,
                                                          Span<ValueRuntime> values, bool inputs_outlive_run) noexcept {
  const std::int32_t end_step = static_cast<std::int32_t>(graph.nodes.size());
  for (std::size_t i = 0; i < graph.nodes.size(); ++i) {
    if (nodes[i].folded) continue;
    for (model::ValueId id : graph.nodes[i].inputs) {
      if (id == model::kNoValue || values[id].info.is_constant) continue;
      if (values[id].last_use < static_cast<std::int32_t>(i)) values[id].last_use = static_cast<std::int32_t>(i);
    }
  }
  for (model::ValueId id : graph.outputs) {
    if (!values[id].info.is_constant) values[id].last_use = end_step;
  }
  if (!inputs_outlive_run) return;
  for (model::ValueId id : graph.inputs) {
    if (!values[id].info.is_constant) values[id].last_use = end_step;
  }
}

/// The buffers of one plan, filled in order: graph inputs, then per node its outputs and its scratch.
class BufferList {
 public:
  /// Room for every value computed at run time and every scratch (in-place outputs leave some unused).
  Status allocate(Span<const ValueRuntime> values, Span<const NodeRuntime> nodes,
                  MetadataAllocator& allocator) noexcept {
    std::size_t count = 0;
    for (const ValueRuntime& rt : values)
      if (!rt.info.is_constant && rt.first_use >= 0) ++count;
    for (const NodeRuntime& nr : nodes)
      if (!nr.folded && nr.scratch_bytes > 0) ++count;
    ONNXMICRO_RETURN_IF_ERROR(allocator.allocate_array(count, buffers_));
    return allocator.allocate_array(count, order_);
  }
  /// A buffer for `rt`, whose index goes to rt.buffer.
  Status add_value(ValueRuntime& rt) noexcept {
    std::size_t bytes = 0;
    ONNXMICRO_RETURN_IF_ERROR(checked_byte_size(rt.info.dtype, rt.info.shape, bytes));
    rt.buffer = add(bytes, rt.first_use, rt.last_use);
    return {};
  }
  std::int32_t add(std::size_t bytes, std::int32_t first_use, std::int32_t last_use) noexcept {
    PlannedBuffer& b = buffers_[used_];
    b.size = bytes;
    b.first_use = first_use;
    b.last_use = last_use;
    return static_cast<std::int32_t>(used_++);
  }
  PlannedBuffer& operator[](std::int32_t index) noexcept { return buffers_[static_cast<std::size_t>(index)]; }
  Span<PlannedBuffer> buffers() const noexcept { return buffers_.subspan(0, used_); }
  Span<std::int32_t> order() const noexcept { return order_.subspan(0, used_); }

 private:
  Span<PlannedBuffer> buffers_;
  Span<std::int32_t> order_;
  std::size_t used_ = 0;
};

/// The input output 0 of node `step` may overwrite in place (see the file comment), or kNoValue.
inline ONNXMICRO_DETAIL_ALWAYS_INLINE model::ValueId in_place_input(const model::Graph& graph, std::size_t step,
                                                                    const NodeRuntime& nr,
                                                                    Span<const ValueRuntime> values,
                                                                    const ValueRuntime& out) noexcept {
  const model::Node& node = graph.nodes[step];
  const int in_place = nr.kernel->in_place_input;
  if (in_place < 0 || static_cast<std::size_t>(in_place) >= node.inputs.size()) return model::kNoValue;
  const model::ValueId in_id = node.inputs[in_place];
  if (in_id == model::kNoValue) return model::kNoValue;
  const ValueRuntime& in = values[in_id];
  const model::Value& in_value = graph.values[in_id];
  const bool dies_here = in.last_use == static_cast<std::int32_t>(step);
  const bool reusable = !in.info.is_constant && in_value.kind == model::ValueKind::intermediate &&
                        !in_value.is_graph_output && dies_here && in.buffer >= 0 &&
                        byte_size_of(in.info.dtype, in.info.shape.element_count()) ==
                            byte_size_of(out.info.dtype, out.info.shape.element_count());
  return reusable ? in_id : model::kNoValue;
}

/// Gives every value computed at run time a buffer (or its dying input's, in place) and every scratch one.
inline ONNXMICRO_DETAIL_ALWAYS_INLINE Status assign_buffers(const model::Graph& graph, Span<NodeRuntime> nodes,
                                                            Span<ValueRuntime> values, BufferList& list) noexcept {
  for (model::ValueId id : graph.inputs) {
    if (values[id].info.is_constant) continue;  // bound at prepare: lives in metadata, not the arena
    Status st = list.add_value(values[id]);
    if (!st.ok()) return Status(st.code()) << "input '" << values[id].info.name << "': " << st.message_view();
  }
  for (std::size_t i = 0; i < graph.nodes.size(); ++i) {
    NodeRuntime& nr = nodes[i];
    if (nr.folded) continue;
    const model::Node& node = graph.nodes[i];
    for (std::size_t k = 0; k < node.outputs.size(); ++k) {
      const model::ValueId id = node.outputs[k];
      if (id == model::kNoValue) continue;
      ValueRuntime& out = values[id];
      const model::ValueId shared = k == 0 ? in_place_input(graph, i, nr, values, out) : model::kNoValue;
      if (shared != model::kNoValue) {
        out.buffer = values[shared].buffer;
        PlannedBuffer& buffer = list[out.buffer];
        if (buffer.last_use < out.last_use) buffer.last_use = out.last_use;
        continue;
      }
      Status st = list.add_value(out);
      if (!st.ok()) return node_error(node, st);
    }
    if (nr.scratch_bytes > 0) {
      nr.scratch_buffer = list.add(nr.scratch_bytes, static_cast<std::int32_t>(i), static_cast<std::int32_t>(i));
    }
  }
  return {};
}

}  // namespace detail
ONNXMICRO_NAMESPACE_END
