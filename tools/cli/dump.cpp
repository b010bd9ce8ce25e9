// SPDX-License-Identifier: MIT
#include "dump.hpp"

#include <cstdio>
#include <cstring>
#include <sstream>

#include "cli_support.hpp"
#include "json_writer.hpp"
#include "tensor_io.hpp"

namespace onnxmicro_cli {

using onnxmicro::DataType;

const char* npy_descr(DataType dtype) {
  switch (dtype) {
    case DataType::float32: return "<f4";
    case DataType::float64: return "<f8";
    case DataType::float16: return "<f2";
    case DataType::int64: return "<i8";
    case DataType::int32: return "<i4";
    case DataType::int16: return "<i2";
    case DataType::int8: return "|i1";
    case DataType::uint8: return "|u1";
    case DataType::uint16: return "<u2";
    case DataType::uint32: return "<u4";
    case DataType::uint64: return "<u8";
    case DataType::boolean: return "|b1";
    default: return nullptr;
  }
}

bool encode_npy(const onnxmicro::ConstTensorView& value, std::vector<unsigned char>& out, std::string& error) {
  const char* descr = npy_descr(value.dtype);
  if (descr == nullptr) {
    error = std::string("a ") + onnxmicro::dtype_name(value.dtype) + " tensor has no NumPy dtype";
    return false;
  }
  std::string header = std::string("{'descr': '") + descr + "', 'fortran_order': False, 'shape': (";
  for (int d = 0; d < value.shape.rank(); ++d) {
    header += std::to_string(value.shape[d]);
    if (d + 1 < value.shape.rank() || value.shape.rank() == 1) header += value.shape.rank() == 1 ? "," : ", ";
  }
  header += "), }";
  // Magic (6), version (2), header length (2), then the header padded with spaces to a multiple of 64, ending '\n'.
  const std::size_t unpadded = 10 + header.size() + 1;
  header.append((64 - unpadded % 64) % 64, ' ');
  header += '\n';
  const std::size_t bytes = onnxmicro::byte_size_of(value.dtype, value.shape.element_count());
  out.clear();
  out.reserve(10 + header.size() + bytes);
  const unsigned char magic[] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0};
  out.insert(out.end(), magic, magic + sizeof magic);
  out.push_back(static_cast<unsigned char>(header.size() & 0xff));
  out.push_back(static_cast<unsigned char>(header.size() >> 8));
  out.insert(out.end(), header.begin(), header.end());
  if (bytes > 0) {
    const auto* data = static_cast<const unsigned char*>(value.data);
    out.insert(out.end(), data, data + bytes);
  }
  return true;
}

