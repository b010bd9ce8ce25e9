// SPDX-License-Identifier: MIT
// And, Or, Xor, BitwiseAnd/Or/Xor, BitShift: what the ONNX node suite does not cover: the legacy
// broadcast/axis attributes of And/Or/Xor opset 1-6, signed and 64-bit bitwise operands, BitShift's opset 11
// dtype list and out-of-range shift amounts, the `direction` attribute's errors, and in-place execution.
#include <gtest/gtest.h>

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
using onnxmicro_test::make_attribute_string;
using u8 = std::vector<std::uint8_t>;

// ---- And / Or / Xor ----------------------------------------------------------------------------------------------

// Every input combination: a = [0,0,1,1], b = [0,1,0,1].
TEST(Logical, TruthTables) {
  const Tensor a = bools("a", {4}, {0, 0, 1, 1});
  const Tensor b = bools("b", {4}, {0, 1, 0, 1});
  Result r_and = run_op("And", 7, {a, b}, DataType::boolean, {4});
  Result r_or = run_op("Or", 7, {a, b}, DataType::boolean, {4});
  Result r_xor = run_op("Xor", 7, {a, b}, DataType::boolean, {4});
  ASSERT_TRUE(r_and.status.ok() && r_or.status.ok() && r_xor.status.ok()) << r_and.status.message();
  EXPECT_EQ(r_and.values<std::uint8_t>(), (u8{0, 0, 0, 1}));
  EXPECT_EQ(r_or.values<std::uint8_t>(), (u8{0, 1, 1, 1}));
  EXPECT_EQ(r_xor.values<std::uint8_t>(), (u8{0, 1, 1, 0}));
}

TEST(Logical, NumpyBroadcastAtOpset7) {
  Result r = run_op("Xor", 7, {bools("a", {2, 1}, {0, 1}), bools("b", {3}, {1, 0, 1})}, DataType::boolean, {2, 3});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.values<std::uint8_t>(), (u8{1, 0, 1, 0, 1, 0}));
}

// Opset 1: broadcast=1 with axis=0 lays B [2] along A's first axis of [2,3].
TEST(Logical, LegacyBroadcastWithAxis) {
  Result r = run_op("Or", 1, {bools("a", {2, 3}, {0, 0, 1, 0, 0, 0}), bools("b", {2}, {0, 1})}, DataType::boolean,
                    {2, 3}, {make_attribute_int("broadcast", 1), make_attribute_int("axis", 0)});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.values<std::uint8_t>(), (u8{0, 0, 1, 1, 1, 1}));
  Result no_attribute =
      run_op("And", 6, {bools("a", {2, 3}, u8(6)), bools("b", {3}, u8(3))}, DataType::boolean, {2, 3});
  ASSERT_FALSE(no_attribute.status.ok());
  EXPECT_TRUE(contains(no_attribute.status, "attribute 'broadcast' is 0")) << no_attribute.status.message();
}

TEST(Logical, NonBoolInputIsUnsupported) {
  Result r = run_op("And", 7, {tensor<std::int32_t>("a", {2}, {1, 0}), tensor<std::int32_t>("b", {2}, {1, 1})},
                    DataType::boolean, {2});
  ASSERT_FALSE(r.status.ok());
  EXPECT_EQ(r.status.code(), StatusCode::unsupported);
  EXPECT_TRUE(contains(r.status, "input 0 'a' has dtype int32")) << r.status.message();
}

// ---- BitwiseAnd / BitwiseOr / BitwiseXor ---------------------------------------------------------------------------

TEST(Bitwise, SignedAndWideOperands) {
  const std::vector<std::int8_t> a = {-1, -128, 0x55, -86};
  const std::vector<std::int8_t> b = {0x0F, -1, 0x0F, 0x7F};
  Result r = run_op("BitwiseAnd", 18, {tensor("a", {4}, a), tensor("b", {4}, b)}, DataType::int8, {4});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.values<std::int8_t>(), (std::vector<std::int8_t>{0x0F, -128, 0x05, 0x2A}));

  const std::uint64_t high = 0x8000000000000001ull;
  Result x =
      run_op("BitwiseXor", 18,
             {tensor<std::uint64_t>("a", {2}, {high, 0}), tensor<std::uint64_t>("b", {1}, {0xFFFFFFFFFFFFFFFFull})},
             DataType::uint64, {2});
  ASSERT_TRUE(x.status.ok()) << x.status.message();
  EXPECT_EQ(x.values<std::uint64_t>(), (std::vector<std::uint64_t>{0x7FFFFFFFFFFFFFFEull, 0xFFFFFFFFFFFFFFFFull}));

  Result o = run_op("BitwiseOr", 18,
                    {tensor<std::int16_t>("a", {2, 1}, {0x0100, -32768}), tensor<std::int16_t>("b", {2}, {1, 2})},
                    DataType::int16, {2, 2});
  ASSERT_TRUE(o.status.ok()) << o.status.message();
  EXPECT_EQ(o.values<std::int16_t>(), (std::vector<std::int16_t>{0x0101, 0x0102, -32767, -32766}));
}

TEST(Bitwise, FloatInputIsUnsupportedAndOpset17HasNoKernel) {
  Result r =
      run_op("BitwiseOr", 18, {tensor<float>("a", {1}, {1}), tensor<float>("b", {1}, {1})}, DataType::float32, {1});
  ASSERT_FALSE(r.status.ok());
  EXPECT_TRUE(contains(r.status, "input 0 'a' has dtype float")) << r.status.message();
  EXPECT_EQ(om::find_kernel(om::all_kernels_registry(), "", "BitwiseAnd", 17), nullptr);
}

