// SPDX-License-Identifier: MIT
// `onnxmicro graph MODEL [--format dot|svg] [-o FILE]`: the model's graph as Graphviz DOT, written here, or as SVG
// through Graphviz's `dot` program. Edges carry the tensor's name, dtype and shape (as prepare inferred them, else as
// declared); nodes that run as one (a Conv with the Relu it absorbed, a QDQ group run as one integer kernel) are
// boxed together; folded nodes are dashed; subgraphs (If, Loop, Scan bodies) are clusters; with --device opencl
// nodes are coloured by where they run.
#include <cerrno>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <initializer_list>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#if defined(__unix__) || defined(__APPLE__)
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>
extern char** environ;
#define ONNXMICRO_CLI_CAN_SPAWN 1
#else
#define ONNXMICRO_CLI_CAN_SPAWN 0
#endif

#include "cli_support.hpp"
#include "commands.hpp"
#include "inputs.hpp"
#include "markup.hpp"

namespace onnxmicro_cli {
namespace {

namespace model = onnxmicro::model;
namespace proto = onnxmicro::proto;

#define ONNXMICRO_CLI_GRAPH_USAGE                                                                           \
  "usage: onnxmicro graph MODEL [--format dot|svg] [-o FILE] [--initializers] [--inputs FILE...] [--input " \
  "NAME=FILE]... [--optimize-for-size] [--threads N] " ONNXMICRO_CLI_DEVICE_USAGE
constexpr const char kUsage[] = ONNXMICRO_CLI_GRAPH_USAGE;
constexpr const char kHelp[] = ONNXMICRO_CLI_GRAPH_USAGE
    "\n"
    "\n"
    "Draws MODEL's graph as Graphviz DOT: one box per node (op and name), an edge per tensor read, labelled\n"
    "with its name, dtype and shape as a session prepared with these options inferred them (input files bind\n"
    "symbolic dims, as for 'plan'); when prepare fails, the declared types, saying so on stderr. Nodes that\n"
    "run as one are boxed together (a Conv with the Relu/Clip it absorbed; a QDQ group that runs as\n"
    "one integer kernel), nodes folded at prepare are dashed, subgraphs (If branches, Loop and Scan bodies)\n"
    "are clusters whose reads of enclosing values are dashed edges. With --device opencl nodes are coloured\n"
    "by where they run, with a legend (and a failed prepare is an error).\n"
    "\n"
    "Options:\n"
    "  --format dot|svg     dot (default): the DOT text; svg: the picture, made by Graphviz's 'dot' program,\n"
    "                       which must be on PATH (Debian/Ubuntu: apt-get install graphviz)\n"
    "  -o, --output FILE    write to FILE instead of standard output\n"
    "  --initializers       draw initializers (weights) as small nodes; by default only their count is shown\n"
    "  --inputs FILE...     one file per graph input, in graph order\n"
    "  --input NAME=FILE    the file for the input called NAME\n" ONNXMICRO_CLI_OPTIMIZE_FOR_SIZE_HELP
        ONNXMICRO_CLI_THREADS_HELP ONNXMICRO_CLI_DEVICE_HELP "  -h, --help           show this help\n";

struct GraphOptions {
  std::string format = "dot";
  std::string output_path;
  bool initializers = false;
};

OptionResult parse_graph_option(const Args& args, std::size_t& i, GraphOptions& options, InputArgs& inputs,
                                std::string& error) {
  std::string name, value;
  bool has_value = false;
  split_option(args[i], name, value, has_value);
  if (name == "--initializers" && !has_value) {
    options.initializers = true;
    return OptionResult::consumed;
  }
  if (name != "--format" && name != "-o" && name != "--output") return parse_threads_option(args, i, inputs, error);
  if (!has_value) {
    if (i + 1 >= args.size()) {
      error = name + (name == "--format" ? " needs dot or svg" : " needs FILE");
      return OptionResult::error;
    }
    value = args[++i];
  }
  if (name != "--format") {
    options.output_path = value;
  } else if (value == "dot" || value == "svg") {
    options.format = value;
  } else {
    error = "--format expects dot or svg, got '" + printable(value) + "'";
    return OptionResult::error;
  }
  return OptionResult::consumed;
}

// ---- what prepare says about the nodes -----------------------------------------------------------------------

/// What the prepared session says about one node of the model's main graph.
struct NodeFacts {
  bool executed = false;  ///< a node the session runs (false: absorbed by a fusion, or not prepared)
  bool folded = false;
  onnxmicro::Placement placement = onnxmicro::Placement::cpu;
  bool fallback = false;
  std::string note;  ///< why it runs where it does, or why a QDQ op stayed in float (a tooltip)
};

/// Nodes that run as one: drawn in one box.
struct NodeGroup {
  std::string label;
  std::vector<std::size_t> members;  ///< indices into the model's main graph nodes; the op first
};

struct SessionFacts {
  const onnxmicro::Session* session = nullptr;  ///< null when prepare failed: declared types only
  bool placement = false;                       ///< --device opencl: colour nodes by placement
  std::vector<NodeFacts> nodes;                 ///< per node of the model's main graph
  std::vector<NodeGroup> groups;
  std::vector<int> group_of;  ///< per node: its group, or -1
  /// Per value: prepare inferred its type (a graph input, an initializer, or written by a node the session runs;
  /// not a tensor a fusion removed).
  std::vector<bool> inferred;
};

bool is_op(const model::Node& node, std::string_view op) { return node.domain.empty() && node.op_type == op; }

// Per value of `graph`: the nodes that read it.
std::vector<std::vector<std::size_t>> readers_of(const model::Graph& graph) {
  std::vector<std::vector<std::size_t>> readers(graph.values.size());
  for (std::size_t i = 0; i < graph.nodes.size(); ++i) {
    for (model::ValueId id : graph.nodes[i].inputs) {
      if (id != model::kNoValue) readers[static_cast<std::size_t>(id)].push_back(i);
    }
  }
  return readers;
}

void add_group(SessionFacts& facts, std::string label, const std::vector<std::size_t>& candidates) {
  NodeGroup group;
  group.label = std::move(label);
  for (std::size_t k : candidates) {
    if (facts.group_of[k] < 0) group.members.push_back(k);
  }
  if (group.members.size() < 2) return;
  for (std::size_t k : group.members) facts.group_of[k] = static_cast<int>(facts.groups.size());
  facts.groups.push_back(std::move(group));
}

// The single reader of `id` when it is one of the ops `ops`, else -1.
std::ptrdiff_t only_reader(const model::Graph& graph, const std::vector<std::vector<std::size_t>>& readers,
                           model::ValueId id, std::initializer_list<std::string_view> ops) {
  if (id == model::kNoValue || readers[static_cast<std::size_t>(id)].size() != 1 || graph.values[id].is_graph_output) {
    return -1;
  }
  const std::size_t reader = readers[static_cast<std::size_t>(id)][0];
  for (std::string_view op : ops) {
    if (is_op(graph.nodes[reader], op)) return static_cast<std::ptrdiff_t>(reader);
  }
  return -1;
}

// The DequantizeLinear nodes an op runs on as integers, the op, the Relu/Clip and QuantizeLinear after it: one
// box per op that QDQ fusion turned into an integer kernel; the ops left in float get their reason as a tooltip.
void add_qdq_groups(const model::Graph& graph, const onnxmicro::Session& session, SessionFacts& facts) {
  const std::vector<std::vector<std::size_t>> readers = readers_of(graph);
  for (const onnxmicro::QuantizedNodeReport& report : session.quantized_nodes()) {
    const std::ptrdiff_t index = report.node - graph.nodes.data();
    if (index < 0 || static_cast<std::size_t>(index) >= graph.nodes.size()) continue;
    const model::Node& op = graph.nodes[static_cast<std::size_t>(index)];
    if (!report.integer) {
      facts.nodes[static_cast<std::size_t>(index)].note = "float: " + std::string(report.reason);
      continue;
    }
    std::vector<std::size_t> members = {static_cast<std::size_t>(index)};
    for (model::ValueId id : op.inputs) {
      const std::int32_t producer = id == model::kNoValue ? -1 : graph.values[id].producer;
      if (producer >= 0 && is_op(graph.nodes[producer], "DequantizeLinear")) {
        members.push_back(static_cast<std::size_t>(producer));
      }
    }
    model::ValueId out = op.outputs.empty() ? model::kNoValue : op.outputs[0];
    std::ptrdiff_t next = only_reader(graph, readers, out, {"Relu", "Clip"});
    if (next >= 0) {
      members.push_back(static_cast<std::size_t>(next));
      out = graph.nodes[next].outputs.empty() ? model::kNoValue : graph.nodes[next].outputs[0];
    }
    next = only_reader(graph, readers, out, {"QuantizeLinear"});
    if (next >= 0) members.push_back(static_cast<std::size_t>(next));
    add_group(facts, "integer kernel: " + std::string(report.kernel), members);
  }
}

// The model node a node the session runs stands for: the producer of its first output (the session's graph shares
// the model's values). A QDQ-fused node writes its QuantizeLinear's output: it stands for the group's op; a node
// that absorbed others writes the last one's output: it stands for the model node it is a copy of.
std::ptrdiff_t model_node_of(const model::Graph& graph, const SessionFacts& facts, const model::Node& executed,
                             bool absorbed_nodes = false) {
  if (absorbed_nodes) {
    for (std::size_t k = 0; k < graph.nodes.size(); ++k) {
      if (graph.nodes[k].proto.bytes.data() == executed.proto.bytes.data()) return static_cast<std::ptrdiff_t>(k);
    }
    return -1;
  }
  for (model::ValueId id : executed.outputs) {
    if (id == model::kNoValue) continue;
    const std::int32_t producer = graph.values[id].producer;
    if (producer < 0) return -1;
    const int group = facts.group_of[static_cast<std::size_t>(producer)];
    const bool rewritten = graph.nodes[producer].op_type != executed.op_type;
    return rewritten && group >= 0 ? static_cast<std::ptrdiff_t>(facts.groups[group].members[0]) : producer;
  }
  return -1;
}

void add_node_reports(const model::Graph& graph, const onnxmicro::Session& session, SessionFacts& facts) {
  const onnxmicro::Span<const onnxmicro::NodeReport> reports = session.node_reports();
  for (std::size_t i = 0; i < reports.size(); ++i) {
    for (model::ValueId id : reports[i].node->outputs) {
      if (id != model::kNoValue) facts.inferred[static_cast<std::size_t>(id)] = true;
    }
    const onnxmicro::Span<const model::Node* const> absorbed = session.fused_nodes(i);
    const std::ptrdiff_t k = model_node_of(graph, facts, *reports[i].node, !absorbed.empty());
    if (k < 0) continue;
    NodeFacts& node = facts.nodes[static_cast<std::size_t>(k)];
    node.executed = true;
    node.folded = reports[i].folded;
    node.placement = reports[i].placement;
#if ONNXMICRO_ENABLE_DEVICES
    node.fallback = reports[i].fallback;
#endif
    const std::string_view reason = session.placement_reason(i);
    if (!reason.empty()) node.note = std::string(reason);
    if (absorbed.empty()) continue;
    std::string title = "fused: " + std::string(reports[i].node->op_type);
    std::vector<std::size_t> members = {static_cast<std::size_t>(k)};
    for (const model::Node* node : absorbed) {
      const std::ptrdiff_t a = model_node_of(graph, facts, *node);
      if (a < 0) continue;
      title += " + " + std::string(node->op_type);
      members.push_back(static_cast<std::size_t>(a));
    }
    add_group(facts, title, members);
  }
}

SessionFacts gather_facts(const model::Graph& graph, const onnxmicro::Session* session, const InputArgs& inputs) {
  SessionFacts facts;
  facts.session = session;
  facts.nodes.resize(graph.nodes.size());
  facts.group_of.assign(graph.nodes.size(), -1);
  if (session == nullptr) return facts;
  facts.placement = inputs.device == "opencl";
  facts.inferred.assign(graph.values.size(), false);
  for (model::ValueId id : graph.inputs) facts.inferred[static_cast<std::size_t>(id)] = true;
  for (model::ValueId id : graph.initializers) facts.inferred[static_cast<std::size_t>(id)] = true;
  add_qdq_groups(graph, *session, facts);
  add_node_reports(graph, *session, facts);
  return facts;
}

// ---- the DOT text --------------------------------------------------------------------------------------------

// Placement colours (fill) and the look of folded nodes.
constexpr const char kOpenclFill[] = "#b3d9ff";
constexpr const char kCpuFill[] = "#fff2b3";
constexpr const char kFallbackFill[] = "#ffb3b3";
constexpr const char kFoldedStyle[] = "style=\"rounded,dashed\", color=\"#999999\", fontcolor=\"#777777\"";

/// The names visible in one graph (a subgraph sees those of the graphs around it).
struct Scope {
  const Scope* parent = nullptr;
  std::map<std::string, std::string, std::less<>> producer;  ///< value name -> DOT id of what makes it
  std::map<std::string, std::string, std::less<>> type;      ///< value name -> "dtype [dims]"
};

std::string declared_type_text(const proto::ValueInfo& info) {
  if (!info.has_type) return "";
  const proto::Type& type = info.type;
  if (type.kind != proto::Type::Kind::tensor) {
    return type.kind == proto::Type::Kind::sequence ? "sequence" : type.kind == proto::Type::Kind::map ? "map" : "?";
  }
  std::string text = onnxmicro::is_known_dtype(type.elem_type)
                         ? onnxmicro::dtype_name(static_cast<onnxmicro::DataType>(type.elem_type))
                         : "?";
  if (!type.has_shape) return text;
  text += " [";
  bool first = true;
  for (proto::Dimension d : type.shape.dims()) {
    text += first ? "" : ",";
    text += d.has_value ? std::to_string(d.value) : d.param.empty() ? std::string("?") : std::string(d.param);
    first = false;
  }
  return text + "]";
}

// A main-graph value's type: as prepare inferred it, else as declared.
std::string value_type_text(const model::Graph& graph, model::ValueId id, const SessionFacts& facts) {
  const model::Value& value = graph.values[id];
  const onnxmicro::Session* session = facts.session;
  if (session != nullptr && facts.inferred[static_cast<std::size_t>(id)] &&
      session->value_dtype(id) != onnxmicro::DataType::undefined) {
    return std::string(onnxmicro::dtype_name(session->value_dtype(id))) + " " + format_shape(session->value_shape(id));
  }
  if (value.dtype == onnxmicro::DataType::undefined && !value.has_declared_shape) return "";
  std::string text = value.dtype == onnxmicro::DataType::undefined ? "?" : onnxmicro::dtype_name(value.dtype);
  return value.has_declared_shape ? text + " " + declared_shape_text(value) : text;
}

std::string node_title(std::string_view domain, std::string_view op_type) {
  return domain.empty() ? std::string(op_type) : std::string(domain) + "." + std::string(op_type);
}

class DotBuilder {
 public:
  DotBuilder(const LoadedModel& loaded, const SessionFacts& facts, const GraphOptions& options)
      : loaded_(loaded), graph_(loaded.model.graph()), facts_(facts), options_(options) {}

