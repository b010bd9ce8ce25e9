// SPDX-License-Identifier: MIT
// Model: parses and validates a model's bytes into a model::Graph at load time, so that every structural
// problem is reported before anything runs. Errors name the node (name, op, domain, opset) and the tensor.
#pragma once
#include <cstdint>
#include <string_view>

#include "onnxmicro/core/memory.hpp"
#include "onnxmicro/model/external_data.hpp"
#include "onnxmicro/model/function_inliner.hpp"
#include "onnxmicro/model/graph.hpp"
#include "onnxmicro/model/name_table.hpp"
#include "onnxmicro/proto/onnx_views.hpp"

ONNXMICRO_NAMESPACE_BEGIN

/// How a Model is loaded.
struct LoadOptions {
  /// Where graph tables go. nullptr: the Model owns a heap-backed allocator (hosted builds only).
  MetadataAllocator* metadata_allocator = nullptr;
  /// Directory external data locations are resolved against: the model file's directory
  /// (ModelBytes::directory()). Needed only by models with external data, when no reader is set. Each file is
  /// mapped read-only (POSIX mmap, no copy) during load() and unmapped when the Model is destroyed.
  std::string_view base_directory;
  /// Supplies external data instead of the file system (e.g. weights in flash); nullptr: read files under
  /// base_directory. Locations are validated the same way either way. Must outlive load(); the bytes it
  /// returns must outlive the Model.
  ExternalDataReader* external_data_reader = nullptr;
};

/// A value of an enclosing graph that a subgraph may read (Model::load_subgraph).
struct OuterValue {
  std::string_view name;
  DataType dtype = DataType::undefined;
};

/// A loaded, validated model. The bytes it was loaded from must outlive it. Immutable after load(), so one
/// Model may be shared by several sessions on several threads.
class Model {
 public:
  Model() noexcept = default;
  Model(const Model&) = delete;
  Model& operator=(const Model&) = delete;
  /// Unmaps the external data files this model mapped.
  ~Model() { release_external_files(); }

  /// Parses `bytes`, builds the graph and validates it: undefined tensor names, duplicate outputs, cycles,
  /// initializer size != shape x dtype, unknown dtypes, missing opset import for a node's domain.
  /// Initializers with external data (of the main graph and of every subgraph) are resolved here, never at
  /// run time: the location is checked (relative, inside the model directory, no `..`, backslash or NUL, no
  /// symbolic link, hard link or non-regular file), offset/length against the file's size and the tensor's
  /// byte size, the SHA-1 checksum when present; the initializer's raw_data then views the mapped bytes.
  Status load(ByteSpan bytes, const LoadOptions& options = LoadOptions()) noexcept;

  /// Loads `graph`, a GRAPH attribute of a node of `parent` (the body of If/Loop/Scan), as a model of its own that
  /// shares `parent`'s bytes and opset imports. Names the subgraph reads but does not define must be among `outer`
  /// (the node's implicit inputs); each one read becomes a further graph input after the subgraph's own.
  /// `parent` and its bytes must outlive this model. `depth` is the subgraph's nesting level (1 for a body of a
  /// main-graph node), bounded by ONNXMICRO_MAX_SUBGRAPH_DEPTH.
  Status load_subgraph(const Model& parent, ByteSpan graph, Span<const OuterValue> outer, int depth,
                       const LoadOptions& options) noexcept;

  bool loaded() const noexcept { return loaded_; }
  const proto::Model& proto() const noexcept { return proto_; }
  const model::Graph& graph() const noexcept { return graph_; }
  Span<const model::OpsetImport> opset_imports() const noexcept { return opset_imports_; }
  /// The imported version of `domain` ("" or "ai.onnx" for the default domain), or -1 when not imported.
  std::int64_t opset_version(std::string_view domain) const noexcept;
  std::string_view base_directory() const noexcept { return base_directory_; }
  /// Bytes of metadata the graph tables use.
  std::size_t metadata_bytes() const noexcept { return metadata_bytes_; }
  /// Number of external data files this model mapped (one per distinct file; 0 with a reader, or for a
  /// subgraph, which uses its parent's).
  std::size_t external_file_count() const noexcept { return external_file_count_; }

  /// Describes a node for messages: "node 'conv1' (Conv, domain ai.onnx, opset 11)".
  static Status& describe_node(Status& status, const model::Node& node) noexcept;

 private:
  /// The caller's metadata allocator, or (hosted builds) the model's own.
  Status resolve_allocator(const LoadOptions& options, MetadataAllocator*& allocator) noexcept;
  /// Resolves every external initializer of proto_ (main graph and subgraphs) into external_tensors_.
  Status resolve_external_data(const LoadOptions& options, MetadataAllocator& allocator) noexcept;
  void release_external_files() noexcept {
#if ONNXMICRO_ENABLE_EXTERNAL_DATA  // (else no file is ever mapped)
    detail::release_external_files(external_files_, external_file_count_);
#endif
    external_files_ = Span<detail::ExternalFileMapping>();
    external_file_count_ = 0;
    external_tensors_ = Span<const detail::ResolvedExternalTensor>();
  }

