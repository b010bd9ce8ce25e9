// SPDX-License-Identifier: MIT
// Runs one node through Model + Session with every kernel, for the tests KernelHarness cannot serve: several
// outputs, omitted optional inputs and outputs, any domain (ai.onnx.ml and com.microsoft included), string
// inputs and outputs. Shared by the attention-family, recurrent (RNN/GRU/LSTM) and ai.onnx.ml/TfIdfVectorizer
// tests; a test says `using namespace onnxmicro_test::node_runner;`.
#pragma once
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "onnxmicro/onnxmicro.hpp"
#include "support/kernel_test_prelude.hpp"
#include "support/proto_writer.hpp"

namespace onnxmicro_test::node_runner {

namespace om = ::onnxmicro;
using om::DataType;
using om::Shape;
using om::Status;
using om::StatusCode;
using onnxmicro_test::ProtoWriter;
using onnxmicro_test::prelude::contains;

/// A graph input: name ("" for an omitted optional input), dtype, dims and the element bytes; string inputs
/// keep their characters in `strings` (the StringRefs pointing at them are written when the node runs).
struct Input {
  Input() = default;
  /// `values` stored as they are, with T's dtype; a braced list of values is float32.
  template <typename T = float>
  Input(std::string input_name, std::vector<std::int64_t> input_dims, const std::vector<T>& values)
      : name(std::move(input_name)), dtype(om::dtype_of<T>::value), dims(std::move(input_dims)) {
    bytes.resize(values.size() * sizeof(T));
    if (!values.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
  }

  std::string name;
  DataType dtype = DataType::undefined;
  std::vector<std::int64_t> dims;
  std::vector<unsigned char> bytes;
  std::vector<std::string> strings;
};

/// An input holding `values` with T's dtype.
template <typename T>
Input input(std::string name, std::vector<std::int64_t> dims, const std::vector<T>& values) {
  return Input(std::move(name), std::move(dims), values);
}

/// A string input.
inline Input string_input(std::string name, std::vector<std::int64_t> dims, std::vector<std::string> values) {
  Input in;
  in.name = std::move(name);
  in.dtype = DataType::string;
  in.dims = std::move(dims);
  in.strings = std::move(values);
  return in;
}

namespace conversion {
template <typename T>
void append(std::vector<unsigned char>& bytes, double value) {
  T element;
  if constexpr (std::is_same_v<T, om::float16_t> || std::is_same_v<T, om::bfloat16_t>) {
    element = T::from_float(static_cast<float>(value));
  } else {
    element = static_cast<T>(value);
  }
  const auto* p = reinterpret_cast<const unsigned char*>(&element);
  bytes.insert(bytes.end(), p, p + sizeof(T));
}
}  // namespace conversion

/// An input of `dtype` holding `values` (converted with rounding for the 16-bit floats).
inline Input input(std::string name, DataType dtype, std::vector<std::int64_t> dims,
                   const std::vector<double>& values) {
  Input in;
  in.name = std::move(name);
  in.dtype = dtype;
  in.dims = std::move(dims);
  for (double v : values) {
    switch (dtype) {
      case DataType::float32: conversion::append<float>(in.bytes, v); break;
      case DataType::float64: conversion::append<double>(in.bytes, v); break;
      case DataType::float16: conversion::append<om::float16_t>(in.bytes, v); break;
      case DataType::bfloat16: conversion::append<om::bfloat16_t>(in.bytes, v); break;
      case DataType::int64: conversion::append<std::int64_t>(in.bytes, v); break;
      case DataType::int32: conversion::append<std::int32_t>(in.bytes, v); break;
      case DataType::boolean: conversion::append<bool>(in.bytes, v != 0 ? 1.0 : 0.0); break;
      default: ADD_FAILURE() << "test input dtype not handled"; break;
    }
  }
  return in;
}

/// An omitted optional input.
inline Input omitted() { return Input(); }

/// A graph output: name ("" for an omitted optional output) and the dtype the test declares for it.
struct Output {
  Output() = default;
  Output(const char* output_name) : name(output_name) {}  // NOLINT: lets {"Y", "Y_h"} list outputs
  Output(std::string output_name, DataType output_dtype = DataType::float32)
      : name(std::move(output_name)), dtype(output_dtype) {}

