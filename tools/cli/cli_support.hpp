// SPDX-License-Identifier: MIT
// Shared pieces of the onnxmicro CLI: error reporting, file I/O, model loading and text formatting.
// Functions that can fail return false and put a one-line message (without the "onnxmicro: error: "
// prefix) into `error`; main() prints it and exits with kExitFailure.
#pragma once
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <onnxmicro/onnxmicro.hpp>

namespace onnxmicro_cli {

constexpr int kExitSuccess = 0;
constexpr int kExitFailure = 1;  ///< the command ran and failed (bad model, bad input, unsupported op)
constexpr int kExitUsage = 2;    ///< the command line itself is wrong

/// Prints "onnxmicro: error: <message>" as one line on stderr (the message passes through printable()).
void print_error(std::string_view message);

/// A status message with its code, e.g. "invalid_model: graph.node[3]: ...".
std::string describe_status(const onnxmicro::Status& status);

/// Reads a whole regular file. Refuses directories, FIFOs and devices (they could block or never end).
bool read_file(const std::string& path, std::vector<unsigned char>& bytes, std::string& error);
/// Fails unless `path` names an existing regular file (for a clear message before anything else runs).
bool require_regular_file(const std::string& path, std::string_view what, std::string& error);
/// Writes `bytes` to `path`, replacing it; checks every write and the close.
bool write_file(const std::string& path, const std::vector<unsigned char>& bytes, std::string& error);
/// Creates `path` and missing parents (like mkdir -p); fails when it exists and is not a directory.
bool make_directories(const std::string& path, std::string& error);

/// A model file mapped and loaded (validated). Neither member can move once loaded (views point into the
/// bytes), so it is always held through a unique_ptr.
struct LoadedModel {
  std::string path;
  onnxmicro::ModelBytes bytes;  // declared first: the model's views point into it
  onnxmicro::Model model;
};
/// Maps and loads `path` into `out`.
bool load_model(const std::string& path, LoadedModel& out, std::string& error);

/// A node met while walking a model, subgraphs included.
struct NodeVisit {
  const onnxmicro::proto::Node* node = nullptr;
  /// Where it is: the node name ("#index" when unnamed); inside a subgraph prefixed by the enclosing node's
  /// label and the attribute ("loop/body/add").
  std::string label;
  std::string domain;              ///< normalised: "" for ai.onnx
  std::int64_t opset_version = 0;  ///< the model's imported version of the domain (-1 when not imported)
};
/// Calls `visit` for every node of the main graph and, depth first, of every subgraph attribute.
void for_each_node(const onnxmicro::Model& model, const std::function<void(const NodeVisit&)>& visit);

/// Text as a user reads it, one line: newlines and tabs become spaces, other control characters and bytes
/// that are not valid UTF-8 become '?', so names from a model cannot break the output or the terminal.
std::string printable(std::string_view text);
/// "ai.onnx" for the default domain, the domain otherwise.
std::string display_domain(std::string_view domain);
/// "[1,3,224,224]"; unknown dims as "?".
std::string format_shape(const onnxmicro::Shape& shape);

}  // namespace onnxmicro_cli
