// SPDX-License-Identifier: MIT
// Where: what the ONNX node suite does not cover: broadcasting of all three inputs at once, element sizes 1, 2
// and 8 (bool, float16, int64), and the dtype errors.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "onnxmicro/onnxmicro.hpp"
#include "support/proto_writer.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

namespace om = onnxmicro;
using om::DataType;
using om::Shape;
using om::Status;
using om::StatusCode;
using onnxmicro_test::ProtoWriter;

// ---- harness: one node in a one-node model, run through Model + Session ------------------------------------

struct Tensor {
  std::string name;
  DataType dtype = DataType::undefined;
  std::vector<std::int64_t> dims;
  std::vector<unsigned char> bytes;
};
template <typename T>
Tensor tensor(std::string name, std::vector<std::int64_t> dims, const std::vector<T>& values,
              DataType dtype = om::dtype_of<T>::value) {
  Tensor t{std::move(name), dtype, std::move(dims), {}};
  t.bytes.resize(values.size() * sizeof(T));
  if (!values.empty()) std::memcpy(t.bytes.data(), values.data(), t.bytes.size());
  return t;
}
// bool tensors from 0/1 bytes (std::vector<bool> has no contiguous storage).
Tensor bools(std::string name, std::vector<std::int64_t> dims, const std::vector<std::uint8_t>& values) {
  return tensor(std::move(name), std::move(dims), values, DataType::boolean);
}

struct Result {
  Status status;
  DataType dtype = DataType::undefined;
  Shape shape;
  std::vector<unsigned char> bytes;
  template <typename T>
  std::vector<T> values() const {
    std::vector<T> out(bytes.size() / sizeof(T));
    if (!out.empty()) std::memcpy(out.data(), bytes.data(), bytes.size());
    return out;
  }
};

// Builds `op` at `opset` with `inputs` as graph inputs and output "result" declared as (out_dtype, out_dims) — the
// session rejects a kernel whose output contradicts the declaration — then prepares and runs it once.
Result run_op(const std::string& op, std::int64_t opset, const std::vector<Tensor>& inputs, DataType out_dtype,
              const std::vector<std::int64_t>& out_dims, const std::vector<ProtoWriter>& attributes = {}) {
  std::vector<std::string> names;
  std::vector<ProtoWriter> infos;
  for (const Tensor& t : inputs) {
    names.push_back(t.name);
    infos.push_back(onnxmicro_test::make_value_info(t.name, t.dtype, t.dims));
  }
  ProtoWriter graph =
      onnxmicro_test::make_graph("g", {onnxmicro_test::make_node(op, names, {"result"}, attributes, "n")}, infos,
                                 {onnxmicro_test::make_value_info("result", out_dtype, out_dims)});
  const std::vector<unsigned char> model_bytes = onnxmicro_test::make_model(graph, opset).bytes();
  om::Model model;
  Result r;
  r.status = model.load(om::ByteSpan(model_bytes.data(), model_bytes.size()));
  if (!r.status.ok()) return r;
  om::Session session;
  r.status = session.prepare(model, om::all_kernels_registry());
  if (!r.status.ok()) return r;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    Shape shape;
    EXPECT_TRUE(shape.assign(inputs[i].dims.data(), inputs[i].dims.size()).ok());
    r.status = session.set_input(i, om::ConstTensorView(inputs[i].dtype, shape, inputs[i].bytes.data()));
    if (!r.status.ok()) return r;
  }
  r.status = session.run();
  if (!r.status.ok()) return r;
  const om::ConstTensorView y = session.output(0);
  r.dtype = y.dtype;
  r.shape = y.shape;
  const auto* p = static_cast<const unsigned char*>(y.data);
  r.bytes.assign(p, p + y.byte_size());
  return r;
}

bool contains(const Status& status, const std::string& text) {
  return std::string(status.message()).find(text) != std::string::npos;
}

// Reference: index arithmetic for condition [2,1,1], X [3,1], Y [4] broadcast to [2,3,4].
TEST(Where, BroadcastsAllThreeInputs) {
  const std::vector<std::uint8_t> c = {1, 0};
  const std::vector<std::int64_t> x = {10, 20, 30};
  const std::vector<std::int64_t> y = {-1, -2, -3, -4};
  Result r = run_op("Where", 16, {bools("c", {2, 1, 1}, c), tensor("x", {3, 1}, x), tensor("y", {4}, y)},
                    DataType::int64, {2, 3, 4});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  const std::vector<std::int64_t> out = r.values<std::int64_t>();
  for (int n = 0; n < 2; ++n)
    for (int h = 0; h < 3; ++h)
      for (int w = 0; w < 4; ++w) EXPECT_EQ(out[(n * 3 + h) * 4 + w], c[n] ? x[h] : y[w]);
}

TEST(Where, ByteAndHalfElements) {
  Result b = run_op("Where", 9, {bools("c", {4}, {1, 0, 1, 0}), bools("x", {1}, {1}), bools("y", {4}, {0, 1, 0, 0})},
                    DataType::boolean, {4});
  ASSERT_TRUE(b.status.ok()) << b.status.message();
  EXPECT_EQ(b.values<std::uint8_t>(), (std::vector<std::uint8_t>{1, 1, 1, 0}));
  using om::float16_t;
  const std::vector<float16_t> x = {float16_t::from_float(1.5f), float16_t::from_float(-2.0f)};
  const std::vector<float16_t> y = {float16_t::from_float(0.25f)};
  Result h = run_op("Where", 16, {bools("c", {2, 2}, {0, 1, 1, 0}), tensor("x", {2}, x), tensor("y", {1}, y)},
                    DataType::float16, {2, 2});
  ASSERT_TRUE(h.status.ok()) << h.status.message();
  const std::vector<float16_t> out = h.values<float16_t>();
  const float expected[4] = {0.25f, -2.0f, 1.5f, 0.25f};
  for (int i = 0; i < 4; ++i) EXPECT_EQ(out[i].to_float(), expected[i]) << i;
}

TEST(Where, ConditionMustBeBoolAndValuesShareADtype) {
  Result c = run_op("Where", 16,
                    {tensor<std::int32_t>("c", {1}, {1}), tensor<float>("x", {1}, {1}), tensor<float>("y", {1}, {2})},
                    DataType::float32, {1});
  ASSERT_FALSE(c.status.ok());
  EXPECT_TRUE(contains(c.status, "input 0 'c' has dtype int32, expected bool")) << c.status.message();
  Result v = run_op("Where", 16, {bools("c", {1}, {1}), tensor<float>("x", {1}, {1}), tensor<double>("y", {1}, {2})},
                    DataType::float32, {1});
  ASSERT_FALSE(v.status.ok());
  EXPECT_TRUE(contains(v.status, "input 2 'y' has dtype double, expected float")) << v.status.message();
  EXPECT_EQ(om::find_kernel(om::all_kernels_registry(), "", "Where", 8), nullptr);
  EXPECT_NE(om::find_kernel(om::all_kernels_registry(), "", "Where", 30), nullptr);
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
