// SPDX-License-Identifier: MIT
// fuzz_wire: arbitrary bytes through the protobuf wire reader and the ONNX message views. Every parse must end
// in ok or a clear error; after a successful proto::Model::parse every field the views expose is walked (the
// accessors trust a validated message, so this is where a validation gap turns into a bad read), and every view
// must point inside the input.
#include <cstdint>
#include <cstring>

#include "fuzz_common.hpp"

namespace {

namespace om = onnxmicro;
namespace proto = onnxmicro::proto;
using onnxmicro_fuzz::InputBounds;
using onnxmicro_fuzz::require;
using onnxmicro_fuzz::require_clear_error;

// Walks a message generically: every field, every length-delimited payload again as a message (most are not:
// that exercises the reader's error paths), down to a fixed depth.
void walk_wire(om::ByteSpan bytes, const InputBounds& bounds, int depth) {
  proto::WireReader reader(bytes);
  proto::WireField field;
  while (!reader.at_end()) {
    if (reader.next_field(field) != proto::WireError::none) {
      om::Status status = reader.error_status(proto::WireError::truncated_varint);
      require(!status.ok(), "WireReader::error_status of an error is ok");
      return;
    }
    if (field.type == proto::WireType::length_delimited) {
      bounds.check(field.payload, "wire payload outside the input");
      if (depth < 8) walk_wire(field.payload, bounds, depth + 1);
      std::size_t count = 0;
      proto::WireReader packed(field.payload);
      (void)packed.check_packed(proto::WireType::varint, field.number, count);
    }
  }
}

struct Walker {
  InputBounds bounds;
  std::uint64_t sink = 0;  // keeps values alive so the reads are not optimised away

