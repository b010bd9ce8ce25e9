// SPDX-License-Identifier: MIT
// Test-only protobuf encoder: hand-encodes messages (well-formed or deliberately broken) for tests, plus small
// builders for ONNX messages so a test can write a whole model in C++:
//
//   using namespace onnxmicro_test;
//   ProtoWriter graph = make_graph("g", {make_node("Relu", {"x"}, {"y"})},
//                                  {make_value_info("x", DataType::float32, {2})},
//                                  {make_value_info("y", DataType::float32, {2})});
//   std::vector<unsigned char> bytes = make_model(graph).bytes();
//
// Uses the heap and the standard library freely: never include it from include/.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "onnxmicro/onnxmicro.hpp"

namespace onnxmicro_test {

using onnxmicro::DataType;

/// Protobuf wire types (numbers as on the wire).
enum class Wire : std::uint8_t {
  varint = 0,
  fixed64 = 1,
  length_delimited = 2,
  start_group = 3,
  end_group = 4,
  fixed32 = 5
};

/// Appends protobuf encodings to a byte buffer. Every method returns *this for chaining.
class ProtoWriter {
 public:
  // ---- Raw building blocks (for malformed input) ----

  /// A varint of `value` in the fewest bytes.
  ProtoWriter& raw_varint(std::uint64_t value) {
    while (value >= 0x80) {
      bytes_.push_back(static_cast<unsigned char>(value | 0x80));
      value >>= 7;
    }
    bytes_.push_back(static_cast<unsigned char>(value));
    return *this;
  }
  /// A tag: (field << 3) | wire type. Any field number and wire type, including invalid ones.
  ProtoWriter& tag(std::uint32_t field, Wire wire) {
    return raw_varint((std::uint64_t{field} << 3) | static_cast<unsigned>(wire));
  }
  ProtoWriter& tag(std::uint32_t field, unsigned wire_type) {
    return raw_varint((std::uint64_t{field} << 3) | wire_type);
  }
  ProtoWriter& raw_bytes(std::initializer_list<unsigned char> bytes) {
    bytes_.insert(bytes_.end(), bytes.begin(), bytes.end());
    return *this;
  }
  ProtoWriter& raw_bytes(const void* data, std::size_t size) {
    const auto* p = static_cast<const unsigned char*>(data);
    bytes_.insert(bytes_.end(), p, p + size);
    return *this;
  }
  ProtoWriter& raw_fixed32(std::uint32_t value) { return raw_little_endian(value, 4); }
  ProtoWriter& raw_fixed64(std::uint64_t value) { return raw_little_endian(value, 8); }
  /// Appends another writer's bytes as they are (concatenating messages merges them, as in protobuf).
  ProtoWriter& append(const ProtoWriter& other) { return raw_bytes(other.bytes_.data(), other.bytes_.size()); }

  // ---- Fields ----

  /// Varint field (uint32/uint64/bool, or an enum/int given as unsigned).
  ProtoWriter& varint_field(std::uint32_t field, std::uint64_t value) {
    return tag(field, Wire::varint).raw_varint(value);
  }
  /// int32/int64/enum field: negative values are sign-extended to 10 bytes, as protobuf writes them.
  ProtoWriter& int_field(std::uint32_t field, std::int64_t value) {
    return varint_field(field, static_cast<std::uint64_t>(value));
  }
  /// sint32/sint64 field (ZigZag).
  ProtoWriter& sint_field(std::uint32_t field, std::int64_t value) {
    return varint_field(field, (static_cast<std::uint64_t>(value) << 1) ^ (value < 0 ? ~std::uint64_t{0} : 0));
  }
  ProtoWriter& fixed32_field(std::uint32_t field, std::uint32_t value) {
    return tag(field, Wire::fixed32).raw_fixed32(value);
  }
  ProtoWriter& fixed64_field(std::uint32_t field, std::uint64_t value) {
    return tag(field, Wire::fixed64).raw_fixed64(value);
  }
  ProtoWriter& float_field(std::uint32_t field, float value) { return fixed32_field(field, bits_of(value)); }
  ProtoWriter& double_field(std::uint32_t field, double value) { return fixed64_field(field, bits_of(value)); }
  ProtoWriter& bytes_field(std::uint32_t field, const void* data, std::size_t size) {
    return tag(field, Wire::length_delimited).raw_varint(size).raw_bytes(data, size);
  }
  ProtoWriter& bytes_field(std::uint32_t field, const std::vector<unsigned char>& data) {
    return bytes_field(field, data.data(), data.size());
  }
  ProtoWriter& string_field(std::uint32_t field, std::string_view text) {
    return bytes_field(field, text.data(), text.size());
  }
  /// Embedded message field.
  ProtoWriter& message_field(std::uint32_t field, const ProtoWriter& inner) {
    return bytes_field(field, inner.bytes_.data(), inner.bytes_.size());
  }

