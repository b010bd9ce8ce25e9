// SPDX-License-Identifier: MIT
// TopK beyond the ONNX node suite: k as attribute (opset 1) and as constant input (10+), largest and smallest
// along each axis against a stable-sort reference (ties keep the lower index first), NaN ordering, k = 0 and
// k = axis length, the per-opset dtype lists, and k/axis errors.
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
// Stable reference: indices sorted by value (descending for largest), ties by index.
void topk_ref(const std::vector<float>& x, std::int64_t outer, std::int64_t length, std::int64_t inner, std::int64_t k,
              bool largest, std::vector<float>& values, std::vector<std::int64_t>& indices) {
  values.assign(static_cast<std::size_t>(outer * k * inner), 0.0f);
  indices.assign(values.size(), 0);
  for (std::int64_t o = 0; o < outer; ++o) {
    for (std::int64_t i = 0; i < inner; ++i) {
      std::vector<std::int64_t> order(static_cast<std::size_t>(length));
      for (std::int64_t j = 0; j < length; ++j) order[static_cast<std::size_t>(j)] = j;
      auto at = [&](std::int64_t j) { return x[static_cast<std::size_t>((o * length + j) * inner + i)]; };
      std::stable_sort(order.begin(), order.end(),
                       [&](std::int64_t a, std::int64_t b) { return largest ? at(a) > at(b) : at(a) < at(b); });
      for (std::int64_t j = 0; j < k; ++j) {
        const std::size_t p = static_cast<std::size_t>((o * k + j) * inner + i);
        values[p] = at(order[static_cast<std::size_t>(j)]);
        indices[p] = order[static_cast<std::size_t>(j)];
      }
    }
  }
}

TEST(TopK, AllVersionsMatchAStableSortOnEveryAxis) {
  const std::vector<std::int64_t> dims = {3, 5};
  std::vector<float> x(15);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>((i * 7) % 4);  // plenty of ties
  for (int axis : {0, 1, -1}) {
    const int a = axis < 0 ? axis + 2 : axis;
    const std::int64_t outer = a == 0 ? 1 : 3, length = dims[static_cast<std::size_t>(a)], inner = a == 0 ? 5 : 1;
    for (std::int64_t k = 0; k <= length; ++k) {
      for (std::int64_t opset : {1, 10, 11}) {
        for (int largest = 0; largest < 2; ++largest) {
          if (opset < 11 && !largest) continue;  // `largest` exists from opset 11
          OneNode n;
          std::vector<TestInput> inputs = {input("x", dims, x)};
          std::vector<ProtoWriter> attributes = {make_attribute_int("axis", axis)};
          if (opset == 1) {
            attributes.push_back(make_attribute_int("k", k));
          } else {
            inputs.push_back(constant<std::int64_t>("k", {1}, {k}));
          }
          if (opset >= 11) attributes.push_back(make_attribute_int("largest", largest));
          Status st = n.prepare("TopK", opset, inputs, {DataType::float32, DataType::int64}, attributes);
          ASSERT_TRUE(st.ok()) << st.message();
          ASSERT_TRUE(n.run().ok());
          std::vector<float> want_values;
          std::vector<std::int64_t> want_indices;
          topk_ref(x, outer, length, inner, k, largest != 0, want_values, want_indices);
          Shape want_shape{3, 5};
          want_shape[a] = k;
          EXPECT_EQ(n.output(0).shape, want_shape);
          EXPECT_EQ(n.output(1).shape, want_shape);
          const std::string what = "opset " + std::to_string(opset) + " axis " + std::to_string(axis) + " k " +
                                   std::to_string(k) + " largest " + std::to_string(largest);
          EXPECT_EQ(n.values<float>(0), want_values) << what;
          EXPECT_EQ(n.values<std::int64_t>(1), want_indices) << what;
        }
      }
    }
  }
}