  void shape(const proto::TensorShape& s) {
    bounds.check(s.bytes, "TensorShape bytes");
    for (proto::Dimension d : s.dims()) {
      bounds.check(d.param, "Dimension.dim_param");
      sink += static_cast<std::uint64_t>(d.value);
    }
  }
  void type(const proto::Type& t, int depth) {
    bounds.check(t.bytes, "Type bytes");
    sink += static_cast<std::uint64_t>(t.elem_type) + static_cast<std::uint64_t>(t.map_key_type);
    if (t.has_shape) shape(t.shape);
    const bool nested = t.kind == proto::Type::Kind::sequence || t.kind == proto::Type::Kind::optional ||
                        t.kind == proto::Type::Kind::map;
    if (nested && depth < 16) type(t.element(), depth + 1);
  }
  void value_info(const proto::ValueInfo& v) {
    bounds.check(v.name, "ValueInfo.name");
    if (v.has_type) type(v.type, 0);
  }
  void tensor(const proto::Tensor& t) {
    bounds.check(t.bytes, "Tensor bytes");
    bounds.check(t.name, "Tensor.name");
    bounds.check(t.raw_data, "Tensor.raw_data");
    for (float v : t.float_data()) sink += static_cast<std::uint64_t>(v == v);
    for (std::int64_t v : t.int32_data()) sink += static_cast<std::uint64_t>(v);
    for (std::int64_t v : t.int64_data()) sink += static_cast<std::uint64_t>(v);
    for (double v : t.double_data()) sink += static_cast<std::uint64_t>(v == v);
    for (std::uint64_t v : t.uint64_data()) sink += v;
    for (om::ByteSpan s : t.string_data()) bounds.check(s, "Tensor.string_data");
    for (proto::StringStringEntry e : t.external_data()) {
      bounds.check(e.key, "external_data key");
      bounds.check(e.value, "external_data value");
    }
    sink += t.stored_element_count();
    std::int64_t count = 0;
    om::Status status = t.element_count(count);
    require_clear_error(status, "Tensor::element_count");
    if (!status.ok() || !om::is_known_dtype(t.data_type)) return;
    const std::size_t bytes = om::byte_size_of(static_cast<om::DataType>(t.data_type), count);
    // Decode small tensors into an exactly sized buffer (ASan catches a write past it).
    if (bytes > 1u << 16) return;
    unsigned char* destination = new unsigned char[bytes + 1];
    require_clear_error(t.decode_to(destination, bytes), "Tensor::decode_to");
    delete[] destination;
  }
  void attribute(const proto::Attribute& a, int depth) {
    bounds.check(a.bytes, "Attribute bytes");
    bounds.check(a.name, "Attribute.name");
    bounds.check(a.ref_attr_name, "Attribute.ref_attr_name");
    bounds.check(a.s, "Attribute.s");
    sink += static_cast<std::uint64_t>(a.i) + static_cast<std::uint64_t>(a.f == a.f);
    (void)proto::attribute_type_name(a.type);
    for (float v : a.floats()) sink += static_cast<std::uint64_t>(v == v);
    for (std::int64_t v : a.ints()) sink += static_cast<std::uint64_t>(v);
    for (std::string_view s : a.strings()) bounds.check(s, "Attribute.strings");
    if (!a.t.empty()) tensor(proto::Tensor::unchecked(a.t));
    for (proto::Tensor t : a.tensors()) tensor(t);
    if (depth < 16) {
      if (!a.g.empty()) graph(proto::Graph::unchecked(a.g), depth + 1);
      for (om::ByteSpan g : a.graphs()) graph(proto::Graph::unchecked(g), depth + 1);
    }
  }
  void node(const proto::Node& n, int depth) {
    bounds.check(n.bytes, "Node bytes");
    bounds.check(n.name, "Node.name");
    bounds.check(n.op_type, "Node.op_type");
    bounds.check(n.domain, "Node.domain");
    for (std::string_view s : n.inputs()) bounds.check(s, "Node.input");
    for (std::string_view s : n.outputs()) bounds.check(s, "Node.output");
    for (proto::Attribute a : n.attributes()) {
      attribute(a, depth);
      proto::Attribute found;
      require(n.find_attribute(a.name, found), "Node::find_attribute misses a listed attribute");
    }
  }
  void graph(const proto::Graph& g, int depth) {
    bounds.check(g.bytes, "Graph bytes");
    bounds.check(g.name, "Graph.name");
    for (proto::Node n : g.nodes()) node(n, depth);
    for (proto::Tensor t : g.initializers()) tensor(t);
    for (proto::ValueInfo v : g.inputs()) value_info(v);
    for (proto::ValueInfo v : g.outputs()) value_info(v);
    for (proto::ValueInfo v : g.value_infos()) value_info(v);
    sink += g.nodes().size() + g.inputs().size();
  }
  void model(const proto::Model& m) {
    bounds.check(m.producer_name, "Model.producer_name");
    bounds.check(m.producer_version, "Model.producer_version");
    bounds.check(m.domain, "Model.domain");
    bounds.check(m.doc_string, "Model.doc_string");
    for (proto::OperatorSetId o : m.opset_imports()) bounds.check(o.domain, "OperatorSetId.domain");
    for (proto::StringStringEntry e : m.metadata_props()) bounds.check(e.value, "metadata_props value");
    for (proto::Function f : m.functions()) {
      bounds.check(f.name, "Function.name");
      for (proto::Node n : f.nodes()) node(n, 0);
      for (proto::Attribute a : f.attribute_defaults()) attribute(a, 0);
      for (proto::ValueInfo v : f.value_infos()) value_info(v);
      for (std::string_view s : f.attribute_names()) bounds.check(s, "Function.attribute");
    }
    if (m.has_graph) graph(m.graph, 0);
  }
};

}  // namespace

// External linkage: the compiler must keep the walk's reads that feed it.
extern std::uint64_t onnxmicro_fuzz_wire_sink;
std::uint64_t onnxmicro_fuzz_wire_sink = 0;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const om::ByteSpan bytes(data, size);
  Walker walker;
  walker.bounds = InputBounds{data, data + size};

  walk_wire(bytes, walker.bounds, 0);

  proto::Model model;
  om::Status status = proto::Model::parse(bytes, model);
  require_clear_error(status, "proto::Model::parse");
  if (status.ok()) walker.model(model);

  // The other messages the CLI and test-data readers parse from files of their own.
  proto::Tensor tensor;
  status = proto::Tensor::parse(bytes, 0, tensor);
  require_clear_error(status, "proto::Tensor::parse");
  if (status.ok()) walker.tensor(tensor);
  proto::Graph graph;
  status = proto::Graph::parse(bytes, 0, graph);
  require_clear_error(status, "proto::Graph::parse");
  if (status.ok()) walker.graph(graph, 0);
  proto::Sequence sequence;
  require_clear_error(proto::Sequence::parse(bytes, 0, sequence), "proto::Sequence::parse");
  proto::Optional optional;
  require_clear_error(proto::Optional::parse(bytes, 0, optional), "proto::Optional::parse");
  proto::Type type;
  status = proto::Type::parse(bytes, 0, type);
  require_clear_error(status, "proto::Type::parse");
  if (status.ok()) walker.type(type, 0);
  onnxmicro_fuzz_wire_sink += walker.sink;
  return 0;
}
