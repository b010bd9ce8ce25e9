// SPDX-License-Identifier: MIT
// MatMul beyond the ONNX node suite (float32 only): batch broadcasting in every direction (including the
// folded single-B path), 1-D operands on either side, integer wrap-around, float16/bfloat16/float64, version
// resolution and validation messages. Expected values come from a numpy-style loop written here.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "onnxmicro/onnxmicro.hpp"
#include "support/proto_writer.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

namespace om = onnxmicro;
using om::DataType;
using om::Status;
using om::StatusCode;
using onnxmicro_test::ProtoWriter;

// ---- harness: one node in a model, run through Model + Session -------------------------------------------

struct Value {
  std::string name;
  DataType dtype = DataType::undefined;  ///< undefined: an omitted optional input
  std::vector<std::int64_t> dims;
  std::vector<unsigned char> bytes;
  bool initializer = false;

  template <typename T>
  std::vector<T> as() const {
    std::vector<T> out(bytes.size() / sizeof(T));
    if (!out.empty()) std::memcpy(out.data(), bytes.data(), out.size() * sizeof(T));
    return out;
  }
};

template <typename T>
Value value(std::string name, std::vector<std::int64_t> dims, const std::vector<T>& values,
            DataType dtype = om::dtype_of<T>::value) {
  Value v{std::move(name), dtype, std::move(dims), {}, false};
  v.bytes.resize(values.size() * sizeof(T));
  if (!values.empty()) std::memcpy(v.bytes.data(), values.data(), v.bytes.size());
  return v;
}
[[maybe_unused]] Value constant(Value v) {
  v.initializer = true;
  return v;
}

struct Outcome {
  Status status;
  std::vector<Value> outputs;
};

Outcome run_node(const std::string& op, int opset, const std::vector<Value>& inputs,
                 const std::vector<std::pair<std::string, DataType>>& outputs,
                 const std::vector<ProtoWriter>& attributes = {}) {
  std::vector<std::string> names;
  std::vector<ProtoWriter> graph_inputs, initializers, graph_outputs;
  for (const Value& v : inputs) {
    names.push_back(v.dtype == DataType::undefined ? "" : v.name);
    if (v.dtype == DataType::undefined) continue;
    if (v.initializer) {
      initializers.push_back(onnxmicro_test::make_tensor_raw(v.name, v.dtype, v.dims, v.bytes.data(), v.bytes.size()));
    } else {
      graph_inputs.push_back(onnxmicro_test::make_value_info(v.name, v.dtype, v.dims));
    }
  }
  std::vector<std::string> output_names;
  for (const auto& o : outputs) {
    output_names.push_back(o.first);
    ProtoWriter info;
    info.string_field(1, o.first).message_field(2, onnxmicro_test::make_tensor_type(o.second, {}, false));
    graph_outputs.push_back(info);
  }
  ProtoWriter node = onnxmicro_test::make_node(op, names, output_names, attributes);
  std::vector<unsigned char> bytes =
      onnxmicro_test::make_model(onnxmicro_test::make_graph("g", {node}, graph_inputs, graph_outputs, initializers),
                                 opset)
          .bytes();
  Outcome outcome;
  om::Model model;
  outcome.status = model.load(om::ByteSpan(bytes.data(), bytes.size()));
  if (!outcome.status.ok()) return outcome;
  om::Session session;
  outcome.status = session.prepare(model, om::all_kernels_registry());
  if (!outcome.status.ok()) return outcome;
  for (const Value& v : inputs) {
    if (v.dtype == DataType::undefined || v.initializer) continue;
    om::Shape shape;
    EXPECT_TRUE(shape.assign(v.dims.data(), v.dims.size()).ok());
    outcome.status = session.set_input(v.name, om::ConstTensorView(v.dtype, shape, v.bytes.data()));
    if (!outcome.status.ok()) return outcome;
  }
  outcome.status = session.run();
  if (!outcome.status.ok()) return outcome;
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    om::ConstTensorView y = session.output(i);
    Value out{outputs[i].first, y.dtype, {}, {}, false};
    for (int d = 0; d < y.shape.rank(); ++d) out.dims.push_back(y.shape[d]);
    const auto* p = static_cast<const unsigned char*>(y.data);
    out.bytes.assign(p, p + y.byte_size());
    outcome.outputs.push_back(out);
  }
  return outcome;
}

[[maybe_unused]] std::vector<float> pattern(std::size_t count, float scale = 1.0f, int seed = 1) {
  std::vector<float> v(count);
  std::uint32_t state = 2463534242u + static_cast<std::uint32_t>(seed);
  for (float& x : v) {
    state ^= state << 13;
    state ^= state >> 17;
    state ^= state << 5;
    x = scale * (static_cast<float>(state % 2001) / 1000.0f - 1.0f);
  }
  return v;
}

