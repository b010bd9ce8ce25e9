// SPDX-License-Identifier: MIT
// Equal, Greater, Less, GreaterOrEqual, LessOrEqual: what the ONNX node suite does not cover: the legacy
// broadcast/axis attributes of opset 1-6, NaN and 16-bit float comparisons, bool and 64-bit integer operands,
// dtype and shape errors, and which kernel each opset version resolves to.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
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

using onnxmicro_test::make_attribute_int;
using u8 = std::vector<std::uint8_t>;

// ---- numpy broadcasting (opset >= 7) -----------------------------------------------------------------------

// Reference: index arithmetic written out for [2,3,1] vs [4].
TEST(Comparison, GreaterBroadcastsBothOperands) {
  const std::vector<std::int64_t> a = {5, -3, 0, 7, 2, -9};
  const std::vector<std::int64_t> b = {-4, 0, 2, 6};
  Result r = run_op("Greater", 13, {tensor("a", {2, 3, 1}, a), tensor("b", {4}, b)}, DataType::boolean, {2, 3, 4});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  ASSERT_EQ(r.shape, (Shape{2, 3, 4}));
  const u8 y = r.values<std::uint8_t>();
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 4; ++j) EXPECT_EQ(y[i * 4 + j], a[i] > b[j] ? 1 : 0) << i << "," << j;
}

TEST(Comparison, NaNComparesFalseAndEqualityIsExact) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<float> a = {nan, 1.0f, 2.0f, -0.0f, nan};
  const std::vector<float> b = {nan, nan, 2.0f, 0.0f, 1.0f};
  Result eq = run_op("Equal", 13, {tensor("a", {5}, a), tensor("b", {5}, b)}, DataType::boolean, {5});
  ASSERT_TRUE(eq.status.ok()) << eq.status.message();
  EXPECT_EQ(eq.values<std::uint8_t>(), (u8{0, 0, 1, 1, 0}));  // -0 == 0
  Result ge = run_op("GreaterOrEqual", 16, {tensor("a", {5}, a), tensor("b", {5}, b)}, DataType::boolean, {5});
  ASSERT_TRUE(ge.status.ok()) << ge.status.message();
  EXPECT_EQ(ge.values<std::uint8_t>(), (u8{0, 0, 1, 1, 0}));
  Result le = run_op("LessOrEqual", 12, {tensor("a", {5}, a), tensor("b", {5}, b)}, DataType::boolean, {5});
  ASSERT_TRUE(le.status.ok()) << le.status.message();
  EXPECT_EQ(le.values<std::uint8_t>(), (u8{0, 0, 1, 1, 0}));
}

// 16-bit floats compare by value (1 and 1 + 2^-10 are neighbours in float16); the values are exact in each format.
TEST(Comparison, SixteenBitFloatsCompareByValue) {
  using om::bfloat16_t;
  using om::float16_t;
  const std::vector<float16_t> a = {float16_t::from_float(1.0f), float16_t::from_float(-2.5f),
                                    float16_t::from_float(65504.0f)};
  const std::vector<float16_t> b = {float16_t::from_float(1.0009765625f), float16_t::from_float(-2.5f),
                                    float16_t::from_float(-65504.0f)};
  Result r = run_op("Less", 13, {tensor("a", {3}, a), tensor("b", {3}, b)}, DataType::boolean, {3});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.values<std::uint8_t>(), (u8{1, 0, 0}));
  const std::vector<bfloat16_t> c = {bfloat16_t::from_float(3.0f), bfloat16_t::from_float(-1.0f)};
  const std::vector<bfloat16_t> d = {bfloat16_t::from_float(3.0f), bfloat16_t::from_float(-0.5f)};
  Result s = run_op("LessOrEqual", 16, {tensor("a", {2}, c), tensor("b", {2}, d)}, DataType::boolean, {2});
  ASSERT_TRUE(s.status.ok()) << s.status.message();
  EXPECT_EQ(s.values<std::uint8_t>(), (u8{1, 1}));
}

TEST(Comparison, EqualOnBoolAndExtremeIntegers) {
  Result b =
      run_op("Equal", 11, {bools("a", {2, 2}, {0, 1, 1, 0}), bools("b", {2}, {0, 1})}, DataType::boolean, {2, 2});
  ASSERT_TRUE(b.status.ok()) << b.status.message();
  EXPECT_EQ(b.values<std::uint8_t>(), (u8{1, 1, 0, 0}));
  const std::uint64_t big = std::numeric_limits<std::uint64_t>::max();
  Result u = run_op("Greater", 13,
                    {tensor<std::uint64_t>("a", {3}, {big, big - 1, 0}), tensor<std::uint64_t>("b", {1}, {big - 1})},
                    DataType::boolean, {3});
  ASSERT_TRUE(u.status.ok()) << u.status.message();
  EXPECT_EQ(u.values<std::uint8_t>(), (u8{1, 0, 0}));  // no conversion through a signed or float type
}

