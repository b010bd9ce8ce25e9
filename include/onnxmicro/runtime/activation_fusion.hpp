// SPDX-License-Identifier: MIT
// Activation fusion (SessionOptions::fuse_activations), once at prepare: nodes that only transform one producer's
// output fold into the producer, which then writes their output as it computes its own:
//
//   Conv -> Relu | Clip                                           =>  Conv, clamped
//   Gemm -> Relu | Clip                                           =>  Gemm, clamped
//   MatMul -> [Add(bias)] -> [Relu | Clip | GELU (Div, Erf, Add, Mul, Mul)]  =>  MatMul with an epilogue
//
// A Relu, or a Clip (opset 11+) whose bounds are absent or float32 scalar initializers. For Gemm and MatMul
// (float32: B a float32 initializer of rank 2, >= 2 for MatMul): the bias is a 1-D float32 initializer as long as B's
// last axis, added by an Add of opset 7+; GELU is the Erf form exporters write, x * (erf(x / a) + b) * c with float32
// scalar initializers a, b, c, its two products in either order ((x * t) * c, as torch exports F.gelu, or (x * c) * t).
// Every value between the producer and the last absorbed node must be read by the chain alone (no other reader, no
// graph output).
//
// The fused node computes each removed node's float operation, in the model's order
// (kernels/common/output_clamp.hpp, output_epilogue.hpp): outputs are bit-identical with and without fusion, and
// the tensors between the nodes disappear from the arena. Every fusion is reported (Session::fused_nodes(),
// `onnxmicro plan`), and `fuse_activations = false` runs every node as written. Sessions with a device backend fold
// nothing into Gemm and MatMul (the device kernels take no epilogue). Runs after QDQ fusion, on its graph; a node that
// already carries a QDQ clamp is left alone.
#pragma once
#include <cstdint>
#include <utility>

#include "onnxmicro/kernels/kernel_api.hpp"
#include "onnxmicro/model/graph.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace detail {
namespace activation_fusion {

using model::kNoValue;
using model::ValueId;

/// Most nodes one producer absorbs: a bias Add and GELU's five nodes.
constexpr std::size_t kMaxAbsorbed = 6;

/// One producer's fusion: the nodes it absorbs, in graph order, and what they compute.
struct Chain {
  std::int32_t nodes[kMaxAbsorbed] = {};
  std::size_t count = 0;
  kernels::FusedClamp clamp;
  kernels::FusedEpilogue epilogue;
  ValueId bias = kNoValue;
  ValueId output = kNoValue;  ///< the last absorbed node's output, which the producer writes instead of its own
};

/// Who reads and produces each value of the graph.
class Uses {
 public:
  Status build(const model::Graph& graph, MetadataAllocator& allocator) noexcept {
    graph_ = &graph;
    const std::size_t value_count = graph.values.size();
    ONNXMICRO_RETURN_IF_ERROR(allocator.allocate_array(value_count, readers_));
    ONNXMICRO_RETURN_IF_ERROR(allocator.allocate_array(value_count, first_reader_));
    ONNXMICRO_RETURN_IF_ERROR(allocator.allocate_array(value_count, last_reader_));
    for (std::size_t v = 0; v < value_count; ++v) first_reader_[v] = last_reader_[v] = -1;
    for (std::size_t i = 0; i < graph.nodes.size(); ++i) {
      for (ValueId id : graph.nodes[i].inputs) {
        if (id == kNoValue) continue;
        // A node reading a value twice (Mul(x, x)) counts twice: it is then no single-input step of a chain.
        ++readers_[id];
        if (first_reader_[id] < 0) first_reader_[id] = static_cast<std::int32_t>(i);
        last_reader_[id] = static_cast<std::int32_t>(i);
      }
    }
    for (ValueId id : graph.outputs) readers_[id] += 1 << 20;  // a graph output stays where the model writes it
    return {};
  }
  /// The node that alone reads `v`, or -1.
  std::int32_t sole_reader(ValueId v) const noexcept { return readers_[v] == 1 ? first_reader_[v] : -1; }
  /// The two nodes that read `v` once each (first, second in graph order), or false.
  bool two_readers(ValueId v, std::int32_t& first, std::int32_t& second) const noexcept {
    first = first_reader_[v];
    second = last_reader_[v];
    return readers_[v] == 2 && first != second;
  }
  const model::Node& node(std::int32_t i) const noexcept { return graph_->nodes[static_cast<std::size_t>(i)]; }

