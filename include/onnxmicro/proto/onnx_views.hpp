// SPDX-License-Identifier: MIT
// Zero-copy views over ONNX protobuf messages (onnx.proto3 field numbers). Design: validate once, iterate
// freely. Each view's parse() checks its whole message (recursively, with a depth limit) so later
// accessors and iterators cannot fail and need no Status. Strings and bytes are string_views / ByteSpans into
// the caller's buffer, which must outlive every view.
//
// Protobuf semantics followed (as protobuf-lite parses onnx.proto, which is proto2):
// - Unknown fields of any wire type are skipped. A known field number with an unexpected wire type is treated
//   as unknown and skipped too, except that repeated scalars accept both packed and unpacked encodings.
// - Packed payloads are checked element by element (a fixed32/fixed64 payload must be a whole number of
//   elements). String/bytes fields are not checked for UTF-8 (proto2 does not).
// - Singular scalars: the last occurrence wins. int32 fields keep the low 32 bits of the varint.
// - Closed enums (AttributeProto.type, TensorProto.data_location): an unknown value is ignored, the field
//   keeps its previous value.
// - Singular embedded messages that occur several times are merged by protobuf; these views take the last
//   occurrence (each occurrence is still validated). Writers never emit that.
// Stricter than protobuf, on purpose: groups (wire types 3/4) are rejected, a 10th varint byte may only carry
// bit 0, and parse() adds ONNX checks (tensor rank/dims/data fields, nesting depths).
//
// Errors are invalid_model (limit_exceeded for depth/rank limits, unsupported for tensor segments) and name
// the field path and the byte offset from the start of the parsed buffer:
//   "graph.node[3].attribute[1] (AttributeProto): varint truncated at byte 1234 (field 3)"
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <string_view>
#include <type_traits>

#include "onnxmicro/core/dtype.hpp"
#include "onnxmicro/core/span.hpp"
#include "onnxmicro/core/status.hpp"
#include "onnxmicro/core/tensor.hpp"
#include "onnxmicro/proto/wire.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace detail {
struct ProtoViewParser;
}  // namespace detail

namespace proto {

/// The bytes of a length-delimited field as a string_view.
inline std::string_view as_string_view(ByteSpan bytes) noexcept {
  return std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size());
}

namespace repeated_detail {
template <typename V>
V element_from(ByteSpan payload) noexcept {
  if constexpr (std::is_same<V, std::string_view>::value) {
    return as_string_view(payload);
  } else if constexpr (std::is_same<V, ByteSpan>::value) {
    return payload;
  } else {
    return V::unchecked(payload);
  }
}

/// Wire type of one element of a repeated scalar of C++ type T, and conversion from its raw bits.
template <typename T>
struct ScalarTraits;
template <>
struct ScalarTraits<std::int64_t> {
  static constexpr WireType kWire = WireType::varint;
  static std::int64_t from_bits(std::uint64_t v) noexcept { return static_cast<std::int64_t>(v); }
};
// int32 fields keep the low 32 bits of a longer varint, as protobuf does.
template <>
struct ScalarTraits<std::int32_t> {
  static constexpr WireType kWire = WireType::varint;
  static std::int32_t from_bits(std::uint64_t v) noexcept {
    return static_cast<std::int32_t>(static_cast<std::uint32_t>(v));
  }
};
template <>
struct ScalarTraits<std::uint64_t> {
  static constexpr WireType kWire = WireType::varint;
  static std::uint64_t from_bits(std::uint64_t v) noexcept { return v; }
};
template <>
struct ScalarTraits<float> {
  static constexpr WireType kWire = WireType::fixed32;
  static float from_bits(std::uint64_t v) noexcept {
    const auto bits = static_cast<std::uint32_t>(v);
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
  }
};
template <>
struct ScalarTraits<double> {
  static constexpr WireType kWire = WireType::fixed64;
  static double from_bits(std::uint64_t v) noexcept {
    double d;
    std::memcpy(&d, &v, sizeof d);
    return d;
  }
};

/// Reads one packed element of wire type W.
inline WireError read_packed_element(WireReader& reader, WireType wire, std::uint64_t& bits) noexcept {
  if (wire == WireType::varint) return reader.next_varint(bits);
  if (wire == WireType::fixed64) return reader.next_fixed64(bits);
  std::uint32_t v = 0;
  WireError e = reader.next_fixed32(v);
  bits = v;
  return e;
}

// The parts of the repeated-field iterators that do not depend on the element type, compiled once for all of
// them (each instantiation would otherwise carry its own copy: code size on a microcontroller).

/// Walks the length-delimited occurrences of one field of a message.
class FieldCursor {
 public:
  FieldCursor() noexcept = default;
  FieldCursor(ByteSpan message, std::uint32_t field) noexcept : reader_(message), field_(field), done_(false) {
    advance();
  }
  void advance() noexcept {
    WireField f;
    while (!reader_.at_end()) {
      if (reader_.next_field(f) != WireError::none) break;
      if (f.number == field_ && f.type == WireType::length_delimited) {
        current_ = f.payload;
        return;
      }
    }
    done_ = true;
  }
  bool same_position(const FieldCursor& other) const noexcept {
    return done_ == other.done_ && (done_ || reader_.offset() == other.reader_.offset());
  }
  ByteSpan current() const noexcept { return current_; }

 private:
  WireReader reader_;
  ByteSpan current_;
  std::uint32_t field_ = 0;
  bool done_ = true;
};

/// Occurrences of length-delimited field `field` in `message`.
inline std::size_t count_fields(ByteSpan message, std::uint32_t field) noexcept {
  std::size_t n = 0;
  for (FieldCursor cursor(message, field), end; !cursor.same_position(end); cursor.advance()) ++n;
  return n;
}

/// Walks the values of a repeated scalar of wire type `wire`, packed and unpacked occurrences alike; yields
/// raw bits (the typed iterator converts them).
class ScalarCursor {
 public:
  ScalarCursor() noexcept = default;
  ScalarCursor(ByteSpan message, std::uint32_t field, WireType wire) noexcept
      : outer_(message), field_(field), wire_(wire), done_(false) {
    advance();
  }
  void advance() noexcept {
    while (true) {
      if (!packed_.at_end()) {
        if (read_packed_element(packed_, wire_, bits_) == WireError::none) return;
        packed_ = WireReader();  // malformed (only possible on unvalidated bytes): drop the rest of it
      }
      WireField f;
      if (outer_.at_end() || outer_.next_field(f) != WireError::none) break;
      if (f.number != field_) continue;
      if (f.type == wire_) {
        bits_ = f.scalar;
        return;
      }
      // Packed: based at the payload's offset in the message, so positions compare uniquely.
      if (f.type == WireType::length_delimited) packed_ = WireReader(f.payload, outer_.offset() - f.payload.size());
    }
    done_ = true;
  }
  bool same_position(const ScalarCursor& other) const noexcept {
    return done_ == other.done_ &&
           (done_ || (outer_.offset() == other.outer_.offset() && packed_.offset() == other.packed_.offset()));
  }
  std::uint64_t bits() const noexcept { return bits_; }

 private:
  WireReader outer_;
  WireReader packed_;
  std::uint64_t bits_ = 0;
  std::uint32_t field_ = 0;
  WireType wire_ = WireType::varint;
  bool done_ = true;
};

/// Number of values of a repeated scalar of wire type `wire` (one pass; packed fixed-width payloads are counted
/// without decoding).
inline std::size_t count_scalars(ByteSpan message, std::uint32_t field, WireType wire) noexcept {
  std::size_t n = 0;
  WireReader reader(message);
  WireField f;
  while (!reader.at_end() && reader.next_field(f) == WireError::none) {
    if (f.number != field) continue;
    if (f.type == wire) {
      ++n;
    } else if (f.type == WireType::length_delimited) {
      if (wire == WireType::varint) {
        for (unsigned char b : f.payload) n += (b & 0x80u) == 0 ? 1 : 0;
      } else {
        n += f.payload.size() / (wire == WireType::fixed32 ? 4 : 8);
      }
    }
  }
  return n;
}
}  // namespace repeated_detail

// ---- Repeated-field iteration over an already validated message -----------------------------------------

/// Iterates the occurrences of one length-delimited field (strings, bytes or sub-messages) of a message.
/// V is std::string_view, ByteSpan, or a view type with `static V unchecked(ByteSpan)`.
/// Occurrences with another wire type are skipped (as protobuf does). On bytes that were never validated,
/// iteration stops at the first malformed field instead of failing.
template <typename V>
class RepeatedField {
 public:
  RepeatedField() noexcept = default;
  RepeatedField(ByteSpan message, std::uint32_t field) noexcept : message_(message), field_(field) {}

  /// Forward iterator yielding V by value.
  class Iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = V;
    using difference_type = std::ptrdiff_t;
    using pointer = void;
    using reference = V;

    Iterator() noexcept = default;
    V operator*() const noexcept { return repeated_detail::element_from<V>(cursor_.current()); }
    Iterator& operator++() noexcept {
      cursor_.advance();
      return *this;
    }
    Iterator operator++(int) noexcept {
      Iterator old = *this;
      cursor_.advance();
      return old;
    }
    friend bool operator==(const Iterator& a, const Iterator& b) noexcept { return a.cursor_.same_position(b.cursor_); }
    friend bool operator!=(const Iterator& a, const Iterator& b) noexcept { return !(a == b); }

   private:
    friend class RepeatedField;
    Iterator(ByteSpan message, std::uint32_t field) noexcept : cursor_(message, field) {}

    repeated_detail::FieldCursor cursor_;
  };

  Iterator begin() const noexcept { return Iterator(message_, field_); }
  Iterator end() const noexcept { return Iterator(); }
  /// Counts occurrences (one pass over the message).
  std::size_t size() const noexcept { return repeated_detail::count_fields(message_, field_); }
  bool empty() const noexcept { return begin() == end(); }
  /// i-th occurrence (linear scan); i < size().
  V operator[](std::size_t i) const noexcept {
    Iterator it = begin();
    for (std::size_t k = 0; k < i && it != end(); ++k) ++it;
    return it == end() ? V() : *it;
  }

 private:
  ByteSpan message_;
  std::uint32_t field_ = 0;
};

/// Iterates a repeated scalar field whether it was written packed or unpacked (parsers must accept both).
/// T is std::int64_t (varint int64/enum), std::int32_t (varint int32: the low 32 bits), std::uint64_t (varint
/// uint64), float (fixed32) or double (fixed64). Packed and unpacked occurrences may be mixed; order is kept.
template <typename T>
class RepeatedScalar {
  using Traits = repeated_detail::ScalarTraits<T>;

 public:
  RepeatedScalar() noexcept = default;
  RepeatedScalar(ByteSpan message, std::uint32_t field) noexcept : message_(message), field_(field) {}

  /// Forward iterator yielding T.
  class Iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = T;
    using difference_type = std::ptrdiff_t;
    using pointer = void;
    using reference = T;

    Iterator() noexcept = default;
    T operator*() const noexcept { return Traits::from_bits(cursor_.bits()); }
    Iterator& operator++() noexcept {
      cursor_.advance();
      return *this;
    }
    Iterator operator++(int) noexcept {
      Iterator old = *this;
      cursor_.advance();
      return old;
    }
    friend bool operator==(const Iterator& a, const Iterator& b) noexcept { return a.cursor_.same_position(b.cursor_); }
    friend bool operator!=(const Iterator& a, const Iterator& b) noexcept { return !(a == b); }

   private:
    friend class RepeatedScalar;
    Iterator(ByteSpan message, std::uint32_t field) noexcept : cursor_(message, field, Traits::kWire) {}

