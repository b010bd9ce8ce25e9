// SPDX-License-Identifier: MIT
// Pow and Mod: what the ONNX node suite does not cover: exact integer powers beyond double precision, negative
// integer exponents, integer bases with float exponents, the legacy broadcasting of Pow-1, Mod's sign rules on
// every edge (division by zero, MIN % -1, infinities, signed zeros), fmod validation per opset, and dtype errors.
// References are numpy's results (np.power, np.mod, np.fmod), written out.
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

// ---- Pow ------------------------------------------------------------------------------------------------------------

// 7^22 = 3909821048582988049 needs 62 bits: a double-based pow would be off in the low digits.
TEST(Pow, IntegerPowersAreExactAndWrap) {
  Result r =
      run_op("Pow", 15, {tensor<std::int64_t>("x", {3}, {7, -3, 2}), tensor<std::int64_t>("y", {3}, {22, 39, 64})},
             DataType::int64, {3});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.values<std::int64_t>(),
            (std::vector<std::int64_t>{3909821048582988049LL, -4052555153018976267LL, 0}));  // 2^64 wraps to 0
  Result w = run_op("Pow", 15, {tensor<std::int32_t>("x", {2}, {-2, 3}), tensor<std::uint8_t>("y", {2}, {31, 19})},
                    DataType::int32, {2});
  ASSERT_TRUE(w.status.ok()) << w.status.message();
  EXPECT_EQ(w.values<std::int32_t>(),
            (std::vector<std::int32_t>{std::numeric_limits<std::int32_t>::min(), 1162261467}));
}

TEST(Pow, NegativeIntegerExponentTruncatesTowardZero) {
  Result r =
      run_op("Pow", 13,
             {tensor<std::int32_t>("x", {5}, {2, 1, -1, -1, 0}), tensor<std::int32_t>("y", {5}, {-1, -5, -3, -4, 3})},
             DataType::int32, {5});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.values<std::int32_t>(), (std::vector<std::int32_t>{0, 1, -1, 1, 0}));
}

// numpy: (np.array([10, 7]) ** np.array([0.5, 1.0])).astype(int32) = [3, 7]. 2^40 does not fit int32, where
// numpy's cast is undefined: the kernel saturates.
TEST(Pow, IntegerBaseWithFloatExponentTruncates) {
  Result r =
      run_op("Pow", 15, {tensor<std::int32_t>("x", {3}, {10, 7, 2}), tensor<float>("y", {3}, {0.5f, 1.0f, 40.0f})},
             DataType::int32, {3});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.values<std::int32_t>(), (std::vector<std::int32_t>{3, 7, std::numeric_limits<std::int32_t>::max()}));
}

TEST(Pow, FloatBaseWithIntegerAndHalfExponents) {
  Result r = run_op("Pow", 15,
                    {tensor<float>("x", {2, 2}, {2.0f, -3.0f, 0.5f, 4.0f}), tensor<std::int16_t>("y", {2}, {3, -2})},
                    DataType::float32, {2, 2});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.values<float>(), (std::vector<float>{8.0f, 1.0f / 9.0f, 0.125f, 0.0625f}));
  using om::float16_t;
  Result h = run_op("Pow", 15,
                    {tensor<double>("x", {2}, {9.0, 2.0}),
                     tensor<float16_t>("y", {2}, {float16_t::from_float(0.5f), float16_t::from_float(-1.0f)})},
                    DataType::float64, {2});
  ASSERT_TRUE(h.status.ok()) << h.status.message();
  EXPECT_EQ(h.values<double>(), (std::vector<double>{3.0, 0.5}));
}

TEST(Pow, BeforeOpset12BaseAndExponentShareADtype) {
  Result r =
      run_op("Pow", 11, {tensor<float>("x", {1}, {2}), tensor<std::int32_t>("y", {1}, {2})}, DataType::float32, {1});
  ASSERT_FALSE(r.status.ok());
  EXPECT_TRUE(contains(r.status, "input 1 'y' has dtype int32, expected float")) << r.status.message();
  Result base =
      run_op("Pow", 15, {tensor<std::int8_t>("x", {1}, {2}), tensor<std::int8_t>("y", {1}, {2})}, DataType::int8, {1});
  ASSERT_FALSE(base.status.ok());
  EXPECT_EQ(base.status.code(), StatusCode::unsupported);
  EXPECT_TRUE(contains(base.status, "input 0 'x' has dtype int8")) << base.status.message();
}