  std::string build() {
    Scope scope;
    declare_main_values(scope);
    declare_main_nodes(scope);
    draw_main_edges(scope);
    draw_groups();
    for (std::size_t i = 0; i < graph_.nodes.size(); ++i) {
      draw_subgraphs(graph_.nodes[i].proto, "n" + std::to_string(i), label_name(graph_.nodes[i].name, i), scope, 1);
    }
    if (facts_.placement) draw_legend();
    std::ostringstream text;
    text << "digraph onnxmicro {\n"
         << "  graph [compound=true, labelloc=t, fontname=\"Helvetica\", label=\"" << graph_label() << "\"];\n"
         << "  node [shape=box, style=\"rounded,filled\", fillcolor=white, fontname=\"Helvetica\", fontsize=10];\n"
         << "  edge [fontname=\"Helvetica\", fontsize=8];\n"
         << body_.str();
    for (const std::string& edge : edges_) text << "  " << edge << ";\n";
    text << "}\n";
    return text.str();
  }

 private:
  static std::string label_name(std::string_view name, std::size_t index) {
    return name.empty() ? "#" + std::to_string(index) : std::string(name);
  }
  // The lines escaped and joined with DOT's line breaks; label() quotes them.
  static std::string joined(const std::vector<std::string>& lines) {
    std::string out;
    for (const std::string& line : lines) out += (out.empty() ? "" : "\\n") + dot_escape(line);
    return out;
  }
  static std::string label(const std::vector<std::string>& lines) { return "\"" + joined(lines) + "\""; }
  std::string new_id() { return "s" + std::to_string(next_id_++); }
  void declare(int depth, const std::string& id, const std::vector<std::string>& lines, const std::string& attributes) {
    body_ << std::string(2 * static_cast<std::size_t>(depth), ' ') << id << " [label=" << label(lines)
          << (attributes.empty() ? "" : ", " + attributes) << "];\n";
  }
  void declare_input(int depth, const std::string& id, std::string_view name) {
    declare(depth, id, {std::string(name)}, "shape=ellipse, fillcolor=\"#d9f2d9\"");
  }
  void declare_output(int depth, const std::string& id, std::string_view name) {
    declare(depth, id, {std::string(name)}, "shape=ellipse, fillcolor=\"#e6ccff\"");
  }
  void declare_initializer(int depth, const std::string& id, std::string_view name) {
    declare(depth, id, {std::string(name)}, "shape=note, fontsize=8, fillcolor=\"#eeeeee\"");
  }