  bool loaded_ = false;
  proto::Model proto_;
  model::Graph graph_;
  Span<model::OpsetImport> opset_imports_;
  std::string_view base_directory_;
  std::size_t metadata_bytes_ = 0;
  // Mapped external data files (owned: unmapped by the destructor and by the next load) and the resolved
  // bytes of every external initializer (a subgraph views its root model's table). Both live in metadata.
  Span<detail::ExternalFileMapping> external_files_;
  std::size_t external_file_count_ = 0;
  Span<const detail::ResolvedExternalTensor> external_tensors_;
#if ONNXMICRO_HAS_HEAP
  ChunkAllocator owned_allocator_;
#endif
};

// ---- implementation ---------------------------------------------------------------------------------------

inline Status& Model::describe_node(Status& status, const model::Node& node) noexcept {
  status << "node '";
  if (node.name.empty())
    status << "#" << node.index;
  else
    status << node.name;
  return status << "' (" << node.op_type << ", domain " << model::display_domain(node.domain) << ", opset "
                << node.opset_version << ")";
}

inline std::int64_t Model::opset_version(std::string_view domain) const noexcept {
  domain = model::normalize_domain(domain);
  for (const model::OpsetImport& o : opset_imports_)
    if (o.domain == domain) return o.version;
  return -1;
}

namespace detail {

/// Fills `value`'s declared dtype/shape from a ValueInfo (its dims in `allocator`); errors name the tensor.
inline Status apply_value_info(const proto::ValueInfo& info, const char* where, model::Value& value,
                               MetadataAllocator& allocator) noexcept {
  if (!info.has_type) return {};
  const proto::Type& type = info.type;
  value.type_kind = type.kind;
  if (type.kind == proto::Type::Kind::sequence) value.dtype = DataType::sequence;
  if (type.kind == proto::Type::Kind::optional) value.dtype = DataType::optional;
  if (type.kind != proto::Type::Kind::tensor) return {};
  if (type.elem_type != 0) {
    if (!is_known_dtype(type.elem_type)) {
      return Status(StatusCode::invalid_model)
             << where << " '" << info.name << "' has unknown elem_type " << type.elem_type;
    }
    value.dtype = static_cast<DataType>(type.elem_type);
  }
  if (!type.has_shape) return {};
  const std::size_t declared = type.shape.dims().size();
  if (declared > static_cast<std::size_t>(kMaxRank)) {
    return Status(StatusCode::limit_exceeded) << where << " '" << info.name << "' has rank above "
                                              << "ONNXMICRO_MAX_RANK (" << kMaxRank << ")";
  }
  // A value may be declared twice (value_info and graph output): the first allocation is reused when it fits.
  if (value.declared_dims.size() < declared)
    ONNXMICRO_RETURN_IF_ERROR(allocator.allocate_array(declared, value.declared_dims));
  int rank = 0;
  for (const proto::Dimension& d : type.shape.dims()) {
    model::DeclaredDim& dim = value.declared_dims[static_cast<std::size_t>(rank++)];
    if (d.has_value) {
      if (d.value < 0) {
        return Status(StatusCode::invalid_model)
               << where << " '" << info.name << "' dim " << (rank - 1) << " is negative (" << d.value << ")";
      }
      dim.value = d.value;
      dim.param = std::string_view();
    } else {
      dim.value = Shape::kUnknownDim;
      dim.param = d.param;
    }
  }
  value.has_declared_shape = true;
  value.declared_rank = rank;
  return {};
}

/// Builds and validates one graph's tables.
class GraphBuilder {
 public:
  GraphBuilder(const proto::Graph& graph, Span<const model::OpsetImport> opsets, MetadataAllocator& allocator,
               Span<const OuterValue> outer = Span<const OuterValue>(), int depth = 0) noexcept
      : graph_(graph), opsets_(opsets), allocator_(allocator), outer_(outer), depth_(depth) {}

  /// The resolved bytes of the graph's external initializers (Model::load resolves them first).
  void set_external_tensors(Span<const ResolvedExternalTensor> table) noexcept { external_tensors_ = table; }