[[maybe_unused]] std::int64_t count_of(const std::vector<std::int64_t>& dims) {
  std::int64_t n = 1;
  for (std::int64_t d : dims) n *= d;
  return n;
}

// ---- reference: numpy.matmul -----------------------------------------------------------------------------

struct MatMulShapes {
  std::vector<std::int64_t> out;  // numpy's result shape
  std::int64_t m, k, n;
};

MatMulShapes matmul_shapes(std::vector<std::int64_t> a, std::vector<std::int64_t> b) {
  const bool a_vector = a.size() == 1, b_vector = b.size() == 1;
  if (a_vector) a.insert(a.begin(), 1);
  if (b_vector) b.push_back(1);
  const std::size_t batch = std::max(a.size(), b.size()) - 2;
  MatMulShapes s{{}, a[a.size() - 2], a.back(), b.back()};
  for (std::size_t i = 0; i < batch; ++i) {
    const std::int64_t da = i + a.size() >= batch + 2 ? a[i + a.size() - batch - 2] : 1;
    const std::int64_t db = i + b.size() >= batch + 2 ? b[i + b.size() - batch - 2] : 1;
    s.out.push_back(std::max(da, db));
  }
  if (!a_vector) s.out.push_back(s.m);
  if (!b_vector) s.out.push_back(s.n);
  return s;
}

// Multiplies in Acc (double for floats; the unsigned type for integers, so overflow wraps like numpy).
template <typename Acc, typename T>
std::vector<Acc> reference_matmul(std::vector<std::int64_t> a_dims, std::vector<std::int64_t> b_dims,
                                  const std::vector<T>& a, const std::vector<T>& b) {
  const MatMulShapes s = matmul_shapes(a_dims, b_dims);
  if (a_dims.size() == 1) a_dims.insert(a_dims.begin(), 1);
  if (b_dims.size() == 1) b_dims.push_back(1);
  const std::size_t batch_rank = std::max(a_dims.size(), b_dims.size()) - 2;
  std::vector<std::int64_t> batch_dims(batch_rank);
  std::int64_t batches = 1;
  for (std::size_t i = 0; i < batch_rank; ++i) {
    const std::int64_t da = i + a_dims.size() >= batch_rank + 2 ? a_dims[i + a_dims.size() - batch_rank - 2] : 1;
    const std::int64_t db = i + b_dims.size() >= batch_rank + 2 ? b_dims[i + b_dims.size() - batch_rank - 2] : 1;
    batch_dims[i] = std::max(da, db);
    batches *= batch_dims[i];
  }
  std::vector<Acc> y;
  for (std::int64_t index = 0; index < batches; ++index) {
    // Batch offset of each operand: its own index along each axis it has (0 where it is 1).
    std::int64_t a_offset = 0, b_offset = 0, a_stride = s.m * s.k, b_stride = s.k * s.n, rest = index;
    for (std::size_t i = batch_rank; i-- > 0;) {
      const std::int64_t coordinate = rest % batch_dims[i];
      rest /= batch_dims[i];
      const std::int64_t da = i + a_dims.size() >= batch_rank + 2 ? a_dims[i + a_dims.size() - batch_rank - 2] : 1;
      const std::int64_t db = i + b_dims.size() >= batch_rank + 2 ? b_dims[i + b_dims.size() - batch_rank - 2] : 1;
      a_offset += (da == 1 ? 0 : coordinate) * a_stride;
      b_offset += (db == 1 ? 0 : coordinate) * b_stride;
      a_stride *= da;
      b_stride *= db;
    }
    for (std::int64_t i = 0; i < s.m; ++i)
      for (std::int64_t j = 0; j < s.n; ++j) {
        Acc sum = 0;
        for (std::int64_t p = 0; p < s.k; ++p) {
          sum += static_cast<Acc>(a[static_cast<std::size_t>(a_offset + i * s.k + p)]) *
                 static_cast<Acc>(b[static_cast<std::size_t>(b_offset + p * s.n + j)]);
        }
        y.push_back(sum);
      }
  }
  return y;
}