    repeated_detail::ScalarCursor cursor_;
  };

  Iterator begin() const noexcept { return Iterator(message_, field_); }
  Iterator end() const noexcept { return Iterator(); }
  /// Number of values (one pass; packed fixed-width payloads are counted without decoding).
  std::size_t size() const noexcept { return repeated_detail::count_scalars(message_, field_, Traits::kWire); }
  bool empty() const noexcept { return begin() == end(); }
  /// i-th value (linear scan); i < size().
  T operator[](std::size_t i) const noexcept {
    Iterator it = begin();
    for (std::size_t k = 0; k < i && it != end(); ++k) ++it;
    return it == end() ? T() : *it;
  }

 private:
  ByteSpan message_;
  std::uint32_t field_ = 0;
};

// ---- Messages -------------------------------------------------------------------------------------------

/// StringStringEntryProto: key = 1, value = 2.
struct StringStringEntry {
  std::string_view key;
  std::string_view value;
  static Status parse(ByteSpan bytes, int depth, StringStringEntry& out) noexcept;
  static StringStringEntry unchecked(ByteSpan bytes) noexcept;
};

/// OperatorSetIdProto: domain = 1, version = 2.
struct OperatorSetId {
  std::string_view domain;
  std::int64_t version = 0;
  static Status parse(ByteSpan bytes, int depth, OperatorSetId& out) noexcept;
  static OperatorSetId unchecked(ByteSpan bytes) noexcept;
};

/// TensorShapeProto.Dimension: dim_value = 1, dim_param = 2, denotation = 3.
struct Dimension {
  bool has_value = false;  ///< dim_value present
  std::int64_t value = 0;
  std::string_view param;  ///< dim_param (symbolic name), empty when absent
  static Status parse(ByteSpan bytes, int depth, Dimension& out) noexcept;
  static Dimension unchecked(ByteSpan bytes) noexcept;
};

/// TensorShapeProto: dim = 1 (repeated).
struct TensorShape {
  ByteSpan bytes;
  RepeatedField<Dimension> dims() const noexcept { return {bytes, 1}; }
  static Status parse(ByteSpan bytes, int depth, TensorShape& out) noexcept;
  static TensorShape unchecked(ByteSpan bytes) noexcept;
};

/// TypeProto: tensor_type = 1, sequence_type = 4, map_type = 5, denotation = 6, sparse_tensor_type = 8,
/// optional_type = 9. Nested TypeProtos (sequence/optional/map element) are reached through accessors.
/// opaque_type (7) gives Kind::unknown.
struct Type {
  enum class Kind { unknown, tensor, sequence, map, optional, sparse_tensor };
  Kind kind = Kind::unknown;
  ByteSpan bytes;
  // tensor / sparse_tensor
  std::int32_t elem_type = 0;  ///< TensorProto.DataType number (may be unknown: callers validate)
  bool has_shape = false;
  TensorShape shape;
  // map
  std::int32_t map_key_type = 0;
  /// Element type of a sequence or optional, value type of a map. Precondition: kind is one of those.
  /// (An element type left out of the message gives an empty Type of Kind::unknown.)
  Type element() const noexcept;
  static Status parse(ByteSpan bytes, int depth, Type& out) noexcept;
  static Type unchecked(ByteSpan bytes) noexcept;

 private:
  friend struct detail::ProtoViewParser;
  ByteSpan element_bytes_;
};

/// ValueInfoProto: name = 1, type = 2, doc_string = 3, metadata_props = 4.
struct ValueInfo {
  std::string_view name;
  bool has_type = false;
  Type type;
  static Status parse(ByteSpan bytes, int depth, ValueInfo& out) noexcept;
  static ValueInfo unchecked(ByteSpan bytes) noexcept;
};

/// TensorProto.DataLocation.
enum class DataLocation : std::int32_t { default_location = 0, external = 1 };

/// TensorProto: dims = 1, data_type = 2, segment = 3, float_data = 4, int32_data = 5, string_data = 6,
/// int64_data = 7, name = 8, raw_data = 9, double_data = 10, uint64_data = 11, doc_string = 12,
/// external_data = 13, data_location = 14, metadata_props = 16.
/// parse() rejects: rank > ONNXMICRO_MAX_RANK (limit_exceeded), negative dims, more than one data field present
/// (raw_data and a typed field; the typed fields with each other), segment (unsupported, message says so).
/// A data field counts as present when it occurs at all, even empty.
struct Tensor {
  ByteSpan bytes;
  std::string_view name;
  std::int32_t data_type = 0;  ///< as written; callers check is_known_dtype()
  int rank = 0;
  std::int64_t dims[ONNXMICRO_MAX_RANK] = {};
  DataLocation data_location = DataLocation::default_location;
  bool has_raw_data = false;
  ByteSpan raw_data;
  /// Which typed field holds the data (0 = none / raw_data); field number, e.g. 4 for float_data.
  std::uint32_t typed_data_field = 0;
  RepeatedScalar<float> float_data() const noexcept { return {bytes, 4}; }
  RepeatedScalar<std::int32_t> int32_data() const noexcept { return {bytes, 5}; }
  RepeatedField<ByteSpan> string_data() const noexcept { return {bytes, 6}; }
  RepeatedScalar<std::int64_t> int64_data() const noexcept { return {bytes, 7}; }
  RepeatedScalar<double> double_data() const noexcept { return {bytes, 10}; }
  RepeatedScalar<std::uint64_t> uint64_data() const noexcept { return {bytes, 11}; }
  RepeatedField<StringStringEntry> external_data() const noexcept { return {bytes, 13}; }

  /// Number of elements the dims describe (dims were validated non-negative; overflow-checked: the tensor's
  /// byte size may not exceed ONNXMICRO_MAX_TENSOR_BYTES, limit_exceeded otherwise).
  Status element_count(std::int64_t& count) const noexcept;
  /// Number of elements actually stored in the typed field or raw_data (raw: bytes / element size; complex
  /// values count once). SIZE_MAX when raw_data is not a whole number of elements. Packed sub-byte types
  /// (dtype_bits() < 8, in raw_data, or in int32_data one byte per entry for 4- and 2-bit types): the dims'
  /// count when the stored bytes are exactly byte_size_of() of it, else as many elements as the bytes hold.
  /// 0 for an unknown dtype with raw_data.
  std::size_t stored_element_count() const noexcept;

  /// Decodes the stored (non-external) data of a fixed-size dtype into `dst` (exactly
  /// byte_size_of(dtype, element_count) bytes, in the host's byte order: raw_data is copied as is on
  /// little-endian hosts and byte-swapped per element component on big-endian ones). Handles raw_data and
  /// every typed field: float_data (float, complex64), int32_data (int32, int16, int8, uint16, uint8, bool,
  /// float16/bfloat16/float8 bit patterns; for 4- and 2-bit types one packed byte per entry, first element in
  /// the lowest bits; for float6 types one 6-bit element per entry, packed here into the LSB-first bitstream
  /// raw_data uses), int64_data, uint64_data (uint32, uint64), double_data (double, complex128).
  /// Fails, naming the tensor, when the stored count differs from the dims' count, the dtype is
  /// string/undefined/unknown, the field does not match the dtype, or the data is external and unresolved
  /// (an external tensor whose raw_data was set to its resolved bytes, as Model::load does, decodes those).
  Status decode_to(void* dst, std::size_t dst_bytes) const noexcept;

  static Status parse(ByteSpan bytes, int depth, Tensor& out) noexcept;
  static Tensor unchecked(ByteSpan bytes) noexcept;
};

/// AttributeProto.AttributeType.
enum class AttributeType : std::int32_t {
  undefined = 0,
  float_ = 1,
  int_ = 2,
  string = 3,
  tensor = 4,
  graph = 5,
  sparse_tensor = 11,
  type_proto = 13,
  floats = 6,
  ints = 7,
  strings = 8,
  tensors = 9,
  graphs = 10,
  sparse_tensors = 12,
  type_protos = 14,
};

/// Name of an attribute type as in the ONNX spec ("INT", "FLOATS", ...).
const char* attribute_type_name(AttributeType t) noexcept;

/// AttributeProto: name = 1, f = 2, i = 3, s = 4, t = 5, g = 6, floats = 7, ints = 8, strings = 9,
/// tensors = 10, graphs = 11, doc_string = 13, tp = 14, type_protos = 15, type = 20, ref_attr_name = 21,
/// sparse_tensor = 22, sparse_tensors = 23.
/// When `type` is absent (old IR) it is inferred from the single value field present; with no value field,
/// or values of several kinds, it stays undefined.
struct Attribute {
  ByteSpan bytes;
  std::string_view name;
  AttributeType type = AttributeType::undefined;
  std::string_view ref_attr_name;  ///< set inside FunctionProto bodies
  float f = 0;
  std::int64_t i = 0;
  ByteSpan s;
  ByteSpan t;  ///< TensorProto bytes (parse with Tensor::unchecked)
  ByteSpan g;  ///< GraphProto bytes (parse with Graph::unchecked)
  RepeatedScalar<float> floats() const noexcept { return {bytes, 7}; }
  RepeatedScalar<std::int64_t> ints() const noexcept { return {bytes, 8}; }
  RepeatedField<std::string_view> strings() const noexcept { return {bytes, 9}; }
  RepeatedField<Tensor> tensors() const noexcept { return {bytes, 10}; }
  RepeatedField<ByteSpan> graphs() const noexcept { return {bytes, 11}; }  ///< GraphProto bytes each
  static Status parse(ByteSpan bytes, int depth, Attribute& out) noexcept;
  static Attribute unchecked(ByteSpan bytes) noexcept;
};

/// NodeProto: input = 1, output = 2, name = 3, op_type = 4, attribute = 5, doc_string = 6, domain = 7,
/// overload = 8, metadata_props = 9, device_configurations = 10. Empty input names mean "optional input not
/// given".
struct Node {
  ByteSpan bytes;
  std::string_view name;
  std::string_view op_type;
  std::string_view domain;  ///< "" and "ai.onnx" both mean the default domain (callers normalise)
  RepeatedField<std::string_view> inputs() const noexcept { return {bytes, 1}; }
  RepeatedField<std::string_view> outputs() const noexcept { return {bytes, 2}; }
  RepeatedField<Attribute> attributes() const noexcept { return {bytes, 5}; }
  /// Finds an attribute by name (the first one, should the node list it twice); false when absent.
  bool find_attribute(std::string_view attribute_name, Attribute& out) const noexcept;
  static Status parse(ByteSpan bytes, int depth, Node& out) noexcept;
  static Node unchecked(ByteSpan bytes) noexcept;
};

/// GraphProto: node = 1, name = 2, initializer = 5, doc_string = 10, input = 11, output = 12,
/// value_info = 13, quantization_annotation = 14, sparse_initializer = 15, metadata_props = 16.
struct Graph {
  ByteSpan bytes;
  std::string_view name;
  RepeatedField<Node> nodes() const noexcept { return {bytes, 1}; }
  RepeatedField<Tensor> initializers() const noexcept { return {bytes, 5}; }
  RepeatedField<ValueInfo> inputs() const noexcept { return {bytes, 11}; }
  RepeatedField<ValueInfo> outputs() const noexcept { return {bytes, 12}; }
  RepeatedField<ValueInfo> value_infos() const noexcept { return {bytes, 13}; }
  bool has_sparse_initializers = false;
  /// Validates the graph and, recursively, every node, attribute, tensor and subgraph (depth-limited by
  /// ONNXMICRO_MAX_PROTO_DEPTH for messages and ONNXMICRO_MAX_SUBGRAPH_DEPTH for graphs). `bytes` is taken as
  /// a main graph (subgraph depth 0); use parse_subgraph() for a body graph.
  static Status parse(ByteSpan bytes, int depth, Graph& out) noexcept;
  /// As parse(), for a graph nested `subgraph_depth` attribute levels deep (the main graph is 0).
  static Status parse_subgraph(ByteSpan bytes, int depth, int subgraph_depth, Graph& out) noexcept;
  static Graph unchecked(ByteSpan bytes) noexcept;
};