std::string sanitize_file_name(std::string_view name) {
  constexpr std::size_t kMaxLength = 64;
  std::string out;
  for (char c : name.substr(0, kMaxLength)) {
    const bool keep =
        (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
    out += keep ? c : '_';
  }
  if (out.empty() || out == "." || out == "..") out = "tensor";
  return out;
}

namespace {

std::string node_label(const onnxmicro::model::Node& node, std::size_t index) {
  return node.name.empty() ? "#" + std::to_string(index) : std::string(node.name);
}

std::string describe_node(const onnxmicro::model::Node& node, std::size_t index) {
  return std::string(node.op_type) + " '" + printable(node_label(node, index)) + "'";
}

}  // namespace

IntermediateDump::~IntermediateDump() {
  if (session_ != nullptr && session_->node_observer() == tap_.get()) session_->set_node_observer(nullptr);
}

void IntermediateDump::write(Entry& entry, const onnxmicro::ConstTensorView& view) {
  if (view.dtype == DataType::undefined) {
    entry.note = "not on the host: the device keeps it in its memory";
    return;
  }
  entry.dtype = view.dtype;
  entry.shape = view.shape;
  if (!error_.empty()) return;  // (after a failed write, only the index is attempted)
  char number[24];
  std::snprintf(number, sizeof number, "%04zu_", static_cast<std::size_t>(&entry - entries_.data()));
  std::vector<unsigned char> bytes;
  std::string why;
  if (encode_npy(view, bytes, why)) {
    entry.format = "npy";
  } else if (encode_tensor_proto(entry.name, view, bytes, why)) {
    entry.format = "pb";
    entry.note = std::string(onnxmicro::dtype_name(view.dtype)) + " has no NumPy dtype: an onnx TensorProto";
  } else {
    entry.note = "not written: " + why;
    return;
  }
  const std::string file = number + sanitize_file_name(entry.name) + "." + entry.format;
  if (!write_file(dir_ + "/" + file, bytes, error_)) return;
  entry.file = file;
}

bool IntermediateDump::begin(onnxmicro::Session& session, const std::string& dir, std::string& error) {
  session_ = &session;
  dir_ = dir;
  if (!make_directories(dir, error)) return false;
  // An index at once: an unwritable directory fails here, before the run.
  if (!write_file(dir + "/index.json", std::vector<unsigned char>{'{', '}', '\n'}, error)) return false;
  const onnxmicro::Span<const onnxmicro::NodeReport> reports = session.node_reports();
  const onnxmicro::model::Graph& graph = session.model()->graph();
  std::vector<unsigned char> produced(graph.values.size(), 0);
  entry_of_.assign(reports.size(), {});
  for (std::size_t i = 0; i < reports.size(); ++i) {
    const onnxmicro::model::Node& node = *reports[i].node;
    entry_of_[i].assign(node.outputs.size(), -1);
    for (std::size_t k = 0; k < node.outputs.size(); ++k) {
      const onnxmicro::model::ValueId id = node.outputs[k];
      if (id == onnxmicro::model::kNoValue) continue;
      produced[static_cast<std::size_t>(id)] = 1;
      entry_of_[i][k] = static_cast<std::ptrdiff_t>(entries_.size());
      Entry entry;
      entry.name = std::string(graph.values[static_cast<std::size_t>(id)].name);
      entry.id = id;
      entry.node = static_cast<std::ptrdiff_t>(i);
      entries_.push_back(std::move(entry));
    }
  }
  for (onnxmicro::model::ValueId id : graph.outputs) {
    if (produced[static_cast<std::size_t>(id)]) continue;  // (a graph input or initializer given out as it is)
    produced[static_cast<std::size_t>(id)] = 1;
    Entry entry;
    entry.name = std::string(graph.values[static_cast<std::size_t>(id)].name);
    entry.id = id;
    entries_.push_back(std::move(entry));
  }
  tap_ = std::make_unique<OutputTap>(session, [this](std::size_t node, std::size_t k, onnxmicro::model::ValueId,
                                                     const onnxmicro::ConstTensorView& view) {
    if (node >= entry_of_.size() || k >= entry_of_[node].size() || entry_of_[node][k] < 0) return;
    write(entries_[static_cast<std::size_t>(entry_of_[node][k])], view);
  });
  session.set_node_observer(tap_.get());
  return true;
}

bool IntermediateDump::finish(std::string& error) {
  session_->set_node_observer(nullptr);
  std::vector<unsigned char> listed(session_->model()->graph().values.size(), 0);
  write_folded_values();
  describe_entries(listed);
  list_absorbed_tensors(listed);
  const std::string index = index_json();
  if (!error_.empty()) {
    error = error_;
    return false;
  }
  return write_file(dir_ + "/index.json", std::vector<unsigned char>(index.begin(), index.end()), error);
}

// Values folded at prepare are constants the run did not compute: written from where the session keeps them.
void IntermediateDump::write_folded_values() {
  const onnxmicro::Span<const onnxmicro::NodeReport> reports = session_->node_reports();
  for (std::size_t i = 0; i < reports.size() && i < entry_of_.size(); ++i) {
    if (!reports[i].folded) continue;
    const onnxmicro::model::Node& node = *reports[i].node;
    for (std::size_t k = 0; k < node.outputs.size() && k < entry_of_[i].size(); ++k) {
      if (entry_of_[i][k] < 0) continue;
      Entry& entry = entries_[static_cast<std::size_t>(entry_of_[i][k])];
      write(entry, session_->value(node.outputs[k]));
      if (entry.note.empty()) entry.note = "folded at prepare (a constant)";
    }
  }
}

// Graph outputs no node computes are written from the session; a fused node's entry says what it holds.
void IntermediateDump::describe_entries(std::vector<unsigned char>& listed) {
  const onnxmicro::Span<const onnxmicro::NodeReport> reports = session_->node_reports();
  for (Entry& entry : entries_) {
    listed[static_cast<std::size_t>(entry.id)] = 1;
    if (entry.node < 0) {
      write(entry, session_->value(entry.id));
      if (entry.note.empty()) entry.note = "a graph output no node computes";
      continue;
    }
    const std::size_t i = static_cast<std::size_t>(entry.node);
    const onnxmicro::model::Node* activation = session_->fused_activation(i);
    if (activation != nullptr && entry.note.empty()) {
      entry.note = "computed by " + describe_node(*reports[i].node, i) + " with the " + describe_node(*activation, 0) +
                   " fused into it (that node's values)";
    }
  }
}

// Tensors of the model that this run never computed: absorbed by a fusion.
void IntermediateDump::list_absorbed_tensors(std::vector<unsigned char>& listed) {
  const onnxmicro::model::Graph& graph = session_->model()->graph();
  for (const onnxmicro::model::Node& node : graph.nodes) {
    for (onnxmicro::model::ValueId id : node.outputs) {
      if (id == onnxmicro::model::kNoValue || listed[static_cast<std::size_t>(id)]) continue;
      listed[static_cast<std::size_t>(id)] = 1;
      Entry entry;
      entry.name = std::string(graph.values[static_cast<std::size_t>(id)].name);
      entry.id = id;
      entry.model_node = &node;
      entry.note = "not computed: " + describe_node(node, static_cast<std::size_t>(&node - graph.nodes.data())) +
                   " was fused with the node that reads it (SessionOptions::fuse_activations, fuse_qdq)";
      entries_.push_back(std::move(entry));
    }
  }
}

std::string IntermediateDump::index_json() const {
  std::ostringstream text;
  JsonWriter json(text);
  json.begin_object();
  json.key("tensors");
  json.begin_array();
  for (const Entry& entry : entries_) write_entry_json(json, entry);
  json.end_array();
  json.end_object();
  json.finish();
  return text.str();
}

void IntermediateDump::write_entry_json(JsonWriter& json, const Entry& entry) const {
  auto value_or_null = [&json](const std::string& text) { text.empty() ? json.null() : json.value(text); };
  json.begin_object(/*compact=*/true);
  json.key("name");
  json.value(entry.name);
  json.key("file");
  value_or_null(entry.file);
  json.key("format");
  value_or_null(entry.file.empty() ? std::string() : entry.format);
  if (entry.node >= 0) {
    const std::size_t i = static_cast<std::size_t>(entry.node);
    const onnxmicro::NodeReport& report = session_->node_reports()[i];
    json.key("node");
    json.value(report.node->name);
    json.key("node_index");
    json.value(static_cast<std::int64_t>(i));
    json.key("op");
    json.value(report.node->op_type);
    if (!report.node->domain.empty()) {
      json.key("domain");
      json.value(report.node->domain);
    }
    json.key("placement");
    json.value(onnxmicro::placement_name(report.placement));
  } else if (entry.model_node != nullptr) {
    json.key("node");
    json.value(entry.model_node->name);
    json.key("op");
    json.value(entry.model_node->op_type);
  } else {
    json.key("node");
    json.null();
  }
  json.key("dtype");
  if (entry.dtype == DataType::undefined) {  // (never computed, or kept in device memory)
    json.null();
    json.key("shape");
    json.null();
  } else {
    json.value(onnxmicro::dtype_name(entry.dtype));
    json.key("shape");
    json.begin_array(/*compact=*/true);
    for (int d = 0; d < entry.shape.rank(); ++d) json.value(static_cast<std::int64_t>(entry.shape[d]));
    json.end_array();
  }
  if (!entry.note.empty()) {
    json.key("note");
    json.value(entry.note);
  }
  json.end_object();
}

}  // namespace onnxmicro_cli
