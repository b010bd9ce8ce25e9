// SPDX-License-Identifier: MIT
// Tensor files of the CLI: reading serialized onnx TensorProto (.pb) and NumPy (.npy) files into host
// memory, writing TensorProto files, and printing tensor values.
#pragma once
#include <cstddef>
#include <iosfwd>
#include <string>
#include <vector>

#include <onnxmicro/onnxmicro.hpp>

namespace onnxmicro_cli {

/// A value held by the CLI: a tensor (dense, row-major, little-endian elements: the layout of raw_data), a
/// string tensor (its strings), or a sequence/optional (its elements). Copyable: view() builds the StringRefs and
/// ValueRefs the runtime reads from the strings and elements this object owns.
struct HostTensor {
  onnxmicro::DataType dtype = onnxmicro::DataType::undefined;
  onnxmicro::Shape shape;
  std::vector<unsigned char> data;   ///< numeric tensors
  std::vector<std::string> strings;  ///< string tensors, one per element
  std::vector<HostTensor> elements;  ///< sequences ([n]) and optionals ([0] or [1])
  std::string name;                  ///< the proto's name, empty for .npy

  /// The view Session::set_input/run(inputs) take; valid while this object lives unchanged (a later view() call
  /// rebuilds the same references in place).
  onnxmicro::ConstTensorView view() const;

 private:
  mutable std::vector<onnxmicro::StringRef> string_refs_;
  mutable std::vector<onnxmicro::ValueRef> value_refs_;
};

/// Reads a tensor file: .npy when it starts with NumPy's magic, otherwise a serialized onnx TensorProto.
/// Errors name the file and what is wrong with it.
bool read_tensor_file(const std::string& path, HostTensor& out, std::string& error);

/// Parses a serialized onnx TensorProto (raw_data or any typed data field).
bool parse_tensor_proto(const std::vector<unsigned char>& bytes, const std::string& path, HostTensor& out,
                        std::string& error);

/// Parses a NumPy .npy file (format versions 1-3, little-endian numeric dtypes, C order only).
bool parse_npy(const std::vector<unsigned char>& bytes, const std::string& path, HostTensor& out, std::string& error);

/// Serializes `value` as an onnx TensorProto with dims, data_type, name and raw_data (string_data for strings),
/// in field-number order with unpacked dims, exactly as the official protobuf library writes it. Fails for
/// sequences and optionals (encode_value_proto in value_io.hpp writes those).
bool encode_tensor_proto(const std::string& name, const onnxmicro::ConstTensorView& value,
                         std::vector<unsigned char>& out, std::string& error);

/// Writes "name: dtype shape" and, on the next line, the values in brackets. Past `max_values` values
/// (0: no limit) the list ends with "...".
void print_tensor(std::ostream& out, const std::string& name, const onnxmicro::ConstTensorView& value,
                  std::size_t max_values);

/// Formats one element of `dtype` stored at `element` (shortest round-trip text for floats).
std::string format_element(onnxmicro::DataType dtype, const void* data, std::size_t index);

}  // namespace onnxmicro_cli
