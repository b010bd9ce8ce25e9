// SPDX-License-Identifier: MIT
// The Reduce* ops beyond the ONNX node suite (which only has the newest opsets): every op in both axes forms
// (attribute up to ReduceSum-12/others-17, constant input after) on every axes subset against a double
// reference, noop_with_empty_axes, empty-set identities, bool Max/Min (opset 20), per-opset dtype lists,
// integer truncation and wrapping, float16 accumulation, stability, and axes errors.
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
// ---- reference: reduce x of shape `dims` over `axes` (all when empty) in double -----------------------------

enum class Kind { sum, mean, max, min, prod, l1, l2, log_sum, log_sum_exp, sum_square };

std::vector<double> reference(Kind kind, const std::vector<double>& x, const std::vector<std::int64_t>& dims,
                              std::vector<std::int64_t> axes) {
  const int rank = static_cast<int>(dims.size());
  std::vector<bool> reduced(dims.size(), axes.empty());
  for (std::int64_t a : axes) reduced[static_cast<std::size_t>(a < 0 ? a + rank : a)] = true;
  std::vector<std::int64_t> out_dims;
  for (int i = 0; i < rank; ++i) out_dims.push_back(reduced[i] ? 1 : dims[i]);
  std::int64_t out_count = 1;
  for (std::int64_t d : out_dims) out_count *= d;
  std::vector<std::vector<double>> groups(static_cast<std::size_t>(out_count));
  std::vector<std::int64_t> index(dims.size(), 0);
  for (std::size_t flat = 0; flat < x.size(); ++flat) {
    std::int64_t o = 0;
    for (int i = 0; i < rank; ++i) o = o * out_dims[i] + (reduced[i] ? 0 : index[i]);
    groups[static_cast<std::size_t>(o)].push_back(x[flat]);
    for (int i = rank - 1; i >= 0; --i) {
      if (++index[i] < dims[i]) break;
      index[i] = 0;
    }
  }
  std::vector<double> y;
  for (const std::vector<double>& g : groups) {
    double r = 0;
    switch (kind) {
      case Kind::sum:
        for (double v : g) r += v;
        break;
      case Kind::mean:
        for (double v : g) r += v / static_cast<double>(g.size());
        break;
      case Kind::max:
        r = -INFINITY;
        for (double v : g) r = std::max(r, v);
        break;
      case Kind::min:
        r = INFINITY;
        for (double v : g) r = std::min(r, v);
        break;
      case Kind::prod:
        r = 1;
        for (double v : g) r *= v;
        break;
      case Kind::l1:
        for (double v : g) r += std::fabs(v);
        break;
      case Kind::l2:
        for (double v : g) r += v * v;
        r = std::sqrt(r);
        break;
      case Kind::log_sum:
        for (double v : g) r += v;
        r = std::log(r);
        break;
      case Kind::log_sum_exp:
        for (double v : g) r += std::exp(v);
        r = std::log(r);
        break;
      case Kind::sum_square:
        for (double v : g) r += v * v;
        break;
    }
    y.push_back(r);
  }
  return y;
}

struct OpCase {
  const char* op;
  Kind kind;
  std::int64_t input_axes_since;  ///< first opset with axes as input 1
};
const OpCase kOps[] = {
    {"ReduceSum", Kind::sum, 13},
    {"ReduceMean", Kind::mean, 18},
    {"ReduceMax", Kind::max, 18},
    {"ReduceMin", Kind::min, 18},
    {"ReduceProd", Kind::prod, 18},
    {"ReduceL1", Kind::l1, 18},
    {"ReduceL2", Kind::l2, 18},
    {"ReduceLogSum", Kind::log_sum, 18},
    {"ReduceLogSumExp", Kind::log_sum_exp, 18},
    {"ReduceSumSquare", Kind::sum_square, 18},
};

std::vector<float> test_values(std::size_t n) {
  std::vector<float> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = 0.25f + static_cast<float>((i * 7) % 11) * 0.15f;  // positive: logs
  return v;
}

void expect_close(const std::vector<float>& got, const std::vector<double>& want, const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (std::size_t i = 0; i < got.size(); ++i) {
    EXPECT_NEAR(got[i], want[i], 1e-5 + 1e-4 * std::fabs(want[i])) << what << " element " << i;
  }
}