  Status build(model::Graph& out) noexcept {
    out.name = graph_.name;
    if (graph_.has_sparse_initializers) {
      return Status(StatusCode::unsupported)
             << "graph '" << graph_.name << "' has sparse_initializer entries, which are not supported yet";
    }
    // Pass 1: counts, so every table is allocated exactly once.
    std::size_t input_count = graph_.inputs().size();
    std::size_t initializer_count = graph_.initializers().size();
    std::size_t node_count = 0, slot_count = 0, output_names = 0;
    for (const proto::Node& n : graph_.nodes()) {
      ++node_count;
      std::size_t ins = n.inputs().size(), outs = n.outputs().size();
      slot_count += ins + outs;
      output_names += outs;
    }
    if (node_count > 0x7fffffff || slot_count > 0x7fffffff) {
      return Status(StatusCode::limit_exceeded) << "graph has too many nodes";
    }
#if ONNXMICRO_ENABLE_SUBGRAPHS
    // Implicit inputs: the names each node's subgraphs read from this graph or beyond.
    Span<Span<std::string_view>> implicit;
    ONNXMICRO_RETURN_IF_ERROR(allocator_.allocate_array(node_count, implicit));
    {
      std::size_t n = 0;
      for (const proto::Node& pn : graph_.nodes()) {
        ONNXMICRO_RETURN_IF_ERROR(free_names_of_node(pn, implicit[n]));
        slot_count += implicit[n].size();
        ++n;
      }
    }
#else
    for (const proto::Node& pn : graph_.nodes()) ONNXMICRO_RETURN_IF_ERROR(refuse_subgraphs(pn));
#endif
    std::size_t value_capacity = input_count + initializer_count + output_names + outer_.size();
    ONNXMICRO_RETURN_IF_ERROR(allocator_.allocate_array(value_capacity, values_));
    ONNXMICRO_RETURN_IF_ERROR(names_.init(value_capacity, allocator_));
    Span<model::Node> nodes;
    ONNXMICRO_RETURN_IF_ERROR(allocator_.allocate_array(node_count, nodes));
    Span<model::ValueId> slots;
    ONNXMICRO_RETURN_IF_ERROR(allocator_.allocate_array(slot_count, slots));

    // Initializers first: an input that is also an initializer is a constant with a default (IR >= 4).
    Span<model::ValueId> initializer_ids;
    ONNXMICRO_RETURN_IF_ERROR(allocator_.allocate_array(initializer_count, initializer_ids));
    std::size_t k = 0;
    for (const proto::Tensor& t : graph_.initializers()) {
      model::ValueId id;
      ONNXMICRO_RETURN_IF_ERROR(add_initializer(t, id));
      initializer_ids[k++] = id;
    }
    // Graph inputs.
    std::size_t real_inputs = 0;
    for (const proto::ValueInfo& info : graph_.inputs()) {
      if (info.name.empty()) return Status(StatusCode::invalid_model) << "a graph input has an empty name";
      std::int32_t existing = names_.find(info.name);
      if (existing >= 0) {
        if (values_[existing].kind != model::ValueKind::initializer) {
          return Status(StatusCode::invalid_model) << "graph input '" << info.name << "' is declared twice";
        }
        ONNXMICRO_RETURN_IF_ERROR(check_initializer_matches_input(info, values_[existing]));
        continue;
      }
      model::Value& v = new_value(info.name, model::ValueKind::graph_input);
      ONNXMICRO_RETURN_IF_ERROR(apply_value_info(info, "graph input", v, allocator_));
      // A subgraph's inputs may be untyped (function-expanded bodies): the op binds their dtype at prepare.
      if (depth_ == 0 && v.type_kind == proto::Type::Kind::tensor && v.dtype == DataType::undefined) {
        return Status(StatusCode::invalid_model) << "graph input '" << info.name << "' has no element type";
      }
      ++real_inputs;
    }
    ONNXMICRO_RETURN_IF_ERROR(allocator_.allocate_array(real_inputs + outer_.size(), out.inputs));
    k = 0;
    for (const proto::ValueInfo& info : graph_.inputs()) {
      std::int32_t id = names_.find(info.name);
      if (values_[id].kind == model::ValueKind::graph_input) out.inputs[k++] = id;
    }
    inputs_ = out.inputs;
    input_count_ = k;

    // Nodes: create every output value first (so node order need not be topological), then resolve inputs.
    std::size_t slot = 0, index = 0;
    for (const proto::Node& pn : graph_.nodes()) {
      model::Node& node = nodes[index];
      node.index = static_cast<std::int32_t>(index);
      node.name = pn.name;
      node.op_type = pn.op_type;
      node.domain = model::normalize_domain(pn.domain);
      node.proto = pn;
      node.opset_version = -1;
      for (const model::OpsetImport& o : opsets_)
        if (o.domain == node.domain) node.opset_version = o.version;
      if (node.opset_version < 0) {
        Status s(StatusCode::invalid_model);
        s << "node '";
        if (node.name.empty())
          s << "#" << node.index;
        else
          s << node.name;
        return s << "' (" << node.op_type << ", domain " << model::display_domain(node.domain)
                 << "): the model has no opset_import for domain '" << model::display_domain(node.domain) << "'";
      }
      if (node.op_type.empty()) {
        Status s(StatusCode::invalid_model);
        return Model::describe_node(s, node) << ": op_type is empty";
      }
#if ONNXMICRO_ENABLE_SUBGRAPHS
      std::size_t ins = pn.inputs().size() + implicit[index].size(), outs = pn.outputs().size();
#else
      std::size_t ins = pn.inputs().size(), outs = pn.outputs().size();
#endif
      node.inputs = slots.subspan(slot, ins);
      node.explicit_input_count = static_cast<std::int32_t>(pn.inputs().size());
      slot += ins;
      node.outputs = slots.subspan(slot, outs);
      slot += outs;
      std::size_t o = 0;
      for (std::string_view name : pn.outputs()) {
        if (name.empty()) {
          node.outputs[o++] = model::kNoValue;
          continue;
        }
        std::int32_t existing = names_.find(name);
        if (existing >= 0) {
          Status s(StatusCode::invalid_model);
          Model::describe_node(s, node) << ": output '" << name << "' is already ";
          const model::Value& v = values_[existing];
          if (v.kind == model::ValueKind::graph_input) return s << "a graph input";
          if (v.kind == model::ValueKind::initializer) return s << "an initializer";
          s << "produced by ";
          return Model::describe_node(s, nodes[v.producer]) << " (duplicate output name)";
        }
        model::Value& v = new_value(name, model::ValueKind::intermediate);
        v.producer = node.index;
        node.outputs[o++] = static_cast<model::ValueId>(value_count_ - 1);
      }
      ++index;
    }
    for (model::Node& node : nodes) {
      std::size_t i = 0;
      for (std::string_view name : node.proto.inputs()) {
        if (name.empty()) {
          node.inputs[i++] = model::kNoValue;
          continue;
        }
        std::int32_t id = resolve(name);
        if (id < 0) {
          Status s(StatusCode::invalid_model);
          return Model::describe_node(s, node)
                 << ": input " << i << " '" << name << "' is not a graph input, an initializer or any node's output";
        }
        node.inputs[i++] = id;
      }
#if ONNXMICRO_ENABLE_SUBGRAPHS
      for (std::string_view name : implicit[static_cast<std::size_t>(node.index)]) {
        std::int32_t id = resolve(name);
        if (id < 0) {
          Status s(StatusCode::invalid_model);
          return Model::describe_node(s, node)
                 << ": a subgraph reads '" << name << "', which neither the subgraph nor any enclosing graph defines";
        }
        node.inputs[i++] = id;
      }
#endif
    }
    out.inputs = out.inputs.subspan(0, input_count_);
    // Declared types of intermediates.
    for (const proto::ValueInfo& info : graph_.value_infos()) {
      std::int32_t id = names_.find(info.name);
      if (id < 0) continue;  // value_info for a name nobody uses is harmless
      if (values_[id].kind != model::ValueKind::intermediate) continue;
      ONNXMICRO_RETURN_IF_ERROR(apply_value_info(info, "value_info", values_[id], allocator_));
    }
    // Graph outputs.
    std::size_t output_count = graph_.outputs().size();
    ONNXMICRO_RETURN_IF_ERROR(allocator_.allocate_array(output_count, out.outputs));
    k = 0;
    for (const proto::ValueInfo& info : graph_.outputs()) {
      std::int32_t id = names_.find(info.name);
      if (id < 0) {
        return Status(StatusCode::invalid_model)
               << "graph output '" << info.name << "' is not produced by any node, input or initializer";
      }
      model::Value& v = values_[id];
      v.is_graph_output = true;
      ONNXMICRO_RETURN_IF_ERROR(apply_value_info(info, "graph output", v, allocator_));
      out.outputs[k++] = id;
    }
    ONNXMICRO_RETURN_IF_ERROR(sort_topologically(nodes));
    out.values = values_.subspan(0, value_count_);
    out.nodes = nodes;
    out.initializers = initializer_ids;
    out.depth = depth_;
    return {};
  }