  std::string name;
  DataType dtype = DataType::float32;
};

/// The opsets a model imports: (domain, version) pairs.
using Opsets = std::vector<std::pair<std::string, int>>;

/// One node in a model of its own, prepared with every kernel; outputs are indexed among the requested ones.
class NodeRunner {
 public:
  /// Builds `op` of `domain` with `inputs` and `outputs` as graph inputs and outputs (omitted ones left out),
  /// loads the model and prepares it.
  Status prepare(const std::string& op, const Opsets& opsets, std::vector<Input> inputs,
                 const std::vector<Output>& outputs, const std::vector<ProtoWriter>& attributes = {},
                 const std::string& domain = "") {
    inputs_ = std::move(inputs);
    std::vector<std::string> input_names;
    std::vector<ProtoWriter> graph_inputs;
    for (const Input& in : inputs_) {
      input_names.push_back(in.name);
      if (!in.name.empty()) graph_inputs.push_back(onnxmicro_test::make_value_info(in.name, in.dtype, in.dims));
    }
    std::vector<std::string> output_names;
    std::vector<ProtoWriter> graph_outputs;
    for (const Output& out : outputs) {
      output_names.push_back(out.name);
      if (out.name.empty()) continue;
      ProtoWriter info;
      info.string_field(1, out.name);
      info.message_field(2, onnxmicro_test::make_tensor_type(out.dtype, {}, false));
      graph_outputs.push_back(info);
    }
    std::vector<ProtoWriter> opset_ids;
    for (const auto& [name, version] : opsets) opset_ids.push_back(onnxmicro_test::make_opset(name, version));
    const ProtoWriter graph = onnxmicro_test::make_graph(
        "g", {onnxmicro_test::make_node(op, input_names, output_names, attributes, "node", domain)}, graph_inputs,
        graph_outputs);
    bytes_ = onnxmicro_test::make_model(graph, 0, 10, opset_ids).bytes();
    const Status st = model_.load(om::ByteSpan(bytes_.data(), bytes_.size()));
    if (!st.ok()) return st;
    return session_.prepare(model_, om::all_kernels_registry());
  }

  /// `op` of `domain` at `opset` with one output "y" of `output_dtype`; a non-default domain also imports the
  /// default one at 21.
  Status prepare(const std::string& op, const std::string& domain, int opset, std::vector<Input> inputs,
                 DataType output_dtype, const std::vector<ProtoWriter>& attributes = {}) {
    const Opsets opsets = domain.empty() ? Opsets{{"", opset}} : Opsets{{"", 21}, {domain, opset}};
    return prepare(op, opsets, std::move(inputs), {Output("y", output_dtype)}, attributes, domain);
  }

  /// Binds every present input and runs the node.
  Status run() {
    for (Input& in : inputs_) {
      if (in.name.empty()) continue;
      Shape shape;
      EXPECT_TRUE(shape.assign(in.dims.data(), in.dims.size()).ok());
      if (in.dtype == DataType::string) {
        in.bytes.resize(in.strings.size() * sizeof(om::StringRef));
        for (std::size_t i = 0; i < in.strings.size(); ++i) {
          const om::StringRef ref = om::StringRef::of(in.strings[i]);
          std::memcpy(in.bytes.data() + i * sizeof(ref), &ref, sizeof(ref));
        }
      }
      const Status st = session_.set_input(in.name, om::ConstTensorView(in.dtype, shape, in.bytes.data()));
      if (!st.ok()) return st;
    }
    return session_.run();
  }

  /// prepare() with `op` alone in the default domain at `opset`, then run(); the first failure.
  Status run(const std::string& op, int opset, std::vector<Input> inputs, const std::vector<Output>& outputs,
             const std::vector<ProtoWriter>& attributes) {
    const Status st = prepare(op, Opsets{{"", opset}}, std::move(inputs), outputs, attributes);
    return st.ok() ? run() : st;
  }

