// SPDX-License-Identifier: MIT
// Values of every kind a graph input or output can have, as the ONNX test data stores them: TensorProto (or .npy)
// for tensors, SequenceProto for sequences of tensors, OptionalProto for optionals of a tensor or a sequence.
#pragma once
#include <string>
#include <vector>

#include <onnxmicro/onnxmicro.hpp>

#include "tensor_io.hpp"

namespace onnxmicro_cli {

/// Reads the file of a value declared as `declared` (a graph input's type; Kind::unknown reads a tensor file):
/// a SequenceProto for a sequence, an OptionalProto for an optional, a TensorProto or .npy otherwise. The
/// element type the model declares for a sequence or optional must match the file's. Errors name the file and
/// what differs.
bool read_value_file(const std::string& path, const onnxmicro::proto::Type& declared, HostTensor& out,
                     std::string& error);

/// Serializes `value` as the message its kind needs: a TensorProto, a SequenceProto (of tensors) or an
/// OptionalProto (of a tensor or a sequence). `declared` (the graph output's type, may be null) gives the element
/// kind an empty optional records.
bool encode_value_proto(const std::string& name, const onnxmicro::ConstTensorView& value,
                        const onnxmicro::proto::Type* declared, std::vector<unsigned char>& out, std::string& error);

/// "a sequence of float32 tensors", "an optional of an int64 tensor", "a float32 tensor": how messages name the
/// kind of a value (`declared` as in the model, or a value read from a file).
std::string describe_type(const onnxmicro::proto::Type& declared);
std::string describe_value(const onnxmicro::ConstTensorView& value);

/// The declared type of the graph input (or, with `output`, output) called `name`; false when it declares none.
bool declared_type(const onnxmicro::Model& model, std::string_view name, bool output, onnxmicro::proto::Type& out);

}  // namespace onnxmicro_cli