// Opset 1: broadcast=1 repeats the exponent [2] over the base's last axis.
TEST(Pow, LegacyBroadcast) {
  Result r = run_op("Pow", 6, {tensor<float>("x", {2, 2}, {2, 3, 4, 5}), tensor<float>("y", {2}, {2, 0.5f})},
                    DataType::float32, {2, 2}, {make_attribute_int("broadcast", 1)});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  const std::vector<float> y = r.values<float>();
  EXPECT_EQ(y[0], 4.0f);
  EXPECT_FLOAT_EQ(y[1], std::sqrt(3.0f));
  EXPECT_EQ(y[2], 16.0f);
  EXPECT_FLOAT_EQ(y[3], std::sqrt(5.0f));
}

// ---- Mod
// -------------------------------------------------------------------------------------------------------------

// np.mod / np.fmod of int8 [-7, 7, -7, 7, 5, -128] by [3, -3, -3, 3, 0, -1].
TEST(Mod, IntegerSignRulesAndEdgeCases) {
  const Tensor a = tensor<std::int8_t>("a", {6}, {-7, 7, -7, 7, 5, -128});
  const Tensor b = tensor<std::int8_t>("b", {6}, {3, -3, -3, 3, 0, -1});
  Result floor_mod = run_op("Mod", 13, {a, b}, DataType::int8, {6});
  ASSERT_TRUE(floor_mod.status.ok()) << floor_mod.status.message();
  EXPECT_EQ(floor_mod.values<std::int8_t>(), (std::vector<std::int8_t>{2, -2, -1, 1, 0, 0}));
  Result trunc_mod = run_op("Mod", 13, {a, b}, DataType::int8, {6}, {make_attribute_int("fmod", 1)});
  ASSERT_TRUE(trunc_mod.status.ok()) << trunc_mod.status.message();
  EXPECT_EQ(trunc_mod.values<std::int8_t>(), (std::vector<std::int8_t>{-1, 1, -1, 1, 0, 0}));
  Result unsigned_mod =
      run_op("Mod", 10, {tensor<std::uint64_t>("a", {2}, {~0ull, 10}), tensor<std::uint64_t>("b", {1}, {7})},
             DataType::uint64, {2});
  ASSERT_TRUE(unsigned_mod.status.ok()) << unsigned_mod.status.message();
  EXPECT_EQ(unsigned_mod.values<std::uint64_t>(), (std::vector<std::uint64_t>{~0ull % 7, 3}));
}

// np.mod(float32 [-0, 0, 5.5, -5.5, inf, 3, 3, -3, 1], [2, -2, -2, 2, 2, inf, -inf, inf, 0]).
TEST(Mod, FloatFloorModFollowsNumpyAtOpset28) {
  const float inf = std::numeric_limits<float>::infinity();
  const Tensor a = tensor<float>("a", {9}, {-0.0f, 0.0f, 5.5f, -5.5f, inf, 3.0f, 3.0f, -3.0f, 1.0f});
  const Tensor b = tensor<float>("b", {9}, {2.0f, -2.0f, -2.0f, 2.0f, 2.0f, inf, -inf, inf, 0.0f});
  Result r = run_op("Mod", 28, {a, b}, DataType::float32, {9});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  const std::vector<float> y = r.values<float>();
  const std::vector<float> expected = {0.0f, -0.0f, -0.5f, 0.5f, NAN, 3.0f, -inf, inf, NAN};
  for (std::size_t i = 0; i < expected.size(); ++i) {
    if (std::isnan(expected[i])) {
      EXPECT_TRUE(std::isnan(y[i])) << i;
    } else {
      EXPECT_EQ(y[i], expected[i]) << i;
      EXPECT_EQ(std::signbit(y[i]), std::signbit(expected[i])) << i;
    }
  }
  // fmod=1 takes the dividend's sign: np.fmod(5.5, -2) = 1.5.
  Result t = run_op("Mod", 13, {tensor<double>("a", {1}, {5.5}), tensor<double>("b", {1}, {-2.0})}, DataType::float64,
                    {1}, {make_attribute_int("fmod", 1)});
  ASSERT_TRUE(t.status.ok()) << t.status.message();
  EXPECT_EQ(t.values<double>(), (std::vector<double>{1.5}));
}

TEST(Mod, FmodAttributeIsValidatedPerOpset) {
  const Tensor a = tensor<float>("a", {1}, {1});
  const Tensor b = tensor<float>("b", {1}, {1});
  Result old = run_op("Mod", 13, {a, b}, DataType::float32, {1});
  ASSERT_FALSE(old.status.ok());
  EXPECT_TRUE(contains(old.status, "before opset 28 floating-point Mod requires fmod=1")) << old.status.message();
  Result bad = run_op("Mod", 28, {a, b}, DataType::float32, {1}, {make_attribute_int("fmod", 2)});
  ASSERT_FALSE(bad.status.ok());
  EXPECT_TRUE(contains(bad.status, "attribute 'fmod' is 2, expected 0 or 1")) << bad.status.message();
  EXPECT_EQ(om::find_kernel(om::all_kernels_registry(), "", "Mod", 9), nullptr);
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