 private:
  /// The value called `name`: one of this graph's, or an enclosing graph's value (then a new graph input).
  std::int32_t resolve(std::string_view name) noexcept {
    std::int32_t id = names_.find(name);
    if (id >= 0) return id;
    for (const OuterValue& o : outer_) {
      if (o.name != name) continue;
      model::Value& v = new_value(name, model::ValueKind::graph_input);
      v.dtype = o.dtype;
      id = static_cast<std::int32_t>(value_count_ - 1);
      inputs_[input_count_++] = id;
      return id;
    }
    return -1;
  }

  /// Names defined inside one (sub)graph, chained to the graphs enclosing it within the node being examined.
  struct Scope {
    NameTable names;
    const Scope* parent = nullptr;
    bool defines(std::string_view name) const noexcept {
      for (const Scope* s = this; s != nullptr; s = s->parent)
        if (s->names.find(name) >= 0) return true;
      return false;
    }
  };
  struct NameSink {
    Span<std::string_view> names;
    std::size_t count = 0;
    NameTable seen;
    void add(std::string_view name) noexcept {
      if (count < names.size() && seen.insert(name, static_cast<std::int32_t>(count))) names[count++] = name;
    }
  };

  /// Input names of every node of `graph` and its subgraphs (an upper bound of the free names).
  static Status count_input_names(const proto::Graph& graph, int depth, std::size_t& count) noexcept {
    if (depth > ONNXMICRO_MAX_SUBGRAPH_DEPTH) {
      return Status(StatusCode::limit_exceeded) << "subgraphs are nested more than ONNXMICRO_MAX_SUBGRAPH_DEPTH ("
                                                << ONNXMICRO_MAX_SUBGRAPH_DEPTH << ") levels deep";
    }
    for (const proto::Node& n : graph.nodes()) {
      count += n.inputs().size();
      for (const proto::Attribute& a : n.attributes()) {
        if (a.type == proto::AttributeType::graph) {
          ONNXMICRO_RETURN_IF_ERROR(count_input_names(proto::Graph::unchecked(a.g), depth + 1, count));
        } else if (a.type == proto::AttributeType::graphs) {
          for (ByteSpan g : a.graphs())
            ONNXMICRO_RETURN_IF_ERROR(count_input_names(proto::Graph::unchecked(g), depth + 1, count));
        }
      }
    }
    return {};
  }

