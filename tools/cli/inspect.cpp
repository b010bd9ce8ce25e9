// SPDX-License-Identifier: MIT
// `onnxmicro inspect MODEL [--json]`: what a model declares, without needing any kernel.
#include <algorithm>
#include <charconv>
#include <cstdint>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "cli_support.hpp"
#include "commands.hpp"
#include "json_writer.hpp"

namespace onnxmicro_cli {
namespace {

namespace proto = onnxmicro::proto;

constexpr const char kUsage[] = "usage: onnxmicro inspect MODEL [--json]";
constexpr const char kHelp[] =
    "usage: onnxmicro inspect MODEL [--json]\n"
    "\n"
    "Prints what MODEL declares: IR version, producer, opset imports, graph inputs and outputs (dtype and\n"
    "dims; symbolic dims by name, unknown dims as ?), the number and total bytes of initializers, external\n"
    "data references (tensor, location, offset, length) and a histogram of ops as domain:op@opset count.\n"
    "Graph inputs that are initializers (IR < 4 models) are counted as initializers, not listed as inputs.\n"
    "The model is loaded and validated, but no kernel is needed.\n"
    "\n"
    "Options:\n"
    "  --json      print one JSON object with the keys ir_version, producer_name, producer_version,\n"
    "              opset_imports, inputs, outputs, initializers, external_data, ops\n"
    "  -h, --help  show this help\n";

struct Dim {
  bool known = false;
  std::int64_t value = 0;
  std::string param;  ///< symbolic name; empty and !known means unknown ("?")
};

struct ValueType {
  std::string dtype;       ///< "float", or "sequence(float)", "optional(...)", "map(int64,float)", "unknown"
  bool has_shape = false;  ///< tensors with a declared shape only
  std::vector<Dim> dims;
};

struct IoValue {
  std::string name;
  ValueType type;
};

struct ExternalReference {
  std::string tensor;
  std::string location;
  std::optional<std::int64_t> offset;
  std::optional<std::int64_t> length;
};

struct OpKey {
  std::string domain;  // normalised: "" for ai.onnx
  std::string op_type;
  std::int64_t version;
  bool operator<(const OpKey& o) const {
    return std::tie(domain, op_type, version) < std::tie(o.domain, o.op_type, o.version);
  }
};

struct ModelSummary {
  std::int64_t ir_version = 0;
  std::string producer_name;
  std::string producer_version;
  std::vector<std::pair<std::string, std::int64_t>> opset_imports;  // normalised domain, version
  std::vector<IoValue> inputs;
  std::vector<IoValue> outputs;
  std::uint64_t initializer_count = 0;
  std::uint64_t initializer_bytes = 0;
  std::vector<ExternalReference> external_data;
  std::map<OpKey, std::uint64_t> ops;
  std::uint64_t node_count = 0;
};

std::string tensor_dtype_text(std::int32_t elem_type) {
  if (elem_type == 0) return "undefined";
  if (!onnxmicro::is_known_dtype(elem_type)) return "dtype(" + std::to_string(elem_type) + ")";
  return onnxmicro::dtype_name(static_cast<onnxmicro::DataType>(elem_type));
}

std::string nested_type_text(const proto::Type& type) {
  switch (type.kind) {
    case proto::Type::Kind::tensor: return tensor_dtype_text(type.elem_type);
    case proto::Type::Kind::sparse_tensor: return "sparse_tensor(" + tensor_dtype_text(type.elem_type) + ")";
    case proto::Type::Kind::sequence: return "sequence(" + nested_type_text(type.element()) + ")";
    case proto::Type::Kind::optional: return "optional(" + nested_type_text(type.element()) + ")";
    case proto::Type::Kind::map:
      return "map(" + tensor_dtype_text(type.map_key_type) + "," + nested_type_text(type.element()) + ")";
    case proto::Type::Kind::unknown: break;
  }
  return "unknown";
}

ValueType describe_type(const proto::ValueInfo& info) {
  ValueType out;
  if (!info.has_type) {
    out.dtype = "unknown";
    return out;
  }
  out.dtype = nested_type_text(info.type);
  if (info.type.kind == proto::Type::Kind::tensor && info.type.has_shape) {
    out.has_shape = true;
    for (proto::Dimension d : info.type.shape.dims()) {
      Dim dim;
      dim.known = d.has_value;
      dim.value = d.value;
      if (!d.has_value) dim.param = std::string(d.param);
      out.dims.push_back(dim);
    }
  }
  return out;
}

std::string dims_text(const ValueType& type) {
  if (!type.has_shape) return "(shape not declared)";
  std::string out = "[";
  for (std::size_t i = 0; i < type.dims.size(); ++i) {
    if (i) out += ',';
    const Dim& d = type.dims[i];
    out += d.known ? std::to_string(d.value) : (d.param.empty() ? std::string("?") : printable(d.param));
  }
  return out + "]";
}

std::optional<std::int64_t> parse_int(std::string_view text) {
  std::int64_t value = 0;
  auto result = std::from_chars(text.data(), text.data() + text.size(), value);
  if (result.ec != std::errc() || result.ptr != text.data() + text.size()) return std::nullopt;
  return value;
}

// Logical byte size of an initializer: elements x element size (string tensors: the bytes of their strings).
std::uint64_t initializer_bytes(const proto::Tensor& tensor) {
  if (tensor.data_type == static_cast<std::int32_t>(onnxmicro::DataType::string)) {
    std::uint64_t total = 0;
    for (onnxmicro::ByteSpan s : tensor.string_data()) total += s.size();
    return total;
  }
  std::int64_t count = 0;
  if (!tensor.element_count(count).ok() || !onnxmicro::is_known_dtype(tensor.data_type)) return 0;
  return onnxmicro::byte_size_of(static_cast<onnxmicro::DataType>(tensor.data_type), count);
}

ModelSummary summarize(const onnxmicro::Model& model) {
  ModelSummary s;
  const proto::Model& m = model.proto();
  s.ir_version = m.ir_version;
  s.producer_name = std::string(m.producer_name);
  s.producer_version = std::string(m.producer_version);
  for (const onnxmicro::model::OpsetImport& opset : model.opset_imports()) {
    s.opset_imports.emplace_back(std::string(opset.domain), opset.version);
  }

  const onnxmicro::model::Graph& graph = model.graph();
  std::set<std::string_view> initializer_names;
  for (onnxmicro::model::ValueId id : graph.initializers) {
    const onnxmicro::model::Value& value = graph.values[static_cast<std::size_t>(id)];
    initializer_names.insert(value.name);
    ++s.initializer_count;
    s.initializer_bytes += initializer_bytes(value.initializer());
    if (value.initializer().data_location != proto::DataLocation::external) continue;
    ExternalReference ref;
    ref.tensor = std::string(value.name);
    for (proto::StringStringEntry entry : value.initializer().external_data()) {
      if (entry.key == "location") ref.location = std::string(entry.value);
      if (entry.key == "offset") ref.offset = parse_int(entry.value);
      if (entry.key == "length") ref.length = parse_int(entry.value);
    }
    s.external_data.push_back(ref);
  }

  if (m.has_graph) {
    for (proto::ValueInfo info : m.graph.inputs()) {
      if (initializer_names.count(info.name) != 0) continue;  // IR < 4: initializers listed as inputs
      s.inputs.push_back(IoValue{std::string(info.name), describe_type(info)});
    }
    for (proto::ValueInfo info : m.graph.outputs()) {
      s.outputs.push_back(IoValue{std::string(info.name), describe_type(info)});
    }
  }

  for_each_node(model, [&s](const NodeVisit& visit) {
    ++s.ops[OpKey{visit.domain, std::string(visit.node->op_type), visit.opset_version}];
    ++s.node_count;
  });
  return s;
}

void print_text(const std::string& path, const ModelSummary& s) {
  std::ostream& out = std::cout;
  out << "model: " << printable(path) << '\n';
  out << "ir_version: " << s.ir_version << '\n';
  std::string producer = printable(s.producer_name);
  if (!s.producer_version.empty()) producer += (producer.empty() ? "" : " ") + printable(s.producer_version);
  out << "producer: " << (producer.empty() ? "(none)" : producer) << '\n';
  out << "opset_imports:";
  for (std::size_t i = 0; i < s.opset_imports.size(); ++i) {
    out << (i ? ", " : " ") << printable(display_domain(s.opset_imports[i].first)) << '@' << s.opset_imports[i].second;
  }
  out << '\n';
  auto print_values = [&](const char* title, const std::vector<IoValue>& values) {
    out << title << ": " << values.size() << '\n';
    for (const IoValue& v : values) {
      out << "  " << printable(v.name) << ": " << printable(v.type.dtype) << ' ' << dims_text(v.type) << '\n';
    }
  };
  print_values("inputs", s.inputs);
  print_values("outputs", s.outputs);
  out << "initializers: " << s.initializer_count << " (" << s.initializer_bytes << " bytes)\n";
  out << "external_data: " << s.external_data.size() << '\n';
  for (const ExternalReference& ref : s.external_data) {
    out << "  " << printable(ref.tensor) << ": location=" << printable(ref.location)
        << " offset=" << (ref.offset ? std::to_string(*ref.offset) : std::string("0"))
        << " length=" << (ref.length ? std::to_string(*ref.length) : std::string("(to end of file)")) << '\n';
  }
  std::size_t width = 0;
  std::vector<std::pair<std::string, std::uint64_t>> rows;
  for (const auto& [key, count] : s.ops) {
    std::string label =
        printable(display_domain(key.domain)) + ":" + printable(key.op_type) + "@" + std::to_string(key.version);
    width = std::max(width, label.size());
    rows.emplace_back(label, count);
  }
  out << "ops: " << s.node_count << " nodes, " << rows.size() << " distinct\n";
  for (const auto& [label, count] : rows) {
    out << "  " << label << std::string(width - label.size() + 2, ' ') << count << '\n';
  }
}

void print_json(const ModelSummary& s) {
  JsonWriter json(std::cout);
  json.begin_object();
  json.key("ir_version");
  json.value(s.ir_version);
  json.key("producer_name");
  json.value(s.producer_name);
  json.key("producer_version");
  json.value(s.producer_version);
  json.key("opset_imports");
  json.begin_array();
  for (const auto& [domain, version] : s.opset_imports) {
    json.begin_object(true);
    json.key("domain");
    json.value(domain);
    json.key("version");
    json.value(version);
    json.end_object();
  }
  json.end_array();
  auto write_values = [&json](const char* key, const std::vector<IoValue>& values) {
    json.key(key);
    json.begin_array();
    for (const IoValue& v : values) {
      json.begin_object(true);
      json.key("name");
      json.value(v.name);
      json.key("dtype");
      json.value(v.type.dtype);
      json.key("shape");
      if (v.type.has_shape) {
        json.begin_array(true);
        for (const Dim& d : v.type.dims) {
          if (d.known) {
            json.value(d.value);
          } else {
            json.value(d.param.empty() ? std::string("?") : d.param);
          }
        }
        json.end_array();
      } else {
        json.null();
      }
      json.end_object();
    }
    json.end_array();
  };
  write_values("inputs", s.inputs);
  write_values("outputs", s.outputs);
  json.key("initializers");
  json.begin_object(true);
  json.key("count");
  json.value(s.initializer_count);
  json.key("bytes");
  json.value(s.initializer_bytes);
  json.end_object();
  json.key("external_data");
  json.begin_array();
  for (const ExternalReference& ref : s.external_data) {
    json.begin_object(true);
    json.key("name");
    json.value(ref.tensor);
    json.key("location");
    json.value(ref.location);
    json.key("offset");
    json.value(ref.offset ? *ref.offset : std::int64_t{0});
    json.key("length");
    if (ref.length) {
      json.value(*ref.length);
    } else {
      json.null();
    }
    json.end_object();
  }
  json.end_array();
  json.key("ops");
  json.begin_array();
  for (const auto& [key, count] : s.ops) {
    json.begin_object(true);
    json.key("domain");
    json.value(key.domain);
    json.key("op_type");
    json.value(key.op_type);
    json.key("version");
    json.value(key.version);
    json.key("count");
    json.value(count);
    json.end_object();
  }
  json.end_array();
  json.end_object();
  json.finish();
}

}  // namespace

int inspect_command(const Args& args) {
  std::string model_path;
  bool as_json = false;
  for (const std::string& arg : args) {
    if (is_help_flag(arg)) {
      std::cout << kHelp;
      return kExitSuccess;
    }
  }
  for (const std::string& arg : args) {
    if (arg == "--json") {
      as_json = true;
    } else if (arg.rfind("-", 0) == 0 && arg.size() > 1) {
      return usage_error("inspect", kUsage, "unknown option '" + printable(arg) + "' for 'inspect'");
    } else if (model_path.empty()) {
      model_path = arg;
    } else {
      return usage_error("inspect", kUsage, "unexpected argument '" + printable(arg) + "' (one MODEL only)");
    }
  }
  if (model_path.empty()) return usage_error("inspect", kUsage, "missing MODEL");

  auto loaded = std::make_unique<LoadedModel>();
  std::string error;
  if (!load_model(model_path, *loaded, error)) {
    print_error(error);
    return kExitFailure;
  }
  ModelSummary summary = summarize(loaded->model);
  if (as_json) {
    print_json(summary);
  } else {
    print_text(model_path, summary);
  }
  return kExitSuccess;
}

}  // namespace onnxmicro_cli