  om::ConstTensorView output(std::size_t i = 0) const { return session_.output(i); }
  Shape shape(std::size_t i = 0) const { return session_.output(i).shape; }
  std::vector<std::int64_t> dims(std::size_t i = 0) const {
    const Shape s = shape(i);
    return std::vector<std::int64_t>(s.data(), s.data() + s.rank());
  }
  /// Output `i`'s elements, which must be of T's dtype.
  template <typename T>
  std::vector<T> values(std::size_t i = 0) const {
    const om::ConstTensorView v = session_.output(i);
    EXPECT_EQ(v.dtype, om::dtype_of<T>::value);
    std::vector<T> out(static_cast<std::size_t>(v.element_count()));
    if (!out.empty()) std::memcpy(out.data(), v.data, out.size() * sizeof(T));
    return out;
  }
  std::vector<std::string> strings(std::size_t i = 0) const {
    std::vector<std::string> out;
    for (const om::StringRef& s : values<om::StringRef>(i))
      out.emplace_back(s.data == nullptr ? "" : std::string(s.data, s.size));
    return out;
  }
  /// Output `i`'s elements as doubles (float types only).
  std::vector<double> doubles(std::size_t i = 0) const {
    const om::ConstTensorView t = session_.output(i);
    std::vector<double> out;
    for (std::int64_t e = 0; e < t.element_count(); ++e) {
      switch (t.dtype) {
        case DataType::float32: out.push_back(t.data_as<float>()[e]); break;
        case DataType::float64: out.push_back(t.data_as<double>()[e]); break;
        case DataType::float16: out.push_back(t.data_as<om::float16_t>()[e].to_float()); break;
        case DataType::bfloat16: out.push_back(t.data_as<om::bfloat16_t>()[e].to_float()); break;
        default: ADD_FAILURE() << "test output dtype not handled"; return out;
      }
    }
    return out;
  }

 private:
  std::vector<Input> inputs_;
  std::vector<unsigned char> bytes_;
  om::Model model_;
  om::Session session_;
};

/// What run_node gives back: the first failure, or every requested output's shape, dtype and values.
struct NodeRun {
  Status status;
  std::vector<Shape> shapes;
  std::vector<DataType> dtypes;
  std::vector<std::vector<double>> values;
};

/// Prepares and runs one node (see NodeRunner::prepare) and reads the requested outputs as doubles.
inline NodeRun run_node(const std::string& op, const Opsets& opsets, const std::vector<Input>& inputs,
                        const std::vector<Output>& outputs, const std::vector<ProtoWriter>& attributes = {},
                        const std::string& domain = "") {
  NodeRun result;
  NodeRunner runner;
  result.status = runner.prepare(op, opsets, inputs, outputs, attributes, domain);
  if (result.status.ok()) result.status = runner.run();
  if (!result.status.ok()) return result;
  std::size_t index = 0;
  for (const Output& out : outputs) {
    if (out.name.empty()) continue;
    result.shapes.push_back(runner.shape(index));
    result.dtypes.push_back(runner.output(index).dtype);
    result.values.push_back(runner.doubles(index));
    ++index;
  }
  return result;
}

/// Expects `status` to fail with `code` and a message containing `text`.
inline void expect_error(const Status& status, StatusCode code, const std::string& text) {
  EXPECT_FALSE(status.ok());
  EXPECT_EQ(status.code(), code) << status.message();
  EXPECT_TRUE(contains(status, text)) << status.message();
}

/// Expects every value within `tolerance` (relative to max(1, |expected|)).
inline void expect_near_all(const std::vector<double>& actual, const std::vector<double>& expected, double tolerance) {
  ASSERT_EQ(actual.size(), expected.size());
  for (std::size_t i = 0; i < actual.size(); ++i) {
    const double scale = std::fabs(expected[i]) > 1 ? std::fabs(expected[i]) : 1.0;
    EXPECT_NEAR(actual[i], expected[i], tolerance * scale) << "element " << i;
  }
}

/// Element-wise |actual - expected| <= 1e-5 + 1e-4*|expected| (for expected values printed to 8 digits).
inline void expect_near_all(const std::vector<float>& actual, const std::vector<float>& expected, const char* what) {
  ASSERT_EQ(actual.size(), expected.size()) << what;
  for (std::size_t i = 0; i < actual.size(); ++i) {
    EXPECT_NEAR(actual[i], expected[i], 1e-5 + 1e-4 * std::fabs(expected[i])) << what << " element " << i;
  }
}

/// Deterministic pseudo-random values in [-1, 1).
inline std::vector<double> ramp(std::size_t count, std::uint32_t seed) {
  std::vector<double> v(count);
  std::uint32_t x = seed * 2654435761u + 12345u;
  for (double& e : v) {
    x = x * 1664525u + 1013904223u;
    e = static_cast<double>(x >> 8) / static_cast<double>(1u << 23) - 1.0;
  }
  return v;
}

}  // namespace onnxmicro_test::node_runner