void expect_matmul_matches_reference(std::vector<std::int64_t> a_dims, std::vector<std::int64_t> b_dims,
                                     int opset = 13) {
  SCOPED_TRACE(::testing::Message() << "A rank " << a_dims.size() << ", B rank " << b_dims.size());
  const std::vector<float> a = pattern(static_cast<std::size_t>(count_of(a_dims)), 1.0f, 1);
  const std::vector<float> b = pattern(static_cast<std::size_t>(count_of(b_dims)), 1.0f, 2);
  Outcome r = run_node("MatMul", opset, {value("a", a_dims, a), value("b", b_dims, b)}, {{"y", DataType::float32}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].dims, matmul_shapes(a_dims, b_dims).out);
  const std::vector<double> expected = reference_matmul<double>(a_dims, b_dims, a, b);
  const std::vector<float> y = r.outputs[0].as<float>();
  ASSERT_EQ(y.size(), expected.size());
  for (std::size_t i = 0; i < y.size(); ++i) ASSERT_NEAR(y[i], expected[i], 1e-4 * (1 + std::fabs(expected[i]))) << i;
}

TEST(MatMul, BatchAxesBroadcastInEveryDirection) {
  expect_matmul_matches_reference({2, 1, 5, 6}, {3, 6, 4});  // A broadcasts over B's batch and vice versa
  expect_matmul_matches_reference({5, 6}, {3, 6, 7});        // only B has batches
  expect_matmul_matches_reference({1, 5, 6}, {2, 6, 7});
  expect_matmul_matches_reference({3, 1, 4, 9}, {1, 2, 9, 5});
}

TEST(MatMul, SharedBFoldsBatchesIntoOneProduct) {
  expect_matmul_matches_reference({2, 3, 5, 6}, {6, 7});
  expect_matmul_matches_reference({2, 3, 5, 6}, {1, 1, 6, 7});
  expect_matmul_matches_reference({1, 3, 5, 6}, {1, 1, 1, 6, 7});  // B adds leading axes of 1
  expect_matmul_matches_reference({67, 130}, {130, 53});           // ragged register tiles
}

TEST(MatMul, OneDimensionalOperandsDropTheirAddedAxis) {
  expect_matmul_matches_reference({6}, {6});  // scalar result
  expect_matmul_matches_reference({6}, {6, 7});
  expect_matmul_matches_reference({5, 6}, {6});
  expect_matmul_matches_reference({6}, {2, 3, 6, 4});
  expect_matmul_matches_reference({2, 5, 6}, {6});
}

