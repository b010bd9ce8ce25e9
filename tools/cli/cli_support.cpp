// SPDX-License-Identifier: MIT
#include "cli_support.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <system_error>

#include "utf8.hpp"

namespace onnxmicro_cli {

namespace fs = std::filesystem;

void print_error(std::string_view message) {
  std::cerr << "onnxmicro: error: " << printable(message) << '\n';
  std::cerr.flush();
}

std::string describe_status(const onnxmicro::Status& status) {
  std::string text = onnxmicro::status_code_name(status.code());
  if (!status.message_view().empty()) {
    text += ": ";
    text += std::string(status.message_view());
  }
  return text;
}

bool require_regular_file(const std::string& path, std::string_view what, std::string& error) {
  std::error_code ec;
  fs::file_status st = fs::status(path, ec);
  // Not-found is reported by type or by error code depending on the standard library; say it one way.
  if (st.type() == fs::file_type::not_found || ec == std::errc::no_such_file_or_directory) {
    error = std::string(what) + " '" + path + "': no such file or directory";
    return false;
  }
  if (ec) {
    error = std::string(what) + " '" + path + "': " + ec.message();
    return false;
  }
  if (!fs::is_regular_file(st)) {
    error = std::string(what) + " '" + path +
            "': " + (fs::is_directory(st) ? "is a directory, expected a file" : "is not a regular file");
    return false;
  }
  return true;
}

bool read_file(const std::string& path, std::vector<unsigned char>& bytes, std::string& error) {
  if (!require_regular_file(path, "cannot read", error)) return false;
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (file == nullptr) {
    error = "cannot open '" + path + "': " + std::strerror(errno);
    return false;
  }
  bytes.clear();
  unsigned char chunk[64 * 1024];
  for (;;) {
    std::size_t n = std::fread(chunk, 1, sizeof chunk, file);
    bytes.insert(bytes.end(), chunk, chunk + n);
    if (n < sizeof chunk) break;
  }
  bool failed = std::ferror(file) != 0;
  int saved_errno = errno;
  std::fclose(file);
  if (failed) {
    error = "cannot read '" + path + "': " + std::strerror(saved_errno);
    return false;
  }
  return true;
}

bool write_file(const std::string& path, const std::vector<unsigned char>& bytes, std::string& error) {
  std::FILE* file = std::fopen(path.c_str(), "wb");
  if (file == nullptr) {
    error = "cannot create '" + path + "': " + std::strerror(errno);
    return false;
  }
  bool ok = bytes.empty() || std::fwrite(bytes.data(), 1, bytes.size(), file) == bytes.size();
  int saved_errno = errno;
  if (std::fclose(file) != 0 && ok) {
    ok = false;
    saved_errno = errno;
  }
  if (!ok) {
    error = "cannot write '" + path + "': " + std::strerror(saved_errno);
    return false;
  }
  return true;
}

bool make_directories(const std::string& path, std::string& error) {
  std::error_code ec;
  fs::file_status st = fs::status(path, ec);
  if (!ec && fs::exists(st)) {
    if (fs::is_directory(st)) return true;
    error = "output directory '" + path + "' exists and is not a directory";
    return false;
  }
  fs::create_directories(path, ec);
  if (ec) {
    error = "cannot create output directory '" + path + "': " + ec.message();
    return false;
  }
  return true;
}

bool load_model(const std::string& path, LoadedModel& out, std::string& error) {
  out.path = path;
  if (!require_regular_file(path, "cannot open model", error)) return false;
  onnxmicro::Status status = onnxmicro::ModelBytes::from_file(path.c_str(), out.bytes);
  if (!status.ok()) {
    error = "cannot read model '" + path + "': " + describe_status(status);
    return false;
  }
  onnxmicro::LoadOptions options;
  options.base_directory = out.bytes.directory();
  status = out.model.load(out.bytes.bytes(), options);
  if (!status.ok()) {
    error = "cannot load model '" + path + "': " + describe_status(status);
    return false;
  }
  return true;
}

namespace {

void walk_graph(const onnxmicro::Model& model, const onnxmicro::proto::Graph& graph, const std::string& prefix,
                const std::function<void(const NodeVisit&)>& visit) {
  namespace proto = onnxmicro::proto;
  std::size_t index = 0;
  for (proto::Node node : graph.nodes()) {
    NodeVisit v;
    v.node = &node;
    v.label = prefix + (node.name.empty() ? "#" + std::to_string(index) : std::string(node.name));
    v.domain = std::string(onnxmicro::model::normalize_domain(node.domain));
    v.opset_version = model.opset_version(node.domain);
    visit(v);
    for (proto::Attribute attribute : node.attributes()) {
      std::string sub_prefix = v.label + "/" + std::string(attribute.name) + "/";
      if (attribute.type == proto::AttributeType::graph) {
        walk_graph(model, proto::Graph::unchecked(attribute.g), sub_prefix, visit);
      } else if (attribute.type == proto::AttributeType::graphs) {
        std::size_t k = 0;
        for (onnxmicro::ByteSpan bytes : attribute.graphs()) {
          walk_graph(model, proto::Graph::unchecked(bytes),
                     v.label + "/" + std::string(attribute.name) + "[" + std::to_string(k++) + "]/", visit);
        }
      }
    }
    ++index;
  }
}

}  // namespace

void for_each_node(const onnxmicro::Model& model, const std::function<void(const NodeVisit&)>& visit) {
  if (!model.proto().has_graph) return;
  walk_graph(model, model.proto().graph, "", visit);
}

std::string printable(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  std::size_t i = 0;
  while (i < text.size()) {
    auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {
      out += (c == '\n' || c == '\r' || c == '\t') ? ' ' : (c < 0x20 || c == 0x7f) ? '?' : static_cast<char>(c);
      ++i;
      continue;
    }
    std::size_t length = utf8_sequence_length(text, i);
    if (length == 0) {
      out += '?';
      ++i;
    } else {
      out.append(text.substr(i, length));
      i += length;
    }
  }
  return out;
}

std::string display_domain(std::string_view domain) {
  return std::string(onnxmicro::model::display_domain(onnxmicro::model::normalize_domain(domain)));
}

std::string format_shape(const onnxmicro::Shape& shape) {
  std::string out = "[";
  for (int i = 0; i < shape.rank(); ++i) {
    if (i) out += ',';
    out += shape[i] < 0 ? std::string("?") : std::to_string(shape[i]);
  }
  return out + "]";
}

}  // namespace onnxmicro_cli