TEST(TopK, NanRanksAboveEveryNumber) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  OneNode largest;
  ASSERT_TRUE(largest
                  .prepare("TopK", 11, {input<float>("x", {4}, {1, nan, 3, 2}), constant<std::int64_t>("k", {1}, {2})},
                           {DataType::float32, DataType::int64})
                  .ok());
  ASSERT_TRUE(largest.run().ok());
  EXPECT_EQ(largest.values<std::int64_t>(1), (std::vector<std::int64_t>{1, 2}));
  OneNode smallest;
  ASSERT_TRUE(smallest
                  .prepare("TopK", 11, {input<float>("x", {4}, {1, nan, 3, 2}), constant<std::int64_t>("k", {1}, {4})},
                           {DataType::float32, DataType::int64}, {make_attribute_int("largest", 0)})
                  .ok());
  ASSERT_TRUE(smallest.run().ok());
  EXPECT_EQ(smallest.values<std::int64_t>(1), (std::vector<std::int64_t>{0, 3, 2, 1}));
}

TEST(TopK, IntegerTypesFromOpset11AndBfloat16From24) {
  Status st;
  {
    OneNode n;
    st = n.prepare("TopK", 10, {input<std::int32_t>("x", {3}, {1, 3, 2}), constant<std::int64_t>("k", {1}, {1})},
                   {DataType::int32, DataType::int64});
    EXPECT_EQ(st.code(), StatusCode::unsupported) << st.message();
  }
  {
    OneNode n;
    ASSERT_TRUE(n.prepare("TopK", 11, {input<std::int32_t>("x", {3}, {1, 3, 2}), constant<std::int64_t>("k", {1}, {2})},
                          {DataType::int32, DataType::int64})
                    .ok());
    ASSERT_TRUE(n.run().ok());
    EXPECT_EQ(n.values<std::int32_t>(0), (std::vector<std::int32_t>{3, 2}));
    EXPECT_EQ(n.values<std::int64_t>(1), (std::vector<std::int64_t>{1, 2}));
  }
  {
    OneNode n;
    st = n.prepare("TopK", 23,
                   {input<std::uint16_t>("x", {2}, {0x3f80, 0x4000}, false, DataType::bfloat16),
                    constant<std::int64_t>("k", {1}, {1})},
                   {DataType::bfloat16, DataType::int64});
    EXPECT_EQ(st.code(), StatusCode::unsupported) << st.message();
  }
  {
    OneNode n;
    ASSERT_TRUE(n.prepare("TopK", 24,
                          {input<std::uint16_t>("x", {2}, {0x3f80, 0x4000}, false, DataType::bfloat16),
                           constant<std::int64_t>("k", {1}, {1})},
                          {DataType::bfloat16, DataType::int64})
                    .ok());
    ASSERT_TRUE(n.run().ok());
    EXPECT_EQ(n.values<std::int64_t>(1), std::vector<std::int64_t>{1});
  }
}

TEST(TopK, KAndAxisErrors) {
  Status st;
  {
    OneNode n;
    st = n.prepare("TopK", 11, {input<float>("x", {2, 3}, {1, 2, 3, 4, 5, 6}), constant<std::int64_t>("k", {1}, {4})},
                   {DataType::float32, DataType::int64});
    EXPECT_TRUE(contains(st, "input 1 'K' is 4, expected a value in [0, 3]")) << st.message();
  }
  {
    OneNode n;
    st = n.prepare("TopK", 1, {input<float>("x", {3}, {1, 2, 3})}, {DataType::float32, DataType::int64});
    EXPECT_TRUE(contains(st, "required attribute 'k'")) << st.message();
  }
  {
    OneNode n;
    st = n.prepare("TopK", 11, {input<float>("x", {3}, {1, 2, 3}), constant<std::int64_t>("k", {1}, {1})},
                   {DataType::float32, DataType::int64}, {make_attribute_int("axis", 1)});
    EXPECT_TRUE(contains(st, "attribute 'axis' is 1, expected a value in [-1, 0]")) << st.message();
  }
  {
    OneNode n;  // K as a graph input without a value at prepare time
    st = n.prepare("TopK", 11, {input<float>("x", {3}, {1, 2, 3}), input<std::int64_t>("k", {1}, {1})},
                   {DataType::float32, DataType::int64});
    EXPECT_TRUE(contains(st, "must be known at prepare time")) << st.message();
  }
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