/// FunctionProto: name = 1, input = 4, output = 5, attribute = 6, node = 7, doc_string = 8,
/// opset_import = 9, domain = 10, attribute_proto = 11, value_info = 12, overload = 13, metadata_props = 14.
struct Function {
  ByteSpan bytes;
  std::string_view name;
  std::string_view domain;
  std::string_view overload;
  RepeatedField<std::string_view> inputs() const noexcept { return {bytes, 4}; }
  RepeatedField<std::string_view> outputs() const noexcept { return {bytes, 5}; }
  RepeatedField<std::string_view> attribute_names() const noexcept { return {bytes, 6}; }
  RepeatedField<Node> nodes() const noexcept { return {bytes, 7}; }
  RepeatedField<OperatorSetId> opset_imports() const noexcept { return {bytes, 9}; }
  RepeatedField<Attribute> attribute_defaults() const noexcept { return {bytes, 11}; }
  RepeatedField<ValueInfo> value_infos() const noexcept { return {bytes, 12}; }
  static Status parse(ByteSpan bytes, int depth, Function& out) noexcept;
  static Function unchecked(ByteSpan bytes) noexcept;
};

/// ModelProto: ir_version = 1, producer_name = 2, producer_version = 3, domain = 4, model_version = 5,
/// doc_string = 6, graph = 7, opset_import = 8, metadata_props = 14, training_info = 20 (skipped),
/// functions = 25, configuration = 26.
/// training_info is not exposed (its graphs are never run) but validated: its graphs like any graph.
struct Model {
  ByteSpan bytes;
  std::int64_t ir_version = 0;
  std::string_view producer_name;
  std::string_view producer_version;
  std::string_view domain;
  std::int64_t model_version = 0;
  std::string_view doc_string;
  bool has_graph = false;
  Graph graph;
  RepeatedField<OperatorSetId> opset_imports() const noexcept { return {bytes, 8}; }
  RepeatedField<StringStringEntry> metadata_props() const noexcept { return {bytes, 14}; }
  RepeatedField<Function> functions() const noexcept { return {bytes, 25}; }
  /// Validates the whole model. Fails with invalid_model and the byte offset and field path of the
  /// problem (e.g. "graph.node[3].attribute[1] (AttributeProto): varint truncated at byte 1234").
  static Status parse(ByteSpan bytes, Model& out) noexcept;
};

/// SequenceProto (test data / CLI I/O): name = 1, elem_type = 2, tensor_values = 3,
/// sparse_tensor_values = 4, sequence_values = 5, map_values = 6, optional_values = 7.
/// elem_type: 0 undefined, 1 tensor, 2 sparse tensor, 3 sequence, 4 map, 5 optional.
/// parse() validates every element recursively (MapProto values included).
struct Sequence {
  ByteSpan bytes;
  std::string_view name;
  std::int32_t elem_type = 0;
  RepeatedField<Tensor> tensor_values() const noexcept { return {bytes, 3}; }
  RepeatedField<ByteSpan> sequence_values() const noexcept { return {bytes, 5}; }
  RepeatedField<ByteSpan> map_values() const noexcept { return {bytes, 6}; }  ///< MapProto bytes each
  RepeatedField<ByteSpan> optional_values() const noexcept { return {bytes, 7}; }
  static Status parse(ByteSpan bytes, int depth, Sequence& out) noexcept;
};

/// OptionalProto: name = 1, elem_type = 2, tensor_value = 3, sparse_tensor_value = 4, sequence_value = 5,
/// map_value = 6, optional_value = 7. elem_type numbering as Sequence.
/// `value` is the field that matches elem_type (with elem_type undefined: the last value field present);
/// an optional whose elem_type is set but whose value field is absent is empty (has_value false).
struct Optional {
  ByteSpan bytes;
  std::string_view name;
  std::int32_t elem_type = 0;
  bool has_value = false;
  ByteSpan value;  ///< bytes of the contained TensorProto / SequenceProto / OptionalProto
  static Status parse(ByteSpan bytes, int depth, Optional& out) noexcept;
};

}  // namespace proto

// ---- Implementation ---------------------------------------------------------------------------------------

namespace detail {

/// What one validating parse shares across its recursion: the error being built (one Status for the whole
/// parse, so deep recursion costs no Status per level) and the buffer origin for absolute byte offsets.
struct ProtoParseContext {
  Status* error = nullptr;
  const unsigned char* root = nullptr;
};

/// How a message field that has no view is checked: enough of its schema to validate it as protobuf-lite
/// would (repeated scalars' packed payloads, nested messages). Fields not listed are skipped.
struct ProtoMessageRule;
enum class ProtoRuleKind : std::uint8_t { packed_varint, message, graph };
struct ProtoFieldRule {
  std::uint32_t number;
  ProtoRuleKind kind;
  const ProtoMessageRule* message;
  const char* name;
};
struct ProtoMessageRule {
  const char* type_name;
  const ProtoFieldRule* fields;
  std::size_t field_count;
};
constexpr std::size_t kMaxProtoRuleFields = 4;

// Messages onnxmicro does not read, described just enough to validate them.
inline constexpr ProtoMessageRule kStringStringEntryRule{"StringStringEntryProto", nullptr, 0};
inline constexpr ProtoMessageRule kSimpleShardedDimRule{"SimpleShardedDimProto", nullptr, 0};
inline constexpr ProtoFieldRule kShardedDimFields[] = {
    {2, ProtoRuleKind::message, &kSimpleShardedDimRule, "simple_sharding"}};
inline constexpr ProtoMessageRule kShardedDimRule{"ShardedDimProto", kShardedDimFields, 1};
inline constexpr ProtoFieldRule kIntIntListEntryFields[] = {{2, ProtoRuleKind::packed_varint, nullptr, "value"}};
inline constexpr ProtoMessageRule kIntIntListEntryRule{"IntIntListEntryProto", kIntIntListEntryFields, 1};
inline constexpr ProtoFieldRule kShardingSpecFields[] = {
    {2, ProtoRuleKind::packed_varint, nullptr, "device"},
    {3, ProtoRuleKind::message, &kIntIntListEntryRule, "index_to_device_group_map"},
    {4, ProtoRuleKind::message, &kShardedDimRule, "sharded_dim"}};
inline constexpr ProtoMessageRule kShardingSpecRule{"ShardingSpecProto", kShardingSpecFields, 3};
inline constexpr ProtoFieldRule kNodeDeviceConfigurationFields[] = {
    {2, ProtoRuleKind::message, &kShardingSpecRule, "sharding_spec"}};
inline constexpr ProtoMessageRule kNodeDeviceConfigurationRule{"NodeDeviceConfigurationProto",
                                                               kNodeDeviceConfigurationFields, 1};
inline constexpr ProtoMessageRule kDeviceConfigurationRule{"DeviceConfigurationProto", nullptr, 0};
// With ONNXMICRO_ENABLE_MODEL_FUNCTIONS=0 a FunctionProto is only checked to be well-formed protobuf (Model::load
// then refuses it by name), so its full scan is not compiled.
inline constexpr ProtoMessageRule kRefusedFunctionRule{"FunctionProto", nullptr, 0};
inline constexpr ProtoFieldRule kTensorAnnotationFields[] = {
    {2, ProtoRuleKind::message, &kStringStringEntryRule, "quant_parameter_tensor_names"}};
inline constexpr ProtoMessageRule kTensorAnnotationRule{"TensorAnnotation", kTensorAnnotationFields, 1};
inline constexpr ProtoMessageRule kTensorSegmentRule{"TensorProto.Segment", nullptr, 0};
inline constexpr ProtoMessageRule kOpaqueTypeRule{"TypeProto.Opaque", nullptr, 0};
// Training graphs are never run, but they are validated like any graph: a model protobuf would reject (a
// malformed graph anywhere) must not load here either.
inline constexpr ProtoFieldRule kTrainingInfoFields[] = {
    {1, ProtoRuleKind::graph, nullptr, "initialization"},
    {2, ProtoRuleKind::graph, nullptr, "algorithm"},
    {3, ProtoRuleKind::message, &kStringStringEntryRule, "initialization_binding"},
    {4, ProtoRuleKind::message, &kStringStringEntryRule, "update_binding"}};
inline constexpr ProtoMessageRule kTrainingInfoRule{"TrainingInfoProto", kTrainingInfoFields, 4};

/// The parsers behind every view, one per message. Given a context, scan() validates (recursively) and reports
/// errors through it; with a null context it is the unchecked constructor: it only reads what the view exposes,
/// never recurses into repeated children, and stops quietly at the first malformed field.
struct ProtoViewParser {
  using Ctx = ProtoParseContext;
  using WireReader = proto::WireReader;
  using WireField = proto::WireField;
  using WireError = proto::WireError;
  using WireType = proto::WireType;

  // ---- Entry points ----

  template <typename View, typename... Extra>
  static Status parse_top(ByteSpan bytes, int depth, View& out, Extra... extra) noexcept {
    Status status;
    Ctx c{&status, bytes.data()};
    if (!scan(bytes, depth, &c, out, extra...)) {
      if (status.ok()) status = Status(StatusCode::internal) << "protobuf parse failed without a message";
      finish_message(status);
    }
    return status;
  }

  template <typename View, typename... Extra>
  static View unchecked(ByteSpan bytes, Extra... extra) noexcept {
    View out;
    (void)scan(bytes, 0, nullptr, out, extra...);
    return out;
  }

  // ---- Errors ----

  static WireReader reader_for(ByteSpan bytes, const Ctx* c) noexcept {
    std::size_t base = 0;
    if (c != nullptr && c->root != nullptr && bytes.data() != nullptr) {
      base = static_cast<std::size_t>(bytes.data() - c->root);
    }
    return WireReader(bytes, base);
  }

  /// Starts the error "(Type 'name'): " and returns it for the caller to append the rest.
  static Status& failure(Ctx& c, StatusCode code, const char* type, std::string_view name = {}) noexcept {
    Status& s = *c.error;
    s = Status(code);
    s << "(" << type;
    if (!name.empty()) s << " '" << name << "'";
    return s << "): ";
  }

  static bool wire_failure(Ctx& c, const char* type, const WireReader& reader, WireError e) noexcept {
    reader.describe_error(e, failure(c, StatusCode::invalid_model, type));
    return false;
  }

  /// Prefixes the error with the path step into a child: "node[3]" then "." or " " (before "(Type): ").
  /// A path too long for the message buffer loses its outer steps ("...") rather than the error itself.
  static bool nested_failure(Ctx& c, const char* field, std::size_t index = kSingular) noexcept {
    constexpr std::string_view kElided = "...";
    const std::string_view existing = c.error->message_view();
    if (existing.size() >= kElided.size() && std::string_view(existing.data(), kElided.size()) == kElided) return false;
    char step[96];
    std::size_t n = 0;
    for (const char* p = field; *p != '\0' && n < 60; ++p) step[n++] = *p;
    if (index != kSingular) {
      char digits[24];
      std::size_t k = 0;
      do {
        digits[k++] = static_cast<char>('0' + index % 10);
        index /= 10;
      } while (index != 0);
      step[n++] = '[';
      while (k > 0) step[n++] = digits[--k];
      step[n++] = ']';
    }
    std::string_view message = c.error->message_view();
    step[n++] = (!message.empty() && message[0] == '(') ? ' ' : '.';
    if (message.size() + n + kElided.size() + 1 >= static_cast<std::size_t>(ONNXMICRO_MAX_ERROR_MESSAGE)) {
      c.error->prepend(kElided);
    } else {
      c.error->prepend(std::string_view(step, n));
    }
    return false;
  }
  static constexpr std::size_t kSingular = static_cast<std::size_t>(-1);