  // An edge for value `name` read by `to`: from what makes it in this scope or an enclosing one (dashed: read
  // from an enclosing graph). Nothing when no drawn node makes it (initializers not drawn).
  void add_edge(const Scope& scope, std::string_view name, const std::string& to) {
    std::string from, type;
    bool outer = false;
    for (const Scope* s = &scope; s != nullptr; s = s->parent) {
      auto it = s->producer.find(name);
      if (it != s->producer.end()) {
        from = it->second;
        outer = s != &scope;
        break;
      }
    }
    if (from.empty()) return;
    for (const Scope* s = &scope; s != nullptr && type.empty(); s = s->parent) {
      auto it = s->type.find(name);
      if (it != s->type.end()) type = it->second;
    }
    std::vector<std::string> lines = {std::string(name)};
    if (!type.empty()) lines.push_back(type);
    edges_.push_back(from + " -> " + to + " [label=" + label(lines) + (outer ? ", style=dashed" : "") + "]");
  }

  void declare_main_values(Scope& scope) {
    for (std::size_t v = 0; v < graph_.values.size(); ++v) {
      const auto id = static_cast<model::ValueId>(v);
      scope.type[std::string(graph_.values[v].name)] = value_type_text(graph_, id, facts_);
    }
    for (std::size_t k = 0; k < graph_.inputs.size(); ++k) {
      const std::string_view name = graph_.values[graph_.inputs[k]].name;
      declare_input(1, "in" + std::to_string(k), name);
      scope.producer[std::string(name)] = "in" + std::to_string(k);
    }
    for (std::size_t k = 0; k < graph_.initializers.size(); ++k) {
      const std::string_view name = graph_.values[graph_.initializers[k]].name;
      if (!options_.initializers) {
        ++hidden_initializers_;
        continue;
      }
      declare_initializer(1, "w" + std::to_string(k), name);
      scope.producer[std::string(name)] = "w" + std::to_string(k);
    }
  }