  /// Adds to `sink` the names `graph` (and its subgraphs) read that no graph from it up to the node defines.
  Status collect_free_names(const proto::Graph& graph, const Scope* enclosing, NameSink& sink) noexcept {
    std::size_t defined = graph.inputs().size() + graph.initializers().size();
    for (const proto::Node& n : graph.nodes()) defined += n.outputs().size();
    Scope scope;
    scope.parent = enclosing;
    ONNXMICRO_RETURN_IF_ERROR(scope.names.init(defined, allocator_));
    for (const proto::ValueInfo& v : graph.inputs()) scope.names.insert(v.name, 0);
    for (const proto::Tensor& t : graph.initializers()) scope.names.insert(t.name, 0);
    for (const proto::Node& n : graph.nodes())
      for (std::string_view name : n.outputs())
        if (!name.empty()) scope.names.insert(name, 0);
    for (const proto::Node& n : graph.nodes()) {
      for (std::string_view name : n.inputs())
        if (!name.empty() && !scope.defines(name)) sink.add(name);
      for (const proto::Attribute& a : n.attributes()) {
        if (a.type == proto::AttributeType::graph) {
          ONNXMICRO_RETURN_IF_ERROR(collect_free_names(proto::Graph::unchecked(a.g), &scope, sink));
        } else if (a.type == proto::AttributeType::graphs) {
          for (ByteSpan g : a.graphs())
            ONNXMICRO_RETURN_IF_ERROR(collect_free_names(proto::Graph::unchecked(g), &scope, sink));
        }
      }
    }
    return {};
  }

#if !ONNXMICRO_ENABLE_SUBGRAPHS
  /// Refuses a node with a GRAPH attribute, naming it.
  static Status refuse_subgraphs(const proto::Node& pn) noexcept {
    for (const proto::Attribute& a : pn.attributes()) {
      if (a.type != proto::AttributeType::graph && a.type != proto::AttributeType::graphs) continue;
      return Status(StatusCode::unsupported)
             << "node '" << pn.name << "' (" << pn.op_type << ", domain " << model::display_domain(pn.domain)
             << ") has subgraph attribute '" << a.name
             << "', which this build compiles out (ONNXMICRO_ENABLE_SUBGRAPHS=0)";
    }
    return {};
  }
#else
  /// The implicit inputs of node `pn`: names its GRAPH attributes read from outside themselves.
  Status free_names_of_node(const proto::Node& pn, Span<std::string_view>& out) noexcept {
    out = Span<std::string_view>();
    std::size_t bound = 0;
    bool has_subgraph = false;
    for (const proto::Attribute& a : pn.attributes()) {
      if (a.type == proto::AttributeType::graph) {
        has_subgraph = true;
        ONNXMICRO_RETURN_IF_ERROR(count_input_names(proto::Graph::unchecked(a.g), depth_ + 1, bound));
      } else if (a.type == proto::AttributeType::graphs) {
        has_subgraph = true;
        for (ByteSpan g : a.graphs())
          ONNXMICRO_RETURN_IF_ERROR(count_input_names(proto::Graph::unchecked(g), depth_ + 1, bound));
      }
    }
    if (!has_subgraph || bound == 0) return {};
    NameSink sink;
    ONNXMICRO_RETURN_IF_ERROR(allocator_.allocate_array(bound, sink.names));
    ONNXMICRO_RETURN_IF_ERROR(sink.seen.init(bound, allocator_));
    for (const proto::Attribute& a : pn.attributes()) {
      if (a.type == proto::AttributeType::graph) {
        ONNXMICRO_RETURN_IF_ERROR(collect_free_names(proto::Graph::unchecked(a.g), nullptr, sink));
      } else if (a.type == proto::AttributeType::graphs) {
        for (ByteSpan g : a.graphs())
          ONNXMICRO_RETURN_IF_ERROR(collect_free_names(proto::Graph::unchecked(g), nullptr, sink));
      }
    }
    out = sink.names.subspan(0, sink.count);
    return {};
  }
#endif

