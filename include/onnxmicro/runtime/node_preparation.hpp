// SPDX-License-Identifier: MIT
// Nodes at prepare time: each gets its kernel from the registry (all of them first, so a missing kernel is
// reported before anything runs), then, in execution order, the kernel's prepare (dtype and shape inference,
// state) and, for a node whose inputs are all constant, its one run at prepare time (folding).
#pragma once
#include <cstdint>

#include "onnxmicro/runtime/prepared_graph.hpp"
#include "onnxmicro/runtime/session_options.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace detail {

/// Lists the version ranges a registry has for an op: " [1,13) [13,inf)" or " none".
inline Status& describe_available_versions(Status& s, KernelRegistry registry, std::string_view domain,
                                           std::string_view op_type) noexcept {
  bool any = false;
  for (const KernelEntry& e : registry) {
    if (e.domain != domain || e.op_type != op_type) continue;
    any = true;
    s << " [" << e.since_version << ",";
    if (e.until_version >= kernels::kOpenEnded)
      s << "newest]";
    else
      s << e.until_version << ")";
  }
  if (!any) s << " none";
  return s;
}

/// Finds every node's kernel; fails on the first node the registry cannot serve, naming the versions it has.
inline ONNXMICRO_DETAIL_ALWAYS_INLINE Status resolve_kernels(const model::Graph& graph, KernelRegistry registry,
                                                             Span<NodeRuntime> nodes,
                                                             Span<NodeReport> reports) noexcept {
  for (std::size_t i = 0; i < graph.nodes.size(); ++i) {
    const model::Node& node = graph.nodes[i];
    const KernelEntry* entry = find_kernel(registry, node.domain, node.op_type, node.opset_version);
    if (entry == nullptr) {
      Status s(StatusCode::unsupported);
      Model::describe_node(s, node) << ": no kernel in this build implements " << node.op_type << " at opset "
                                    << node.opset_version << "; versions this build has:";
      return describe_available_versions(s, registry, node.domain, node.op_type);
    }
    nodes[i].kernel = entry;
    reports[i].node = &node;
    reports[i].kernel = entry;
  }
  return {};
}

/// What every node's prepare sees besides its own tensors.
struct NodeEnvironment {
  kernels::PrepareEnvironment shared;                  ///< model, registry, size choice
  Span<const kernels::FusedClamp> fused_clamps;        ///< per node; empty when nothing was fused
  Span<const kernels::FusedEpilogue> fused_epilogues;  ///< per node; empty when no MatMul absorbed a node
};

/// The input and output infos a node's prepare reads and fills; `all_constant` tells whether every input is.
inline ONNXMICRO_DETAIL_ALWAYS_INLINE Status gather_node_infos(const model::Node& node, const model::Graph& graph,
                                                               Span<const ValueRuntime> values,
                                                               MetadataAllocator& allocator, NodeRuntime& nr,
                                                               bool& all_constant) noexcept {
  ONNXMICRO_RETURN_IF_ERROR(allocator.allocate_array(node.inputs.size(), nr.input_infos));
  ONNXMICRO_RETURN_IF_ERROR(allocator.allocate_array(node.outputs.size(), nr.output_infos));
  all_constant = true;
  for (std::size_t k = 0; k < node.inputs.size(); ++k) {
    const model::ValueId id = node.inputs[k];
    if (id == model::kNoValue) continue;
    nr.input_infos[k] = values[id].info;
    if (!values[id].info.is_constant) all_constant = false;
    // A dtype compiled out of the kernels (ONNXMICRO_ENABLE_FLOAT64/FLOAT16=0, ONNXMICRO_ENABLED_DTYPES) is
    // refused here, by name, before any kernel sees it (or folds it).
    if (!dtype_enabled(values[id].info.dtype)) {
      return disabled_dtype_error(node, "input", k, graph.values[id].name, values[id].info.dtype);
    }
  }
  for (std::size_t k = 0; k < node.outputs.size(); ++k) {
    const model::ValueId id = node.outputs[k];
    if (id == model::kNoValue) continue;
    nr.output_infos[k].present = true;
    nr.output_infos[k].name = graph.values[id].name;
  }
  return {};
}

/// Checks what the kernel's prepare said of each output against the model and records it in `values`.
inline ONNXMICRO_DETAIL_ALWAYS_INLINE Status record_node_outputs(const model::Node& node, const model::Graph& graph,
                                                                 const NodeRuntime& nr,
                                                                 Span<ValueRuntime> values) noexcept {
  for (std::size_t k = 0; k < node.outputs.size(); ++k) {
    const model::ValueId id = node.outputs[k];
    if (id == model::kNoValue) continue;
    const kernels::TensorInfo& out = nr.output_infos[k];
    const model::Value& declared = graph.values[id];
    if (out.dtype == DataType::undefined || !out.shape.is_static()) {
      return node_error(node, Status(StatusCode::internal) << "the kernel did not set the dtype and shape of output "
                                                           << k << " '" << declared.name << "'");
    }
    if (!dtype_enabled(out.dtype)) return disabled_dtype_error(node, "output", k, declared.name, out.dtype);
    if (declared.dtype != DataType::undefined && declared.dtype != out.dtype) {
      return node_error(node, Status(StatusCode::invalid_model)
                                  << "output " << k << " '" << declared.name << "' is declared "
                                  << dtype_name(declared.dtype) << " but the op produces " << dtype_name(out.dtype));
    }
    values[id].info.dtype = out.dtype;
    values[id].info.shape = out.shape;
  }
  return {};
}

