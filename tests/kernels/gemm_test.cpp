// SPDX-License-Identifier: MIT
// Gemm beyond the ONNX node suite (float32 opset 13 only): every C broadcast shape with both transposes and
// ragged sizes, constant B packed at prepare, C optional only from opset 11, the `broadcast` attribute of
// opsets 1-6, beta = 0, integer dtypes (wrap-around; float alpha/beta truncated toward zero),
// float16/bfloat16/float64, and validation messages. Expected values come from a triple loop written here.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
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
using onnxmicro_test::make_attribute_float;
using onnxmicro_test::make_attribute_int;
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

// ---- reference -------------------------------------------------------------------------------------------

struct GemmSpec {
  std::int64_t m, n, k;
  bool trans_a = false, trans_b = false;
  float alpha = 1.0f, beta = 1.0f;
  std::vector<std::int64_t> c_dims;  // empty vector with has_c: scalar C
  bool has_c = true;
};

// y[i][j] = alpha * sum_p A'(i,p) B'(p,j) + beta * C broadcast, in double.
std::vector<double> reference_gemm(const GemmSpec& s, const std::vector<double>& a, const std::vector<double>& b,
                                   const std::vector<double>& c) {
  std::vector<double> y(static_cast<std::size_t>(s.m * s.n));
  const std::int64_t c_rows = s.c_dims.size() == 2 ? s.c_dims[0] : 1;
  const std::int64_t c_cols = s.c_dims.empty() ? 1 : s.c_dims.back();
  for (std::int64_t i = 0; i < s.m; ++i)
    for (std::int64_t j = 0; j < s.n; ++j) {
      double sum = 0;
      for (std::int64_t p = 0; p < s.k; ++p) {
        const double av =
            s.trans_a ? a[static_cast<std::size_t>(p * s.m + i)] : a[static_cast<std::size_t>(i * s.k + p)];
        const double bv =
            s.trans_b ? b[static_cast<std::size_t>(j * s.k + p)] : b[static_cast<std::size_t>(p * s.n + j)];
        sum += av * bv;
      }
      double v = static_cast<double>(s.alpha) * sum;
      if (s.has_c) {
        const std::int64_t ci = (c_rows == 1 ? 0 : i) * c_cols + (c_cols == 1 ? 0 : j);
        v += static_cast<double>(s.beta) * c[static_cast<std::size_t>(ci)];
      }
      y[static_cast<std::size_t>(i * s.n + j)] = v;
    }
  return y;
}

std::vector<ProtoWriter> gemm_attributes(const GemmSpec& s) {
  std::vector<ProtoWriter> a;
  if (s.trans_a) a.push_back(make_attribute_int("transA", 1));
  if (s.trans_b) a.push_back(make_attribute_int("transB", 1));
  if (s.alpha != 1.0f) a.push_back(make_attribute_float("alpha", s.alpha));
  if (s.beta != 1.0f) a.push_back(make_attribute_float("beta", s.beta));
  return a;
}

std::vector<std::int64_t> a_dims(const GemmSpec& s) {
  return s.trans_a ? std::vector<std::int64_t>{s.k, s.m} : std::vector<std::int64_t>{s.m, s.k};
}
std::vector<std::int64_t> b_dims(const GemmSpec& s) {
  return s.trans_b ? std::vector<std::int64_t>{s.n, s.k} : std::vector<std::int64_t>{s.k, s.n};
}

void expect_gemm_matches_reference(const GemmSpec& s, bool constant_b = false, int opset = 13) {
  const std::vector<float> a = pattern(static_cast<std::size_t>(s.m * s.k), 1.0f, 1);
  const std::vector<float> b = pattern(static_cast<std::size_t>(s.k * s.n), 1.0f, 2);
  const std::vector<float> c = pattern(static_cast<std::size_t>(count_of(s.c_dims)), 1.0f, 3);
  std::vector<Value> inputs = {value("a", a_dims(s), a), value("b", b_dims(s), b)};
  if (constant_b) inputs[1] = constant(inputs[1]);
  if (s.has_c) inputs.push_back(value("c", s.c_dims, c));
  Outcome r = run_node("Gemm", opset, inputs, {{"y", DataType::float32}}, gemm_attributes(s));
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].dims, (std::vector<std::int64_t>{s.m, s.n}));
  const std::vector<double> expected =
      reference_gemm(s, std::vector<double>(a.begin(), a.end()), std::vector<double>(b.begin(), b.end()),
                     std::vector<double>(c.begin(), c.end()));
  const std::vector<float> y = r.outputs[0].as<float>();
  ASSERT_EQ(y.size(), expected.size());
  for (std::size_t i = 0; i < y.size(); ++i) ASSERT_NEAR(y[i], expected[i], 1e-4 * (1 + std::fabs(expected[i]))) << i;
}