  model::Value& new_value(std::string_view name, model::ValueKind kind) noexcept {
    model::Value& v = values_[value_count_];
    v.name = name;
    v.kind = kind;
    names_.insert(name, static_cast<std::int32_t>(value_count_));
    ++value_count_;
    return v;
  }

  Status add_initializer(const proto::Tensor& t, model::ValueId& id) noexcept {
    if (t.name.empty()) return Status(StatusCode::invalid_model) << "an initializer has an empty name";
    if (names_.find(t.name) >= 0) {
      return Status(StatusCode::invalid_model) << "initializer '" << t.name << "' is defined twice";
    }
    if (!is_known_dtype(t.data_type)) {
      return Status(StatusCode::invalid_model)
             << "initializer '" << t.name << "' has " << (t.data_type == 0 ? "UNDEFINED" : "unknown") << " data_type "
             << t.data_type;
    }
    std::int64_t count = 0;
    Status st = t.element_count(count);
    if (!st.ok()) return Status(st.code()) << "initializer '" << t.name << "': " << st.message_view();
    DataType dtype = static_cast<DataType>(t.data_type);
    if (t.data_location != proto::DataLocation::external) {
      Shape shape;
      (void)shape.assign(t.dims, static_cast<std::size_t>(t.rank));
      if (dtype == DataType::string && t.has_raw_data) {
        return Status(StatusCode::invalid_model)
               << "initializer '" << t.name << "' is a string tensor with raw_data; strings are stored in string_data";
      }
      if (t.has_raw_data) {
        std::size_t expected_bytes = byte_size_of(dtype, count);
        if (t.raw_data.size() != expected_bytes) {
          return Status(StatusCode::invalid_model)
                 << "initializer '" << t.name << "' of shape " << shape << " and dtype " << dtype_name(dtype)
                 << " needs " << expected_bytes << " bytes of raw_data, it has " << t.raw_data.size();
        }
      } else if (t.stored_element_count() != static_cast<std::size_t>(count)) {
        return Status(StatusCode::invalid_model)
               << "initializer '" << t.name << "' of shape " << shape << " and dtype " << dtype_name(dtype) << " needs "
               << count << " elements, its data field holds " << t.stored_element_count();
      }
    }
    proto::Tensor* view = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(allocator_.allocate_object(view));
    *view = t;
    model::Value& v = new_value(t.name, model::ValueKind::initializer);
    v.dtype = dtype;
    v.initializer_view = view;
    if (t.data_location == proto::DataLocation::external) {
      // Resolved and size-checked by Model::load; raw_data now views the file's (or the reader's) bytes.
      const ResolvedExternalTensor* resolved =
          find_resolved_external(external_tensors_, t.bytes.data(), external_hint_);
      if (resolved == nullptr) {
        return Status(StatusCode::internal)
               << "initializer '" << t.name << "' has external data that Model::load did not resolve";
      }
      view->has_raw_data = true;
      view->raw_data = resolved->data;
    }
    v.has_declared_shape = true;
    v.declared_rank = t.rank;
    ONNXMICRO_RETURN_IF_ERROR(allocator_.allocate_array(static_cast<std::size_t>(t.rank), v.declared_dims));
    for (int i = 0; i < t.rank; ++i) v.declared_dims[static_cast<std::size_t>(i)].value = t.dims[i];
    id = static_cast<model::ValueId>(value_count_ - 1);
    return {};
  }

  static Status check_initializer_matches_input(const proto::ValueInfo& info, const model::Value& init) noexcept {
    if (!info.has_type || info.type.kind != proto::Type::Kind::tensor || info.type.elem_type == 0) return {};
    if (info.type.elem_type != static_cast<std::int32_t>(init.dtype)) {
      return Status(StatusCode::invalid_model)
             << "graph input '" << info.name << "' is declared "
             << (is_known_dtype(info.type.elem_type) ? dtype_name(static_cast<DataType>(info.type.elem_type))
                                                     : "unknown")
             << " but its initializer is " << dtype_name(init.dtype);
    }
    return {};
  }