/// Runs node `index`'s kernel prepare and records its outputs. When the kernel needs the value of an input that is
/// not known yet, `missing_constant_input` gets that input's value id (else kNoValue).
inline ONNXMICRO_DETAIL_ALWAYS_INLINE Status prepare_node(const model::Graph& graph, std::size_t index,
                                                          const NodeEnvironment& env, MetadataAllocator& allocator,
                                                          Span<ValueRuntime> values, NodeRuntime& nr,
                                                          bool& all_constant,
                                                          model::ValueId& missing_constant_input) noexcept {
  const model::Node& node = graph.nodes[index];
  missing_constant_input = model::kNoValue;
  ONNXMICRO_RETURN_IF_ERROR(gather_node_infos(node, graph, values, allocator, nr, all_constant));
  const kernels::FusedClamp* clamp = env.fused_clamps.empty() ? nullptr : &env.fused_clamps[index];
  const kernels::FusedEpilogue* epilogue = env.fused_epilogues.empty() ? nullptr : &env.fused_epilogues[index];
  kernels::PrepareContext ctx(node, nr.input_infos, nr.output_infos, allocator, env.shared, clamp, epilogue);
  Status st = nr.kernel->prepare(ctx);
  if (!st.ok()) {
    const int missing = ctx.missing_constant_input();
    if (missing >= 0 && static_cast<std::size_t>(missing) < node.inputs.size()) {
      missing_constant_input = node.inputs[missing];
    }
    return node_error(node, st);
  }
  if (ctx.unnamed_output() >= 0) {
    return node_error(
        node, Status(StatusCode::invalid_model)
                  << "the op produces output " << ctx.unnamed_output() << ", which the node does not name (it names "
                  << node.outputs.size() << " outputs"
                  << (ctx.unnamed_output() < static_cast<int>(node.outputs.size()) ? ", that one as \"\")" : ")"));
  }
  nr.state = ctx.state();
  nr.scratch_bytes = ctx.scratch_bytes();
#if ONNXMICRO_ENABLE_FAST_PATHS
  nr.rounding = ctx.rounding();
#endif
  return record_node_outputs(node, graph, nr, values);
}

/// Computes a node once at prepare time into metadata; its outputs become constants and run() skips it.
inline ONNXMICRO_DETAIL_ALWAYS_INLINE Status fold_node(const model::Node& node, MetadataAllocator& allocator,
                                                       Span<ValueRuntime> values, NodeRuntime& nr) noexcept {
  ONNXMICRO_RETURN_IF_ERROR(allocator.allocate_array(node.inputs.size(), nr.inputs));
  ONNXMICRO_RETURN_IF_ERROR(allocator.allocate_array(node.outputs.size(), nr.outputs));
  for (std::size_t k = 0; k < node.inputs.size(); ++k) {
    const model::ValueId id = node.inputs[k];
    if (id == model::kNoValue) continue;
    // Shape-only kernels see a null data pointer for inputs whose values are not known yet.
    nr.inputs[k] = ConstTensorView(values[id].info.dtype, values[id].info.shape, values[id].info.const_data);
  }
  for (std::size_t k = 0; k < node.outputs.size(); ++k) {
    const model::ValueId id = node.outputs[k];
    if (id == model::kNoValue) continue;
    ValueRuntime& rt = values[id];
    std::size_t bytes = 0;
    Status size_status = checked_byte_size(rt.info.dtype, rt.info.shape, bytes);
    if (!size_status.ok()) return node_error(node, size_status);
    void* storage = allocate_tensor_storage(allocator, bytes);
    if (storage == nullptr) {
      return node_error(node, Status(StatusCode::out_of_memory) << "metadata allocator exhausted folding output '"
                                                                << rt.info.name << "' (" << bytes << " bytes)");
    }
    nr.outputs[k] = TensorView{rt.info.dtype, rt.info.shape, storage};
    rt.info.is_constant = true;
    rt.info.const_data = storage;
    rt.data = storage;
  }
  void* scratch = nullptr;
  if (nr.scratch_bytes > 0) {
    scratch = allocator.allocate(nr.scratch_bytes, ONNXMICRO_TENSOR_ALIGNMENT);
    if (scratch == nullptr) {
      return node_error(node, Status(StatusCode::out_of_memory)
                                  << "metadata allocator exhausted for scratch while folding");
    }
  }
  // Strings a folded node builds live in metadata, as long as the session.
  kernels::StringPool folded_strings(&allocator);
  kernels::RunContext run_ctx(nr.inputs, nr.outputs, nr.state, scratch, nr.scratch_bytes, &folded_strings);
  Status run_status = nr.kernel->run(run_ctx);
  if (!run_status.ok()) return node_error(node, run_status);
  nr.folded = true;
  return {};
}

/// Whether node preparation computes the node now rather than at every run.
inline bool foldable_now(const NodeRuntime& nr, bool all_constant) noexcept {
  return nr.kernel->foldable && (all_constant || !nr.kernel->needs_input_data);
}

}  // namespace detail
ONNXMICRO_NAMESPACE_END