// ---- legacy broadcasting (opset 1-6) -------------------------------------------------------------------------

// broadcast=1, axis=1: B [3] repeats over A [2,3,2] along axis 1 (index arithmetic as reference).
TEST(Comparison, LegacyBroadcastWithAxis) {
  std::vector<float> a(12);
  for (int i = 0; i < 12; ++i) a[i] = static_cast<float>(i % 5);
  const std::vector<float> b = {1.0f, 2.0f, 3.0f};
  Result r = run_op("Less", 6, {tensor("a", {2, 3, 2}, a), tensor("b", {3}, b)}, DataType::boolean, {2, 3, 2},
                    {make_attribute_int("broadcast", 1), make_attribute_int("axis", 1)});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  const u8 y = r.values<std::uint8_t>();
  for (int n = 0; n < 2; ++n)
    for (int c = 0; c < 3; ++c)
      for (int w = 0; w < 2; ++w) EXPECT_EQ(y[n * 6 + c * 2 + w], a[n * 6 + c * 2 + w] < b[c] ? 1 : 0);
}

TEST(Comparison, LegacyOpsetNeedsBroadcastAttributeForDifferentShapes) {
  Result r =
      run_op("Equal", 1, {tensor<std::int32_t>("a", {2, 2}, {1, 2, 3, 4}), tensor<std::int32_t>("b", {2}, {1, 2})},
             DataType::boolean, {2, 2});
  ASSERT_FALSE(r.status.ok());
  EXPECT_TRUE(contains(r.status, "attribute 'broadcast' is 0")) << r.status.message();
  // The same model at opset 7 broadcasts numpy-style.
  Result ok =
      run_op("Equal", 7, {tensor<std::int32_t>("a", {2, 2}, {1, 2, 3, 4}), tensor<std::int32_t>("b", {2}, {1, 2})},
             DataType::boolean, {2, 2});
  ASSERT_TRUE(ok.status.ok()) << ok.status.message();
  EXPECT_EQ(ok.values<std::uint8_t>(), (u8{1, 1, 0, 0}));
}

// ---- errors ----------------------------------------------------------------------------------------------------

TEST(Comparison, ErrorsNameTheInputs) {
  Result dtype = run_op("Greater", 13, {bools("a", {2}, {0, 1}), bools("b", {2}, {1, 1})}, DataType::boolean, {2});
  ASSERT_FALSE(dtype.status.ok());
  EXPECT_EQ(dtype.status.code(), StatusCode::unsupported);
  EXPECT_TRUE(contains(dtype.status, "input 0 'a' has dtype bool")) << dtype.status.message();

  Result mixed =
      run_op("Less", 13, {tensor<float>("a", {2}, {1, 2}), tensor<double>("b", {2}, {1, 2})}, DataType::boolean, {2});
  ASSERT_FALSE(mixed.status.ok());
  EXPECT_TRUE(contains(mixed.status, "input 1 'b' has dtype double, expected float")) << mixed.status.message();

  Result shape = run_op(
      "Equal", 13, {tensor<float>("a", {2, 3}, std::vector<float>(6)), tensor<float>("b", {4}, std::vector<float>(4))},
      DataType::boolean, {2, 3});
  ASSERT_FALSE(shape.status.ok());
  EXPECT_TRUE(contains(shape.status, "cannot be broadcast")) << shape.status.message();
}

// ---- version selection -------------------------------------------------------------------------------------------

TEST(Comparison, EveryOpsetVersionResolvesToOneKernel) {
  const om::KernelRegistry registry = om::all_kernels_registry();
  for (const char* op : {"Equal", "Greater", "Less"}) {
    for (int v = 1; v <= 30; ++v) {
      const om::KernelEntry* k = om::find_kernel(registry, "", op, v);
      ASSERT_NE(k, nullptr) << op << " opset " << v;
      // Equal-19 adds string tensors.
      const int expected = v < 7 ? 1 : (std::string(op) == "Equal" && v >= 19 ? 19 : 7);
      EXPECT_EQ(k->since_version, expected) << op << " opset " << v;
    }
  }
  for (const char* op : {"GreaterOrEqual", "LessOrEqual"}) {
    EXPECT_EQ(om::find_kernel(registry, "", op, 11), nullptr) << op;
    for (int v = 12; v <= 30; ++v) EXPECT_NE(om::find_kernel(registry, "", op, v), nullptr) << op << " opset " << v;
  }
  // A bool output is never computed in place (a broadcast input could have the output's byte size).
  EXPECT_EQ(om::find_kernel(registry, "", "Equal", 13)->in_place_input, -1);
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
