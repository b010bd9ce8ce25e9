// SPDX-License-Identifier: MIT
// Max, Min, Sum, Mean (variadic) and PRelu: what the ONNX node suite does not cover: broadcasting three inputs
// of different ranks, NaN propagation, extreme integers, 16-bit floats rounding per step, the equal-shape rule
// before opset 8, PRelu's unidirectional slope and integer dtypes, and version selection.
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

// Reference: index arithmetic for inputs [2,1,3], [4,1], [3] broadcast to [2,4,3].
TEST(Variadic, ThreeInputsBroadcastTogether) {
  std::vector<float> a(6), b(4), c(3);
  for (int i = 0; i < 6; ++i) a[i] = static_cast<float>(i * 3 % 7) - 2.0f;
  for (int i = 0; i < 4; ++i) b[i] = static_cast<float>(i) - 1.5f;
  for (int i = 0; i < 3; ++i) c[i] = static_cast<float>(2 - i);
  const std::vector<Tensor> inputs = {tensor("a", {2, 1, 3}, a), tensor("b", {4, 1}, b), tensor("c", {3}, c)};
  Result max = run_op("Max", 13, inputs, DataType::float32, {2, 4, 3});
  Result min = run_op("Min", 13, inputs, DataType::float32, {2, 4, 3});
  Result sum = run_op("Sum", 13, inputs, DataType::float32, {2, 4, 3});
  Result mean = run_op("Mean", 13, inputs, DataType::float32, {2, 4, 3});
  for (const Result* r : {&max, &min, &sum, &mean}) ASSERT_TRUE(r->status.ok()) << r->status.message();
  for (int n = 0; n < 2; ++n) {
    for (int h = 0; h < 4; ++h) {
      for (int w = 0; w < 3; ++w) {
        const int o = (n * 4 + h) * 3 + w;
        const float x = a[n * 3 + w], y = b[h], z = c[w];
        EXPECT_EQ(max.values<float>()[o], std::max(std::max(x, y), z)) << o;
        EXPECT_EQ(min.values<float>()[o], std::min(std::min(x, y), z)) << o;
        EXPECT_EQ(sum.values<float>()[o], x + y + z) << o;
        EXPECT_FLOAT_EQ(mean.values<float>()[o], (x + y + z) / 3.0f) << o;
      }
    }
  }
}

// np.maximum / np.minimum propagate NaN from either side.
TEST(Variadic, MaxAndMinPropagateNaN) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const Tensor a = tensor<float>("a", {3}, {1.0f, nan, 3.0f});
  const Tensor b = tensor<float>("b", {3}, {nan, 2.0f, 1.0f});
  Result max = run_op("Max", 8, {a, b}, DataType::float32, {3});
  Result min = run_op("Min", 8, {a, b}, DataType::float32, {3});
  ASSERT_TRUE(max.status.ok() && min.status.ok()) << max.status.message();
  EXPECT_TRUE(std::isnan(max.values<float>()[0]) && std::isnan(max.values<float>()[1]));
  EXPECT_EQ(max.values<float>()[2], 3.0f);
  EXPECT_TRUE(std::isnan(min.values<float>()[0]) && std::isnan(min.values<float>()[1]));
  EXPECT_EQ(min.values<float>()[2], 1.0f);
}

TEST(Variadic, ExtremeIntegersCompareExactly) {
  const std::uint64_t big = std::numeric_limits<std::uint64_t>::max();
  Result max =
      run_op("Max", 12, {tensor<std::uint64_t>("a", {2}, {big, 1}), tensor<std::uint64_t>("b", {2}, {big - 1, 2})},
             DataType::uint64, {2});
  ASSERT_TRUE(max.status.ok()) << max.status.message();
  EXPECT_EQ(max.values<std::uint64_t>(), (std::vector<std::uint64_t>{big, 2}));
  Result min = run_op("Min", 13,
                      {tensor<std::int8_t>("a", {2}, {-128, 127}), tensor<std::int8_t>("b", {1}, {0}),
                       tensor<std::int8_t>("c", {2}, {5, -1})},
                      DataType::int8, {2});
  ASSERT_TRUE(min.status.ok()) << min.status.message();
  EXPECT_EQ(min.values<std::int8_t>(), (std::vector<std::int8_t>{-128, -1}));
}

// numpy float16: (0.1 + 0.2 + 0.4) / 3 rounds after every step to 0.2333 (float16 0x3377).
TEST(Variadic, Float16MeanRoundsLikeNumpy) {
  using om::float16_t;
  auto h = [](float v) { return float16_t::from_float(v); };
  Result r = run_op("Mean", 13,
                    {tensor<float16_t>("a", {1}, {h(0.1f)}), tensor<float16_t>("b", {1}, {h(0.2f)}),
                     tensor<float16_t>("c", {1}, {h(0.4f)})},
                    DataType::float16, {1});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  const float16_t y = r.values<float16_t>()[0];
  std::uint16_t bits = 0;
  std::memcpy(&bits, &y, 2);
  EXPECT_EQ(bits, 0x3377) << y.to_float();
}