// A chain whose intermediate dies at the second node: the session lets BitwiseAnd write over it.
TEST(Bitwise, InPlaceOverADyingInput) {
  ProtoWriter graph = onnxmicro_test::make_graph("g",
                                                 {onnxmicro_test::make_node("BitwiseOr", {"x", "z"}, {"t"}),
                                                  onnxmicro_test::make_node("BitwiseAnd", {"t", "m"}, {"y"})},
                                                 {onnxmicro_test::make_value_info("x", DataType::int32, {8}),
                                                  onnxmicro_test::make_value_info("z", DataType::int32, {8}),
                                                  onnxmicro_test::make_value_info("m", DataType::int32, {1})},
                                                 {onnxmicro_test::make_value_info("y", DataType::int32, {8})});
  const std::vector<unsigned char> bytes = onnxmicro_test::make_model(graph, 18).bytes();
  om::Model model;
  ASSERT_TRUE(model.load(om::ByteSpan(bytes.data(), bytes.size())).ok());
  om::Session session;
  ASSERT_TRUE(session.prepare(model, om::all_kernels_registry()).ok());
  std::int32_t x[8], z[8], m[1] = {0x0F0F};
  for (int i = 0; i < 8; ++i) {
    x[i] = i * 0x1111;
    z[i] = -i;
  }
  ASSERT_TRUE(session.set_input(0, om::ConstTensorView(DataType::int32, Shape{8}, x)).ok());
  ASSERT_TRUE(session.set_input(1, om::ConstTensorView(DataType::int32, Shape{8}, z)).ok());
  ASSERT_TRUE(session.set_input(2, om::ConstTensorView(DataType::int32, Shape{1}, m)).ok());
  ASSERT_TRUE(session.run().ok());
  for (int i = 0; i < 8; ++i) EXPECT_EQ(session.output(0).data_as<std::int32_t>()[i], (x[i] | z[i]) & m[0]) << i;
}

// ---- BitShift ------------------------------------------------------------------------------------------------------

TEST(BitShift, UnsignedShiftsIncludingTheFullWidth) {
  const std::vector<std::uint8_t> x = {0x81, 0x81, 0x81, 0xFF};
  const std::vector<std::uint8_t> n = {1, 7, 8, 200};
  Result left = run_op("BitShift", 11, {tensor("x", {4}, x), tensor("n", {4}, n)}, DataType::uint8, {4},
                       {make_attribute_string("direction", "LEFT")});
  ASSERT_TRUE(left.status.ok()) << left.status.message();
  EXPECT_EQ(left.values<std::uint8_t>(), (u8{0x02, 0x80, 0, 0}));  // bits past the width are dropped
  Result right = run_op("BitShift", 11, {tensor("x", {4}, x), tensor("n", {4}, n)}, DataType::uint8, {4},
                        {make_attribute_string("direction", "RIGHT")});
  ASSERT_TRUE(right.status.ok()) << right.status.message();
  EXPECT_EQ(right.values<std::uint8_t>(), (u8{0x40, 0x01, 0, 0}));
  const std::uint64_t top = 1ull << 63;
  Result wide =
      run_op("BitShift", 11, {tensor<std::uint64_t>("x", {2}, {1, top}), tensor<std::uint64_t>("n", {1}, {63})},
             DataType::uint64, {2}, {make_attribute_string("direction", "LEFT")});
  ASSERT_TRUE(wide.status.ok()) << wide.status.message();
  EXPECT_EQ(wide.values<std::uint64_t>(), (std::vector<std::uint64_t>{top, 0}));
}

TEST(BitShift, SignedNeedsOpset28) {
  const Tensor x = tensor<std::int64_t>("x", {4}, {-5, -5, -5, std::numeric_limits<std::int64_t>::min()});
  const Tensor n = tensor<std::int64_t>("n", {4}, {1, 64, -1, 1});
  Result old = run_op("BitShift", 27, {x, n}, DataType::int64, {4}, {make_attribute_string("direction", "RIGHT")});
  ASSERT_FALSE(old.status.ok());
  EXPECT_TRUE(contains(old.status, "input 0 'x' has dtype int64")) << old.status.message();
  Result right = run_op("BitShift", 28, {x, n}, DataType::int64, {4}, {make_attribute_string("direction", "RIGHT")});
  ASSERT_TRUE(right.status.ok()) << right.status.message();
  // Sign-extending; out-of-range amounts give the sign fill.
  EXPECT_EQ(right.values<std::int64_t>(),
            (std::vector<std::int64_t>{-3, -1, -1, std::numeric_limits<std::int64_t>::min() / 2}));
  Result left = run_op("BitShift", 28, {x, n}, DataType::int64, {4}, {make_attribute_string("direction", "LEFT")});
  ASSERT_TRUE(left.status.ok()) << left.status.message();
  EXPECT_EQ(left.values<std::int64_t>(), (std::vector<std::int64_t>{-10, 0, 0, 0}));  // the sign bit falls off
}

TEST(BitShift, DirectionAttributeIsCheckedByName) {
  const Tensor x = tensor<std::uint32_t>("x", {1}, {1});
  const Tensor n = tensor<std::uint32_t>("n", {1}, {1});
  Result missing = run_op("BitShift", 11, {x, n}, DataType::uint32, {1});
  ASSERT_FALSE(missing.status.ok());
  EXPECT_TRUE(contains(missing.status, "required attribute 'direction' (STRING) is missing"))
      << missing.status.message();
  Result wrong = run_op("BitShift", 11, {x, n}, DataType::uint32, {1}, {make_attribute_string("direction", "left")});
  ASSERT_FALSE(wrong.status.ok());
  EXPECT_TRUE(contains(wrong.status, "attribute 'direction' is \"left\", expected \"LEFT\" or \"RIGHT\""))
      << wrong.status.message();
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
