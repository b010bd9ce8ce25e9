// SPDX-License-Identifier: MIT
// Every intermediate tensor of a run, through the session's node observer (Session::node_output): the tap that
// `onnxmicro run --dump` and `onnxmicro compare --layerwise` read them with, the .npy writer, and the dump itself
// (one file per tensor and an index).
#pragma once
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <onnxmicro/onnxmicro.hpp>

namespace onnxmicro_cli {

/// Calls `on_output` for every output of every node a run computes, inside the observer's after_node (the view is
/// valid only during the call: keep a copy). Nodes folded at prepare are not run: see Session::value().
class OutputTap final : public onnxmicro::NodeObserver {
 public:
  using Callback = std::function<void(std::size_t node, std::size_t k, onnxmicro::model::ValueId id,
                                      const onnxmicro::ConstTensorView& view)>;
  OutputTap(const onnxmicro::Session& session, Callback on_output)
      : session_(session), on_output_(std::move(on_output)) {}
  void before_node(std::size_t) noexcept override {}
  void after_node(std::size_t node) noexcept override {
    const onnxmicro::model::Node& n = *session_.node_reports()[node].node;
    for (std::size_t k = 0; k < n.outputs.size(); ++k) {
      if (n.outputs[k] == onnxmicro::model::kNoValue) continue;
      on_output_(node, k, n.outputs[k], session_.node_output(node, k));
    }
  }

 private:
  const onnxmicro::Session& session_;
  Callback on_output_;
};

/// NumPy's dtype string for `dtype` ("<f4", "<i8", "|b1", ...); nullptr for dtypes NumPy has no equivalent of
/// (bfloat16, string, ...).
const char* npy_descr(onnxmicro::DataType dtype);

/// `value` as a .npy file (format 1.0, C order). Fails for dtypes npy_descr() does not know.
bool encode_npy(const onnxmicro::ConstTensorView& value, std::vector<unsigned char>& out, std::string& error);

/// A tensor name as a file name: characters other than [A-Za-z0-9._-] become '_', at most 64 characters, never
/// empty, "." or "..".
std::string sanitize_file_name(std::string_view name);

class JsonWriter;

/// `onnxmicro run --dump DIR`: prepare the session, begin() (creates DIR, writes the values folded at prepare, and
/// becomes the session's node observer), run, finish() (graph outputs no node computes, DIR/index.json). Each tensor
/// goes to DIR/NNNN_<sanitised name>.npy (.pb TensorProto for dtypes NumPy lacks), NNNN numbering the tensors in
/// the order of the nodes that produce them.
class IntermediateDump {
 public:
  IntermediateDump() = default;
  IntermediateDump(const IntermediateDump&) = delete;
  IntermediateDump& operator=(const IntermediateDump&) = delete;
  ~IntermediateDump();

  bool begin(onnxmicro::Session& session, const std::string& dir, std::string& error);
  bool finish(std::string& error);

 private:
  struct Entry {
    std::string name;
    onnxmicro::model::ValueId id = onnxmicro::model::kNoValue;
    std::ptrdiff_t node = -1;  ///< index of Session::node_reports(), -1 for a graph output no node computes
    const onnxmicro::model::Node* model_node = nullptr;  ///< for a tensor the run never computed: its model node
    std::string file;                                    ///< empty when not written
    std::string format;                                  ///< "npy" or "pb"
    std::string note;  ///< why it was not written, or how it was computed (folded, fused)
    onnxmicro::DataType dtype = onnxmicro::DataType::undefined;
    onnxmicro::Shape shape;
  };
  void write(Entry& entry, const onnxmicro::ConstTensorView& view);
  // The steps of finish().
  void write_folded_values();
  void describe_entries(std::vector<unsigned char>& listed);
  void list_absorbed_tensors(std::vector<unsigned char>& listed);
  std::string index_json() const;
  void write_entry_json(JsonWriter& json, const Entry& entry) const;

  onnxmicro::Session* session_ = nullptr;
  std::unique_ptr<OutputTap> tap_;
  std::string dir_;
  std::vector<Entry> entries_;
  std::vector<std::vector<std::ptrdiff_t>> entry_of_;  ///< per node and output: its entry (-1: none)
  std::string error_;                                  ///< the first write that failed
};

}  // namespace onnxmicro_cli
