// SPDX-License-Identifier: MIT
// ArgMax/ArgMin beyond the ONNX node suite: ties (first index; last with select_last_index from opset 12),
// keepdims, every axis of a 3-D input against a reference, NaN, the per-opset axis and dtype rules, and errors.
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
std::vector<std::int64_t> arg_reference(bool max, bool last, const std::vector<float>& x, std::int64_t outer,
                                        std::int64_t length, std::int64_t inner) {
  std::vector<std::int64_t> y;
  for (std::int64_t o = 0; o < outer; ++o) {
    for (std::int64_t i = 0; i < inner; ++i) {
      std::int64_t best = 0;
      for (std::int64_t k = 1; k < length; ++k) {
        const float v = x[static_cast<std::size_t>((o * length + k) * inner + i)];
        const float b = x[static_cast<std::size_t>((o * length + best) * inner + i)];
        if ((max ? v > b : v < b) || (last && v == b)) best = k;
      }
      y.push_back(best);
    }
  }
  return y;
}

TEST(ArgMaxArgMin, EveryAxisKeepdimsAndSelectLastIndexMatchReference) {
  const std::vector<std::int64_t> dims = {2, 3, 4};
  std::vector<float> x(24);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>((i * 5) % 7);  // many ties
  for (const char* op : {"ArgMax", "ArgMin"}) {
    const bool max = std::string(op) == "ArgMax";
    for (int axis = -3; axis < 3; ++axis) {
      const int a = axis < 0 ? axis + 3 : axis;
      std::int64_t outer = 1, inner = 1;
      for (int i = 0; i < a; ++i) outer *= dims[static_cast<std::size_t>(i)];
      for (int i = a + 1; i < 3; ++i) inner *= dims[static_cast<std::size_t>(i)];
      for (int last = 0; last < 2; ++last) {
        for (int keepdims = 0; keepdims < 2; ++keepdims) {
          OneNode n;
          Status st = n.prepare(op, 13, {input("x", dims, x)}, {DataType::int64},
                                {make_attribute_int("axis", axis), make_attribute_int("keepdims", keepdims),
                                 make_attribute_int("select_last_index", last)});
          ASSERT_TRUE(st.ok()) << st.message();
          ASSERT_TRUE(n.run().ok());
          std::vector<std::int64_t> shape = dims;
          if (keepdims) {
            shape[static_cast<std::size_t>(a)] = 1;
          } else {
            shape.erase(shape.begin() + a);
          }
          Shape want_shape;
          ASSERT_TRUE(want_shape.assign(shape.data(), shape.size()).ok());
          EXPECT_EQ(n.output(0).shape, want_shape);
          EXPECT_EQ(n.values<std::int64_t>(0),
                    arg_reference(max, last != 0, x, outer, dims[static_cast<std::size_t>(a)], inner))
              << op << " axis " << axis << " last " << last;
        }
      }
    }
  }
}

TEST(ArgMaxArgMin, SelectLastIndexIsIgnoredBeforeOpset12) {
  OneNode n;  // opset 11 has no select_last_index: ties give the first index
  ASSERT_TRUE(n.prepare("ArgMax", 11, {input<float>("x", {4}, {1, 3, 3, 0})}, {DataType::int64},
                        {make_attribute_int("select_last_index", 1)})
                  .ok());
  ASSERT_TRUE(n.run().ok());
  EXPECT_EQ(n.values<std::int64_t>(0), std::vector<std::int64_t>{1});
  OneNode m;
  ASSERT_TRUE(m.prepare("ArgMax", 12, {input<float>("x", {4}, {1, 3, 3, 0})}, {DataType::int64},
                        {make_attribute_int("select_last_index", 1)})
                  .ok());
  ASSERT_TRUE(m.run().ok());
  EXPECT_EQ(m.values<std::int64_t>(0), std::vector<std::int64_t>{2});
}

TEST(ArgMaxArgMin, NanIsTheExtremeLikeNumpy) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  for (const char* op : {"ArgMax", "ArgMin"}) {
    OneNode n;
    ASSERT_TRUE(n.prepare(op, 13, {input<float>("x", {4}, {1, nan, 5, nan})}, {DataType::int64}).ok());
    ASSERT_TRUE(n.run().ok());
    EXPECT_EQ(n.values<std::int64_t>(0), std::vector<std::int64_t>{1}) << op;
  }
}

TEST(ArgMaxArgMin, IntegerTypesAndPerOpsetRules) {
  OneNode u8;
  ASSERT_TRUE(u8.prepare("ArgMin", 1, {input<std::uint8_t>("x", {2, 2}, {9, 200, 7, 250})}, {DataType::int64},
                         {make_attribute_int("axis", 1), make_attribute_int("keepdims", 0)})
                  .ok());
  ASSERT_TRUE(u8.run().ok());
  EXPECT_EQ(u8.values<std::int64_t>(0), (std::vector<std::int64_t>{0, 0}));

  Status st;
  {
    OneNode n;  // negative axis only from opset 11
    st = n.prepare("ArgMax", 1, {input<float>("x", {2, 2}, {1, 2, 3, 4})}, {DataType::int64},
                   {make_attribute_int("axis", -1)});
    EXPECT_TRUE(contains(st, "negative axes are only allowed from opset 11")) << st.message();
  }
  {
    OneNode n;
    st = n.prepare("ArgMax", 13, {input<float>("x", {2, 2}, {1, 2, 3, 4})}, {DataType::int64},
                   {make_attribute_int("axis", 2)});
    EXPECT_TRUE(contains(st, "attribute 'axis' is 2, expected a value in [-2, 1]")) << st.message();
  }
  {
    OneNode n;  // bfloat16: from opset 13
    st = n.prepare("ArgMax", 12, {input<std::uint16_t>("x", {2}, {0x3f80, 0x4000}, false, DataType::bfloat16)},
                   {DataType::int64});
    EXPECT_EQ(st.code(), StatusCode::unsupported) << st.message();
  }
  {
    OneNode n;
    ASSERT_TRUE(n.prepare("ArgMax", 13, {input<std::uint16_t>("x", {2}, {0x4000, 0x3f80}, false, DataType::bfloat16)},
                          {DataType::int64})
                    .ok());
    ASSERT_TRUE(n.run().ok());
    EXPECT_EQ(n.values<std::int64_t>(0), std::vector<std::int64_t>{0});
  }
  {
    OneNode n;
    st = n.prepare("ArgMax", 13, {input<std::uint8_t>("x", {2}, {0, 1}, false, DataType::boolean)}, {DataType::int64});
    EXPECT_EQ(st.code(), StatusCode::unsupported) << st.message();
    EXPECT_TRUE(contains(st, "has dtype bool")) << st.message();
  }
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
