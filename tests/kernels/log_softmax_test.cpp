// SPDX-License-Identifier: MIT
// LogSoftmax and Hardmax beyond the ONNX node suite (opset 13 only there): the opset 1-12 2-D coercion against
// the opset 13 single-axis semantics on every axis of a 3-D input, default axes per version, stability, float16,
// in-place runs inside a chain, Hardmax ties, and the per-opset axis and dtype rules.
#include <gtest/gtest.h>

#include <algorithm>
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
using om::ConstTensorView;
using om::DataType;
using om::Shape;
using om::Status;
using om::StatusCode;
using namespace onnxmicro_test;

// ---- harness: one node in a model, run through Model + Session with AllKernels -------------------------------

struct TestInput {
  std::string name;
  DataType dtype = DataType::undefined;
  std::vector<std::int64_t> dims;
  std::vector<unsigned char> bytes;
  bool constant = false;  ///< an initializer rather than a graph input
};
template <typename T>
TestInput input(std::string name, std::vector<std::int64_t> dims, const std::vector<T>& values, bool constant = false,
                DataType dtype = om::dtype_of<T>::value) {
  TestInput t{std::move(name), dtype, std::move(dims), {}, constant};
  t.bytes.resize(values.size() * sizeof(T));
  if (!values.empty()) std::memcpy(t.bytes.data(), values.data(), t.bytes.size());
  return t;
}
template <typename T>
TestInput constant(std::string name, std::vector<std::int64_t> dims, const std::vector<T>& values) {
  return input(std::move(name), std::move(dims), values, true);
}

class OneNode {
 public:
  /// Builds `op` at `opset` with `inputs` (an empty name = omitted optional input) and outputs of the given
  /// dtypes (shapes left to the kernel), then prepares the session.
  Status prepare(const std::string& op, std::int64_t opset, const std::vector<TestInput>& inputs,
                 const std::vector<DataType>& output_dtypes, const std::vector<ProtoWriter>& attributes = {}) {
    inputs_ = inputs;
    std::vector<std::string> names;
    std::vector<ProtoWriter> graph_inputs, outputs, initializers;
    for (const TestInput& t : inputs_) {
      names.push_back(t.name);
      if (t.name.empty()) continue;
      if (t.constant) {
        initializers.push_back(make_tensor_raw(t.name, t.dtype, t.dims, t.bytes.data(), t.bytes.size()));
      } else {
        graph_inputs.push_back(make_value_info(t.name, t.dtype, t.dims));
      }
    }
    std::vector<std::string> output_names;
    for (std::size_t i = 0; i < output_dtypes.size(); ++i) {
      output_names.push_back("y" + std::to_string(i));
      ProtoWriter v;
      v.string_field(1, output_names.back());
      v.message_field(2, make_tensor_type(output_dtypes[i], {}, false));
      outputs.push_back(v);
    }
    bytes_ = make_model(make_graph("g", {make_node(op, names, output_names, attributes, "node")}, graph_inputs, outputs,
                                   initializers),
                        opset)
                 .bytes();
    Status st = model_.load(om::ByteSpan(bytes_.data(), bytes_.size()));
    if (!st.ok()) return st;
    return session_.prepare(model_, om::all_kernels_registry());
  }
  /// Sets every non-constant input from the values given to prepare() and runs.
  Status run() {
    for (const TestInput& t : inputs_) {
      if (t.name.empty() || t.constant) continue;
      Shape shape;
      EXPECT_TRUE(shape.assign(t.dims.data(), t.dims.size()).ok());
      Status st = session_.set_input(t.name, ConstTensorView(t.dtype, shape, t.bytes.data()));
      if (!st.ok()) return st;
    }
    return session_.run();
  }
  ConstTensorView output(std::size_t i) const { return session_.output(i); }
  template <typename T>
  std::vector<T> values(std::size_t i) const {
    const ConstTensorView v = session_.output(i);
    EXPECT_EQ(v.dtype, om::dtype_of<T>::value);
    std::vector<T> out(static_cast<std::size_t>(v.element_count()));
    if (!out.empty()) std::memcpy(out.data(), v.data, out.size() * sizeof(T));
    return out;
  }

 private:
  std::vector<TestInput> inputs_;
  std::vector<unsigned char> bytes_;
  om::Model model_;
  om::Session session_;
};