  /// At the top level, "(ModelProto): x" reads better as "ModelProto: x".
  static void finish_message(Status& status) noexcept {
    std::string_view m = status.message_view();
    if (m.empty() || m[0] != '(') return;
    std::size_t close = m.find("): ");
    if (close == std::string_view::npos) return;
    Status rebuilt(status.code());
    // Views built by hand: string_view::substr may throw, which drags abort() into bare-metal images.
    rebuilt.append(std::string_view(m.data() + 1, close - 1));  // the type, without "(" and ")"
    rebuilt.append(std::string_view(m.data() + close + 1, m.size() - close - 1));
    status = rebuilt;
  }

  static bool depth_ok(Ctx& c, int depth, const char* type) noexcept {
    if (depth < ONNXMICRO_MAX_PROTO_DEPTH) return true;
    failure(c, StatusCode::limit_exceeded, type)
        << "message nesting depth " << depth + 1 << " exceeds ONNXMICRO_MAX_PROTO_DEPTH (" << ONNXMICRO_MAX_PROTO_DEPTH
        << ")";
    return false;
  }

  static bool is_ld(const WireField& f) noexcept { return f.type == WireType::length_delimited; }

  /// Validates the payload of packed repeated field `f` (elements of wire type `element`).
  static bool check_packed(Ctx& c, const char* type, const WireField& f, WireType element) noexcept {
    WireReader packed = reader_for(f.payload, &c);
    std::size_t count = 0;
    WireError e = packed.check_packed(element, f.number, count);
    return e == WireError::none || wire_failure(c, type, packed, e);
  }

  // ---- Rule-described messages ----

  static bool scan_rule(ByteSpan bytes, int depth, Ctx& c, const ProtoMessageRule& rule) noexcept {
    if (!depth_ok(c, depth, rule.type_name)) return false;
    WireReader r = reader_for(bytes, &c);
    WireField f;
    std::size_t counts[kMaxProtoRuleFields] = {};
    while (!r.at_end()) {
      WireError e = r.next_field(f);
      if (e != WireError::none) return wire_failure(c, rule.type_name, r, e);
      for (std::size_t i = 0; i < rule.field_count && i < kMaxProtoRuleFields; ++i) {
        const ProtoFieldRule& fr = rule.fields[i];
        if (fr.number != f.number || !is_ld(f)) continue;
        if (fr.kind == ProtoRuleKind::packed_varint) {
          if (!check_packed(c, rule.type_name, f, WireType::varint)) return false;
        } else if (fr.kind == ProtoRuleKind::graph) {
          proto::Graph graph;
          if (!scan(f.payload, depth + 1, &c, graph, 0)) return nested_failure(c, fr.name, counts[i]);
        } else if (!scan_rule(f.payload, depth + 1, c, *fr.message)) {
          return nested_failure(c, fr.name, counts[i]);
        }
        ++counts[i];
      }
    }
    return true;
  }

  // ---- StringStringEntryProto ----

  static bool scan(ByteSpan bytes, int depth, Ctx* c, proto::StringStringEntry& out) noexcept {
    constexpr const char* kType = "StringStringEntryProto";
    out = proto::StringStringEntry();
    if (c != nullptr) {
      if (!depth_ok(*c, depth, kType)) return false;
    }
    WireReader r = reader_for(bytes, c);
    WireField f;
    while (!r.at_end()) {
      WireError e = r.next_field(f);
      if (e != WireError::none) return c != nullptr && wire_failure(*c, kType, r, e);
      if (!is_ld(f)) continue;
      if (f.number == 1) out.key = proto::as_string_view(f.payload);
      if (f.number == 2) out.value = proto::as_string_view(f.payload);
    }
    return true;
  }

  /// Validates repeated StringStringEntryProto field occurrence `f` (metadata_props, external_data).
  static bool check_entry(ByteSpan payload, int depth, Ctx& c, const char* field, std::size_t& index) noexcept {
    proto::StringStringEntry entry;
    if (!scan(payload, depth, &c, entry)) return nested_failure(c, field, index);
    ++index;
    return true;
  }

  // ---- OperatorSetIdProto ----

  static bool scan(ByteSpan bytes, int depth, Ctx* c, proto::OperatorSetId& out) noexcept {
    constexpr const char* kType = "OperatorSetIdProto";
    out = proto::OperatorSetId();
    if (c != nullptr) {
      if (!depth_ok(*c, depth, kType)) return false;
    }
    WireReader r = reader_for(bytes, c);
    WireField f;
    while (!r.at_end()) {
      WireError e = r.next_field(f);
      if (e != WireError::none) return c != nullptr && wire_failure(*c, kType, r, e);
      if (f.number == 1 && is_ld(f)) out.domain = proto::as_string_view(f.payload);
      if (f.number == 2 && f.type == WireType::varint) out.version = static_cast<std::int64_t>(f.scalar);
    }
    return true;
  }

  // ---- TensorShapeProto and its Dimension ----

  static bool scan(ByteSpan bytes, int depth, Ctx* c, proto::Dimension& out) noexcept {
    constexpr const char* kType = "TensorShapeProto.Dimension";
    out = proto::Dimension();
    if (c != nullptr) {
      if (!depth_ok(*c, depth, kType)) return false;
    }
    WireReader r = reader_for(bytes, c);
    WireField f;
    while (!r.at_end()) {
      WireError e = r.next_field(f);
      if (e != WireError::none) return c != nullptr && wire_failure(*c, kType, r, e);
      // dim_value and dim_param are a oneof: the last one written wins.
      if (f.number == 1 && f.type == WireType::varint) {
        out.has_value = true;
        out.value = static_cast<std::int64_t>(f.scalar);
        out.param = std::string_view();
      } else if (f.number == 2 && is_ld(f)) {
        out.has_value = false;
        out.value = 0;
        out.param = proto::as_string_view(f.payload);
      }
    }
    return true;
  }

  static bool scan(ByteSpan bytes, int depth, Ctx* c, proto::TensorShape& out) noexcept {
    constexpr const char* kType = "TensorShapeProto";
    out = proto::TensorShape();
    out.bytes = bytes;
    if (c != nullptr) {
      if (!depth_ok(*c, depth, kType)) return false;
      WireReader r = reader_for(bytes, c);
      WireField f;
      std::size_t dim_index = 0;
      while (!r.at_end()) {
        WireError e = r.next_field(f);
        if (e != WireError::none) return wire_failure(*c, kType, r, e);
        if (f.number == 1 && is_ld(f)) {
          proto::Dimension d;
          if (!scan(f.payload, depth + 1, c, d)) return nested_failure(*c, "dim", dim_index);
          ++dim_index;
        }
      }
    }
    return true;
  }

  // ---- TypeProto ----

  static void reset_type_value(proto::Type& out) noexcept {
    out.elem_type = 0;
    out.has_shape = false;
    out.shape = proto::TensorShape();
    out.map_key_type = 0;
    out.element_bytes_ = ByteSpan();
  }

  /// TypeProto.Tensor / TypeProto.SparseTensor: elem_type = 1, shape = 2.
  static bool scan_tensor_type(ByteSpan bytes, int depth, Ctx* c, proto::Type& out, const char* type) noexcept {
    if (c != nullptr) {
      if (!depth_ok(*c, depth, type)) return false;
    }
    WireReader r = reader_for(bytes, c);
    WireField f;
    while (!r.at_end()) {
      WireError e = r.next_field(f);
      if (e != WireError::none) return c != nullptr && wire_failure(*c, type, r, e);
      if (f.number == 1 && f.type == WireType::varint) {
        out.elem_type = static_cast<std::int32_t>(static_cast<std::uint32_t>(f.scalar));
      } else if (f.number == 2 && is_ld(f)) {
        out.has_shape = true;
        if (!scan(f.payload, depth + 1, c, out.shape)) return c != nullptr && nested_failure(*c, "shape");
      }
    }
    return true;
  }

  /// TypeProto.Sequence / TypeProto.Optional (elem_type = 1) and TypeProto.Map (key_type = 1,
  /// value_type = 2): remembers the nested TypeProto's bytes, validating it when given a context.
  static bool scan_element_type(ByteSpan bytes, int depth, Ctx* c, proto::Type& out, bool is_map,
                                const char* type) noexcept {
    if (c != nullptr) {
      if (!depth_ok(*c, depth, type)) return false;
    }
    const std::uint32_t element_field = is_map ? 2 : 1;
    WireReader r = reader_for(bytes, c);
    WireField f;
    while (!r.at_end()) {
      WireError e = r.next_field(f);
      if (e != WireError::none) return c != nullptr && wire_failure(*c, type, r, e);
      if (is_map && f.number == 1 && f.type == WireType::varint) {
        out.map_key_type = static_cast<std::int32_t>(static_cast<std::uint32_t>(f.scalar));
      } else if (f.number == element_field && is_ld(f)) {
        out.element_bytes_ = f.payload;
        if (c != nullptr) {
          proto::Type element;
          if (!scan(f.payload, depth + 1, c, element)) {
            return nested_failure(*c, is_map ? "value_type" : "elem_type");
          }
        }
      }
    }
    return true;
  }

  static bool scan(ByteSpan bytes, int depth, Ctx* c, proto::Type& out) noexcept {
    constexpr const char* kType = "TypeProto";
    using Kind = proto::Type::Kind;
    out = proto::Type();
    out.bytes = bytes;
    if (c != nullptr) {
      if (!depth_ok(*c, depth, kType)) return false;
    }
    WireReader r = reader_for(bytes, c);
    WireField f;
    while (!r.at_end()) {
      WireError e = r.next_field(f);
      if (e != WireError::none) return c != nullptr && wire_failure(*c, kType, r, e);
      if (!is_ld(f)) continue;
      // The value fields are a oneof: each occurrence replaces whatever an earlier one set.
      switch (f.number) {
        case 1:
        case 8: {
          const bool dense = f.number == 1;
          reset_type_value(out);
          out.kind = dense ? Kind::tensor : Kind::sparse_tensor;
          if (!scan_tensor_type(f.payload, depth + 1, c, out, dense ? "TypeProto.Tensor" : "TypeProto.SparseTensor")) {
            return c != nullptr && nested_failure(*c, dense ? "tensor_type" : "sparse_tensor_type");
          }
          break;
        }
        case 4:
        case 9: {
          const bool sequence = f.number == 4;
          reset_type_value(out);
          out.kind = sequence ? Kind::sequence : Kind::optional;
          if (!scan_element_type(f.payload, depth + 1, c, out, false,
                                 sequence ? "TypeProto.Sequence" : "TypeProto.Optional")) {
            return c != nullptr && nested_failure(*c, sequence ? "sequence_type" : "optional_type");
          }
          break;
        }
        case 5:
          reset_type_value(out);
          out.kind = Kind::map;
          if (!scan_element_type(f.payload, depth + 1, c, out, true, "TypeProto.Map")) {
            return c != nullptr && nested_failure(*c, "map_type");
          }
          break;
        case 7:
          reset_type_value(out);
          out.kind = Kind::unknown;
          if (c != nullptr) {
            if (!scan_rule(f.payload, depth + 1, *c, kOpaqueTypeRule)) return nested_failure(*c, "opaque_type");
          }
          break;
        default: break;
      }
    }
    return true;
  }

  // ---- ValueInfoProto ----

  static bool scan(ByteSpan bytes, int depth, Ctx* c, proto::ValueInfo& out) noexcept {
    constexpr const char* kType = "ValueInfoProto";
    out = proto::ValueInfo();
    if (c != nullptr) {
      if (!depth_ok(*c, depth, kType)) return false;
    }
    WireReader r = reader_for(bytes, c);
    WireField f;
    std::size_t metadata_index = 0;
    while (!r.at_end()) {
      WireError e = r.next_field(f);
      if (e != WireError::none) return c != nullptr && wire_failure(*c, kType, r, e);
      if (!is_ld(f)) continue;
      if (f.number == 1) {
        out.name = proto::as_string_view(f.payload);
      } else if (f.number == 2) {
        out.has_type = true;
        if (!scan(f.payload, depth + 1, c, out.type)) return c != nullptr && nested_failure(*c, "type");
      } else if (f.number == 4) {
        if (c != nullptr) {
          if (!check_entry(f.payload, depth + 1, *c, "metadata_props", metadata_index)) return false;
        }
      }
    }
    return true;
  }

