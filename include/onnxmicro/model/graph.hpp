// SPDX-License-Identifier: MIT
// The model graph as the runtime sees it: flat tables of values (tensors) and nodes, built once from the
// protobuf views by model/loader.hpp and validated there. Strings point into the model bytes; tables live in
// a MetadataAllocator.
#pragma once
#include <cstdint>
#include <string_view>

#include "onnxmicro/core/memory.hpp"
#include "onnxmicro/core/tensor.hpp"
#include "onnxmicro/proto/onnx_views.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace model {

/// "" and "ai.onnx" name the same (default) domain; this returns "" for both.
constexpr std::string_view normalize_domain(std::string_view domain) noexcept {
  return domain == "ai.onnx" ? std::string_view() : domain;
}
/// The domain as users read it in messages ("ai.onnx" for the default domain).
constexpr std::string_view display_domain(std::string_view domain) noexcept {
  return domain.empty() ? std::string_view("ai.onnx") : domain;
}

/// Index of a value in Graph::values; kNoValue for an absent optional input/output.
using ValueId = std::int32_t;
constexpr ValueId kNoValue = -1;

/// What a value is in the graph.
enum class ValueKind : std::uint8_t {
  graph_input,   ///< fed by the caller
  initializer,   ///< constant weight stored in the model (or external data)
  intermediate,  ///< produced by a node
  outer_scope,   ///< a subgraph's reference to a value of an enclosing graph
};

/// A symbolic dimension: dim_param name (empty for an unnamed unknown dim) per dim of a declared shape.
struct DeclaredDim {
  std::int64_t value = Shape::kUnknownDim;  ///< >= 0 when fixed
  std::string_view param;                   ///< symbolic name when not fixed (may be empty)
};

/// One tensor-valued name of the graph.
struct Value {
  std::string_view name;
  ValueKind kind = ValueKind::intermediate;
  bool is_graph_output = false;
  /// Declared type from graph inputs/outputs/value_info/initializer (dtype undefined when not declared).
  DataType dtype = DataType::undefined;
  bool has_declared_shape = false;
  int declared_rank = 0;
  /// declared_rank entries, in metadata (a fixed array of ONNXMICRO_MAX_RANK would cost every value, most of which
  /// declare no shape, 128 bytes on a 32-bit target).
  Span<DeclaredDim> declared_dims;
  /// Declared type kind of graph inputs/outputs (tensor, sequence, optional, map).
  proto::Type::Kind type_kind = proto::Type::Kind::tensor;
  /// Producing node index, -1 for graph inputs, initializers and outer-scope values.
  std::int32_t producer = -1;
  /// Initializers: the TensorProto view (data decoded by the session at prepare time); an empty view for other
  /// values.
  const proto::Tensor& initializer() const noexcept { return initializer_view != nullptr ? *initializer_view : kNone; }
  /// Set by the loader, in metadata: only initializers pay for a TensorProto view (112 bytes on a 32-bit target).
  const proto::Tensor* initializer_view = nullptr;

 private:
  static constexpr proto::Tensor kNone{};
};

/// One node, with its opset version already resolved from the model's opset imports.
struct Node {
  std::string_view name;  ///< may be empty in the model; messages then use "#index"
  std::string_view op_type;
  std::string_view domain;         ///< normalised: "" for ai.onnx
  std::int64_t opset_version = 0;  ///< the model's imported version for `domain`
  std::int32_t index = 0;          ///< position in Graph::nodes (execution order after validation)
  /// The node's inputs (kNoValue for an empty, omitted optional input name), followed, for nodes with subgraphs
  /// (If, Loop, Scan), by the implicit inputs: the enclosing-scope values those subgraphs read.
  Span<ValueId> inputs;
  Span<ValueId> outputs;  ///< kNoValue for an empty (omitted optional) output name
  /// Inputs written in the node; inputs beyond it are implicit (outer-scope values its subgraphs read).
  /// -1 (a node not built by the loader): every input is explicit.
  std::int32_t explicit_input_count = -1;
  proto::Node proto;  ///< attributes are read from here
};

/// An opset import: domain (normalised) and version.
struct OpsetImport {
  std::string_view domain;
  std::int64_t version = 0;
};

/// A validated graph. Nodes are in a valid execution (topological) order.
struct Graph {
  std::string_view name;
  Span<Value> values;
  Span<Node> nodes;
  /// Graph inputs that are not initializers, in declaration order; for a subgraph loaded with
  /// Model::load_subgraph, followed by the enclosing-scope values it reads.
  Span<ValueId> inputs;
  Span<ValueId> outputs;          ///< graph outputs in declaration order
  Span<ValueId> initializers;     ///< every initializer
  const Graph* parent = nullptr;  ///< enclosing graph of a subgraph
  int depth = 0;                  ///< 0 for the main graph
};

}  // namespace model
ONNXMICRO_NAMESPACE_END
