// SPDX-License-Identifier: MIT
// CumSum beyond the ONNX node suite: every exclusive/reverse combination on both axes of a 2-D input against a
// reference, integer wrapping, float16 (opset 14 only), an int32 axis, in-place runs, and axis errors.
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
std::vector<double> cumsum_ref(const std::vector<double>& x, std::int64_t rows, std::int64_t cols, int axis,
                               bool exclusive, bool reverse) {
  std::vector<double> y(x.size());
  const std::int64_t outer = axis == 0 ? 1 : rows, length = axis == 0 ? rows : cols, inner = axis == 0 ? cols : 1;
  for (std::int64_t o = 0; o < outer; ++o) {
    for (std::int64_t i = 0; i < inner; ++i) {
      double acc = 0;
      for (std::int64_t j = 0; j < length; ++j) {
        const std::int64_t k = reverse ? length - 1 - j : j;
        const std::size_t p = static_cast<std::size_t>((o * length + k) * inner + i);
        if (exclusive) {
          y[p] = acc;
          acc += x[p];
        } else {
          acc += x[p];
          y[p] = acc;
        }
      }
    }
  }
  return y;
}

TEST(CumSum, EveryFlagCombinationOnBothAxesMatchesReference) {
  const std::vector<double> x = {1, -2, 3.5, 4, 5, 6.25, -7, 8, 9, 10, 11, 12};
  const std::vector<float> xf(x.begin(), x.end());
  for (int axis : {0, 1, -1, -2}) {
    for (int exclusive = 0; exclusive < 2; ++exclusive) {
      for (int reverse = 0; reverse < 2; ++reverse) {
        for (std::int64_t opset : {11, 14}) {
          OneNode n;
          Status st = n.prepare("CumSum", opset, {input("x", {3, 4}, xf), constant<std::int64_t>("axis", {}, {axis})},
                                {DataType::float32},
                                {make_attribute_int("exclusive", exclusive), make_attribute_int("reverse", reverse)});
          ASSERT_TRUE(st.ok()) << st.message();
          ASSERT_TRUE(n.run().ok());
          const std::vector<double> want = cumsum_ref(x, 3, 4, axis < 0 ? axis + 2 : axis, exclusive, reverse);
          const std::vector<float> got = n.values<float>(0);
          for (std::size_t i = 0; i < want.size(); ++i)
            EXPECT_FLOAT_EQ(got[i], static_cast<float>(want[i]))
                << "axis " << axis << " exclusive " << exclusive << " reverse " << reverse << " element " << i;
        }
      }
    }
  }
}

TEST(CumSum, IntegersWrapAndAxisMayBeInt32) {
  OneNode n;
  ASSERT_TRUE(n.prepare("CumSum", 11,
                        {input<std::int32_t>("x", {3}, {std::numeric_limits<std::int32_t>::max(), 1, 5}),
                         constant<std::int32_t>("axis", {1}, {0})},
                        {DataType::int32})
                  .ok());
  ASSERT_TRUE(n.run().ok());
  EXPECT_EQ(n.values<std::int32_t>(0), (std::vector<std::int32_t>{std::numeric_limits<std::int32_t>::max(),
                                                                  std::numeric_limits<std::int32_t>::min(),
                                                                  std::numeric_limits<std::int32_t>::min() + 5}));
}

TEST(CumSum, Float16OnlyFromOpset14AndAccumulatesInFloat) {
  // 2048 + 1 + 1: float16 steps would round 2049 back to 2048; a float accumulator reaches 2050.
  const std::vector<std::uint16_t> x = {om::float16_t::from_float(2048.0f).bits, om::float16_t::from_float(1.0f).bits,
                                        om::float16_t::from_float(1.0f).bits};
  Status st;
  {
    OneNode n;
    st = n.prepare(
        "CumSum", 11,
        {input<std::uint16_t>("x", {3}, x, false, DataType::float16), constant<std::int64_t>("axis", {}, {0})},
        {DataType::float16});
    EXPECT_EQ(st.code(), StatusCode::unsupported) << st.message();
  }
  OneNode n;
  st = n.prepare("CumSum", 14,
                 {input<std::uint16_t>("x", {3}, x, false, DataType::float16), constant<std::int64_t>("axis", {}, {0})},
                 {DataType::float16});
  ASSERT_TRUE(st.ok()) << st.message();
  ASSERT_TRUE(n.run().ok());
  std::uint16_t last = 0;
  std::memcpy(&last, static_cast<const unsigned char*>(n.output(0).data) + 4, 2);
  EXPECT_EQ(om::float16_t::from_bits(last).to_float(), 2050.0f);
}

TEST(CumSum, RunsInPlaceInsideAChain) {
  const std::vector<float> x = {1, -2, 3, 4, -5, 6};
  std::vector<unsigned char> bytes =
      make_model(make_graph("g",
                            {make_node("Relu", {"x"}, {"r"}, {}, "relu"),
                             make_node("CumSum", {"r", "axis"}, {"y"}, {make_attribute_int("reverse", 1)}, "cs")},
                            {make_value_info("x", DataType::float32, {2, 3})},
                            {make_value_info("y", DataType::float32, {2, 3})}, {make_int64_tensor("axis", {}, {1})}),
                 14)
          .bytes();
  om::Model model;
  ASSERT_TRUE(model.load(om::ByteSpan(bytes.data(), bytes.size())).ok());
  om::Session session;
  Status st = session.prepare(model, om::all_kernels_registry());
  ASSERT_TRUE(st.ok()) << st.message();
  ASSERT_TRUE(session.set_input(0, ConstTensorView(DataType::float32, Shape{2, 3}, x.data())).ok());
  ASSERT_TRUE(session.run().ok());
  const float want[6] = {4, 3, 3, 10, 6, 6};
  for (int i = 0; i < 6; ++i) EXPECT_EQ(session.output(0).data_as<float>()[i], want[i]) << i;
}

TEST(CumSum, AxisErrors) {
  Status st;
  {
    OneNode n;
    st = n.prepare("CumSum", 14, {input<float>("x", {2, 2}, {1, 2, 3, 4}), constant<std::int64_t>("axis", {}, {2})},
                   {DataType::float32});
    EXPECT_TRUE(contains(st, "input 1 'axis' is 2, expected a value in [-2, 1]")) << st.message();
  }
  {
    OneNode n;
    st = n.prepare("CumSum", 14, {input<float>("x", {2, 2}, {1, 2, 3, 4}), constant<std::int64_t>("axis", {2}, {0, 1})},
                   {DataType::float32});
    EXPECT_TRUE(contains(st, "must be a scalar")) << st.message();
  }
  {
    OneNode n;  // axis as a graph input without a value at prepare time
    st = n.prepare("CumSum", 14, {input<float>("x", {2, 2}, {1, 2, 3, 4}), input<std::int64_t>("axis", {}, {0})},
                   {DataType::float32});
    EXPECT_TRUE(contains(st, "must be known at prepare time")) << st.message();
  }
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