  // Keeps the model's order when it is already topological (the usual case); otherwise Kahn's algorithm.
  Status sort_topologically(Span<model::Node> nodes) noexcept {
    bool ordered = true;
    for (const model::Node& n : nodes) {
      for (model::ValueId id : n.inputs)
        if (id >= 0 && values_[id].producer >= n.index) ordered = false;
    }
    if (ordered) return {};
    std::size_t count = nodes.size();
    Span<std::int32_t> pending, order;
    Span<model::Node> sorted;
    ONNXMICRO_RETURN_IF_ERROR(allocator_.allocate_array(count, pending));
    ONNXMICRO_RETURN_IF_ERROR(allocator_.allocate_array(count, order));
    ONNXMICRO_RETURN_IF_ERROR(allocator_.allocate_array(count, sorted));
    for (std::size_t i = 0; i < count; ++i) {
      for (model::ValueId id : nodes[i].inputs)
        if (id >= 0 && values_[id].producer >= 0) ++pending[i];
    }
    std::size_t head = 0, tail = 0;
    for (std::size_t i = 0; i < count; ++i)
      if (pending[i] == 0) order[tail++] = static_cast<std::int32_t>(i);
    while (head < tail) {
      const model::Node& n = nodes[order[head++]];
      for (model::ValueId out : n.outputs) {
        if (out < 0) continue;
        for (std::size_t j = 0; j < count; ++j)
          for (model::ValueId in : nodes[j].inputs)
            if (in == out && --pending[j] == 0) order[tail++] = static_cast<std::int32_t>(j);
      }
    }
    if (tail != count) {
      for (std::size_t i = 0; i < count; ++i) {
        if (pending[i] > 0) {
          Status s(StatusCode::invalid_model);
          return Model::describe_node(s, nodes[i]) << " is part of a cycle (or depends on one): the graph has "
                                                   << (count - tail) << " nodes that can never run";
        }
      }
    }
    for (std::size_t i = 0; i < count; ++i) {
      sorted[i] = nodes[order[i]];
      sorted[i].index = static_cast<std::int32_t>(i);
    }
    for (std::size_t i = 0; i < count; ++i) {
      nodes[i] = sorted[i];
      for (model::ValueId out : nodes[i].outputs)
        if (out >= 0) values_[out].producer = static_cast<std::int32_t>(i);
    }
    return {};
  }

  const proto::Graph& graph_;
  Span<const model::OpsetImport> opsets_;
  MetadataAllocator& allocator_;
  Span<const OuterValue> outer_;
  int depth_ = 0;
  Span<model::ValueId> inputs_;
  std::size_t input_count_ = 0;
  Span<const ResolvedExternalTensor> external_tensors_;
  std::size_t external_hint_ = 0;
  Span<model::Value> values_;
  std::size_t value_count_ = 0;
  NameTable names_;
};

}  // namespace detail

inline Status Model::resolve_allocator(const LoadOptions& options, MetadataAllocator*& allocator) noexcept {
  allocator = options.metadata_allocator;
#if ONNXMICRO_HAS_HEAP
  if (allocator == nullptr) {
    owned_allocator_.reset();
    allocator = &owned_allocator_;
  }
#endif
  if (allocator == nullptr) {
    return Status(StatusCode::invalid_argument)
           << "LoadOptions::metadata_allocator is required when ONNXMICRO_HAS_HEAP is 0";
  }
  return {};
}

inline Status Model::resolve_external_data(const LoadOptions& options, MetadataAllocator& allocator) noexcept {
#if !ONNXMICRO_ENABLE_EXTERNAL_DATA
  // The resolver (paths, file mapping, reader calls) is compiled out; say which tensor needed it. One walk, which
  // stops at the first external tensor.
  (void)options;
  (void)allocator;
  auto refuse = [](const proto::Tensor& t) noexcept -> Status {
    return Status(StatusCode::unsupported)
           << "initializer '" << t.name << "' keeps its data outside the model (data_location EXTERNAL), which "
           << "this build cannot read (ONNXMICRO_ENABLE_EXTERNAL_DATA=0); embed the data in the model or build "
              "with external data enabled";
  };
  return detail::for_each_external_initializer(proto_.graph, 0, refuse);
#else
  std::size_t count = 0;
  auto count_one = [&count](const proto::Tensor&) noexcept -> Status {
    ++count;
    return {};
  };
  ONNXMICRO_RETURN_IF_ERROR(detail::for_each_external_initializer(proto_.graph, 0, count_one));
  if (count == 0) return {};
  Span<detail::ResolvedExternalTensor> table;
  ONNXMICRO_RETURN_IF_ERROR(allocator.allocate_array(count, table));
  // At most one file per tensor; with a reader no file is mapped.
  if (options.external_data_reader == nullptr) {
    ONNXMICRO_RETURN_IF_ERROR(allocator.allocate_array(count, external_files_));
  }
  detail::ExternalDataResolver resolver(options.base_directory, options.external_data_reader, external_files_,
                                        external_file_count_);
  std::size_t resolved = 0;
  auto resolve_one = [&](const proto::Tensor& t) noexcept -> Status {
    table[resolved].tensor_proto = t.bytes.data();
    ONNXMICRO_RETURN_IF_ERROR(resolver.resolve(t, table[resolved].data));
    ++resolved;
    return {};
  };
  ONNXMICRO_RETURN_IF_ERROR(detail::for_each_external_initializer(proto_.graph, 0, resolve_one));
  external_tensors_ = table;
  return {};
#endif
}

