// SPDX-License-Identifier: MIT
// `onnxmicro kernels MODEL [--name NAME] [-o FILE]`: a C++ header with exactly the kernel set MODEL needs and
// the memory its session needs, so a firmware compiles only those kernels and sizes its buffers before deployment.
#include <algorithm>
#include <cctype>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "cli_support.hpp"
#include "commands.hpp"
#include "inputs.hpp"

namespace onnxmicro_cli {
namespace {

constexpr const char kUsage[] =
    "usage: onnxmicro kernels MODEL [--name NAME] [-o FILE] [--inputs FILE...] [--input NAME=FILE]... "
    "[--optimize-for-size]";
constexpr const char kHelp[] =
    "usage: onnxmicro kernels MODEL [--name NAME] [-o FILE] [--inputs FILE...] [--input NAME=FILE]... "
    "[--optimize-for-size]\n"
    "\n"
    "Prepares a session for MODEL with every kernel of this build and writes a C++ header for a firmware\n"
    "(or any program) that runs only this model:\n"
    "  NAME::Kernels             onnxmicro::KernelSet of exactly the kernels the session resolved, at the\n"
    "                            model's opset imports, after QDQ fusion, subgraphs (If/Loop/Scan) included;\n"
    "                            pass NAME::Kernels::registry() to Session::prepare\n"
    "  NAME::kArenaBytes         the arena the plan needs (SessionOptions::arena_bytes)\n"
    "  NAME::kArenaLowerBoundBytes  the most bytes live at one step, which no plan can go below\n"
    "  NAME::kModelMetadataBytes, NAME::kSessionMetadataBytes\n"
    "                            metadata of Model::load and Session::prepare as measured by this (host)\n"
    "                            build; a 32-bit target needs less (half-size pointers)\n"
    "  NAME::kOptimizeForSize    the ONNXMICRO_OPTIMIZE_FOR_SIZE the plan is for (a static_assert checks it)\n"
    "  NAME::kDtypeMask          the element types of the model's tensors, a value for ONNXMICRO_ENABLED_DTYPES;\n"
    "                            the header fails to compile in a build that leaves one of them out\n"
    "  NAME::kMaxRank            the highest rank of the model's tensors, a value for ONNXMICRO_MAX_RANK (a\n"
    "                            static_assert checks the build allows it)\n"
    "  NAME::kUnusedFeatures     the ONNXMICRO_ENABLE_* switches the model leaves unused (\"MACRO=0;...\")\n"
    "Input files (as for 'plan') bind symbolic input dims; without them the declared shapes are used.\n"
    "\n"
    "Options:\n"
    "  --name NAME          the header's namespace (a C++ identifier); default: the model file's stem\n"
    "  -o, --output FILE    write the header to FILE instead of standard output\n"
    "  --inputs FILE...     one file per graph input, in graph order\n"
    "  --input NAME=FILE    the file for the input called NAME\n" ONNXMICRO_CLI_OPTIMIZE_FOR_SIZE_HELP
    "  -h, --help           show this help\n";

struct KernelUse {
  std::string domain;  // normalised: "" for ai.onnx
  std::string op_type;
  int since_version = 0;
  std::size_t nodes = 0;
};

bool is_identifier(const std::string& name) {
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0]))) return false;
  return std::all_of(name.begin(), name.end(),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

// The file's stem with every character that cannot be in an identifier replaced by '_'.
std::string identifier_from_path(const std::string& path) {
  std::string stem = path.substr(path.find_last_of('/') + 1);
  stem = stem.substr(0, stem.find('.'));
  for (char& c : stem) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  if (stem.empty() || std::isdigit(static_cast<unsigned char>(stem[0]))) stem = "model_" + stem;
  return stem;
}

void add_use(std::map<std::tuple<std::string, std::string, int>, KernelUse>& uses, std::string_view domain,
             std::string_view op_type, int since_version) {
  KernelUse& use = uses[{std::string(domain), std::string(op_type), since_version}];
  use.domain = std::string(domain);
  use.op_type = std::string(op_type);
  use.since_version = since_version;
  ++use.nodes;
}

// Subgraph nodes run in sessions their If/Loop/Scan kernel prepares; they resolve against the same registry at the
// model's opset imports. `graph` is a subgraph; its nodes and theirs are added.
bool add_subgraph_uses(const onnxmicro::Model& model, const onnxmicro::proto::Graph& graph, const std::string& where,
                       std::map<std::tuple<std::string, std::string, int>, KernelUse>& uses, std::string& error);

bool add_attribute_subgraphs(const onnxmicro::Model& model, const onnxmicro::proto::Node& node,
                             const std::string& where,
                             std::map<std::tuple<std::string, std::string, int>, KernelUse>& uses, std::string& error) {
  namespace proto = onnxmicro::proto;
  for (proto::Attribute attribute : node.attributes()) {
    const std::string label = where + "/" + printable(attribute.name);
    if (attribute.type == proto::AttributeType::graph) {
      if (!add_subgraph_uses(model, proto::Graph::unchecked(attribute.g), label, uses, error)) return false;
    } else if (attribute.type == proto::AttributeType::graphs) {
      std::size_t k = 0;
      for (onnxmicro::ByteSpan bytes : attribute.graphs()) {
        if (!add_subgraph_uses(model, proto::Graph::unchecked(bytes), label + "[" + std::to_string(k++) + "]", uses,
                               error)) {
          return false;
        }
      }
    }
  }
  return true;
}

bool add_subgraph_uses(const onnxmicro::Model& model, const onnxmicro::proto::Graph& graph, const std::string& where,
                       std::map<std::tuple<std::string, std::string, int>, KernelUse>& uses, std::string& error) {
  const onnxmicro::KernelRegistry registry = onnxmicro::all_kernels_registry();
  for (onnxmicro::proto::Node node : graph.nodes()) {
    const std::string_view domain = onnxmicro::model::normalize_domain(node.domain);
    const std::int64_t version = model.opset_version(node.domain);
    const onnxmicro::KernelEntry* entry = onnxmicro::find_kernel(registry, domain, node.op_type, version);
    const std::string label = where + "/" + printable(node.name);
    if (entry == nullptr) {
      error = "node '" + label + "' (" + printable(node.op_type) + ", domain '" + display_domain(domain) + "', opset " +
              std::to_string(version) + "): no kernel in this build implements it";
      return false;
    }
    add_use(uses, entry->domain, entry->op_type, entry->since_version);
    if (!add_attribute_subgraphs(model, node, label, uses, error)) return false;
  }
  return true;
}

std::string opset_imports_text(const onnxmicro::Model& model) {
  std::string out;
  for (onnxmicro::proto::OperatorSetId opset : model.proto().opset_imports()) {
    if (!out.empty()) out += ", ";
    out += display_domain(opset.domain) + " " + std::to_string(opset.version);
  }
  return out.empty() ? "none" : out;
}

// The element types of every tensor the session's nodes read or write, as an ONNXMICRO_ENABLED_DTYPES mask; every
// bit when the model has subgraphs (their tensors are typed by the sessions their If/Loop/Scan kernels prepare,
// which this build does not look into).
std::uint32_t dtype_mask(const onnxmicro::Session& session, bool has_subgraphs) {
  if (has_subgraphs) return 0xffffffffu;
  std::uint32_t mask = 0;
  auto add = [&](onnxmicro::model::ValueId id) {
    const auto dtype = static_cast<unsigned>(session.value_dtype(id));
    if (dtype != 0 && dtype < 32) mask |= 1u << dtype;
  };
  for (const onnxmicro::NodeReport& report : session.node_reports()) {
    for (onnxmicro::model::ValueId id : report.node->inputs) add(id);
    for (onnxmicro::model::ValueId id : report.node->outputs) add(id);
  }
  return mask;
}

// The highest rank of the graph's values as prepared (inputs, initializers, every node output; at least 1); with
// subgraphs, whose tensors this build does not look into, this build's ONNXMICRO_MAX_RANK.
int max_rank(const onnxmicro::Session& session, const onnxmicro::model::Graph& graph, bool has_subgraphs) {
  if (has_subgraphs) return ONNXMICRO_MAX_RANK;
  int rank = 1;
  for (std::size_t id = 0; id < graph.values.size(); ++id) {
    rank = std::max(rank, session.value_shape(static_cast<onnxmicro::model::ValueId>(id)).rank());
  }
  return rank;
}

// The compile-out switches (core/config.hpp) the model leaves unused, as CMake list items "MACRO=0". Read from the
// model's own bytes (Model::load has expanded its functions by now) and, for dynamic shapes, its graph inputs and
// prepared session. With subgraphs only the dtype-free switches that do not depend on what the subgraphs hold are
// offered: none.
std::vector<std::string> unused_features(const LoadedModel& loaded, const onnxmicro::Session& session,
                                         bool has_subgraphs) {
  namespace proto = onnxmicro::proto;
  std::vector<std::string> out;
  proto::Model original;
  if (has_subgraphs || !proto::Model::parse(loaded.bytes.bytes(), original).ok()) return out;
  // Dynamic shapes go unused when every graph input is a tensor whose shape the model fixes (what the session
  // requires of them without dynamic shapes), and no kernel needed an input's value at prepare time.
  const onnxmicro::model::Graph& graph = loaded.model.graph();
  bool fixed_inputs = true;
  for (std::size_t i = 0; i < graph.inputs.size(); ++i) {
    const onnxmicro::model::Value& input = graph.values[graph.inputs[i]];
    onnxmicro::Shape fixed_shape;
    fixed_inputs = fixed_inputs && input.type_kind == proto::Type::Kind::tensor &&
                   !onnxmicro::is_value_container(input.dtype) && !session.input_bound_at_prepare(i) &&
                   onnxmicro::detail::declared_input_shape(input, fixed_shape).ok();
  }
  bool dequantize = false;
  for (proto::Node node : original.graph.nodes()) dequantize = dequantize || node.op_type == "DequantizeLinear";
  bool external = false;
  for (proto::Tensor tensor : original.graph.initializers())
    external = external || tensor.data_location == proto::DataLocation::external;
  if (!dequantize) out.push_back("ONNXMICRO_ENABLE_QDQ_FUSION=0");
  if (original.functions().size() == 0) out.push_back("ONNXMICRO_ENABLE_MODEL_FUNCTIONS=0");
  if (!external) out.push_back("ONNXMICRO_ENABLE_EXTERNAL_DATA=0");
  out.push_back("ONNXMICRO_ENABLE_SUBGRAPHS=0");
  if (fixed_inputs) out.push_back("ONNXMICRO_ENABLE_DYNAMIC_SHAPES=0");
  return out;
}

std::string make_header(const std::string& model_path, const std::string& name, const LoadedModel& loaded,
                        const onnxmicro::Session& session, const std::vector<KernelUse>& uses, bool has_subgraphs,
                        bool optimize_for_size) {
  const onnxmicro::MemoryPlan& plan = session.plan();
  std::ostringstream h;
  h << "// Generated by `onnxmicro kernels " << printable(model_path) << " --name " << name
    << (optimize_for_size ? " --optimize-for-size" : "") << "`; do not edit: regenerate when the model changes.\n"
    << "// The kernels and memory of one model (opset imports: " << opset_imports_text(loaded.model) << ").\n"
    << "#pragma once\n#include <cstddef>\n#include <cstdint>\n\n#include <onnxmicro/onnxmicro.hpp>\n\n"
    << "namespace " << name << " {\n\n"
    << "/// Exactly the kernels the model's nodes resolve to (after QDQ fusion; subgraphs included), each the type\n"
    << "/// implementing its op at the model's opset: pass Kernels::registry() to onnxmicro::Session::prepare.\n"
    << "using Kernels = onnxmicro::KernelSet<";
  for (std::size_t i = 0; i < uses.size(); ++i) {
    const KernelUse& use = uses[i];
    h << "\n    onnxmicro::kernels::" << use.op_type << '_' << use.since_version << (i + 1 < uses.size() ? "," : ">;")
      << "  // " << display_domain(use.domain) << ' ' << use.op_type << ": " << use.nodes
      << (use.nodes == 1 ? " node" : " nodes");
  }
  if (uses.empty()) h << ">;";
  h << "\n\n"
    << "/// Arena bytes the plan needs for the shapes it was made for (SessionOptions::arena_bytes).\n"
    << "inline constexpr std::size_t kArenaBytes = " << session.required_arena_bytes() << ";\n"
    << "/// The most bytes live at one execution step: no plan can use less (kArenaBytes / this = "
    << (plan.lower_bound_bytes == 0
            ? std::string("n/a")
            : std::to_string(static_cast<double>(plan.arena_bytes) / static_cast<double>(plan.lower_bound_bytes))
                  .substr(0, 5))
    << ").\n"
    << "inline constexpr std::size_t kArenaLowerBoundBytes = " << plan.lower_bound_bytes << ";\n"
    << "/// Metadata bytes of Model::load (LoadOptions::metadata_allocator) and Session::prepare\n"
    << "/// (SessionOptions::metadata_allocator), measured by a " << sizeof(void*) * 8
    << "-bit build; targets with smaller pointers need less.\n"
    << "inline constexpr std::size_t kModelMetadataBytes = " << loaded.model.metadata_bytes() << ";\n"
    << "inline constexpr std::size_t kSessionMetadataBytes = " << session.metadata_bytes() << ";\n"
    << "/// The plan above is for builds with this ONNXMICRO_OPTIMIZE_FOR_SIZE (Conv's scratch and Gemm's packed\n"
    << "/// weights differ); `onnxmicro kernels --optimize-for-size` plans for 1.\n"
    << "inline constexpr bool kOptimizeForSize = " << (optimize_for_size ? "true" : "false") << ";\n"
    << "static_assert(ONNXMICRO_OPTIMIZE_FOR_SIZE == " << (optimize_for_size ? 1 : 0) << ", \"" << name
    << "'s arena and metadata sizes were planned for ONNXMICRO_OPTIMIZE_FOR_SIZE=" << (optimize_for_size ? 1 : 0)
    << ": regenerate the header " << (optimize_for_size ? "without" : "with") << " --optimize-for-size\");\n\n";
  const std::uint32_t mask = dtype_mask(session, has_subgraphs);
  h << "/// The element types of the model's tensors as an ONNXMICRO_ENABLED_DTYPES mask (core/config.hpp): define\n"
    << "/// ONNXMICRO_ENABLED_DTYPES to this value, or to its union with the other models' masks, so that only their\n"
    << "/// kernel loops are compiled";
  if (has_subgraphs) {
    h << ". Every bit: the model has subgraphs, whose tensors this tool does not type";
  }
  h << ".\ninline constexpr std::uint32_t kDtypeMask = 0x" << std::hex << mask << std::dec << "u;\n";
  if (!has_subgraphs) {
    for (unsigned bit = 1; bit < 32; ++bit) {
      if (((mask >> bit) & 1u) == 0) continue;
      const auto dtype_value = static_cast<onnxmicro::DataType>(bit);
      const char* dtype = onnxmicro::dtype_name(dtype_value);
      // DataType's enumerator (dtype_name gives ONNX's spelling, which differs for these three).
      const std::string enumerator = dtype_value == onnxmicro::DataType::float32   ? "float32"
                                     : dtype_value == onnxmicro::DataType::float64 ? "float64"
                                     : dtype_value == onnxmicro::DataType::boolean ? "boolean"
                                                                                   : dtype;
      h << "static_assert(onnxmicro::dtype_enabled(onnxmicro::DataType::" << enumerator << "), \"" << name << " has "
        << dtype << " tensors, which this build compiles out (ONNXMICRO_ENABLED_DTYPES, "
        << "ONNXMICRO_ENABLE_FLOAT64, ONNXMICRO_ENABLE_FLOAT16)\");\n";
    }
  }
  const int rank = max_rank(session, loaded.model.graph(), has_subgraphs);
  h << "\n/// The highest rank of the model's tensors, a value for ONNXMICRO_MAX_RANK (core/config.hpp; default "
    << ONNXMICRO_MAX_RANK << "):\n"
    << "/// every shape in metadata holds ONNXMICRO_MAX_RANK dims, so the model's own rank shrinks metadata";
  if (has_subgraphs) h << ". This build's maximum: the model has subgraphs, whose tensors this tool does not see";
  h << ".\ninline constexpr int kMaxRank = " << rank << ";\n"
    << "static_assert(ONNXMICRO_MAX_RANK >= " << rank << ", \"" << name << " has rank-" << rank
    << " tensors: ONNXMICRO_MAX_RANK must be at least " << rank << "\");\n";
  const std::vector<std::string> unused = unused_features(loaded, session, has_subgraphs);
  h << "\n/// The features (core/config.hpp) the model does not use, as a CMake list: a firmware running only this "
       "model\n"
    << "/// may define them to 0 to drop their code (a model that needs one after all fails to load or prepare, "
       "naming\n"
    << "/// it). ONNXMICRO_ENABLE_ERROR_MESSAGES=0 is always possible; the errors then carry their code only.\n"
    << "inline constexpr const char* kUnusedFeatures = \"";
  for (std::size_t i = 0; i < unused.size(); ++i) h << (i > 0 ? ";" : "") << unused[i];
  h << "\";\n";
  h << "\n}  // namespace " << name << "\n";
  return h.str();
}

}  // namespace