  // ---- TensorProto ----

  static constexpr std::uint32_t bit(std::uint32_t field) noexcept { return std::uint32_t{1} << field; }

  static const char* tensor_field_name(std::uint32_t field) noexcept {
    switch (field) {
      case 4: return "float_data";
      case 5: return "int32_data";
      case 6: return "string_data";
      case 7: return "int64_data";
      case 9: return "raw_data";
      case 10: return "double_data";
      case 11: return "uint64_data";
      default: return "?";
    }
  }

  static void add_dim(proto::Tensor& out, std::size_t& rank, std::uint64_t value) noexcept {
    if (rank < static_cast<std::size_t>(ONNXMICRO_MAX_RANK)) out.dims[rank] = static_cast<std::int64_t>(value);
    ++rank;
  }

  static bool scan(ByteSpan bytes, int depth, Ctx* c, proto::Tensor& out) noexcept {
    constexpr const char* kType = "TensorProto";
    out = proto::Tensor();
    out.bytes = bytes;
    if (c != nullptr) {
      if (!depth_ok(*c, depth, kType)) return false;
    }
    WireReader r = reader_for(bytes, c);
    WireField f;
    std::size_t rank = 0;  // may pass ONNXMICRO_MAX_RANK; reported after the loop, once the name is known
    std::uint32_t data_fields = 0;
    bool has_segment = false;
    std::size_t external_index = 0;
    std::size_t metadata_index = 0;
    while (!r.at_end()) {
      WireError e = r.next_field(f);
      if (e != WireError::none) return c != nullptr && wire_failure(*c, kType, r, e);
      const bool ld = is_ld(f);
      switch (f.number) {
        case 1:  // dims: repeated int64, packed or not
          if (f.type == WireType::varint) {
            add_dim(out, rank, f.scalar);
          } else if (ld) {
            WireReader packed = reader_for(f.payload, c);
            std::uint64_t v = 0;
            while (!packed.at_end()) {
              WireError pe = packed.next_varint(v);
              if (pe != WireError::none) return c != nullptr && wire_failure(*c, kType, packed, pe);
              add_dim(out, rank, v);
            }
          }
          break;
        case 2:
          if (f.type == WireType::varint)
            out.data_type = static_cast<std::int32_t>(static_cast<std::uint32_t>(f.scalar));
          break;
        case 3:
          if (ld) {
            has_segment = true;
            if (c != nullptr) {
              if (!scan_rule(f.payload, depth + 1, *c, kTensorSegmentRule)) return nested_failure(*c, "segment");
            }
          }
          break;
        case 4:     // float_data
        case 10:    // double_data
        case 5:     // int32_data
        case 7:     // int64_data
        case 11: {  // uint64_data
          const WireType element = f.number == 4    ? WireType::fixed32
                                   : f.number == 10 ? WireType::fixed64
                                                    : WireType::varint;
          if (f.type == element) {
            data_fields |= bit(f.number);
          } else if (ld) {
            data_fields |= bit(f.number);
            if (c != nullptr) {
              if (!check_packed(*c, kType, f, element)) return false;
            }
          }
          break;
        }
        case 6:
          if (ld) data_fields |= bit(6);
          break;
        case 8:
          if (ld) out.name = proto::as_string_view(f.payload);
          break;
        case 9:
          if (ld) {
            data_fields |= bit(9);
            out.has_raw_data = true;
            out.raw_data = f.payload;
          }
          break;
        case 13:
        case 16:
          if (c != nullptr) {
            if (ld && !check_entry(f.payload, depth + 1, *c, f.number == 13 ? "external_data" : "metadata_props",
                                   f.number == 13 ? external_index : metadata_index)) {
              return false;
            }
          }
          break;
        case 14:
          if (f.type == WireType::varint) {
            // Closed enum: values other than DEFAULT/EXTERNAL are ignored, as protobuf-lite does.
            const auto v = static_cast<std::int32_t>(static_cast<std::uint32_t>(f.scalar));
            if (v == 0 || v == 1) out.data_location = static_cast<proto::DataLocation>(v);
          }
          break;
        default: break;
      }
    }
    out.rank = static_cast<int>(rank < static_cast<std::size_t>(ONNXMICRO_MAX_RANK) ? rank : ONNXMICRO_MAX_RANK);
    const std::uint32_t typed = data_fields & ~bit(9);
    for (std::uint32_t field = 4; field <= 11; ++field) {
      if (typed & bit(field)) {
        out.typed_data_field = field;
        break;
      }
    }
    if (c != nullptr) {
      if (has_segment) {
        failure(*c, StatusCode::unsupported, kType, out.name)
            << "segment (a tensor split across several TensorProtos) is not supported";
        return false;
      }
      if (rank > static_cast<std::size_t>(ONNXMICRO_MAX_RANK)) {
        failure(*c, StatusCode::limit_exceeded, kType, out.name)
            << "rank " << rank << " exceeds ONNXMICRO_MAX_RANK (" << ONNXMICRO_MAX_RANK << ")";
        return false;
      }
      for (int i = 0; i < out.rank; ++i) {
        if (out.dims[i] < 0) {
          failure(*c, StatusCode::invalid_model, kType, out.name)
              << "dims[" << i << "] is negative (" << out.dims[i] << ")";
          return false;
        }
      }
      if ((data_fields & (data_fields - 1)) != 0) {  // more than one bit set
        std::uint32_t first = 0;
        std::uint32_t second = 0;
        for (std::uint32_t field = 4; field <= 11; ++field) {
          if ((data_fields & bit(field)) == 0) continue;
          if (first == 0) {
            first = field;
          } else if (second == 0) {
            second = field;
          }
        }
        failure(*c, StatusCode::invalid_model, kType, out.name)
            << "has both " << tensor_field_name(first) << " and " << tensor_field_name(second)
            << "; a tensor stores its data in exactly one field";
        return false;
      }
    }
    return true;
  }

  // ---- SparseTensorProto (validated only: no view) and MapProto ----

  static bool scan_sparse_tensor(ByteSpan bytes, int depth, Ctx& c) noexcept {
    constexpr const char* kType = "SparseTensorProto";
    if (!depth_ok(c, depth, kType)) return false;
    WireReader r = reader_for(bytes, &c);
    WireField f;
    while (!r.at_end()) {
      WireError e = r.next_field(f);
      if (e != WireError::none) return wire_failure(c, kType, r, e);
      if (!is_ld(f)) continue;
      if (f.number == 1 || f.number == 2) {
        proto::Tensor t;
        if (!scan(f.payload, depth + 1, &c, t)) return nested_failure(c, f.number == 1 ? "values" : "indices");
      } else if (f.number == 3) {
        if (!check_packed(c, kType, f, WireType::varint)) return false;
      }
    }
    return true;
  }

  /// MapProto: name = 1, key_type = 2, keys = 3, string_keys = 4, values = 5 (SequenceProto).
  static bool scan_map(ByteSpan bytes, int depth, Ctx& c) noexcept {
    constexpr const char* kType = "MapProto";
    if (!depth_ok(c, depth, kType)) return false;
    WireReader r = reader_for(bytes, &c);
    WireField f;
    while (!r.at_end()) {
      WireError e = r.next_field(f);
      if (e != WireError::none) return wire_failure(c, kType, r, e);
      if (!is_ld(f)) continue;
      if (f.number == 3) {
        if (!check_packed(c, kType, f, WireType::varint)) return false;
      } else if (f.number == 5) {
        proto::Sequence values;
        if (!scan(f.payload, depth + 1, &c, values)) return nested_failure(c, "values");
      }
    }
    return true;
  }

  // ---- AttributeProto ----

  static constexpr bool is_attribute_type(std::int32_t v) noexcept { return v >= 0 && v <= 14; }

  static bool scan(ByteSpan bytes, int depth, Ctx* c, proto::Attribute& out, int subgraph_depth) noexcept {
    constexpr const char* kType = "AttributeProto";
    using AT = proto::AttributeType;
    out = proto::Attribute();
    out.bytes = bytes;
    if (c != nullptr) {
      if (!depth_ok(*c, depth, kType)) return false;
    }
    WireReader r = reader_for(bytes, c);
    WireField f;
    bool has_type = false;
    std::uint32_t present = 0;  // bit per AttributeType whose value field occurs (for type inference)
    std::size_t tensors_index = 0;
    std::size_t graphs_index = 0;
    std::size_t sparse_index = 0;
    std::size_t type_protos_index = 0;
    auto mark = [&present](AT t) { present |= std::uint32_t{1} << static_cast<int>(t); };
    while (!r.at_end()) {
      WireError e = r.next_field(f);
      if (e != WireError::none) return c != nullptr && wire_failure(*c, kType, r, e);
      const bool ld = is_ld(f);
      switch (f.number) {
        case 1:
          if (ld) out.name = proto::as_string_view(f.payload);
          break;
        case 21:
          if (ld) out.ref_attr_name = proto::as_string_view(f.payload);
          break;
        case 20:
          if (f.type == WireType::varint) {
            // Closed enum: an unknown value is ignored (protobuf-lite keeps it as an unknown field).
            const auto v = static_cast<std::int32_t>(static_cast<std::uint32_t>(f.scalar));
            if (is_attribute_type(v)) {
              out.type = static_cast<AT>(v);
              has_type = true;
            }
          }
          break;
        case 2:
          if (f.type == WireType::fixed32) {
            out.f = proto::repeated_detail::ScalarTraits<float>::from_bits(f.scalar);
            mark(AT::float_);
          }
          break;
        case 3:
          if (f.type == WireType::varint) {
            out.i = static_cast<std::int64_t>(f.scalar);
            mark(AT::int_);
          }
          break;
        case 4:
          if (ld) {
            out.s = f.payload;
            mark(AT::string);
          }
          break;
        case 5:
          if (ld) {
            out.t = f.payload;
            mark(AT::tensor);
            if (c != nullptr) {
              proto::Tensor t;
              if (!scan(f.payload, depth + 1, c, t)) return nested_failure(*c, "t");
            }
          }
          break;
        case 6:
          if (ld) {
            out.g = f.payload;
            mark(AT::graph);
            if (c != nullptr) {
              proto::Graph g;
              if (!scan(f.payload, depth + 1, c, g, subgraph_depth + 1)) return nested_failure(*c, "g");
            }
          }
          break;
        case 22:
          if (ld) {
            mark(AT::sparse_tensor);
            if (c != nullptr) {
              if (!scan_sparse_tensor(f.payload, depth + 1, *c)) return nested_failure(*c, "sparse_tensor");
            }
          }
          break;
        case 14:
          if (ld) {
            mark(AT::type_proto);
            if (c != nullptr) {
              proto::Type t;
              if (!scan(f.payload, depth + 1, c, t)) return nested_failure(*c, "tp");
            }
          }
          break;
        case 7:
          if (f.type == WireType::fixed32 || ld) {
            mark(AT::floats);
            if (c != nullptr) {
              if (ld && !check_packed(*c, kType, f, WireType::fixed32)) return false;
            }
          }
          break;
        case 8:
          if (f.type == WireType::varint || ld) {
            mark(AT::ints);
            if (c != nullptr) {
              if (ld && !check_packed(*c, kType, f, WireType::varint)) return false;
            }
          }
          break;
        case 9:
          if (ld) mark(AT::strings);
          break;
        case 10:
          if (ld) {
            mark(AT::tensors);
            if (c != nullptr) {
              proto::Tensor t;
              if (!scan(f.payload, depth + 1, c, t)) return nested_failure(*c, "tensors", tensors_index);
              ++tensors_index;
            }
          }
          break;
        case 11:
          if (ld) {
            mark(AT::graphs);
            if (c != nullptr) {
              proto::Graph g;
              if (!scan(f.payload, depth + 1, c, g, subgraph_depth + 1)) {
                return nested_failure(*c, "graphs", graphs_index);
              }
              ++graphs_index;
            }
          }
          break;
        case 23:
          if (ld) {
            mark(AT::sparse_tensors);
            if (c != nullptr) {
              if (!scan_sparse_tensor(f.payload, depth + 1, *c)) {
                return nested_failure(*c, "sparse_tensors", sparse_index);
              }
              ++sparse_index;
            }
          }
          break;
        case 15:
          if (ld) {
            mark(AT::type_protos);
            if (c != nullptr) {
              proto::Type t;
              if (!scan(f.payload, depth + 1, c, t)) return nested_failure(*c, "type_protos", type_protos_index);
              ++type_protos_index;
            }
          }
          break;
        default: break;
      }
    }
    // Old IR versions omit `type`: exactly one kind of value field tells it.
    if (!has_type && present != 0 && (present & (present - 1)) == 0) {
      int t = 0;
      while ((present >> t) != 1u) ++t;
      out.type = static_cast<AT>(t);
    }
    return true;
  }