  std::string node_attributes(const NodeFacts& node) const {
    std::string attributes;
    if (node.folded) {
      attributes = kFoldedStyle;
    } else if (facts_.placement && node.executed) {
      const char* fill = node.fallback                                    ? kFallbackFill
                         : node.placement == onnxmicro::Placement::opencl ? kOpenclFill
                                                                          : kCpuFill;
      attributes = std::string("fillcolor=\"") + fill + "\"";
    }
    if (!node.note.empty()) {
      attributes += std::string(attributes.empty() ? "" : ", ") + "tooltip=" + dot_quote(node.note);
    }
    return attributes;
  }

  void declare_main_nodes(Scope& scope) {
    for (std::size_t i = 0; i < graph_.nodes.size(); ++i) {
      const model::Node& node = graph_.nodes[i];
      // A node a fusion absorbed runs as part of its group's op: it is drawn as that op runs.
      const int group = facts_.group_of[i];
      const bool absorbed = !facts_.nodes[i].executed && group >= 0;
      const NodeFacts& node_facts = facts_.nodes[absorbed ? facts_.groups[group].members[0] : i];
      std::vector<std::string> lines = {node_title(node.domain, node.op_type), label_name(node.name, i)};
      if (node_facts.folded) lines.push_back("(folded at prepare)");
      declare(1, "n" + std::to_string(i), lines, node_attributes(node_facts));
      for (model::ValueId id : node.outputs) {
        if (id != model::kNoValue) scope.producer[std::string(graph_.values[id].name)] = "n" + std::to_string(i);
      }
    }
  }

