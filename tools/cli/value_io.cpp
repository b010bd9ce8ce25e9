// SPDX-License-Identifier: MIT
#include "value_io.hpp"

#include "cli_support.hpp"
#include "proto_encoder.hpp"

namespace onnxmicro_cli {

using onnxmicro::DataType;
using onnxmicro::proto::Type;

namespace {

// SequenceProto/OptionalProto elem_type numbers (onnx.proto's DataType enum of those messages).
constexpr std::int32_t kElemTensor = 1, kElemSequence = 3;
// Field numbers shared by SequenceProto and OptionalProto.
constexpr std::uint32_t kNameField = 1, kElemTypeField = 2, kTensorField = 3, kSequenceField = 5;

std::string tensor_text(DataType dtype, bool article) {
  const std::string name = dtype == DataType::undefined ? std::string("tensor") : onnxmicro::dtype_name(dtype);
  if (!article) return name + (dtype == DataType::undefined ? "s" : " tensors");
  const bool vowel = name[0] == 'i' || name[0] == 'u';  // int8, uint8, ...
  return std::string(vowel ? "an " : "a ") + name + (dtype == DataType::undefined ? "" : " tensor");
}

DataType declared_tensor_dtype(const Type& type) {
  return type.kind == Type::Kind::tensor && onnxmicro::is_known_dtype(type.elem_type)
             ? static_cast<DataType>(type.elem_type)
             : DataType::undefined;
}

bool parse_element_tensor(onnxmicro::ByteSpan bytes, const std::string& where, HostTensor& out, std::string& error) {
  const std::vector<unsigned char> copy(bytes.data(), bytes.data() + bytes.size());
  return parse_tensor_proto(copy, where, out, error);
}

// A SequenceProto of tensors; each element's dtype must be `element` when that is known.
bool decode_sequence(onnxmicro::ByteSpan bytes, const std::string& path, DataType element, HostTensor& out,
                     std::string& error) {
  onnxmicro::proto::Sequence sequence;
  const onnxmicro::Status status = onnxmicro::proto::Sequence::parse(bytes, 0, sequence);
  if (!status.ok()) {
    error = "'" + path + "' is not a valid onnx SequenceProto: " + describe_status(status);
    return false;
  }
  if ((sequence.elem_type != kElemTensor && sequence.elem_type != 0) || !sequence.sequence_values().empty() ||
      !sequence.map_values().empty() || !sequence.optional_values().empty()) {
    error = "'" + path + "': only sequences of tensors are supported (elem_type " + std::to_string(sequence.elem_type) +
            ")";
    return false;
  }
  out = HostTensor();
  out.dtype = DataType::sequence;
  out.name = std::string(sequence.name);
  for (const onnxmicro::proto::Tensor& tensor : sequence.tensor_values()) {
    const std::string where = path + " (element " + std::to_string(out.elements.size()) + ")";
    out.elements.emplace_back();
    if (!parse_element_tensor(tensor.bytes, where, out.elements.back(), error)) return false;
    if (element != DataType::undefined && out.elements.back().dtype != element) {
      error = "'" + path + "' element " + std::to_string(out.elements.size() - 1) + " is " +
              tensor_text(out.elements.back().dtype, true) + ", the model declares a sequence of " +
              tensor_text(element, false);
      return false;
    }
  }
  out.shape = onnxmicro::Shape{static_cast<std::int64_t>(out.elements.size())};
  return true;
}

// An OptionalProto of a tensor or a sequence of tensors; `declared` (the optional's element type) when known.
bool decode_optional(onnxmicro::ByteSpan bytes, const std::string& path, const Type& declared, HostTensor& out,
                     std::string& error) {
  onnxmicro::proto::Optional optional;
  const onnxmicro::Status status = onnxmicro::proto::Optional::parse(bytes, 0, optional);
  if (!status.ok()) {
    error = "'" + path + "' is not a valid onnx OptionalProto: " + describe_status(status);
    return false;
  }
  const bool wants_sequence = declared.kind == Type::Kind::sequence, wants_tensor = declared.kind == Type::Kind::tensor;
  if (optional.elem_type != kElemTensor && optional.elem_type != kElemSequence && optional.has_value) {
    error = "'" + path + "': only optionals of a tensor or a sequence are supported (elem_type " +
            std::to_string(optional.elem_type) + ")";
    return false;
  }
  if ((wants_sequence && optional.elem_type == kElemTensor) || (wants_tensor && optional.elem_type == kElemSequence)) {
    error = "'" + path + "' is an optional of a " + (optional.elem_type == kElemTensor ? "tensor" : "sequence") +
            ", the model declares an optional of " + describe_type(declared);
    return false;
  }
  out = HostTensor();
  out.dtype = DataType::optional;
  out.name = std::string(optional.name);
  if (optional.has_value) {
    out.elements.emplace_back();
    HostTensor& element = out.elements.back();
    const DataType declared_dtype = declared_tensor_dtype(wants_sequence ? declared.element() : declared);
    const bool ok = optional.elem_type == kElemSequence
                        ? decode_sequence(optional.value, path, declared_dtype, element, error)
                        : parse_element_tensor(optional.value, path, element, error);
    if (!ok) return false;
    if (optional.elem_type == kElemTensor && declared_dtype != DataType::undefined && element.dtype != declared_dtype) {
      error = "'" + path + "' holds " + tensor_text(element.dtype, true) + ", the model declares an optional of " +
              tensor_text(declared_dtype, true);
      return false;
    }
  }
  out.shape = onnxmicro::Shape{static_cast<std::int64_t>(out.elements.size())};
  return true;
}

bool encode_sequence(const std::string& name, const onnxmicro::ConstTensorView& value, ProtoEncoder& encoder,
                     std::string& error) {
  encoder.string_field(kNameField, name);
  encoder.int_field(kElemTypeField, kElemTensor);
  const auto* refs = static_cast<const onnxmicro::ValueRef*>(value.data);
  for (std::int64_t k = 0; k < value.shape.element_count(); ++k) {
    std::vector<unsigned char> tensor;
    if (!encode_tensor_proto("", onnxmicro::view_of(refs[k]), tensor, error)) return false;
    encoder.bytes_field(kTensorField, tensor.data(), tensor.size());
  }
  return true;
}

bool encode_optional(const std::string& name, const onnxmicro::ConstTensorView& value, const Type* declared,
                     ProtoEncoder& encoder, std::string& error) {
  encoder.string_field(kNameField, name);
  const bool has_value = value.shape.element_count() > 0;
  const onnxmicro::ConstTensorView element =
      has_value ? onnxmicro::view_of(*static_cast<const onnxmicro::ValueRef*>(value.data))
                : onnxmicro::ConstTensorView();
  const bool is_sequence = has_value ? element.dtype == DataType::sequence
                                     : declared != nullptr && declared->kind == Type::Kind::optional &&
                                           declared->element().kind == Type::Kind::sequence;
  encoder.int_field(kElemTypeField, is_sequence ? kElemSequence : kElemTensor);
  if (!has_value) return true;
  std::vector<unsigned char> bytes;
  if (is_sequence) {
    ProtoEncoder sequence;
    if (!encode_sequence("", element, sequence, error)) return false;
    bytes = sequence.take();
  } else if (!encode_tensor_proto("", element, bytes, error)) {
    return false;
  }
  encoder.bytes_field(is_sequence ? kSequenceField : kTensorField, bytes.data(), bytes.size());
  return true;
}

}  // namespace

std::string describe_type(const Type& declared) {
  switch (declared.kind) {
    case Type::Kind::sequence: return "a sequence of " + tensor_text(declared_tensor_dtype(declared.element()), false);
    case Type::Kind::optional: return "an optional of " + describe_type(declared.element());
    case Type::Kind::map: return "a map";
    case Type::Kind::sparse_tensor: return "a sparse tensor";
    default: return tensor_text(declared_tensor_dtype(declared), true);
  }
}

std::string describe_value(const onnxmicro::ConstTensorView& value) {
  if (value.dtype == DataType::sequence) return "a sequence";
  if (value.dtype == DataType::optional) return "an optional";
  return tensor_text(value.dtype, true);
}

bool read_value_file(const std::string& path, const Type& declared, HostTensor& out, std::string& error) {
  if (declared.kind != Type::Kind::sequence && declared.kind != Type::Kind::optional) {
    return read_tensor_file(path, out, error);
  }
  std::vector<unsigned char> bytes;
  if (!read_file(path, bytes, error)) return false;
  const onnxmicro::ByteSpan span(bytes.data(), bytes.size());
  if (declared.kind == Type::Kind::sequence) {
    return decode_sequence(span, path, declared_tensor_dtype(declared.element()), out, error);
  }
  return decode_optional(span, path, declared.element(), out, error);
}

bool encode_value_proto(const std::string& name, const onnxmicro::ConstTensorView& value, const Type* declared,
                        std::vector<unsigned char>& out, std::string& error) {
  if (!onnxmicro::is_value_container(value.dtype)) return encode_tensor_proto(name, value, out, error);
  ProtoEncoder encoder;
  const bool ok = value.dtype == DataType::sequence ? encode_sequence(name, value, encoder, error)
                                                    : encode_optional(name, value, declared, encoder, error);
  if (!ok) {
    error = "output '" + printable(name) + "': " + error;
    return false;
  }
  out = encoder.take();
  return true;
}

bool declared_type(const onnxmicro::Model& model, std::string_view name, bool output, Type& out) {
  const auto values = output ? model.proto().graph.outputs() : model.proto().graph.inputs();
  for (const onnxmicro::proto::ValueInfo& info : values) {
    if (info.name != name || !info.has_type) continue;
    out = info.type;
    return true;
  }
  return false;
}

}  // namespace onnxmicro_cli
