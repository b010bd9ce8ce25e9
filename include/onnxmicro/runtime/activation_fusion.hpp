// SPDX-License-Identifier: MIT
// Activation fusion (SessionOptions::fuse_activations), once at prepare: a Relu, or a Clip (opset 11+) whose bounds
// are absent or float32 scalar initializers, that is the only reader of a Conv's output is folded into the Conv:
//
//   Conv -> Relu | Clip   =>   Conv writing the activation's output, clamped as it is computed
//
// The float GEMM clamps its tiles before storing them, so the activation costs no pass over the tensor and the
// tensor between the two nodes disappears from the arena. The clamp is exactly what the removed node computed
// (kernels/common/output_clamp.hpp): outputs are bit-identical with and without fusion. Every fusion is reported
// (Session::fused_activation(), `onnxmicro plan`), and `fuse_activations = false` runs every node as written.
// Runs after QDQ fusion, on its graph; a node that already carries a QDQ clamp is left alone.
#pragma once
#include <cstdint>

#include "onnxmicro/kernels/kernel_api.hpp"
#include "onnxmicro/model/graph.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace detail {
namespace activation_fusion {

using model::kNoValue;
using model::ValueId;

/// The ops whose kernels apply PrepareContext::fused_clamp to their outputs for every dtype they accept.
inline bool accepts_clamp(const model::Node& node) noexcept { return node.domain.empty() && node.op_type == "Conv"; }

/// A float32 scalar initializer's value.
inline bool float_scalar(const model::Graph& graph, ValueId id, float& value) noexcept {
  const model::Value& v = graph.values[id];
  std::int64_t count = 0;
  if (v.kind != model::ValueKind::initializer || v.dtype != DataType::float32) return false;
  if (!v.initializer().element_count(count).ok() || count != 1) return false;
  return v.initializer().decode_to(&value, sizeof(float)).ok();
}

/// The clamp `node` computes when it is a fusable activation: Relu, or Clip-11+ with constant float32 bounds.
/// (Clip-1/6 keep their bounds in attributes whose dtype follows the input: not fused.)
inline bool clamp_of(const model::Graph& graph, const model::Node& node, kernels::FusedClamp& clamp) noexcept {
  clamp = kernels::FusedClamp();
  if (!node.domain.empty() || node.inputs.empty() || node.inputs[0] == kNoValue) return false;
  if (node.op_type == "Relu") {
    clamp.has_min = true;
    return true;
  }
  if (node.op_type != "Clip" || node.opset_version < 11) return false;
  for (std::size_t k = 1; k < 3 && k < node.inputs.size(); ++k) {
    if (node.inputs[k] == kNoValue) continue;
    float bound = 0.0f;
    if (!float_scalar(graph, node.inputs[k], bound)) return false;
    (k == 1 ? clamp.has_min : clamp.has_max) = true;
    (k == 1 ? clamp.min : clamp.max) = bound;
  }
  return true;
}

/// The plan: per node of `graph`, the activation it absorbs (-1: none) and whether it is absorbed itself.
struct Plan {
  Span<std::int32_t> absorbs;
  Span<unsigned char> removed;
  std::size_t fusions = 0;
};

/// Finds the fusions; `clamps` are QDQ fusion's (per node; empty: none). Working tables come from `allocator`.
inline Status find(const model::Graph& graph, Span<const kernels::FusedClamp> clamps, MetadataAllocator& allocator,
                   Plan& plan) noexcept {
  const std::size_t node_count = graph.nodes.size();
  Span<std::int32_t> readers, producer;
  ONNXMICRO_RETURN_IF_ERROR(allocator.allocate_array(graph.values.size(), readers));
  ONNXMICRO_RETURN_IF_ERROR(allocator.allocate_array(graph.values.size(), producer));
  ONNXMICRO_RETURN_IF_ERROR(allocator.allocate_array(node_count, plan.absorbs));
  ONNXMICRO_RETURN_IF_ERROR(allocator.allocate_array(node_count, plan.removed));
  for (std::size_t i = 0; i < node_count; ++i) {
    plan.absorbs[i] = -1;
    for (ValueId id : graph.nodes[i].inputs)
      if (id != kNoValue) ++readers[id];
    for (ValueId id : graph.nodes[i].outputs)
      if (id != kNoValue) producer[id] = static_cast<std::int32_t>(i) + 1;
  }
  for (ValueId id : graph.outputs) readers[id] += 1 << 20;  // a graph output stays where the model writes it
  for (std::size_t i = 0; i < node_count; ++i) {
    kernels::FusedClamp clamp;
    if (!clamp_of(graph, graph.nodes[i], clamp)) continue;
    const ValueId x = graph.nodes[i].inputs[0];
    const std::int32_t p = producer[x] - 1;
    if (p < 0 || readers[x] != 1 || plan.absorbs[p] >= 0) continue;
    const model::Node& conv = graph.nodes[p];
    if (!accepts_clamp(conv) || conv.outputs.size() != 1) continue;
    if (!clamps.empty() && clamps[p].present()) continue;
    plan.absorbs[p] = static_cast<std::int32_t>(i);
    plan.removed[i] = 1;
    ++plan.fusions;
  }
  return {};
}

/// Rewrites `graph` into `fused` (unchanged when nothing fuses): absorbed activations leave the node list, their
/// producer writes their output and gets their clamp. `clamps` (QDQ fusion's, per node of `graph`, or empty) and
/// `absorbed` come back per node of `fused`; `absorbed[i]` is the activation node i absorbed, or null.
inline Status fuse(const model::Graph& graph, MetadataAllocator& allocator, model::Graph& fused,
                   Span<kernels::FusedClamp>& clamps, Span<const model::Node*>& absorbed) noexcept {
  fused = graph;
  const std::size_t node_count = graph.nodes.size();
  const std::size_t start_mark = allocator.used_bytes();
  // Kept: the new node list, clamps, reports and output ids (sized for the worst case); the plan after them.
  Span<model::Node> nodes;
  Span<kernels::FusedClamp> new_clamps;
  Span<const model::Node*> new_absorbed;
  Span<ValueId> outputs;
  ONNXMICRO_RETURN_IF_ERROR(allocator.allocate_array(node_count, nodes));
  ONNXMICRO_RETURN_IF_ERROR(allocator.allocate_array(node_count, new_clamps));
  ONNXMICRO_RETURN_IF_ERROR(allocator.allocate_array(node_count, new_absorbed));
  ONNXMICRO_RETURN_IF_ERROR(allocator.allocate_array(node_count, outputs));
  const std::size_t plan_mark = allocator.used_bytes();
  Plan plan;
  ONNXMICRO_RETURN_IF_ERROR(find(graph, clamps, allocator, plan));
  std::size_t n = 0;
  for (std::size_t i = 0; i < node_count && plan.fusions > 0; ++i) {
    if (plan.removed[i]) continue;
    model::Node& out = nodes[n];
    out = graph.nodes[i];
    out.index = static_cast<std::int32_t>(n);
    new_clamps[n] = clamps.empty() ? kernels::FusedClamp() : clamps[i];
    if (plan.absorbs[i] >= 0) {
      const model::Node& activation = graph.nodes[static_cast<std::size_t>(plan.absorbs[i])];
      clamp_of(graph, activation, new_clamps[n]);
      outputs[n] = activation.outputs[0];
      out.outputs = outputs.subspan(n, 1);
      new_absorbed[n] = &activation;
    }
    ++n;
  }
  const std::size_t fusions = plan.fusions;
  allocator.rewind(fusions == 0 ? start_mark : plan_mark);
  if (fusions == 0) {
    absorbed = Span<const model::Node*>();
    return {};
  }
  fused.nodes = nodes.subspan(0, n);
  clamps = new_clamps.subspan(0, n);
  absorbed = new_absorbed.subspan(0, n);
  return {};
}

}  // namespace activation_fusion
}  // namespace detail
ONNXMICRO_NAMESPACE_END