TEST(Variadic, SingleInputIsCopied) {
  Result r = run_op("Sum", 13, {tensor<double>("a", {2, 2}, {1, -2, 3.5, 0})}, DataType::float64, {2, 2});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.values<double>(), (std::vector<double>{1, -2, 3.5, 0}));
  Result m = run_op("Mean", 6, {tensor<float>("a", {3}, {3, 6, 9})}, DataType::float32, {3});
  ASSERT_TRUE(m.status.ok()) << m.status.message();
  EXPECT_EQ(m.values<float>(), (std::vector<float>{3, 6, 9}));
}

TEST(Variadic, BeforeOpset8InputsMustShareTheShape) {
  const std::vector<Tensor> inputs = {tensor<float>("a", {2, 2}, {1, 2, 3, 4}), tensor<float>("b", {2}, {1, 1})};
  Result old = run_op("Max", 6, inputs, DataType::float32, {2, 2});
  ASSERT_FALSE(old.status.ok());
  EXPECT_TRUE(contains(old.status, "input 1 'b' has shape [2], expected [2,2]")) << old.status.message();
  Result now = run_op("Max", 8, inputs, DataType::float32, {2, 2});
  ASSERT_TRUE(now.status.ok()) << now.status.message();
  EXPECT_EQ(now.values<float>(), (std::vector<float>{1, 2, 3, 4}));
  const om::KernelRegistry registry = om::all_kernels_registry();
  for (const char* op : {"Max", "Min", "Sum", "Mean"}) {
    for (int v = 1; v <= 30; ++v) {
      const om::KernelEntry* k = om::find_kernel(registry, "", op, v);
      ASSERT_NE(k, nullptr) << op << " opset " << v;
      EXPECT_EQ(k->since_version, v < 8 ? 1 : 8) << op << " opset " << v;
    }
  }
}

TEST(Variadic, ErrorsNameTheInputs) {
  Result dtype = run_op("Sum", 13, {tensor<std::int32_t>("a", {1}, {1}), tensor<std::int32_t>("b", {1}, {1})},
                        DataType::int32, {1});
  ASSERT_FALSE(dtype.status.ok());
  EXPECT_TRUE(contains(dtype.status, "input 0 'a' has dtype int32")) << dtype.status.message();
  Result mixed =
      run_op("Min", 13, {tensor<float>("a", {1}, {1}), tensor<double>("b", {1}, {1})}, DataType::float32, {1});
  ASSERT_FALSE(mixed.status.ok());
  EXPECT_TRUE(contains(mixed.status, "input 1 'b' has dtype double, expected float")) << mixed.status.message();
  Result shape = run_op(
      "Max", 13, {tensor<float>("a", {2}, {1, 2}), tensor<float>("b", {1}, {1}), tensor<float>("c", {3}, {1, 2, 3})},
      DataType::float32, {3});
  ASSERT_FALSE(shape.status.ok());
  EXPECT_TRUE(contains(shape.status, "input 2 'c' with shape [3] cannot be broadcast")) << shape.status.message();
}

// ---- PRelu ----------------------------------------------------------------------------------------------------------

TEST(PRelu, SlopeBroadcastsOntoX) {
  Result r = run_op("PRelu", 16,
                    {tensor<float>("x", {2, 3}, {-1, -2, 3, -4, 5, -6}), tensor<float>("slope", {3}, {0.5f, 2, -1})},
                    DataType::float32, {2, 3});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.values<float>(), (std::vector<float>{-0.5f, -4, 3, -2, 5, 6}));
  Result i = run_op("PRelu", 9, {tensor<std::int32_t>("x", {3}, {-7, 0, 7}), tensor<std::int32_t>("slope", {1}, {3})},
                    DataType::int32, {3});
  ASSERT_TRUE(i.status.ok()) << i.status.message();
  EXPECT_EQ(i.values<std::int32_t>(), (std::vector<std::int32_t>{-21, 0, 7}));
}

TEST(PRelu, SlopeMustNotGrowTheOutput) {
  Result r =
      run_op("PRelu", 16, {tensor<float>("x", {3}, {1, 2, 3}), tensor<float>("slope", {2, 3}, std::vector<float>(6))},
             DataType::float32, {2, 3});
  ASSERT_FALSE(r.status.ok());
  EXPECT_TRUE(contains(r.status, "input 1 'slope' (slope) has shape [2,3], which does not broadcast unidirectionally"))
      << r.status.message();
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