  // ---- NodeProto ----

  static bool scan(ByteSpan bytes, int depth, Ctx* c, proto::Node& out, int subgraph_depth) noexcept {
    constexpr const char* kType = "NodeProto";
    out = proto::Node();
    out.bytes = bytes;
    if (c != nullptr) {
      if (!depth_ok(*c, depth, kType)) return false;
    }
    WireReader r = reader_for(bytes, c);
    WireField f;
    std::size_t attribute_index = 0;
    std::size_t metadata_index = 0;
    std::size_t device_index = 0;
    while (!r.at_end()) {
      WireError e = r.next_field(f);
      if (e != WireError::none) return c != nullptr && wire_failure(*c, kType, r, e);
      if (!is_ld(f)) continue;
      switch (f.number) {
        case 3: out.name = proto::as_string_view(f.payload); break;
        case 4: out.op_type = proto::as_string_view(f.payload); break;
        case 7: out.domain = proto::as_string_view(f.payload); break;
        case 5:
          if (c != nullptr) {
            proto::Attribute a;
            if (!scan(f.payload, depth + 1, c, a, subgraph_depth)) {
              return nested_failure(*c, "attribute", attribute_index);
            }
            ++attribute_index;
          }
          break;
        case 9:
          if (c != nullptr) {
            if (!check_entry(f.payload, depth + 1, *c, "metadata_props", metadata_index)) return false;
          }
          break;
        case 10:
          if (c != nullptr) {
            if (!scan_rule(f.payload, depth + 1, *c, kNodeDeviceConfigurationRule)) {
              return nested_failure(*c, "device_configurations", device_index);
            }
            ++device_index;
          }
          break;
        default: break;
      }
    }
    return true;
  }

  // ---- GraphProto ----

  static bool scan(ByteSpan bytes, int depth, Ctx* c, proto::Graph& out, int subgraph_depth) noexcept {
    constexpr const char* kType = "GraphProto";
    out = proto::Graph();
    out.bytes = bytes;
    if (c != nullptr) {
      if (!depth_ok(*c, depth, kType)) return false;
      if (subgraph_depth > ONNXMICRO_MAX_SUBGRAPH_DEPTH) {
        failure(*c, StatusCode::limit_exceeded, kType)
            << "subgraph nesting depth " << subgraph_depth << " exceeds ONNXMICRO_MAX_SUBGRAPH_DEPTH ("
            << ONNXMICRO_MAX_SUBGRAPH_DEPTH << ")";
        return false;
      }
    }
    WireReader r = reader_for(bytes, c);
    WireField f;
    std::size_t node_index = 0;
    std::size_t initializer_index = 0;
    std::size_t input_index = 0;
    std::size_t output_index = 0;
    std::size_t value_info_index = 0;
    std::size_t annotation_index = 0;
    std::size_t sparse_index = 0;
    std::size_t metadata_index = 0;
    while (!r.at_end()) {
      WireError e = r.next_field(f);
      if (e != WireError::none) return c != nullptr && wire_failure(*c, kType, r, e);
      if (!is_ld(f)) continue;
      switch (f.number) {
        case 2: out.name = proto::as_string_view(f.payload); break;
        case 15:
          out.has_sparse_initializers = true;
          if (c != nullptr) {
            if (!scan_sparse_tensor(f.payload, depth + 1, *c)) {
              return nested_failure(*c, "sparse_initializer", sparse_index);
            }
            ++sparse_index;
          }
          break;
        default: break;
      }
      if (c != nullptr) {
        switch (f.number) {
          case 1: {
            proto::Node n;
            if (!scan(f.payload, depth + 1, c, n, subgraph_depth)) return nested_failure(*c, "node", node_index);
            ++node_index;
            break;
          }
          case 5: {
            proto::Tensor t;
            if (!scan(f.payload, depth + 1, c, t)) return nested_failure(*c, "initializer", initializer_index);
            ++initializer_index;
            break;
          }
          case 11:
          case 12:
          case 13: {
            std::size_t& index = f.number == 11 ? input_index : f.number == 12 ? output_index : value_info_index;
            proto::ValueInfo v;
            if (!scan(f.payload, depth + 1, c, v)) {
              return nested_failure(*c, f.number == 11 ? "input" : f.number == 12 ? "output" : "value_info", index);
            }
            ++index;
            break;
          }
          case 14:
            if (!scan_rule(f.payload, depth + 1, *c, kTensorAnnotationRule)) {
              return nested_failure(*c, "quantization_annotation", annotation_index);
            }
            ++annotation_index;
            break;
          case 16:
            if (!check_entry(f.payload, depth + 1, *c, "metadata_props", metadata_index)) return false;
            break;
          default: break;
        }
      }
    }
    return true;
  }

  // ---- FunctionProto ----

  static bool scan(ByteSpan bytes, int depth, Ctx* c, proto::Function& out) noexcept {
    constexpr const char* kType = "FunctionProto";
    out = proto::Function();
    out.bytes = bytes;
    if (c != nullptr) {
      if (!depth_ok(*c, depth, kType)) return false;
    }
    WireReader r = reader_for(bytes, c);
    WireField f;
    std::size_t node_index = 0;
    std::size_t opset_index = 0;
    std::size_t attribute_index = 0;
    std::size_t value_info_index = 0;
    std::size_t metadata_index = 0;
    while (!r.at_end()) {
      WireError e = r.next_field(f);
      if (e != WireError::none) return c != nullptr && wire_failure(*c, kType, r, e);
      if (!is_ld(f)) continue;
      switch (f.number) {
        case 1: out.name = proto::as_string_view(f.payload); break;
        case 10: out.domain = proto::as_string_view(f.payload); break;
        case 13: out.overload = proto::as_string_view(f.payload); break;
        default: break;
      }
      if (c != nullptr) {
        switch (f.number) {
          case 7: {  // a function body is a graph of its own: subgraph depth 0
            proto::Node n;
            if (!scan(f.payload, depth + 1, c, n, 0)) return nested_failure(*c, "node", node_index);
            ++node_index;
            break;
          }
          case 9: {
            proto::OperatorSetId o;
            if (!scan(f.payload, depth + 1, c, o)) return nested_failure(*c, "opset_import", opset_index);
            ++opset_index;
            break;
          }
          case 11: {
            proto::Attribute a;
            if (!scan(f.payload, depth + 1, c, a, 0)) {
              return nested_failure(*c, "attribute_proto", attribute_index);
            }
            ++attribute_index;
            break;
          }
          case 12: {
            proto::ValueInfo v;
            if (!scan(f.payload, depth + 1, c, v)) return nested_failure(*c, "value_info", value_info_index);
            ++value_info_index;
            break;
          }
          case 14:
            if (!check_entry(f.payload, depth + 1, *c, "metadata_props", metadata_index)) return false;
            break;
          default: break;
        }
      }
    }
    return true;
  }

  // ---- ModelProto (validated only) ----

  static bool scan(ByteSpan bytes, int depth, Ctx* c, proto::Model& out) noexcept {
    constexpr const char* kType = "ModelProto";
    out = proto::Model();
    out.bytes = bytes;
    if (!depth_ok(*c, depth, kType)) return false;
    WireReader r = reader_for(bytes, c);
    WireField f;
    std::size_t opset_index = 0;
    std::size_t metadata_index = 0;
    std::size_t training_index = 0;
    std::size_t function_index = 0;
    std::size_t configuration_index = 0;
    while (!r.at_end()) {
      WireError e = r.next_field(f);
      if (e != WireError::none) return wire_failure(*c, kType, r, e);
      if (f.type == WireType::varint) {
        if (f.number == 1) out.ir_version = static_cast<std::int64_t>(f.scalar);
        if (f.number == 5) out.model_version = static_cast<std::int64_t>(f.scalar);
        continue;
      }
      if (!is_ld(f)) continue;
      switch (f.number) {
        case 2: out.producer_name = proto::as_string_view(f.payload); break;
        case 3: out.producer_version = proto::as_string_view(f.payload); break;
        case 4: out.domain = proto::as_string_view(f.payload); break;
        case 6: out.doc_string = proto::as_string_view(f.payload); break;
        case 7:
          out.has_graph = true;
          if (!scan(f.payload, depth + 1, c, out.graph, 0)) return nested_failure(*c, "graph");
          break;
        case 8: {
          proto::OperatorSetId o;
          if (!scan(f.payload, depth + 1, c, o)) return nested_failure(*c, "opset_import", opset_index);
          ++opset_index;
          break;
        }
        case 14:
          if (!check_entry(f.payload, depth + 1, *c, "metadata_props", metadata_index)) return false;
          break;
        case 20:
          if (!scan_rule(f.payload, depth + 1, *c, kTrainingInfoRule)) {
            return nested_failure(*c, "training_info", training_index);
          }
          ++training_index;
          break;
        case 25: {
#if ONNXMICRO_ENABLE_MODEL_FUNCTIONS
          proto::Function fn;
          if (!scan(f.payload, depth + 1, c, fn)) return nested_failure(*c, "functions", function_index);
#else
          if (!scan_rule(f.payload, depth + 1, *c, kRefusedFunctionRule)) {
            return nested_failure(*c, "functions", function_index);
          }
#endif
          ++function_index;
          break;
        }
        case 26:
          if (!scan_rule(f.payload, depth + 1, *c, kDeviceConfigurationRule)) {
            return nested_failure(*c, "configuration", configuration_index);
          }
          ++configuration_index;
          break;
        default: break;
      }
    }
    return true;
  }

  // ---- SequenceProto / OptionalProto (validated only) ----

  /// Validates a value field shared by SequenceProto and OptionalProto (field numbers 3..7 in both).
  static bool check_value_field(const WireField& f, int depth, Ctx& c, const char* field, std::size_t index) noexcept {
    switch (f.number) {
      case 3: {
        proto::Tensor t;
        if (!scan(f.payload, depth, &c, t)) return nested_failure(c, field, index);
        return true;
      }
      case 4: return scan_sparse_tensor(f.payload, depth, c) || nested_failure(c, field, index);
      case 5: {
        proto::Sequence s;
        if (!scan(f.payload, depth, &c, s)) return nested_failure(c, field, index);
        return true;
      }
      case 6: return scan_map(f.payload, depth, c) || nested_failure(c, field, index);
      case 7: {
        proto::Optional o;
        if (!scan(f.payload, depth, &c, o)) return nested_failure(c, field, index);
        return true;
      }
      default: return true;
    }
  }