  // ---- Repeated scalars ----

  /// Packed varints (int32/int64 values sign-extended, as protobuf writes them).
  ProtoWriter& packed_varints(std::uint32_t field, const std::vector<std::int64_t>& values) {
    ProtoWriter payload;
    for (std::int64_t v : values) payload.raw_varint(static_cast<std::uint64_t>(v));
    return message_field(field, payload);
  }
  ProtoWriter& packed_uint64s(std::uint32_t field, const std::vector<std::uint64_t>& values) {
    ProtoWriter payload;
    for (std::uint64_t v : values) payload.raw_varint(v);
    return message_field(field, payload);
  }
  ProtoWriter& packed_fixed32s(std::uint32_t field, const std::vector<std::uint32_t>& values) {
    ProtoWriter payload;
    for (std::uint32_t v : values) payload.raw_fixed32(v);
    return message_field(field, payload);
  }
  ProtoWriter& packed_floats(std::uint32_t field, const std::vector<float>& values) {
    ProtoWriter payload;
    for (float v : values) payload.raw_fixed32(bits_of(v));
    return message_field(field, payload);
  }
  ProtoWriter& packed_doubles(std::uint32_t field, const std::vector<double>& values) {
    ProtoWriter payload;
    for (double v : values) payload.raw_fixed64(bits_of(v));
    return message_field(field, payload);
  }
  /// Unpacked: one tagged varint per value.
  ProtoWriter& repeated_varints(std::uint32_t field, const std::vector<std::int64_t>& values) {
    for (std::int64_t v : values) int_field(field, v);
    return *this;
  }
  ProtoWriter& repeated_floats(std::uint32_t field, const std::vector<float>& values) {
    for (float v : values) float_field(field, v);
    return *this;
  }
  ProtoWriter& repeated_doubles(std::uint32_t field, const std::vector<double>& values) {
    for (double v : values) double_field(field, v);
    return *this;
  }
  ProtoWriter& repeated_strings(std::uint32_t field, const std::vector<std::string>& values) {
    for (const std::string& v : values) string_field(field, v);
    return *this;
  }

  // ---- Result ----

  const std::vector<unsigned char>& bytes() const { return bytes_; }
  onnxmicro::ByteSpan span() const { return {bytes_.data(), bytes_.size()}; }
  std::size_t size() const { return bytes_.size(); }
  bool empty() const { return bytes_.empty(); }

  static std::uint32_t bits_of(float v) {
    std::uint32_t u;
    std::memcpy(&u, &v, 4);
    return u;
  }
  static std::uint64_t bits_of(double v) {
    std::uint64_t u;
    std::memcpy(&u, &v, 8);
    return u;
  }