TEST(MatMul, IntegersWrapAroundLikeNumpy) {
  const std::vector<std::int32_t> a = {65536, 3, -4, 5};
  const std::vector<std::int32_t> b = {65536, -1, 2, 7};
  Outcome r = run_node("MatMul", 13, {value("a", {2, 2}, a), value("b", {2, 2}, b)}, {{"y", DataType::int32}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  std::vector<std::int32_t> expected;
  for (std::uint32_t v : reference_matmul<std::uint32_t>({2, 2}, {2, 2}, a, b))
    expected.push_back(static_cast<std::int32_t>(v));
  EXPECT_EQ(r.outputs[0].as<std::int32_t>(), expected);
  EXPECT_EQ(expected[0], 6);  // 65536 * 65536 wraps to 0, plus 3 * 2

  const std::vector<std::int64_t> a64 = {std::int64_t{1} << 62, 1, -3, 2, 9, -8};
  const std::vector<std::int64_t> b64 = {4, 5, -6, 7, 1, 2};
  Outcome r64 = run_node("MatMul", 9, {value("a", {2, 3}, a64), value("b", {3, 2}, b64)}, {{"y", DataType::int64}});
  ASSERT_TRUE(r64.status.ok()) << r64.status.message();
  std::vector<std::int64_t> expected64;
  for (std::uint64_t v : reference_matmul<std::uint64_t>({2, 3}, {3, 2}, a64, b64))
    expected64.push_back(static_cast<std::int64_t>(v));
  EXPECT_EQ(r64.outputs[0].as<std::int64_t>(), expected64);

  const std::vector<std::uint32_t> au = {4000000000u, 1, 2, 3};
  Outcome ru = run_node("MatMul", 13, {value("a", {2, 2}, au), value("b", {2}, std::vector<std::uint32_t>{2, 5})},
                        {{"y", DataType::uint32}});
  ASSERT_TRUE(ru.status.ok()) << ru.status.message();
  EXPECT_EQ(ru.outputs[0].as<std::uint32_t>(),
            reference_matmul<std::uint32_t>({2, 2}, {2}, au, std::vector<std::uint32_t>{2, 5}));
  Outcome ru64 = run_node("MatMul", 13,
                          {value("a", {1, 2}, std::vector<std::uint64_t>{~std::uint64_t{0}, 2}),
                           value("b", {2, 1}, std::vector<std::uint64_t>{2, 3})},
                          {{"y", DataType::uint64}});
  ASSERT_TRUE(ru64.status.ok()) << ru64.status.message();
  EXPECT_EQ(ru64.outputs[0].as<std::uint64_t>(), (std::vector<std::uint64_t>{~std::uint64_t{0} * 2 + 6}));
}

template <typename Half>
void expect_half_matmul(DataType dtype, std::vector<std::int64_t> a_dims, std::vector<std::int64_t> b_dims) {
  std::vector<Half> a, b;
  std::vector<float> af, bf;
  for (float v : pattern(static_cast<std::size_t>(count_of(a_dims)), 1.0f, 3))
    a.push_back(Half::from_float(v)), af.push_back(a.back().to_float());
  for (float v : pattern(static_cast<std::size_t>(count_of(b_dims)), 1.0f, 4))
    b.push_back(Half::from_float(v)), bf.push_back(b.back().to_float());
  Outcome r = run_node("MatMul", 13, {value("a", a_dims, a, dtype), value("b", b_dims, b, dtype)}, {{"y", dtype}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].dims, matmul_shapes(a_dims, b_dims).out);
  const std::vector<double> expected = reference_matmul<double>(a_dims, b_dims, af, bf);
  const std::vector<Half> y = r.outputs[0].as<Half>();
  ASSERT_EQ(y.size(), expected.size());
  const double ulp = dtype == DataType::float16 ? 1.0 / 1024 : 1.0 / 128;
  for (std::size_t i = 0; i < y.size(); ++i)
    EXPECT_NEAR(y[i].to_float(), expected[i], ulp * (1 + std::fabs(expected[i])));
}

TEST(MatMul, HalfTypesComputeInFloat) {
  expect_half_matmul<om::float16_t>(DataType::float16, {2, 5, 16}, {16, 9});
  expect_half_matmul<om::float16_t>(DataType::float16, {2, 1, 5, 16}, {3, 16, 9});
  expect_half_matmul<om::bfloat16_t>(DataType::bfloat16, {3, 4, 6}, {6, 5});
}

TEST(MatMul, Float64) {
  const std::vector<float> af = pattern(60, 1.0f, 5), bf = pattern(36, 1.0f, 6);
  const std::vector<double> a(af.begin(), af.end()), b(bf.begin(), bf.end());
  Outcome r = run_node("MatMul", 13, {value("a", {2, 5, 6}, a), value("b", {2, 6, 3}, b)}, {{"y", DataType::float64}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  const std::vector<double> expected = reference_matmul<double>({2, 5, 6}, {2, 6, 3}, a, b);
  const std::vector<double> y = r.outputs[0].as<double>();
  ASSERT_EQ(y.size(), expected.size());
  for (std::size_t i = 0; i < y.size(); ++i) EXPECT_NEAR(y[i], expected[i], 1e-12);
}

TEST(MatMul, EveryOpsetVersionResolves) {
  for (int opset : {1, 9, 13, 23}) expect_matmul_matches_reference({3, 4}, {4, 2}, opset);
}

TEST(MatMul, Validation) {
  Status st = run_node("MatMul", 13, {value("a", {2, 3, 4}, pattern(24)), value("b", {5, 2}, pattern(10))},
                       {{"y", DataType::float32}})
                  .status;
  EXPECT_EQ(st.code(), StatusCode::invalid_model);
  EXPECT_NE(std::string(st.message()).find("input 0 'a' [2,3,4] has K=4, input 1 'b' [5,2] has K=5"), std::string::npos)
      << st.message();
  st = run_node("MatMul", 13, {value("a", {2, 3, 4}, pattern(24)), value("b", {3, 4, 2}, pattern(24))},
                {{"y", DataType::float32}})
           .status;
  EXPECT_NE(std::string(st.message()).find("batch axes do not broadcast"), std::string::npos) << st.message();
  EXPECT_NE(std::string(st.message()).find("2 vs 3"), std::string::npos) << st.message();
  st = run_node("MatMul", 13, {value("a", {}, pattern(1)), value("b", {1}, pattern(1))}, {{"y", DataType::float32}})
           .status;
  EXPECT_NE(std::string(st.message()).find("is a scalar; MatMul needs rank >= 1"), std::string::npos) << st.message();
  st = run_node("MatMul", 13,
                {value("a", {1, 1}, std::vector<std::int8_t>{1}), value("b", {1, 1}, std::vector<std::int8_t>{1})},
                {{"y", DataType::int8}})
           .status;
  EXPECT_EQ(st.code(), StatusCode::unsupported);
  EXPECT_NE(std::string(st.message()).find("has dtype int8"), std::string::npos) << st.message();
  st = run_node("MatMul", 13, {value("a", {1, 1}, std::vector<float>{1}), value("b", {1, 1}, std::vector<double>{1})},
                {{"y", DataType::float32}})
           .status;
  EXPECT_NE(std::string(st.message()).find("has dtype double, expected float"), std::string::npos) << st.message();
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