TEST(Gemm, TransposesAndEveryBroadcastShapeOfCMatchReference) {
  const std::vector<std::vector<std::int64_t>> c_shapes = {{}, {1}, {19}, {1, 19}, {7, 1}, {7, 19}, {1, 1}};
  for (bool ta : {false, true})
    for (bool tb : {false, true})
      for (const auto& c : c_shapes) {
        SCOPED_TRACE(::testing::Message() << "transA=" << ta << " transB=" << tb << " C rank " << c.size());
        expect_gemm_matches_reference({7, 19, 33, ta, tb, 0.75f, -1.25f, c});
      }
}

TEST(Gemm, ConstantBIsPackedOnceAtPrepare) {
  expect_gemm_matches_reference({5, 40, 300, false, true, 1.0f, 1.0f, {40}}, true);     // transposed and packed
  expect_gemm_matches_reference({5, 40, 300, true, false, 1.0f, 1.0f, {40}}, true);     // used in place
  expect_gemm_matches_reference({1, 1000, 64, false, true, 1.0f, 1.0f, {1000}}, true);  // one-row FC layer
}

// A constant float32 B is packed in the micro-kernels' column strips at prepare; a B given at run time is multiplied
// where it lies (or transposed into scratch). The same tiles add the same products in the same order, so the bits
// agree, one- and two-row products (their wide tiles) and a single column included.
TEST(Gemm, StripedConstantBGivesTheBitsOfARunTimeB) {
  for (std::int64_t m : {1, 2, 7})
    for (std::int64_t n : {1, 33, 200})
      for (bool tb : {false, true}) {
        const GemmSpec s{m, n, 70, false, tb, 0.5f, 1.0f, {n}};
        const std::vector<float> a = pattern(static_cast<std::size_t>(s.m * s.k), 1.0f, 1);
        const std::vector<float> b = pattern(static_cast<std::size_t>(s.k * s.n), 1.0f, 2);
        const std::vector<float> c = pattern(static_cast<std::size_t>(s.n), 1.0f, 3);
        std::vector<Value> inputs = {value("a", a_dims(s), a), value("b", b_dims(s), b), value("c", s.c_dims, c)};
        const Outcome run_time = run_node("Gemm", 13, inputs, {{"y", DataType::float32}}, gemm_attributes(s));
        inputs[1] = constant(inputs[1]);
        const Outcome packed = run_node("Gemm", 13, inputs, {{"y", DataType::float32}}, gemm_attributes(s));
        ASSERT_TRUE(run_time.status.ok() && packed.status.ok());
        EXPECT_EQ(packed.outputs[0].bytes, run_time.outputs[0].bytes) << "m" << m << " n" << n << " transB " << tb;
      }
}

TEST(Gemm, SingleColumnAndSingleRowShapes) {
  expect_gemm_matches_reference({9, 1, 70, false, false, 1.0f, 1.0f, {1}});
  expect_gemm_matches_reference({1, 33, 70, true, true, 2.0f, 1.0f, {1, 33}});
}

TEST(Gemm, COptionalFromOpset11Only) {
  GemmSpec s{4, 6, 5, false, false, 2.0f, 1.0f, {}, false};
  expect_gemm_matches_reference(s, false, 11);
  Status st = run_node("Gemm", 9, {value("a", {4, 5}, pattern(20)), value("b", {5, 6}, pattern(30))},
                       {{"y", DataType::float32}})
                  .status;
  EXPECT_EQ(st.code(), StatusCode::invalid_model);
  EXPECT_NE(std::string(st.message()).find("required input 2 is missing"), std::string::npos) << st.message();
}