  void draw_main_edges(const Scope& scope) {
    for (std::size_t i = 0; i < graph_.nodes.size(); ++i) {
      const model::Node& node = graph_.nodes[i];
      // Implicit inputs (values a subgraph reads) are drawn inside the subgraph, to the node that reads them.
      const std::size_t explicit_inputs =
          node.explicit_input_count < 0 ? node.inputs.size() : static_cast<std::size_t>(node.explicit_input_count);
      for (std::size_t k = 0; k < explicit_inputs && k < node.inputs.size(); ++k) {
        if (node.inputs[k] != model::kNoValue)
          add_edge(scope, graph_.values[node.inputs[k]].name, "n" + std::to_string(i));
      }
    }
    for (std::size_t k = 0; k < graph_.outputs.size(); ++k) {
      const std::string_view name = graph_.values[graph_.outputs[k]].name;
      declare_output(1, "out" + std::to_string(k), name);
      add_edge(scope, name, "out" + std::to_string(k));
    }
  }

  void draw_groups() {
    for (std::size_t g = 0; g < facts_.groups.size(); ++g) {
      const NodeGroup& group = facts_.groups[g];
      body_ << "  subgraph cluster_group" << g << " {\n    label=" << dot_quote(group.label)
            << "; style=\"rounded,filled\"; fillcolor=\"#f2f2f2\"; color=\"#555555\";\n   ";
      for (std::size_t k : group.members) body_ << " n" << k << ";";
      body_ << "\n  }\n";
    }
  }