  static bool scan(ByteSpan bytes, int depth, Ctx* c, proto::Sequence& out) noexcept {
    constexpr const char* kType = "SequenceProto";
    static constexpr const char* kFieldNames[] = {"tensor_values", "sparse_tensor_values", "sequence_values",
                                                  "map_values", "optional_values"};
    out = proto::Sequence();
    out.bytes = bytes;
    if (!depth_ok(*c, depth, kType)) return false;
    WireReader r = reader_for(bytes, c);
    WireField f;
    std::size_t counts[5] = {};
    while (!r.at_end()) {
      WireError e = r.next_field(f);
      if (e != WireError::none) return wire_failure(*c, kType, r, e);
      if (f.number == 2 && f.type == WireType::varint) {
        out.elem_type = static_cast<std::int32_t>(static_cast<std::uint32_t>(f.scalar));
      } else if (is_ld(f) && f.number == 1) {
        out.name = proto::as_string_view(f.payload);
      } else if (is_ld(f) && f.number >= 3 && f.number <= 7) {
        std::size_t& index = counts[f.number - 3];
        if (!check_value_field(f, depth + 1, *c, kFieldNames[f.number - 3], index)) return false;
        ++index;
      }
    }
    return true;
  }

  static bool scan(ByteSpan bytes, int depth, Ctx* c, proto::Optional& out) noexcept {
    constexpr const char* kType = "OptionalProto";
    static constexpr const char* kFieldNames[] = {"tensor_value", "sparse_tensor_value", "sequence_value", "map_value",
                                                  "optional_value"};
    out = proto::Optional();
    out.bytes = bytes;
    if (!depth_ok(*c, depth, kType)) return false;
    WireReader r = reader_for(bytes, c);
    WireField f;
    ByteSpan values[5];
    bool present[5] = {};
    std::uint32_t last_value_field = 0;
    while (!r.at_end()) {
      WireError e = r.next_field(f);
      if (e != WireError::none) return wire_failure(*c, kType, r, e);
      if (f.number == 2 && f.type == WireType::varint) {
        out.elem_type = static_cast<std::int32_t>(static_cast<std::uint32_t>(f.scalar));
      } else if (is_ld(f) && f.number == 1) {
        out.name = proto::as_string_view(f.payload);
      } else if (is_ld(f) && f.number >= 3 && f.number <= 7) {
        if (!check_value_field(f, depth + 1, *c, kFieldNames[f.number - 3], kSingular)) return false;
        values[f.number - 3] = f.payload;
        present[f.number - 3] = true;
        last_value_field = f.number;
      }
    }
    // elem_type 1..5 (tensor, sparse tensor, sequence, map, optional) is stored in field 3..7.
    const std::uint32_t field =
        (out.elem_type >= 1 && out.elem_type <= 5) ? static_cast<std::uint32_t>(out.elem_type) + 2 : last_value_field;
    if (field >= 3 && field <= 7 && present[field - 3]) {
      out.has_value = true;
      out.value = values[field - 3];
    }
    return true;
  }
};

/// True when this host stores integers little-endian (then raw_data can be copied as is).
inline bool host_is_little_endian() noexcept {
#if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__)
  return __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__;
#else
  const std::uint16_t probe = 1;
  unsigned char first;
  std::memcpy(&first, &probe, 1);
  return first == 1;
#endif
}

/// True when each int32_data entry of `dtype` is one packed byte (4- and 2-bit types) rather than one element
/// (every other type, float6 included).
constexpr bool int32_entry_is_packed_byte(DataType dtype) noexcept {
  return dtype_bits(dtype) == 4 || dtype_bits(dtype) == 2;
}

/// Stores the low `width` (4 or 8) bytes of `bits` as a value in host byte order.
inline void store_fixed(unsigned char* out, std::uint64_t bits, std::size_t width) noexcept {
  if (width == 4) {
    const auto v = static_cast<std::uint32_t>(bits);
    std::memcpy(out, &v, 4);
  } else {
    std::memcpy(out, &bits, 8);
  }
}

/// Appends "'name' (dtype [d0,d1,...])" for tensor messages.
inline Status& describe_tensor(Status& s, const proto::Tensor& t) noexcept {
  s << "tensor '" << t.name << "' (";
  if (is_known_dtype(t.data_type)) {
    s << dtype_name(static_cast<DataType>(t.data_type));
  } else {
    s << "data_type " << t.data_type;
  }
  s << " [";
  for (int i = 0; i < t.rank; ++i) {
    if (i) s << ",";
    s << t.dims[i];
  }
  return s << "])";
}

}  // namespace detail