int kernels_command(const Args& args) {
  std::string model_path;
  std::string name;
  std::string output_path;
  InputArgs inputs;
  auto own_option = [&](const Args& all, std::size_t& i, std::string& error) {
    const std::string& arg = all[i];
    if (arg != "--name" && arg != "-o" && arg != "--output") return OptionResult::not_mine;
    if (i + 1 >= all.size()) {
      error = arg + (arg == "--name" ? " needs NAME" : " needs FILE");
      return OptionResult::error;
    }
    (arg == "--name" ? name : output_path) = all[++i];
    return OptionResult::consumed;
  };
  const int exit_code = parse_model_command_line(args, "kernels", kUsage, kHelp, own_option, model_path, inputs);
  if (exit_code >= 0) return exit_code;
  if (name.empty()) {
    name = identifier_from_path(model_path);
  } else if (!is_identifier(name)) {
    return usage_error("kernels", kUsage, "--name '" + printable(name) + "' is not a C++ identifier");
  }

  // The header is for a build that may lack fast paths (bare-metal ARM): it runs every node, so list their kernels
  // and plan their tensors (a build that fuses activations needs less).
  inputs.fuse_activations = false;
  inputs.winograd = false;
  std::string error;
  auto loaded = std::make_unique<LoadedModel>();
  BoundInputs bound;
  onnxmicro::Session session;
  if (!prepare_with_inputs(model_path, inputs, /*require_all=*/false, *loaded, bound, session, error)) {
    print_error(error);
    return kExitFailure;
  }
  std::map<std::tuple<std::string, std::string, int>, KernelUse> by_kernel;
  for (const onnxmicro::NodeReport& report : session.node_reports()) {
    add_use(by_kernel, report.kernel->domain, report.kernel->op_type, report.kernel->since_version);
  }
  // The subgraphs of the model's own nodes (the session's graph may hold fused nodes without attributes of
  // type graph; control-flow nodes are never fused).
  bool has_subgraphs = false;
  for (onnxmicro::proto::Node node : loaded->model.proto().graph.nodes()) {
    for (onnxmicro::proto::Attribute attribute : node.attributes()) {
      has_subgraphs = has_subgraphs || attribute.type == onnxmicro::proto::AttributeType::graph ||
                      attribute.type == onnxmicro::proto::AttributeType::graphs;
    }
    if (!add_attribute_subgraphs(loaded->model, node, printable(node.name), by_kernel, error)) {
      print_error("cannot list the kernels of '" + model_path + "': " + error);
      return kExitFailure;
    }
  }
  std::vector<KernelUse> uses;
  for (const auto& entry : by_kernel) uses.push_back(entry.second);
  const std::string header =
      make_header(model_path, name, *loaded, session, uses, has_subgraphs, inputs.optimize_for_size);
  if (output_path.empty()) {
    std::cout << header;
    return kExitSuccess;
  }
  if (!write_file(output_path, std::vector<unsigned char>(header.begin(), header.end()), error)) {
    print_error(error);
    return kExitFailure;
  }
  return kExitSuccess;
}

}  // namespace onnxmicro_cli