  void draw_legend() {
    body_ << "  subgraph cluster_legend {\n    label=\"placement\"; style=rounded;\n";
    declare(2, "legend_opencl", {"opencl"}, std::string("fillcolor=\"") + kOpenclFill + "\"");
    declare(2, "legend_cpu", {"cpu"}, std::string("fillcolor=\"") + kCpuFill + "\"");
    declare(2, "legend_fallback", {"cpu (fallback)"}, std::string("fillcolor=\"") + kFallbackFill + "\"");
    declare(2, "legend_folded", {"folded"}, kFoldedStyle);
    body_ << "  }\n";
  }

  // Every subgraph attribute of `node` as a cluster, joined to `owner` by a dotted edge.
  void draw_subgraphs(const proto::Node& node, const std::string& owner, const std::string& owner_name,
                      const Scope& scope, int depth) {
    for (proto::Attribute attribute : node.attributes()) {
      const std::string title = node_title(onnxmicro::model::normalize_domain(node.domain), node.op_type) + " " +
                                owner_name + ": " + std::string(attribute.name);
      if (attribute.type == proto::AttributeType::graph) {
        draw_body(proto::Graph::unchecked(attribute.g), owner, title, scope, depth);
      } else if (attribute.type == proto::AttributeType::graphs) {
        std::size_t k = 0;
        for (onnxmicro::ByteSpan bytes : attribute.graphs()) {
          draw_body(proto::Graph::unchecked(bytes), owner, title + "[" + std::to_string(k++) + "]", scope, depth);
        }
      }
    }
  }