 private:
  ProtoWriter& raw_little_endian(std::uint64_t value, int bytes) {
    for (int i = 0; i < bytes; ++i) bytes_.push_back(static_cast<unsigned char>(value >> (8 * i)));
    return *this;
  }
  std::vector<unsigned char> bytes_;
};

// ---- ONNX message builders (field numbers from onnx.proto) ------------------------------------------------

/// TensorProto with raw_data (little-endian bytes as given).
inline ProtoWriter make_tensor_raw(std::string_view name, DataType dtype, const std::vector<std::int64_t>& dims,
                                   const void* data, std::size_t size) {
  ProtoWriter t;
  for (std::int64_t d : dims) t.int_field(1, d);
  t.int_field(2, static_cast<std::int64_t>(dtype));
  t.string_field(8, name);
  t.bytes_field(9, data, size);
  return t;
}
/// TensorProto with raw_data holding `values` (host order; tests run on little-endian hosts).
template <typename T>
ProtoWriter make_tensor_raw(std::string_view name, DataType dtype, const std::vector<std::int64_t>& dims,
                            const std::vector<T>& values) {
  return make_tensor_raw(name, dtype, dims, values.data(), values.size() * sizeof(T));
}
/// FLOAT TensorProto with packed float_data.
inline ProtoWriter make_float_tensor(std::string_view name, const std::vector<std::int64_t>& dims,
                                     const std::vector<float>& values) {
  ProtoWriter t;
  for (std::int64_t d : dims) t.int_field(1, d);
  t.int_field(2, static_cast<std::int64_t>(DataType::float32));
  t.packed_floats(4, values);
  t.string_field(8, name);
  return t;
}
/// TensorProto of `dtype` with packed int32_data (int32 and the narrower types ONNX stores there).
inline ProtoWriter make_int32_data_tensor(std::string_view name, DataType dtype, const std::vector<std::int64_t>& dims,
                                          const std::vector<std::int64_t>& values) {
  ProtoWriter t;
  for (std::int64_t d : dims) t.int_field(1, d);
  t.int_field(2, static_cast<std::int64_t>(dtype));
  t.packed_varints(5, values);
  t.string_field(8, name);
  return t;
}
/// INT64 TensorProto with packed int64_data.
inline ProtoWriter make_int64_tensor(std::string_view name, const std::vector<std::int64_t>& dims,
                                     const std::vector<std::int64_t>& values) {
  ProtoWriter t;
  for (std::int64_t d : dims) t.int_field(1, d);
  t.int_field(2, static_cast<std::int64_t>(DataType::int64));
  t.packed_varints(7, values);
  t.string_field(8, name);
  return t;
}

/// TypeProto for a tensor; dims < 0 become dim_param "N<i>", and `with_shape` false leaves the shape out.
inline ProtoWriter make_tensor_type(DataType elem_type, const std::vector<std::int64_t>& dims, bool with_shape = true) {
  ProtoWriter tensor_type;
  tensor_type.int_field(1, static_cast<std::int64_t>(elem_type));
  if (with_shape) {
    ProtoWriter shape;
    for (std::size_t i = 0; i < dims.size(); ++i) {
      ProtoWriter dim;
      if (dims[i] >= 0) {
        dim.int_field(1, dims[i]);
      } else {
        dim.string_field(2, "N" + std::to_string(i));
      }
      shape.message_field(1, dim);
    }
    tensor_type.message_field(2, shape);
  }
  ProtoWriter type;
  type.message_field(1, tensor_type);
  return type;
}
/// ValueInfoProto with a tensor type.
inline ProtoWriter make_value_info(std::string_view name, DataType elem_type, const std::vector<std::int64_t>& dims) {
  ProtoWriter v;
  v.string_field(1, name);
  v.message_field(2, make_tensor_type(elem_type, dims));
  return v;
}

// AttributeProto builders. `with_type` false leaves out the type field (IR version 1 style).
inline ProtoWriter attribute_head(std::string_view name) {
  ProtoWriter a;
  a.string_field(1, name);
  return a;
}
inline ProtoWriter& attribute_type(ProtoWriter& a, int type, bool with_type) {
  if (with_type) a.int_field(20, type);
  return a;
}
inline ProtoWriter make_attribute_float(std::string_view name, float v, bool with_type = true) {
  ProtoWriter a = attribute_head(name);
  a.float_field(2, v);
  return attribute_type(a, 1, with_type);
}
inline ProtoWriter make_attribute_int(std::string_view name, std::int64_t v, bool with_type = true) {
  ProtoWriter a = attribute_head(name);
  a.int_field(3, v);
  return attribute_type(a, 2, with_type);
}
inline ProtoWriter make_attribute_string(std::string_view name, std::string_view v, bool with_type = true) {
  ProtoWriter a = attribute_head(name);
  a.string_field(4, v);
  return attribute_type(a, 3, with_type);
}
inline ProtoWriter make_attribute_tensor(std::string_view name, const ProtoWriter& tensor, bool with_type = true) {
  ProtoWriter a = attribute_head(name);
  a.message_field(5, tensor);
  return attribute_type(a, 4, with_type);
}
inline ProtoWriter make_attribute_graph(std::string_view name, const ProtoWriter& graph, bool with_type = true) {
  ProtoWriter a = attribute_head(name);
  a.message_field(6, graph);
  return attribute_type(a, 5, with_type);
}
inline ProtoWriter make_attribute_floats(std::string_view name, const std::vector<float>& v, bool with_type = true) {
  ProtoWriter a = attribute_head(name);
  a.repeated_floats(7, v);  // protobuf writes AttributeProto.floats unpacked (not declared packed)
  return attribute_type(a, 6, with_type);
}
inline ProtoWriter make_attribute_ints(std::string_view name, const std::vector<std::int64_t>& v,
                                       bool with_type = true) {
  ProtoWriter a = attribute_head(name);
  a.repeated_varints(8, v);
  return attribute_type(a, 7, with_type);
}
inline ProtoWriter make_attribute_strings(std::string_view name, const std::vector<std::string>& v,
                                          bool with_type = true) {
  ProtoWriter a = attribute_head(name);
  a.repeated_strings(9, v);
  return attribute_type(a, 8, with_type);
}
inline ProtoWriter make_attribute_tensors(std::string_view name, const std::vector<ProtoWriter>& tensors,
                                          bool with_type = true) {
  ProtoWriter a = attribute_head(name);
  for (const ProtoWriter& t : tensors) a.message_field(10, t);
  return attribute_type(a, 9, with_type);
}
inline ProtoWriter make_attribute_graphs(std::string_view name, const std::vector<ProtoWriter>& graphs,
                                         bool with_type = true) {
  ProtoWriter a = attribute_head(name);
  for (const ProtoWriter& g : graphs) a.message_field(11, g);
  return attribute_type(a, 10, with_type);
}

/// NodeProto. Empty strings in `inputs` are omitted optional inputs.
inline ProtoWriter make_node(std::string_view op_type, const std::vector<std::string>& inputs,
                             const std::vector<std::string>& outputs, const std::vector<ProtoWriter>& attributes = {},
                             std::string_view name = "", std::string_view domain = "") {
  ProtoWriter n;
  n.repeated_strings(1, inputs);
  n.repeated_strings(2, outputs);
  if (!name.empty()) n.string_field(3, name);
  n.string_field(4, op_type);
  for (const ProtoWriter& a : attributes) n.message_field(5, a);
  if (!domain.empty()) n.string_field(7, domain);
  return n;
}

/// GraphProto.
inline ProtoWriter make_graph(std::string_view name, const std::vector<ProtoWriter>& nodes,
                              const std::vector<ProtoWriter>& inputs, const std::vector<ProtoWriter>& outputs,
                              const std::vector<ProtoWriter>& initializers = {}) {
  ProtoWriter g;
  for (const ProtoWriter& n : nodes) g.message_field(1, n);
  g.string_field(2, name);
  for (const ProtoWriter& t : initializers) g.message_field(5, t);
  for (const ProtoWriter& v : inputs) g.message_field(11, v);
  for (const ProtoWriter& v : outputs) g.message_field(12, v);
  return g;
}

/// OperatorSetIdProto.
inline ProtoWriter make_opset(std::string_view domain, std::int64_t version) {
  ProtoWriter o;
  if (!domain.empty()) o.string_field(1, domain);
  o.int_field(2, version);
  return o;
}

/// ModelProto around `graph`, importing the default domain at `opset` unless `opsets` is given.
inline ProtoWriter make_model(const ProtoWriter& graph, std::int64_t opset = 13, std::int64_t ir_version = 8,
                              const std::vector<ProtoWriter>& opsets = {}) {
  ProtoWriter m;
  m.int_field(1, ir_version);
  m.string_field(2, "onnxmicro-tests");
  m.message_field(7, graph);
  if (opsets.empty()) {
    m.message_field(8, make_opset("", opset));
  } else {
    for (const ProtoWriter& o : opsets) m.message_field(8, o);
  }
  return m;
}

}  // namespace onnxmicro_test