// Every op, both axes forms (attribute before the split version, input after), on every axes subset of a 3-D
// input, with and without keepdims (negative axes: opset 11+).
TEST(Reduce, EveryOpMatchesReferenceOnEveryAxesSubsetInBothAxesForms) {
  const std::vector<std::int64_t> dims = {2, 3, 4};
  const std::vector<float> x = test_values(24);
  const std::vector<double> xd(x.begin(), x.end());
  const std::vector<std::vector<std::int64_t>> subsets = {{0},    {1},       {2},  {0, 1}, {0, 2},
                                                          {1, 2}, {0, 1, 2}, {-1}, {-3, 2}};
  for (const OpCase& c : kOps) {
    for (const auto& axes : subsets) {
      for (std::int64_t keepdims : {0, 1}) {
        const std::vector<double> want = reference(c.kind, xd, dims, axes);
        std::vector<std::int64_t> want_shape;
        std::vector<bool> reduced(3, false);
        for (std::int64_t a : axes) reduced[static_cast<std::size_t>(a < 0 ? a + 3 : a)] = true;
        for (int i = 0; i < 3; ++i) {
          if (!reduced[i])
            want_shape.push_back(dims[i]);
          else if (keepdims)
            want_shape.push_back(1);
        }
        Shape expected_shape;
        ASSERT_TRUE(expected_shape.assign(want_shape.data(), want_shape.size()).ok());
        const std::string what = std::string(c.op) + " keepdims=" + std::to_string(keepdims) +
                                 " axes[0]=" + std::to_string(axes[0]) + " n=" + std::to_string(axes.size());
        {
          OneNode n;  // attribute form
          Status st = n.prepare(c.op, 11, {input("x", dims, x)}, {DataType::float32},
                                {make_attribute_ints("axes", axes), make_attribute_int("keepdims", keepdims)});
          ASSERT_TRUE(st.ok()) << what << ": " << st.message();
          ASSERT_TRUE(n.run().ok()) << what;
          EXPECT_EQ(n.output(0).shape, expected_shape) << what;
          expect_close(n.values<float>(0), want, what + " (attribute)");
        }
        {
          OneNode n;  // input form
          Status st = n.prepare(
              c.op, c.input_axes_since,
              {input("x", dims, x), constant<std::int64_t>("axes", {static_cast<std::int64_t>(axes.size())}, axes)},
              {DataType::float32}, {make_attribute_int("keepdims", keepdims)});
          ASSERT_TRUE(st.ok()) << what << ": " << st.message();
          ASSERT_TRUE(n.run().ok()) << what;
          EXPECT_EQ(n.output(0).shape, expected_shape) << what;
          expect_close(n.values<float>(0), want, what + " (input)");
        }
      }
    }
  }
}

TEST(Reduce, NoAxesReducesEverythingUnlessNoopWithEmptyAxes) {
  const std::vector<float> x = {1, 2, 3, 4, 5, 6};
  OneNode all;
  ASSERT_TRUE(all.prepare("ReduceSum", 13, {input("x", {2, 3}, x)}, {DataType::float32}).ok());
  ASSERT_TRUE(all.run().ok());
  EXPECT_EQ(all.output(0).shape, (Shape{1, 1}));
  EXPECT_EQ(all.values<float>(0), std::vector<float>{21});

  OneNode noop;  // an empty axes tensor with noop_with_empty_axes=1: the input unchanged
  ASSERT_TRUE(noop.prepare("ReduceL2", 18, {input("x", {2, 3}, x), constant<std::int64_t>("axes", {0}, {})},
                           {DataType::float32}, {make_attribute_int("noop_with_empty_axes", 1)})
                  .ok());
  ASSERT_TRUE(noop.run().ok());
  EXPECT_EQ(noop.output(0).shape, (Shape{2, 3}));
  EXPECT_EQ(noop.values<float>(0), x);
}