inline Status Model::load(ByteSpan bytes, const LoadOptions& options) noexcept {
  loaded_ = false;
  release_external_files();  // before resolve_allocator() may reset the metadata holding the table
  MetadataAllocator* allocator = nullptr;
  ONNXMICRO_RETURN_IF_ERROR(resolve_allocator(options, allocator));
  std::size_t used_before = allocator->used_bytes();
  base_directory_ = options.base_directory;
  ONNXMICRO_RETURN_IF_ERROR(proto::Model::parse(bytes, proto_));
  if (!proto_.has_graph) return Status(StatusCode::invalid_model) << "the model has no graph";
#if ONNXMICRO_ENABLE_MODEL_FUNCTIONS
  // Calls to model-local functions are expanded into their bodies: the model is rebuilt in metadata.
  ByteSpan expanded;
  ONNXMICRO_RETURN_IF_ERROR(detail::FunctionInliner(proto_, *allocator).run(expanded));
  if (!expanded.empty()) ONNXMICRO_RETURN_IF_ERROR(proto::Model::parse(expanded, proto_));
#else
  for (const proto::Function& f : proto_.functions()) {
    return Status(StatusCode::unsupported)
           << "the model defines local function '" << f.name << "' (domain '" << model::display_domain(f.domain)
           << "'), which this build cannot expand (ONNXMICRO_ENABLE_MODEL_FUNCTIONS=0); export the model with "
              "functions inlined or build with model functions enabled";
  }
#endif

  std::size_t opset_count = proto_.opset_imports().size();
  if (opset_count == 0) {
    return Status(StatusCode::invalid_model)
           << "the model has no opset_import (IR version " << proto_.ir_version << ")";
  }
  ONNXMICRO_RETURN_IF_ERROR(allocator->allocate_array(opset_count, opset_imports_));
  std::size_t k = 0;
  for (const proto::OperatorSetId& o : proto_.opset_imports()) {
    std::string_view domain = model::normalize_domain(o.domain);
    for (std::size_t j = 0; j < k; ++j) {
      if (opset_imports_[j].domain == domain) {
        return Status(StatusCode::invalid_model)
               << "opset_import lists domain '" << model::display_domain(domain) << "' twice";
      }
    }
    if (o.version < 1) {
      return Status(StatusCode::invalid_model)
             << "opset_import of domain '" << model::display_domain(domain) << "' has version " << o.version;
    }
    opset_imports_[k].domain = domain;
    opset_imports_[k].version = o.version;
    ++k;
  }
  Status external_status = resolve_external_data(options, *allocator);
  if (!external_status.ok()) {
    release_external_files();
    return external_status;
  }
  detail::GraphBuilder builder(proto_.graph, opset_imports_, *allocator);
  builder.set_external_tensors(external_tensors_);
  Status build_status = builder.build(graph_);
  if (!build_status.ok()) {
    release_external_files();
    return build_status;
  }
  metadata_bytes_ = allocator->used_bytes() - used_before;
  loaded_ = true;
  return {};
}

inline Status Model::load_subgraph(const Model& parent, ByteSpan graph, Span<const OuterValue> outer, int depth,
                                   const LoadOptions& options) noexcept {
  loaded_ = false;
  release_external_files();
  MetadataAllocator* allocator = nullptr;
  ONNXMICRO_RETURN_IF_ERROR(resolve_allocator(options, allocator));
  if (!parent.loaded()) return Status(StatusCode::invalid_argument) << "load_subgraph() needs a loaded parent";
  if (depth > ONNXMICRO_MAX_SUBGRAPH_DEPTH) {
    return Status(StatusCode::limit_exceeded) << "subgraphs are nested more than ONNXMICRO_MAX_SUBGRAPH_DEPTH ("
                                              << ONNXMICRO_MAX_SUBGRAPH_DEPTH << ") levels deep";
  }
  std::size_t used_before = allocator->used_bytes();
  proto_ = parent.proto_;
  opset_imports_ = parent.opset_imports_;
  base_directory_ = parent.base_directory_;
  proto_.graph = proto::Graph::unchecked(graph);  // validated with the parent's bytes
  // The root model resolved (and owns) the external data of every subgraph at its load.
  external_tensors_ = parent.external_tensors_;
  detail::GraphBuilder builder(proto_.graph, opset_imports_, *allocator, outer, depth);
  builder.set_external_tensors(external_tensors_);
  ONNXMICRO_RETURN_IF_ERROR(builder.build(graph_));
  metadata_bytes_ = allocator->used_bytes() - used_before;
  loaded_ = true;
  return {};
}

ONNXMICRO_NAMESPACE_END