bool contains(const Status& st, const std::string& text) {
  return std::string(st.message()).find(text) != std::string::npos;
}
// [outer, length, inner] reference, in double.
std::vector<double> log_softmax_ref(const std::vector<float>& x, std::int64_t outer, std::int64_t length,
                                    std::int64_t inner) {
  std::vector<double> y(x.size());
  for (std::int64_t o = 0; o < outer; ++o) {
    for (std::int64_t i = 0; i < inner; ++i) {
      auto at = [&](std::int64_t k) { return static_cast<std::size_t>((o * length + k) * inner + i); };
      double max = -INFINITY, sum = 0;
      for (std::int64_t k = 0; k < length; ++k) max = std::max(max, static_cast<double>(x[at(k)]));
      for (std::int64_t k = 0; k < length; ++k) sum += std::exp(x[at(k)] - max);
      for (std::int64_t k = 0; k < length; ++k) y[at(k)] = x[at(k)] - max - std::log(sum);
    }
  }
  return y;
}
std::vector<float> hardmax_ref(const std::vector<float>& x, std::int64_t outer, std::int64_t length,
                               std::int64_t inner) {
  std::vector<float> y(x.size(), 0.0f);
  for (std::int64_t o = 0; o < outer; ++o) {
    for (std::int64_t i = 0; i < inner; ++i) {
      auto at = [&](std::int64_t k) { return static_cast<std::size_t>((o * length + k) * inner + i); };
      std::int64_t best = 0;
      for (std::int64_t k = 1; k < length; ++k)
        if (x[at(k)] > x[at(best)]) best = k;
      y[at(best)] = 1.0f;
    }
  }
  return y;
}

const std::vector<std::int64_t> kDims = {2, 3, 4};
std::vector<float> sample() {
  std::vector<float> x(24);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>((i * 7) % 5) - 1.5f;  // ties too
  return x;
}
std::int64_t prod(int begin, int end) {
  std::int64_t n = 1;
  for (int i = begin; i < end; ++i) n *= kDims[static_cast<std::size_t>(i)];
  return n;
}

TEST(LogSoftmax, Opset1CoercesTo2DAndOpset13UsesOneAxisOnEveryAxis) {
  const std::vector<float> x = sample();
  for (int axis = -3; axis <= 3; ++axis) {
    const int a = axis < 0 ? axis + 3 : axis;
    for (std::int64_t opset : {11, 13}) {
      if (opset == 13 && axis == 3) continue;  // axis == rank: only the 2-D coercion allows it
      OneNode n;
      Status st = n.prepare("LogSoftmax", opset, {input("x", kDims, x)}, {DataType::float32},
                            {make_attribute_int("axis", axis)});
      ASSERT_TRUE(st.ok()) << st.message();
      ASSERT_TRUE(n.run().ok());
      const std::vector<double> want =
          opset == 13 ? log_softmax_ref(x, prod(0, a), kDims[static_cast<std::size_t>(a)], prod(a + 1, 3))
                      : log_softmax_ref(x, prod(0, a), prod(a, 3), 1);
      const std::vector<float> got = n.values<float>(0);
      ASSERT_EQ(got.size(), want.size());
      for (std::size_t i = 0; i < got.size(); ++i)
        EXPECT_NEAR(got[i], want[i], 1e-5) << "opset " << opset << " axis " << axis << " element " << i;
    }
  }
}

TEST(LogSoftmax, DefaultAxisIs1UpToOpset12AndMinus1From13) {
  const std::vector<float> x = sample();
  OneNode old_default;
  ASSERT_TRUE(old_default.prepare("LogSoftmax", 1, {input("x", kDims, x)}, {DataType::float32}).ok());
  ASSERT_TRUE(old_default.run().ok());
  const std::vector<double> want_old = log_softmax_ref(x, 2, 12, 1);
  OneNode new_default;
  ASSERT_TRUE(new_default.prepare("LogSoftmax", 13, {input("x", kDims, x)}, {DataType::float32}).ok());
  ASSERT_TRUE(new_default.run().ok());
  const std::vector<double> want_new = log_softmax_ref(x, 6, 4, 1);
  const std::vector<float> got_old = old_default.values<float>(0), got_new = new_default.values<float>(0);
  for (std::size_t i = 0; i < x.size(); ++i) {
    EXPECT_NEAR(got_old[i], want_old[i], 1e-5);
    EXPECT_NEAR(got_new[i], want_new[i], 1e-5);
  }
}

TEST(LogSoftmax, LargeInputsStayFinite) {
  OneNode n;
  ASSERT_TRUE(
      n.prepare("LogSoftmax", 13, {input<float>("x", {3}, {1000.0f, 1001.0f, 1002.0f})}, {DataType::float32}).ok());
  ASSERT_TRUE(n.run().ok());
  const std::vector<double> want = log_softmax_ref({1000.0f, 1001.0f, 1002.0f}, 1, 3, 1);
  const std::vector<float> got = n.values<float>(0);
  for (std::size_t i = 0; i < 3; ++i) EXPECT_NEAR(got[i], want[i], 1e-4);
}