TEST(Reduce, EmptySetGivesTheIdentityOfEachOp) {
  const std::vector<std::int64_t> dims = {2, 0, 3};
  const std::vector<std::int64_t> axes = {1};
  struct Want {
    const char* op;
    float value;
  };
  const Want wants[] = {
      {"ReduceSum", 0.0f},      {"ReduceProd", 1.0f}, {"ReduceMax", -INFINITY},    {"ReduceMin", INFINITY},
      {"ReduceL1", 0.0f},       {"ReduceL2", 0.0f},   {"ReduceLogSum", -INFINITY}, {"ReduceLogSumExp", -INFINITY},
      {"ReduceSumSquare", 0.0f}};
  for (const Want& w : wants) {
    OneNode n;
    Status st = n.prepare(w.op, 18, {input<float>("x", dims, {}), constant<std::int64_t>("axes", {1}, axes)},
                          {DataType::float32}, {make_attribute_int("keepdims", 0)});
    ASSERT_TRUE(st.ok()) << w.op << ": " << st.message();
    ASSERT_TRUE(n.run().ok()) << w.op;
    EXPECT_EQ(n.output(0).shape, (Shape{2, 3})) << w.op;
    for (float v : n.values<float>(0)) EXPECT_EQ(v, w.value) << w.op;
  }
  OneNode max_int;  // integers: the dtype's lowest value
  ASSERT_TRUE(max_int
                  .prepare("ReduceMax", 18,
                           {input<std::int32_t>("x", dims, {}), constant<std::int64_t>("axes", {1}, axes)},
                           {DataType::int32})
                  .ok());
  ASSERT_TRUE(max_int.run().ok());
  for (std::int32_t v : max_int.values<std::int32_t>(0)) EXPECT_EQ(v, std::numeric_limits<std::int32_t>::lowest());
}

TEST(Reduce, BoolMaxIsAnyAndMinIsAllFromOpset20Only) {
  const std::vector<std::uint8_t> x = {0, 1, 0, 0, 1, 1};  // [[F,T,F],[F,T,T]]
  auto bools = [&](std::int64_t opset, const char* op, Status& st) {
    OneNode n;
    st = n.prepare(
        op, opset,
        {input<std::uint8_t>("x", {2, 3}, x, false, DataType::boolean), constant<std::int64_t>("axes", {1}, {1})},
        {DataType::boolean}, {make_attribute_int("keepdims", 0)});
    std::vector<std::uint8_t> out;
    if (st.ok() && n.run().ok()) {
      const ConstTensorView v = n.output(0);
      out.assign(static_cast<const std::uint8_t*>(v.data),
                 static_cast<const std::uint8_t*>(v.data) + v.element_count());
    }
    return out;
  };
  Status st;
  EXPECT_EQ(bools(20, "ReduceMax", st), (std::vector<std::uint8_t>{1, 1})) << st.message();
  EXPECT_EQ(bools(20, "ReduceMin", st), (std::vector<std::uint8_t>{0, 0})) << st.message();
  bools(18, "ReduceMax", st);
  EXPECT_EQ(st.code(), StatusCode::unsupported);
  EXPECT_TRUE(contains(st, "has dtype bool")) << st.message();
}

TEST(Reduce, DtypeListsFollowTheOpsetVersion) {
  Status st;
  {
    OneNode n;  // int8: ReduceMax from opset 12
    st = n.prepare("ReduceMax", 11, {input<std::int8_t>("x", {2}, {-3, 5})}, {DataType::int8});
    EXPECT_EQ(st.code(), StatusCode::unsupported) << st.message();
  }
  {
    OneNode n;
    ASSERT_TRUE(n.prepare("ReduceMax", 12, {input<std::int8_t>("x", {2}, {-3, 5})}, {DataType::int8}).ok());
    ASSERT_TRUE(n.run().ok());
    EXPECT_EQ(n.values<std::int8_t>(0), std::vector<std::int8_t>{5});
  }
  {
    OneNode n;  // opset 28 dropped the integer types of ReduceLogSum
    st = n.prepare("ReduceLogSum", 28, {input<std::int32_t>("x", {2}, {1, 2})}, {DataType::int32});
    EXPECT_EQ(st.code(), StatusCode::unsupported) << st.message();
  }
  {
    OneNode n;  // int8 never was a ReduceSum type
    st = n.prepare("ReduceSum", 13, {input<std::int8_t>("x", {2}, {1, 2})}, {DataType::int8});
    EXPECT_EQ(st.code(), StatusCode::unsupported) << st.message();
  }
}