TEST(Gemm, BroadcastAttributeOfOpsets1To6) {
  const std::vector<Value> vector_c = {value("a", {4, 5}, pattern(20)), value("b", {5, 6}, pattern(30)),
                                       value("c", {6}, pattern(6))};
  Status st = run_node("Gemm", 6, vector_c, {{"y", DataType::float32}}).status;
  EXPECT_EQ(st.code(), StatusCode::invalid_model);
  EXPECT_NE(std::string(st.message()).find("attribute 'broadcast' is 0, so it must be exactly [4,6]"),
            std::string::npos)
      << st.message();
  Outcome r = run_node("Gemm", 6, vector_c, {{"y", DataType::float32}}, {make_attribute_int("broadcast", 1)});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  expect_gemm_matches_reference({4, 6, 5, false, false, 1.0f, 1.0f, {4, 6}}, false, 1);
  expect_gemm_matches_reference({4, 6, 5, false, false, 1.0f, 1.0f, {6}}, false, 7);  // 7: always broadcasts
}

TEST(Gemm, BetaZeroIgnoresC) {
  std::vector<float> c(6, std::numeric_limits<float>::quiet_NaN());
  Outcome r = run_node("Gemm", 13,
                       {value("a", {1, 2}, std::vector<float>{1, 2}), value("b", {2, 6}, std::vector<float>(12, 1.0f)),
                        value("c", {6}, c)},
                       {{"y", DataType::float32}}, {make_attribute_float("beta", 0.0f)});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].as<float>(), std::vector<float>(6, 3.0f));
}

TEST(Gemm, IntegersWrapAroundAndTruncateScaledResults) {
  // 2^30 * 4 = 2^32 wraps to 0 in int32, as numpy's int32 matmul does.
  const std::vector<std::int32_t> a = {1 << 30, 1 << 30, 7, -7};
  const std::vector<std::int32_t> b = {2, 2};
  Outcome r = run_node("Gemm", 13,
                       {value("a", {2, 2}, a), value("b", {2, 1}, b), value("c", {1}, std::vector<std::int32_t>{5})},
                       {{"y", DataType::int32}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].as<std::int32_t>(), (std::vector<std::int32_t>{5, 5}));
  // alpha = 0.5: 0.5 * (7*2 + -7*1) = 3.5 -> 3 and 0.5 * -7 = -3.5 -> -3 (toward zero).
  Outcome scaled = run_node("Gemm", 13,
                            {value("a", {2, 2}, std::vector<std::int64_t>{7, -7, -7, 0}),
                             value("b", {2, 1}, std::vector<std::int64_t>{2, 1})},
                            {{"y", DataType::int64}}, {make_attribute_float("alpha", 0.5f)});
  ASSERT_TRUE(scaled.status.ok()) << scaled.status.message();
  EXPECT_EQ(scaled.outputs[0].as<std::int64_t>(), (std::vector<std::int64_t>{3, -7}));
  const std::uint64_t big = std::uint64_t{1} << 62;
  Outcome u = run_node("Gemm", 13,
                       {value("a", {1, 2}, std::vector<std::uint64_t>{big, 3}),
                        value("b", {2, 2}, std::vector<std::uint64_t>{3, 1, 1, 1})},
                       {{"y", DataType::uint64}}, {make_attribute_int("transA", 0)});
  ASSERT_TRUE(u.status.ok()) << u.status.message();
  EXPECT_EQ(u.outputs[0].as<std::uint64_t>(), (std::vector<std::uint64_t>{3 * big + 3, big + 3}));
}

template <typename Half>
void expect_half_gemm(DataType dtype, bool constant_b) {
  const GemmSpec s{6, 21, 40, false, true, 0.5f, 2.0f, {21}};
  std::vector<Half> a, b, c;
  std::vector<double> ad, bd, cd;
  for (float v : pattern(240, 1.0f, 4)) a.push_back(Half::from_float(v)), ad.push_back(a.back().to_float());
  for (float v : pattern(840, 1.0f, 5)) b.push_back(Half::from_float(v)), bd.push_back(b.back().to_float());
  for (float v : pattern(21, 1.0f, 6)) c.push_back(Half::from_float(v)), cd.push_back(c.back().to_float());
  std::vector<Value> inputs = {value("a", a_dims(s), a, dtype), value("b", b_dims(s), b, dtype),
                               value("c", s.c_dims, c, dtype)};
  if (constant_b) inputs[1] = constant(inputs[1]);
  Outcome r = run_node("Gemm", 13, inputs, {{"y", dtype}}, gemm_attributes(s));
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  const std::vector<double> expected = reference_gemm(s, ad, bd, cd);
  const std::vector<Half> y = r.outputs[0].as<Half>();
  ASSERT_EQ(y.size(), expected.size());
  const double ulp = dtype == DataType::float16 ? 1.0 / 1024 : 1.0 / 128;
  for (std::size_t i = 0; i < y.size(); ++i)
    EXPECT_NEAR(y[i].to_float(), expected[i], ulp * (1 + std::fabs(expected[i])));
}