  void draw_body(const proto::Graph& body, const std::string& owner, const std::string& title, const Scope& outer,
                 int depth) {
    const std::string cluster = "cluster_sub" + std::to_string(next_cluster_++);
    const std::string indent(2 * static_cast<std::size_t>(depth), ' ');
    body_ << indent << "subgraph " << cluster << " {\n"
          << indent << "  label=" << dot_quote(title) << "; style=\"rounded,dashed\"; color=\"#777777\";\n";
    Scope scope;
    scope.parent = &outer;
    const std::size_t first_id = next_id_;
    declare_body_values(body, scope, depth + 1);
    std::vector<std::string> ids;
    std::size_t index = 0;
    for (proto::Node node : body.nodes()) {
      ids.push_back(new_id());
      declare(depth + 1, ids.back(),
              {node_title(model::normalize_domain(node.domain), node.op_type), label_name(node.name, index++)}, "");
      for (std::string_view output : node.outputs()) {
        if (!output.empty()) scope.producer[std::string(output)] = ids.back();
      }
    }
    index = 0;
    for (proto::Node node : body.nodes()) {
      for (std::string_view input : node.inputs()) {
        if (!input.empty()) add_edge(scope, input, ids[index]);
      }
      draw_subgraphs(node, ids[index], label_name(node.name, index), scope, depth + 1);
      ++index;
    }
    for (proto::ValueInfo output : body.outputs()) {
      const std::string id = new_id();
      declare_output(depth + 1, id, output.name);
      add_edge(scope, output.name, id);
    }
    body_ << indent << "}\n";
    if (next_id_ > first_id) {
      edges_.push_back(owner + " -> s" + std::to_string(first_id) + " [lhead=" + cluster +
                       ", style=dotted, arrowhead=odot]");
    }
  }

  void declare_body_values(const proto::Graph& body, Scope& scope, int depth) {
    for (proto::ValueInfo info : body.value_infos()) scope.type[std::string(info.name)] = declared_type_text(info);
    for (proto::ValueInfo info : body.outputs()) scope.type[std::string(info.name)] = declared_type_text(info);
    for (proto::ValueInfo info : body.inputs()) {
      const std::string id = new_id();
      declare_input(depth, id, info.name);
      scope.producer[std::string(info.name)] = id;
      scope.type[std::string(info.name)] = declared_type_text(info);
    }
    for (proto::Tensor tensor : body.initializers()) {
      if (!options_.initializers) {
        ++hidden_initializers_;
        continue;
      }
      const std::string id = new_id();
      declare_initializer(depth, id, tensor.name);
      scope.producer[std::string(tensor.name)] = id;
    }
  }

  std::string graph_label() const {
    std::vector<std::string> lines = {printable(loaded_.path) + ": graph '" + printable(graph_.name) + "', " +
                                      std::to_string(graph_.nodes.size()) + " nodes"};
    if (hidden_initializers_ > 0) {
      lines.push_back(std::to_string(hidden_initializers_) +
                      (hidden_initializers_ == 1 ? " initializer" : " initializers") +
                      " not drawn (--initializers draws them)");
    }
    lines.push_back(facts_.session != nullptr ? "types as prepare inferred them" : "declared types (prepare failed)");
    return joined(lines);
  }