TEST(Reduce, IntegerMeanTruncatesAndIntegerSumWraps) {
  OneNode mean;
  ASSERT_TRUE(mean.prepare("ReduceMean", 18, {input<std::int32_t>("x", {2, 2}, {1, 2, -1, -2})}, {DataType::int32},
                           {make_attribute_int("keepdims", 0)})
                  .ok());
  // No axes input: every axis. Per row would be 1.5 and -1.5; the whole mean is 0.
  ASSERT_TRUE(mean.run().ok());
  EXPECT_EQ(mean.values<std::int32_t>(0), std::vector<std::int32_t>{0});
  OneNode rows;
  ASSERT_TRUE(rows.prepare("ReduceMean", 13, {input<std::int32_t>("x", {2, 2}, {1, 2, -1, -2})}, {DataType::int32},
                           {make_attribute_ints("axes", {1}), make_attribute_int("keepdims", 0)})
                  .ok());
  ASSERT_TRUE(rows.run().ok());
  EXPECT_EQ(rows.values<std::int32_t>(0), (std::vector<std::int32_t>{1, -1}));  // toward zero, like astype

  OneNode sum;
  ASSERT_TRUE(
      sum.prepare("ReduceSum", 13, {input<std::uint32_t>("x", {2}, {0xFFFFFFFFu, 2u})}, {DataType::uint32}).ok());
  ASSERT_TRUE(sum.run().ok());
  EXPECT_EQ(sum.values<std::uint32_t>(0), std::vector<std::uint32_t>{1u});
}

TEST(Reduce, LogSumExpIsStableForLargeInputs) {
  OneNode n;
  ASSERT_TRUE(n.prepare("ReduceLogSumExp", 18, {input<float>("x", {2}, {1000.0f, 1000.0f})}, {DataType::float32}).ok());
  ASSERT_TRUE(n.run().ok());
  EXPECT_NEAR(n.values<float>(0)[0], 1000.0f + std::log(2.0f), 1e-3);
}

TEST(Reduce, Float16SumIsComputedInFloatAndRoundedOnce) {
  // 2048 + 1 + 1 in float16 steps would stay 2048 (the spacing there is 2); in float32 it is 2050.
  const std::vector<std::uint16_t> x = {om::float16_t::from_float(2048.0f).bits, om::float16_t::from_float(1.0f).bits,
                                        om::float16_t::from_float(1.0f).bits};
  OneNode n;
  ASSERT_TRUE(
      n.prepare("ReduceSum", 13, {input<std::uint16_t>("x", {3}, x, false, DataType::float16)}, {DataType::float16})
          .ok());
  ASSERT_TRUE(n.run().ok());
  std::uint16_t bits = 0;
  std::memcpy(&bits, n.output(0).data, 2);
  EXPECT_EQ(om::float16_t::from_bits(bits).to_float(), 2050.0f);
}

TEST(Reduce, AxesErrorsNameTheAxesAndTheRange) {
  Status st;
  {
    OneNode n;  // negative axes only from opset 11
    st = n.prepare("ReduceSum", 1, {input<float>("x", {2, 2}, {1, 2, 3, 4})}, {DataType::float32},
                   {make_attribute_ints("axes", {-1})});
    EXPECT_EQ(st.code(), StatusCode::invalid_model);
    EXPECT_TRUE(contains(st, "attribute 'axes' is -1, but negative axes are only allowed from opset 11"))
        << st.message();
  }
  {
    OneNode n;
    st =
        n.prepare("ReduceMean", 18, {input<float>("x", {2, 2}, {1, 2, 3, 4}), constant<std::int64_t>("axes", {1}, {2})},
                  {DataType::float32});
    EXPECT_TRUE(contains(st, "input 1 'axes' is 2, expected a value in [-2, 1]")) << st.message();
  }
  {
    OneNode n;
    st = n.prepare("ReduceMean", 18,
                   {input<float>("x", {2, 2}, {1, 2, 3, 4}), constant<std::int64_t>("axes", {2}, {1, -1})},
                   {DataType::float32});
    EXPECT_TRUE(contains(st, "lists axis 1 twice: [1,-1]")) << st.message();
  }
  {
    OneNode n;  // axes as a graph input without a value at prepare time
    st = n.prepare("ReduceSum", 13, {input<float>("x", {2, 2}, {1, 2, 3, 4}), input<std::int64_t>("axes", {1}, {1})},
                   {DataType::float32});
    EXPECT_FALSE(st.ok());
    EXPECT_TRUE(contains(st, "must be known at prepare time")) << st.message();
  }
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