 private:
  const model::Graph* graph_ = nullptr;
  Span<std::int32_t> readers_, first_reader_, last_reader_;
};

/// A float32 initializer's value when it holds one element at rank 0 or 1 (broadcasting it changes no shape).
inline bool float_scalar(const model::Graph& graph, ValueId id, float& value) noexcept {
  if (id == kNoValue) return false;
  const model::Value& v = graph.values[id];
  std::int64_t count = 0;
  if (v.kind != model::ValueKind::initializer || v.dtype != DataType::float32) return false;
  if (v.initializer().rank > 1 || !v.initializer().element_count(count).ok() || count != 1) return false;
  return v.initializer().decode_to(&value, sizeof(float)).ok();
}

/// A default-domain node of `op` at opset `since`+ with `inputs` inputs and one output.
inline bool is_op(const model::Node& node, const char* op, std::int64_t since, std::size_t inputs) noexcept {
  return node.domain.empty() && node.op_type == op && node.opset_version >= since && node.inputs.size() == inputs &&
         node.outputs.size() == 1 && node.outputs[0] != kNoValue;
}

/// The input of binary `node` that is not `v` (-1 when neither or both are `v`).
inline ValueId other_input(const model::Node& node, ValueId v) noexcept {
  if (node.inputs[0] == v && node.inputs[1] != v) return node.inputs[1];
  if (node.inputs[1] == v && node.inputs[0] != v) return node.inputs[0];
  return kNoValue;
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

/// Builds one producer's chain, step by step from the producer's output.
class ChainBuilder {
 public:
  ChainBuilder(const model::Graph& graph, const Uses& uses, Chain& chain) noexcept
      : graph_(graph), uses_(uses), chain_(chain) {}

  /// Relu/Clip reading `v` alone.
  bool clamp(ValueId v) noexcept {
    const std::int32_t r = uses_.sole_reader(v);
    if (r < 0 || !clamp_of(graph_, uses_.node(r), chain_.clamp)) return false;
    absorb(r);
    return true;
  }

  /// Add(v, bias) reading `v` alone, the bias a float32 [columns] initializer.
  bool bias(ValueId v, std::int64_t columns) noexcept {
    const std::int32_t r = uses_.sole_reader(v);
    if (r < 0 || !is_op(uses_.node(r), "Add", 7, 2)) return false;
    const ValueId b = other_input(uses_.node(r), v);
    if (b == kNoValue) return false;
    const model::Value& value = graph_.values[b];
    if (value.kind != model::ValueKind::initializer || value.dtype != DataType::float32) return false;
    if (value.initializer().rank != 1 || value.initializer().dims[0] != columns) return false;
    chain_.epilogue.bias = true;
    chain_.bias = b;
    absorb(r);
    return true;
  }

  /// x * (erf(x / a) + b) * c on `x`, which the chain's Div and one of its Muls read.
  bool gelu(ValueId x) noexcept {
    std::int32_t first = -1, second = -1;
    if (!uses_.two_readers(x, first, second)) return false;
    const std::int32_t div = uses_.node(first).op_type == "Div" ? first : second;
    const std::int32_t mul = div == first ? second : first;
    kernels::FusedEpilogue& e = chain_.epilogue;
    const model::Node& d = uses_.node(div);
    if (!is_op(d, "Div", 7, 2) || d.inputs[0] != x || !float_scalar(graph_, d.inputs[1], e.divisor)) return false;
    const std::int32_t erf = uses_.sole_reader(d.outputs[0]);
    if (erf < 0 || !is_op(uses_.node(erf), "Erf", 9, 1)) return false;
    const std::int32_t add = uses_.sole_reader(uses_.node(erf).outputs[0]);
    if (add < 0 || !is_op(uses_.node(add), "Add", 7, 2)) return false;
    const ValueId t = uses_.node(add).outputs[0];
    if (!float_scalar(graph_, other_input(uses_.node(add), uses_.node(erf).outputs[0]), e.addend)) return false;
    const model::Node& m = uses_.node(mul);
    if (!is_op(m, "Mul", 7, 2)) return false;
    std::int32_t last = -1;
    if (other_input(m, x) == t) {  // (x * t) * c
      last = uses_.sole_reader(m.outputs[0]);
      if (last < 0 || !is_op(uses_.node(last), "Mul", 7, 2)) return false;
      if (!float_scalar(graph_, other_input(uses_.node(last), m.outputs[0]), e.scale)) return false;
    } else {  // (x * c) * t
      if (!float_scalar(graph_, other_input(m, x), e.scale)) return false;
      last = uses_.sole_reader(m.outputs[0]);
      if (last < 0 || last != uses_.sole_reader(t) || !is_op(uses_.node(last), "Mul", 7, 2)) return false;
      if (other_input(uses_.node(last), t) != m.outputs[0]) return false;
      e.scale_first = true;
    }
    e.gelu = true;
    // Graph order: the nodes were validated topologically, so sorting the five indices keeps the report readable.
    std::int32_t nodes[5] = {div, erf, add, mul, last};
    for (int i = 1; i < 5; ++i)
      for (int j = i; j > 0 && nodes[j] < nodes[j - 1]; --j) std::swap(nodes[j], nodes[j - 1]);
    for (std::int32_t n : nodes) absorb(n);
    return true;
  }

  /// The value the chain ends in (the producer's own output while it absorbed nothing).
  ValueId end(ValueId producer_output) const noexcept {
    return chain_.count == 0 ? producer_output : uses_.node(chain_.nodes[chain_.count - 1]).outputs[0];
  }

 private:
  void absorb(std::int32_t node) noexcept { chain_.nodes[chain_.count++] = node; }

  const model::Graph& graph_;
  const Uses& uses_;
  Chain& chain_;
};

/// The columns of a float32 MatMul's output when B is a float32 initializer of rank >= 2 (else -1: not fused).
inline std::int64_t matmul_columns(const model::Graph& graph, const model::Node& node) noexcept {
  if (node.op_type != "MatMul" || node.inputs.size() != 2 || node.inputs[1] == kNoValue) return -1;
  const model::Value& b = graph.values[node.inputs[1]];
  if (b.kind != model::ValueKind::initializer || b.dtype != DataType::float32 || b.initializer().rank < 2) return -1;
  return b.initializer().dims[b.initializer().rank - 1];
}

/// Whether `node` is a Gemm whose B is a float32 initializer (so that its output is float32).
inline bool float_gemm(const model::Graph& graph, const model::Node& node) noexcept {
  if (node.op_type != "Gemm" || node.inputs.size() < 2 || node.inputs[1] == kNoValue) return false;
  const model::Value& b = graph.values[node.inputs[1]];
  return b.kind == model::ValueKind::initializer && b.dtype == DataType::float32 && b.initializer().rank == 2;
}

/// The chain node `p` absorbs (count 0: none). `qdq_clamp`: the clamp QDQ fusion already gave it. `matrix`: fold
/// into Gemm and MatMul too.
inline void find_chain(const model::Graph& graph, const Uses& uses, std::int32_t p, bool qdq_clamp, bool matrix,
                       Chain& chain) noexcept {
  chain = Chain();
  const model::Node& node = graph.nodes[static_cast<std::size_t>(p)];
  if (qdq_clamp || node.outputs.size() != 1 || node.outputs[0] == kNoValue || !node.domain.empty()) return;
  ChainBuilder builder(graph, uses, chain);
  const ValueId out = node.outputs[0];
  if (node.op_type == "Conv" || (matrix && float_gemm(graph, node))) {
    builder.clamp(out);
  } else if (matrix) {
    const std::int64_t columns = matmul_columns(graph, node);
    if (columns < 0) return;
    builder.bias(out, columns);
    const ValueId v = builder.end(out);
    if (!builder.gelu(v)) builder.clamp(v);
  }
  chain.output = builder.end(out);
}

/// Per node of the fused graph: the nodes it absorbed (empty: none).
using Absorbed = Span<const model::Node*>;

/// What fuse() gives back, per node of the fused graph.
struct Result {
  Span<kernels::FusedClamp> clamps;
  Span<kernels::FusedEpilogue> epilogues;  ///< empty when no MatMul absorbed anything
  Span<Absorbed> absorbed;                 ///< empty when nothing fused
};

/// The kept arrays of a rewrite, sized for the worst case (every node a producer with a bias).
struct Lists {
  Span<model::Node> nodes;
  Span<kernels::FusedClamp> clamps;
  Span<kernels::FusedEpilogue> epilogues;
  Span<Absorbed> absorbed;
  Span<const model::Node*> absorbed_nodes;
  Span<ValueId> ids;  ///< new input and output lists: 3 inputs and 1 output per producer at most

  Status allocate(std::size_t node_count, MetadataAllocator& allocator) noexcept {
    ONNXMICRO_RETURN_IF_ERROR(allocator.allocate_array(node_count, nodes));
    ONNXMICRO_RETURN_IF_ERROR(allocator.allocate_array(node_count, clamps));
    ONNXMICRO_RETURN_IF_ERROR(allocator.allocate_array(node_count, epilogues));
    ONNXMICRO_RETURN_IF_ERROR(allocator.allocate_array(node_count, absorbed));
    ONNXMICRO_RETURN_IF_ERROR(allocator.allocate_array(node_count, absorbed_nodes));
    return allocator.allocate_array(node_count * 4, ids);
  }
};

/// Node `out` (a copy of its producer) takes `chain`: the last absorbed node's output, the bias as input 2.
inline void take_chain(const model::Graph& graph, const Chain& chain, Lists& lists, std::size_t& used_ids,
                       std::size_t& used_absorbed, model::Node& out, Absorbed& absorbed) noexcept {
  absorbed = lists.absorbed_nodes.subspan(used_absorbed, chain.count);
  used_absorbed += chain.count;
  for (std::size_t k = 0; k < chain.count; ++k) absorbed[k] = &graph.nodes[static_cast<std::size_t>(chain.nodes[k])];
  out.outputs = lists.ids.subspan(used_ids++, 1);
  out.outputs[0] = chain.output;
  if (chain.bias == kNoValue) return;
  Span<ValueId> inputs = lists.ids.subspan(used_ids, 3);
  used_ids += 3;
  inputs[0] = out.inputs[0];
  inputs[1] = out.inputs[1];
  inputs[2] = chain.bias;
  out.inputs = inputs;
  out.explicit_input_count = -1;
}

/// Rewrites `graph` into `fused` (unchanged, and `result` empty but for the clamps, when nothing fuses): absorbed
/// nodes leave the node list; their producer writes the last one's output, reads the bias as input 2, and gets
/// their clamp and epilogue. `clamps` are QDQ fusion's (per node of `graph`, or empty). `matrix`: fold into Gemm and
/// MatMul too.
inline Status fuse(const model::Graph& graph, Span<kernels::FusedClamp> clamps, bool matrix,
                   MetadataAllocator& allocator, model::Graph& fused, Result& result) noexcept {
  fused = graph;
  result = Result();
  result.clamps = clamps;
  const std::size_t node_count = graph.nodes.size();
  const std::size_t start_mark = allocator.used_bytes();
  Lists lists;
  ONNXMICRO_RETURN_IF_ERROR(lists.allocate(node_count, allocator));
  const std::size_t kept_mark = allocator.used_bytes();  // the working tables after it are rewound at the end
  Span<Chain> chains;
  Span<unsigned char> removed;
  Uses uses;
  ONNXMICRO_RETURN_IF_ERROR(allocator.allocate_array(node_count, chains));
  ONNXMICRO_RETURN_IF_ERROR(allocator.allocate_array(node_count, removed));
  ONNXMICRO_RETURN_IF_ERROR(uses.build(graph, allocator));
  std::size_t fusions = 0;
  bool any_epilogue = false;
  for (std::size_t i = 0; i < node_count; ++i) {
    if (removed[i]) continue;
    const bool qdq_clamp = !clamps.empty() && clamps[i].present();
    find_chain(graph, uses, static_cast<std::int32_t>(i), qdq_clamp, matrix, chains[i]);
    for (std::size_t k = 0; k < chains[i].count; ++k) removed[static_cast<std::size_t>(chains[i].nodes[k])] = 1;
    fusions += chains[i].count > 0 ? 1 : 0;
    any_epilogue = any_epilogue || chains[i].epilogue.present();
  }
  if (fusions == 0) {
    allocator.rewind(start_mark);
    return {};
  }
  std::size_t n = 0, used_ids = 0, used_absorbed = 0;
  for (std::size_t i = 0; i < node_count; ++i) {
    if (removed[i]) continue;
    model::Node& out = lists.nodes[n];
    out = graph.nodes[i];
    out.index = static_cast<std::int32_t>(n);
    lists.clamps[n] = clamps.empty() ? kernels::FusedClamp() : clamps[i];
    if (chains[i].count > 0) {
      take_chain(graph, chains[i], lists, used_ids, used_absorbed, out, lists.absorbed[n]);
      lists.clamps[n] = chains[i].clamp;
      lists.epilogues[n] = chains[i].epilogue;
    }
    ++n;
  }
  allocator.rewind(kept_mark);
  fused.nodes = lists.nodes.subspan(0, n);
  result.clamps = lists.clamps.subspan(0, n);
  result.absorbed = lists.absorbed.subspan(0, n);
  if (any_epilogue) result.epilogues = lists.epilogues.subspan(0, n);
  return {};
}

}  // namespace activation_fusion
}  // namespace detail
ONNXMICRO_NAMESPACE_END