TEST(Gemm, HalfTypesComputeInFloat) {
  expect_half_gemm<om::float16_t>(DataType::float16, false);
  expect_half_gemm<om::float16_t>(DataType::float16, true);
  expect_half_gemm<om::bfloat16_t>(DataType::bfloat16, false);
}

TEST(Gemm, Float64) {
  const GemmSpec s{3, 17, 9, true, false, 1.5f, 0.5f, {3, 1}};
  const std::vector<float> af = pattern(27, 1.0f, 7), bf = pattern(153, 1.0f, 8), cf = pattern(3, 1.0f, 9);
  const std::vector<double> a(af.begin(), af.end()), b(bf.begin(), bf.end()), c(cf.begin(), cf.end());
  Outcome r = run_node("Gemm", 13, {value("a", a_dims(s), a), value("b", b_dims(s), b), value("c", s.c_dims, c)},
                       {{"y", DataType::float64}}, gemm_attributes(s));
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  const std::vector<double> expected = reference_gemm(s, a, b, c);
  const std::vector<double> y = r.outputs[0].as<double>();
  ASSERT_EQ(y.size(), expected.size());
  for (std::size_t i = 0; i < y.size(); ++i) EXPECT_NEAR(y[i], expected[i], 1e-12);
}

TEST(Gemm, Validation) {
  Status st = run_node("Gemm", 13, {value("a", {4, 5}, pattern(20)), value("b", {6, 5}, pattern(30))},
                       {{"y", DataType::float32}})
                  .status;
  EXPECT_EQ(st.code(), StatusCode::invalid_model);
  EXPECT_NE(std::string(st.message())
                .find("op(A) of input 0 'a' [4,5] (transA=0) has K=5, op(B) of input 1 'b' [6,5] "
                      "(transB=0) has K=6"),
            std::string::npos)
      << st.message();
  st = run_node("Gemm", 13, {value("a", {2, 4, 5}, pattern(40)), value("b", {5, 6}, pattern(30))},
                {{"y", DataType::float32}})
           .status;
  EXPECT_NE(std::string(st.message()).find("(A) has shape [2,4,5], expected rank 2"), std::string::npos)
      << st.message();
  st = run_node("Gemm", 13,
                {value("a", {4, 5}, pattern(20)), value("b", {5, 6}, pattern(30)), value("c", {4, 2}, pattern(8))},
                {{"y", DataType::float32}})
           .status;
  EXPECT_NE(std::string(st.message()).find("(C) has shape [4,2], which does not broadcast to the output [4,6]"),
            std::string::npos)
      << st.message();
  st = run_node("Gemm", 13,
                {value("a", {1, 1}, std::vector<std::int8_t>{1}), value("b", {1, 1}, std::vector<std::int8_t>{1})},
                {{"y", DataType::int8}})
           .status;
  EXPECT_EQ(st.code(), StatusCode::unsupported) << st.message();
}

TEST(Gemm, EveryOpsetVersionResolves) {
  for (int opset : {1, 6, 7, 9, 11, 13, 23}) {
    Outcome r = run_node("Gemm", opset,
                         {value("a", {1, 2}, std::vector<float>{1, 2}), value("b", {2, 1}, std::vector<float>{3, 4}),
                          value("c", {1, 1}, std::vector<float>{0.5f})},
                         {{"y", DataType::float32}});
    ASSERT_TRUE(r.status.ok()) << "opset " << opset << ": " << r.status.message();
    EXPECT_EQ(r.outputs[0].as<float>(), (std::vector<float>{11.5f}));
  }
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