namespace proto {

// ---- View entry points ------------------------------------------------------------------------------------

inline Status StringStringEntry::parse(ByteSpan bytes, int depth, StringStringEntry& out) noexcept {
  return detail::ProtoViewParser::parse_top(bytes, depth, out);
}
inline StringStringEntry StringStringEntry::unchecked(ByteSpan bytes) noexcept {
  return detail::ProtoViewParser::unchecked<StringStringEntry>(bytes);
}

inline Status OperatorSetId::parse(ByteSpan bytes, int depth, OperatorSetId& out) noexcept {
  return detail::ProtoViewParser::parse_top(bytes, depth, out);
}
inline OperatorSetId OperatorSetId::unchecked(ByteSpan bytes) noexcept {
  return detail::ProtoViewParser::unchecked<OperatorSetId>(bytes);
}

inline Status Dimension::parse(ByteSpan bytes, int depth, Dimension& out) noexcept {
  return detail::ProtoViewParser::parse_top(bytes, depth, out);
}
inline Dimension Dimension::unchecked(ByteSpan bytes) noexcept {
  return detail::ProtoViewParser::unchecked<Dimension>(bytes);
}

inline Status TensorShape::parse(ByteSpan bytes, int depth, TensorShape& out) noexcept {
  return detail::ProtoViewParser::parse_top(bytes, depth, out);
}
inline TensorShape TensorShape::unchecked(ByteSpan bytes) noexcept {
  return detail::ProtoViewParser::unchecked<TensorShape>(bytes);
}

inline Type Type::element() const noexcept { return Type::unchecked(element_bytes_); }
inline Status Type::parse(ByteSpan bytes, int depth, Type& out) noexcept {
  return detail::ProtoViewParser::parse_top(bytes, depth, out);
}
inline Type Type::unchecked(ByteSpan bytes) noexcept { return detail::ProtoViewParser::unchecked<Type>(bytes); }

inline Status ValueInfo::parse(ByteSpan bytes, int depth, ValueInfo& out) noexcept {
  return detail::ProtoViewParser::parse_top(bytes, depth, out);
}
inline ValueInfo ValueInfo::unchecked(ByteSpan bytes) noexcept {
  return detail::ProtoViewParser::unchecked<ValueInfo>(bytes);
}

inline Status Tensor::parse(ByteSpan bytes, int depth, Tensor& out) noexcept {
  return detail::ProtoViewParser::parse_top(bytes, depth, out);
}
inline Tensor Tensor::unchecked(ByteSpan bytes) noexcept { return detail::ProtoViewParser::unchecked<Tensor>(bytes); }

inline Status Attribute::parse(ByteSpan bytes, int depth, Attribute& out) noexcept {
  return detail::ProtoViewParser::parse_top(bytes, depth, out, 0);
}
inline Attribute Attribute::unchecked(ByteSpan bytes) noexcept {
  return detail::ProtoViewParser::unchecked<Attribute>(bytes, 0);
}

inline Status Node::parse(ByteSpan bytes, int depth, Node& out) noexcept {
  return detail::ProtoViewParser::parse_top(bytes, depth, out, 0);
}
inline Node Node::unchecked(ByteSpan bytes) noexcept { return detail::ProtoViewParser::unchecked<Node>(bytes, 0); }

inline bool Node::find_attribute(std::string_view attribute_name, Attribute& out) const noexcept {
  for (const Attribute& a : attributes()) {
    if (a.name == attribute_name) {
      out = a;
      return true;
    }
  }
  return false;
}

inline Status Graph::parse(ByteSpan bytes, int depth, Graph& out) noexcept {
  return detail::ProtoViewParser::parse_top(bytes, depth, out, 0);
}
inline Status Graph::parse_subgraph(ByteSpan bytes, int depth, int subgraph_depth, Graph& out) noexcept {
  return detail::ProtoViewParser::parse_top(bytes, depth, out, subgraph_depth);
}
inline Graph Graph::unchecked(ByteSpan bytes) noexcept { return detail::ProtoViewParser::unchecked<Graph>(bytes, 0); }

inline Status Function::parse(ByteSpan bytes, int depth, Function& out) noexcept {
  return detail::ProtoViewParser::parse_top(bytes, depth, out);
}
inline Function Function::unchecked(ByteSpan bytes) noexcept {
  return detail::ProtoViewParser::unchecked<Function>(bytes);
}

inline Status Model::parse(ByteSpan bytes, Model& out) noexcept {
  return detail::ProtoViewParser::parse_top(bytes, 0, out);
}

inline Status Sequence::parse(ByteSpan bytes, int depth, Sequence& out) noexcept {
  return detail::ProtoViewParser::parse_top(bytes, depth, out);
}

inline Status Optional::parse(ByteSpan bytes, int depth, Optional& out) noexcept {
  return detail::ProtoViewParser::parse_top(bytes, depth, out);
}

inline const char* attribute_type_name(AttributeType t) noexcept {
  switch (t) {
    case AttributeType::undefined: return "UNDEFINED";
    case AttributeType::float_: return "FLOAT";
    case AttributeType::int_: return "INT";
    case AttributeType::string: return "STRING";
    case AttributeType::tensor: return "TENSOR";
    case AttributeType::graph: return "GRAPH";
    case AttributeType::sparse_tensor: return "SPARSE_TENSOR";
    case AttributeType::type_proto: return "TYPE_PROTO";
    case AttributeType::floats: return "FLOATS";
    case AttributeType::ints: return "INTS";
    case AttributeType::strings: return "STRINGS";
    case AttributeType::tensors: return "TENSORS";
    case AttributeType::graphs: return "GRAPHS";
    case AttributeType::sparse_tensors: return "SPARSE_TENSORS";
    case AttributeType::type_protos: return "TYPE_PROTOS";
  }
  return "UNKNOWN";
}

// ---- Tensor data ------------------------------------------------------------------------------------------

inline Status Tensor::element_count(std::int64_t& count) const noexcept {
  count = 0;
  const std::uint64_t limit = static_cast<std::uint64_t>(ONNXMICRO_MAX_TENSOR_BYTES);
  const DataType dtype = is_known_dtype(data_type) ? static_cast<DataType>(data_type) : DataType::undefined;
  // Bytes per element for the limit: strings and unknown types count one byte each (their real size is
  // unknown, and the count must stay bounded all the same); packed sub-byte types count their bits.
  const std::uint64_t element_bytes = dtype_size(dtype) == 0 ? 1 : dtype_size(dtype);
  bool has_zero = false;
  for (int i = 0; i < rank; ++i) {
    if (dims[i] < 0) {
      Status s(StatusCode::invalid_model);
      detail::describe_tensor(s, *this) << ": dims[" << i << "] is negative";
      return s;
    }
    if (dims[i] == 0) has_zero = true;
  }
  if (has_zero) return {};
  std::uint64_t n = 1;
  for (int i = 0; i < rank; ++i) {
    const auto d = static_cast<std::uint64_t>(dims[i]);
    if (n > limit / d) {
      n = 0;
      break;
    }
    n *= d;
  }
  std::uint64_t bytes_needed = 0;
  if (n != 0) {
    if (is_sub_byte(dtype)) {
      bytes_needed = (n * static_cast<std::uint64_t>(dtype_bits(dtype)) + 7) / 8;  // n <= 2^40: no overflow
    } else {
      bytes_needed = n > limit / element_bytes ? 0 : n * element_bytes;
    }
  }
  if (n == 0 || bytes_needed == 0 || bytes_needed > limit) {
    Status s(StatusCode::limit_exceeded);
    detail::describe_tensor(s, *this) << " is larger than ONNXMICRO_MAX_TENSOR_BYTES (" << limit << " bytes)";
    return s;
  }
  count = static_cast<std::int64_t>(n);
  return {};
}

inline std::size_t Tensor::stored_element_count() const noexcept {
  const DataType dtype = is_known_dtype(data_type) ? static_cast<DataType>(data_type) : DataType::undefined;
  // Packed sub-byte types: the dims say how much of the last byte is used.
  auto sub_byte_count = [this, dtype](std::size_t bytes_stored) -> std::size_t {
    std::int64_t count = 0;
    if (element_count(count).ok() && byte_size_of(dtype, count) == bytes_stored) {
      return static_cast<std::size_t>(count);
    }
    return bytes_stored * 8 / static_cast<std::size_t>(dtype_bits(dtype));
  };
  const bool is_complex = dtype == DataType::complex64 || dtype == DataType::complex128;
  if (has_raw_data) {
    if (is_sub_byte(dtype)) return sub_byte_count(raw_data.size());
    const std::size_t size = dtype_size(dtype);
    if (size == 0) return 0;
    if (raw_data.size() % size != 0) return static_cast<std::size_t>(-1);
    return raw_data.size() / size;
  }
  switch (typed_data_field) {
    case 4: {
      const std::size_t n = float_data().size();
      return is_complex ? n / 2 : n;
    }
    case 5: {
      const std::size_t n = int32_data().size();
      return detail::int32_entry_is_packed_byte(dtype) ? sub_byte_count(n) : n;
    }
    case 6: return string_data().size();
    case 7: return int64_data().size();
    case 10: {
      const std::size_t n = double_data().size();
      return is_complex ? n / 2 : n;
    }
    case 11: return uint64_data().size();
    default: return 0;
  }
}

inline Status Tensor::decode_to(void* dst, std::size_t dst_bytes) const noexcept {
  auto error = [this](StatusCode code) -> Status {
    Status s(code);
    detail::describe_tensor(s, *this) << ": ";
    return s;
  };
  if (!is_known_dtype(data_type)) {
    Status s = error(StatusCode::invalid_model);
    s << (data_type == 0 ? "data_type is UNDEFINED" : "data_type is not a known ONNX type");
    return s;
  }
  // Decoding is compiled for the dtypes this build keeps (ONNXMICRO_ENABLED_DTYPES, _FLOAT64, _FLOAT16): the other
  // dtypes' branches below are dropped, and their tensors are refused by name.
  const DataType dtype = compiled_dtype(static_cast<DataType>(data_type));
  if (dtype == DataType::undefined) {
    const auto stored = static_cast<DataType>(data_type);
    Status s = error(StatusCode::unsupported);
    s << "its dtype " << dtype_name(stored) << " is one this build leaves out (" << dtype_disabled_by(stored) << ")";
    return s;
  }
  // Model::load points raw_data of an external tensor at its resolved bytes; only an unresolved one fails.
  if (data_location == DataLocation::external && !has_raw_data) {
    Status s = error(StatusCode::unsupported);
    s << "its data is stored externally (data_location EXTERNAL) and was not resolved: Model::load resolves "
         "initializers' external data";
    return s;
  }
  std::int64_t count = 0;
  ONNXMICRO_RETURN_IF_ERROR(element_count(count));
  const std::size_t need = byte_size_of(dtype, count);
  if (dst_bytes != need || (need != 0 && dst == nullptr)) {
    Status s = error(StatusCode::invalid_argument);
    s << "destination has " << dst_bytes << " bytes" << (dst == nullptr ? " (null)" : "") << ", the tensor needs "
      << need;
    return s;
  }
  auto* out = static_cast<unsigned char*>(dst);

  if (dtype == DataType::string) {
    // Each element becomes a StringRef into the bytes this view reads (zero-copy: they must outlive dst).
    if (has_raw_data || (typed_data_field != 0 && typed_data_field != 6)) {
      Status s = error(StatusCode::invalid_model);
      s << "a string tensor stores its data in string_data, not "
        << (has_raw_data ? "raw_data" : detail::ProtoViewParser::tensor_field_name(typed_data_field));
      return s;
    }
    std::size_t stored = typed_data_field == 6 ? string_data().size() : 0;
    if (stored != static_cast<std::size_t>(count)) {
      Status s = error(StatusCode::invalid_model);
      s << "string_data holds " << stored << " strings, the dims need " << count;
      return s;
    }
    std::size_t i = 0;
    if (stored != 0) {
      for (ByteSpan entry : string_data()) {
        const StringRef ref{reinterpret_cast<const char*>(entry.data()), entry.size()};
        std::memcpy(out + i * sizeof(StringRef), &ref, sizeof(StringRef));
        ++i;
      }
    }
    return {};
  }

  if (has_raw_data) {
    if (raw_data.size() != need) {
      Status s = error(StatusCode::invalid_model);
      s << "raw_data holds " << raw_data.size() << " bytes, the dims need " << need;
      return s;
    }
    if (need == 0) return {};
    std::memcpy(out, raw_data.data(), need);
    // raw_data is little-endian; swap each scalar component (a complex value is two) on big-endian hosts.
    std::size_t unit = is_sub_byte(dtype) ? 1 : dtype_size(dtype);
    if (dtype == DataType::complex64 || dtype == DataType::complex128) unit /= 2;
    if (unit > 1 && !detail::host_is_little_endian()) {
      for (std::size_t i = 0; i + unit <= need; i += unit) {
        for (std::size_t a = i, b = i + unit - 1; a < b; ++a, --b) {
          const unsigned char tmp = out[a];
          out[a] = out[b];
          out[b] = tmp;
        }
      }
    }
    return {};
  }

  // Which typed field this dtype may use, and how many stored values make one element.
  std::uint32_t expected_field = 0;
  std::size_t values_per_element = 1;
  switch (dtype) {
    case DataType::float32: expected_field = 4; break;
    case DataType::complex64:
      expected_field = 4;
      values_per_element = 2;
      break;
    case DataType::float64: expected_field = 10; break;
    case DataType::complex128:
      expected_field = 10;
      values_per_element = 2;
      break;
    case DataType::int64: expected_field = 7; break;
    case DataType::uint32:
    case DataType::uint64: expected_field = 11; break;
    default: expected_field = 5; break;  // every other fixed-size type: int32_data
  }
  if (typed_data_field == 0) {
    if (count == 0) return {};
    Status s = error(StatusCode::invalid_model);
    s << "has no data (needs " << count << " elements)";
    return s;
  }
  if (typed_data_field != expected_field) {
    Status s = error(StatusCode::invalid_model);
    s << "stores its data in " << detail::ProtoViewParser::tensor_field_name(typed_data_field) << "; a "
      << dtype_name(dtype) << " tensor uses " << detail::ProtoViewParser::tensor_field_name(expected_field)
      << " or raw_data";
    return s;
  }
  const std::size_t expected_values =
      detail::int32_entry_is_packed_byte(dtype) ? need : static_cast<std::size_t>(count) * values_per_element;
  std::size_t stored_values = 0;
  switch (typed_data_field) {
    case 4: stored_values = float_data().size(); break;
    case 5: stored_values = int32_data().size(); break;
    case 7: stored_values = int64_data().size(); break;
    case 10: stored_values = double_data().size(); break;
    default: stored_values = uint64_data().size(); break;
  }
  if (stored_values != expected_values) {
    Status s = error(StatusCode::invalid_model);
    s << detail::ProtoViewParser::tensor_field_name(typed_data_field) << " holds " << stored_values
      << " values, the dims need " << expected_values;
    return s;
  }

  std::size_t k = 0;
  switch (typed_data_field) {
    case 4:
    case 10: {
      // Fixed-width values: packed payloads are little-endian arrays, copied in bulk on little-endian hosts.
      const bool is_float = typed_data_field == 4;
      const std::size_t width = is_float ? 4 : 8;
      const WireType scalar_wire = is_float ? WireType::fixed32 : WireType::fixed64;
      const bool bulk = detail::host_is_little_endian();
      WireReader reader(bytes);
      WireField f;
      while (!reader.at_end() && reader.next_field(f) == WireError::none) {
        if (f.number != typed_data_field) continue;
        if (f.type == WireType::length_delimited && bulk) {
          if (f.payload.size() != 0) std::memcpy(out + k, f.payload.data(), f.payload.size());
          k += f.payload.size();
        } else if (f.type == WireType::length_delimited) {
          WireReader packed(f.payload);
          std::uint64_t bits = 0;
          while (repeated_detail::read_packed_element(packed, scalar_wire, bits) == WireError::none) {
            detail::store_fixed(out + k, bits, width);
            k += width;
          }
        } else if (f.type == scalar_wire) {
          detail::store_fixed(out + k, f.scalar, width);
          k += width;
        }
      }
      break;
    }
    case 7:
      for (std::int64_t v : int64_data()) std::memcpy(out + 8 * k++, &v, 8);
      break;
    case 11:
      for (std::uint64_t v : uint64_data()) {
        if (dtype == DataType::uint32) {
          const auto u = static_cast<std::uint32_t>(v);
          std::memcpy(out + 4 * k++, &u, 4);
        } else {
          std::memcpy(out + 8 * k++, &v, 8);
        }
      }
      break;
    default: {  // int32_data: an int32 per element (per packed byte for 4/2-bit types), keep the low bits
      if (dtype_bits(dtype) == 6) {
        // One 6-bit element per entry, packed into an LSB-first bitstream (4 elements in 3 bytes).
        std::memset(out, 0, need);
        std::size_t bit = 0;
        std::size_t index = 0;
        for (std::int64_t v : int32_data()) {
          if (v < 0 || v > 63) {
            Status s = error(StatusCode::invalid_model);
            s << "int32_data[" << index << "] = " << v << " does not fit the 6 bits of " << dtype_name(dtype);
            return s;
          }
          const auto value = static_cast<unsigned>(v);
          const std::size_t shift = bit % 8;
          out[bit / 8] = static_cast<unsigned char>(out[bit / 8] | ((value << shift) & 0xffu));
          if (shift > 2) out[bit / 8 + 1] = static_cast<unsigned char>(out[bit / 8 + 1] | (value >> (8 - shift)));
          bit += 6;
          ++index;
        }
        break;
      }
      const std::size_t width = is_sub_byte(dtype) ? 1 : dtype_size(dtype);
      // A narrow integer that does not fit its dtype (a uint8 zero point of 300) is a broken model, not a value
      // to wrap: onnx's helpers never write one.
      std::int64_t low = 0, high = -1;  // empty range: no check (bool, float bit patterns, 4/2-bit packed bytes)
      if (dtype == DataType::int8) low = -128, high = 127;
      if (dtype == DataType::uint8) low = 0, high = 255;
      if (dtype == DataType::int16) low = -32768, high = 32767;
      if (dtype == DataType::uint16) low = 0, high = 65535;
      std::size_t index = 0;
      for (std::int64_t v : int32_data()) {
        if (low <= high && (v < low || v > high)) {
          Status s = error(StatusCode::invalid_model);
          s << "int32_data[" << index << "] = " << v << " is out of the range of " << dtype_name(dtype) << " [" << low
            << ", " << high << "]";
          return s;
        }
        ++index;
        const auto bits = static_cast<std::uint32_t>(static_cast<std::uint64_t>(v));
        if (dtype == DataType::boolean) {
          out[k++] = bits != 0 ? 1 : 0;
        } else if (width == 1) {
          out[k++] = static_cast<unsigned char>(bits & 0xffu);
        } else if (width == 2) {
          const auto u = static_cast<std::uint16_t>(bits & 0xffffu);
          std::memcpy(out + 2 * k++, &u, 2);
        } else {
          std::memcpy(out + 4 * k++, &bits, 4);
        }
      }
      break;
    }
  }
  return {};
}

}  // namespace proto
ONNXMICRO_NAMESPACE_END