  const LoadedModel& loaded_;
  const model::Graph& graph_;
  const SessionFacts& facts_;
  const GraphOptions& options_;
  std::ostringstream body_;
  std::vector<std::string> edges_;
  std::size_t next_id_ = 0;
  std::size_t next_cluster_ = 0;
  std::size_t hidden_initializers_ = 0;
};

// ---- SVG through Graphviz ------------------------------------------------------------------------------------

#if ONNXMICRO_CLI_CAN_SPAWN
// The executable `program` in a directory of PATH, or "".
std::string find_on_path(const std::string& program) {
  const char* path = std::getenv("PATH");
  std::string_view rest = path == nullptr ? std::string_view() : std::string_view(path);
  while (path != nullptr) {
    const std::size_t colon = rest.find(':');
    const std::string_view directory = rest.substr(0, colon);
    const std::string candidate = (directory.empty() ? std::string(".") : std::string(directory)) + "/" + program;
    std::error_code ec;
    if (std::filesystem::is_regular_file(candidate, ec) && access(candidate.c_str(), X_OK) == 0) return candidate;
    if (colon == std::string_view::npos) break;
    rest.remove_prefix(colon + 1);
  }
  return "";
}

std::string first_line(const std::string& text) {
  const std::size_t end = text.find('\n');
  return text.substr(0, end);
}

// Runs `dot -Tsvg` on `dot_text` (through files in a temporary directory: no pipes to deadlock on).
bool run_dot(const std::string& dot_program, const std::string& dot_text, std::string& svg, std::string& error) {
  namespace fs = std::filesystem;
  std::error_code ec;
  std::string pattern = (fs::temp_directory_path(ec) / "onnxmicro-graph-XXXXXX").string();
  if (ec || mkdtemp(pattern.data()) == nullptr) {
    error = "cannot make SVG: cannot create a temporary directory: " + std::string(std::strerror(errno));
    return false;
  }
  const fs::path directory = pattern;
  const std::string in = (directory / "graph.dot").string(), out = (directory / "graph.svg").string();
  const std::string err = (directory / "dot.err").string();
  bool ok = write_file(in, std::vector<unsigned char>(dot_text.begin(), dot_text.end()), error);
  if (ok) {
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, in.c_str(), O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_addopen(&actions, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    std::string format = "-Tsvg";
    char* argv[] = {const_cast<char*>(dot_program.c_str()), format.data(), nullptr};
    pid_t pid = 0;
    const int spawn_error = posix_spawn(&pid, dot_program.c_str(), &actions, nullptr, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    int status = 0;
    if (spawn_error != 0) {
      error = "cannot run '" + dot_program + "': " + std::strerror(spawn_error);
      ok = false;
    } else if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      std::vector<unsigned char> message;
      std::string ignored;
      read_file(err, message, ignored);
      error = "'" + dot_program + " -Tsvg' failed: " + first_line(std::string(message.begin(), message.end()));
      ok = false;
    } else {
      std::vector<unsigned char> bytes;
      ok = read_file(out, bytes, error);
      svg.assign(bytes.begin(), bytes.end());
    }
  }
  fs::remove_all(directory, ec);
  return ok;
}
#endif

bool render_svg(const std::string& dot_text, std::string& svg, std::string& error) {
#if ONNXMICRO_CLI_CAN_SPAWN
  const std::string dot_program = find_on_path("dot");
  if (dot_program.empty()) {
    error =
        "--format svg needs Graphviz's 'dot' program, which is not on PATH: install Graphviz (Debian/Ubuntu: "
        "apt-get install graphviz; macOS: brew install graphviz) or use --format dot";
    return false;
  }
  return run_dot(dot_program, dot_text, svg, error);
#else
  static_cast<void>(dot_text);
  static_cast<void>(svg);
  error = "--format svg is not supported on this system: use --format dot and run 'dot -Tsvg'";
  return false;
#endif
}

// Prepares a session for the types, placement and fusions; when prepare fails, says so (one line) and goes on with
// the declared types. A failure to load the model or to read input files is an error.
bool prepare_for_drawing(const std::string& model_path, const InputArgs& inputs, LoadedModel& loaded,
                         onnxmicro::Session& session, bool& prepared, std::string& error) {
  BoundInputs bound;
  if (!load_model(model_path, loaded, error) || !bind_inputs(loaded.model, inputs, false, bound, error)) return false;
  prepared = prepare_bound(loaded, bound, inputs, session, error);
  if (prepared) return true;
  if (inputs.device == "opencl") return false;  // placement colours were asked for: no picture without them
  std::cerr << "onnxmicro: warning: " << printable(error) << "; drawing the declared types\n";
  error.clear();
  return true;
}

}  // namespace

int graph_command(const Args& args) {
  std::string model_path;
  InputArgs inputs;
  GraphOptions options;
  const int exit_code = parse_model_command_line(
      args, "graph", kUsage, kHelp,
      [&](const Args& all, std::size_t& i, std::string& error) {
        return parse_graph_option(all, i, options, inputs, error);
      },
      model_path, inputs);
  if (exit_code >= 0) return exit_code;

  std::string error;
  auto loaded = std::make_unique<LoadedModel>();
  onnxmicro::Session session;
  bool prepared = false;
  if (!prepare_for_drawing(model_path, inputs, *loaded, session, prepared, error)) {
    print_error(error);
    return kExitFailure;
  }
  const SessionFacts facts = gather_facts(loaded->model.graph(), prepared ? &session : nullptr, inputs);
  std::string text = DotBuilder(*loaded, facts, options).build();
  if (options.format == "svg" && !render_svg(std::string(text), text, error)) {
    print_error(error);
    return kExitFailure;
  }
  if (options.output_path.empty()) {
    std::cout << text;
    return kExitSuccess;
  }
  if (!write_file(options.output_path, std::vector<unsigned char>(text.begin(), text.end()), error)) {
    print_error(error);
    return kExitFailure;
  }
  return kExitSuccess;
}

}  // namespace onnxmicro_cli