TEST(LogSoftmax, RunsInPlaceInsideAChain) {
  // Relu's output dies at LogSoftmax, so the session may give LogSoftmax the same buffer.
  const std::vector<float> x = sample();
  std::vector<unsigned char> bytes =
      make_model(make_graph("g",
                            {make_node("Relu", {"x"}, {"r"}, {}, "relu"),
                             make_node("LogSoftmax", {"r"}, {"y"}, {make_attribute_int("axis", 1)}, "ls")},
                            {make_value_info("x", DataType::float32, kDims)},
                            {make_value_info("y", DataType::float32, kDims)}),
                 13)
          .bytes();
  om::Model model;
  ASSERT_TRUE(model.load(om::ByteSpan(bytes.data(), bytes.size())).ok());
  om::Session session;
  ASSERT_TRUE(session.prepare(model, om::all_kernels_registry()).ok());
  ASSERT_TRUE(session.set_input(0, ConstTensorView(DataType::float32, Shape{2, 3, 4}, x.data())).ok());
  ASSERT_TRUE(session.run().ok());
  std::vector<float> relu = x;
  for (float& v : relu) v = std::max(v, 0.0f);
  const std::vector<double> want = log_softmax_ref(relu, 2, 3, 4);
  const float* got = session.output(0).data_as<float>();
  for (std::size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-5) << i;
}

TEST(LogSoftmax, Float16IsComputedInFloat) {
  const std::vector<float> xf = {0.5f, 1.5f, -2.0f};
  std::vector<std::uint16_t> bits;
  for (float v : xf) bits.push_back(om::float16_t::from_float(v).bits);
  OneNode n;
  ASSERT_TRUE(
      n.prepare("LogSoftmax", 13, {input<std::uint16_t>("x", {3}, bits, false, DataType::float16)}, {DataType::float16})
          .ok());
  ASSERT_TRUE(n.run().ok());
  const std::vector<double> want = log_softmax_ref(xf, 1, 3, 1);
  for (std::size_t i = 0; i < 3; ++i) {
    std::uint16_t b = 0;
    std::memcpy(&b, static_cast<const unsigned char*>(n.output(0).data) + 2 * i, 2);
    EXPECT_EQ(b, om::float16_t::from_float(static_cast<float>(want[i])).bits) << i;
  }
}

TEST(LogSoftmax, AxisAndDtypeErrors) {
  Status st;
  {
    OneNode n;
    st = n.prepare("LogSoftmax", 13, {input("x", kDims, sample())}, {DataType::float32},
                   {make_attribute_int("axis", 3)});
    EXPECT_TRUE(contains(st, "attribute 'axis' is 3, expected a value in [-3, 2]")) << st.message();
  }
  {
    OneNode n;  // negative axis before opset 11: outside the spec, but PyTorch exports it and onnxruntime runs it
    st = n.prepare("LogSoftmax", 1, {input("x", kDims, sample())}, {DataType::float32},
                   {make_attribute_int("axis", -1)});
    EXPECT_TRUE(st.ok()) << st.message();
  }
  {
    OneNode n;  // bfloat16 from opset 13
    st = n.prepare("LogSoftmax", 11, {input<std::uint16_t>("x", {2}, {0x3f80, 0x4000}, false, DataType::bfloat16)},
                   {DataType::bfloat16});
    EXPECT_EQ(st.code(), StatusCode::unsupported) << st.message();
  }
  {
    OneNode n;
    st = n.prepare("LogSoftmax", 13, {input<std::int32_t>("x", {2}, {1, 2})}, {DataType::int32});
    EXPECT_EQ(st.code(), StatusCode::unsupported) << st.message();
    EXPECT_TRUE(contains(st, "has dtype int32")) << st.message();
  }
}

TEST(Hardmax, Opset1CoercesTo2DAndOpset13UsesOneAxisOnEveryAxis) {
  const std::vector<float> x = sample();
  for (int axis = -3; axis < 3; ++axis) {
    const int a = axis < 0 ? axis + 3 : axis;
    for (std::int64_t opset : {11, 13}) {
      OneNode n;
      Status st =
          n.prepare("Hardmax", opset, {input("x", kDims, x)}, {DataType::float32}, {make_attribute_int("axis", axis)});
      ASSERT_TRUE(st.ok()) << st.message();
      ASSERT_TRUE(n.run().ok());
      const std::vector<float> want =
          opset == 13 ? hardmax_ref(x, prod(0, a), kDims[static_cast<std::size_t>(a)], prod(a + 1, 3))
                      : hardmax_ref(x, prod(0, a), prod(a, 3), 1);
      EXPECT_EQ(n.values<float>(0), want) << "opset " << opset << " axis " << axis;
    }
  }
}

TEST(Hardmax, TiesPickTheFirstAndDefaultAxisFollowsTheVersion) {
  OneNode n;
  ASSERT_TRUE(n.prepare("Hardmax", 13, {input<float>("x", {2, 3}, {2, 5, 5, 7, 7, 1})}, {DataType::float32}).ok());
  ASSERT_TRUE(n.run().ok());
  EXPECT_EQ(n.values<float>(0), (std::vector<float>{0, 1, 0, 1, 0, 0}));
  OneNode old;  // opset 1 default axis 1 on a 2-D input: also rows
  ASSERT_TRUE(old.prepare("Hardmax", 1, {input<float>("x", {2, 1, 3}, {2, 5, 5, 7, 7, 1})}, {DataType::float32}).ok());
  ASSERT_TRUE(old.run().ok());
  EXPECT_EQ(old.values<float>(0), (std::vector<float>{0, 1, 0, 1, 0, 0}));
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
