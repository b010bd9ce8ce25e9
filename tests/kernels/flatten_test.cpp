// SPDX-License-Identifier: MIT
// Flatten beyond the ONNX node suite (float32, opset 25): the axis range of opsets 1-10 against 11+, rank 0,
// integer and packed 4-bit dtypes, strings refused, and running in place (output aliasing the input).
#include <gtest/gtest.h>

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

std::vector<float> iota(std::size_t count) {
  std::vector<float> v(count);
  for (std::size_t i = 0; i < count; ++i) v[i] = static_cast<float>(i);
  return v;
}

TEST(Flatten, AxisSplitsTheDimsIntoTwo) {
  const std::vector<float> x = iota(120);
  struct Case {
    int opset;
    std::int64_t axis;
    std::vector<std::int64_t> dims;
  };
  for (const Case& c : {Case{1, 0, {1, 120}}, Case{9, 2, {6, 20}}, Case{11, 4, {120, 1}}, Case{11, -1, {24, 5}},
                        Case{13, -4, {1, 120}}, Case{23, -3, {2, 60}}}) {
    Outcome r = run_node("Flatten", c.opset, {value("x", {2, 3, 4, 5}, x)}, {{"y", DataType::float32}},
                         {make_attribute_int("axis", c.axis)});
    ASSERT_TRUE(r.status.ok()) << "opset " << c.opset << " axis " << c.axis << ": " << r.status.message();
    EXPECT_EQ(r.outputs[0].dims, c.dims) << "opset " << c.opset << " axis " << c.axis;
    EXPECT_EQ(r.outputs[0].as<float>(), x);
  }
  Outcome default_axis = run_node("Flatten", 13, {value("x", {2, 3, 4}, iota(24))}, {{"y", DataType::float32}});
  ASSERT_TRUE(default_axis.status.ok()) << default_axis.status.message();
  EXPECT_EQ(default_axis.outputs[0].dims, (std::vector<std::int64_t>{2, 12}));
}

TEST(Flatten, ScalarAndIntegerInputs) {
  Outcome scalar = run_node("Flatten", 13, {value("x", {}, std::vector<float>{7})}, {{"y", DataType::float32}},
                            {make_attribute_int("axis", 0)});
  ASSERT_TRUE(scalar.status.ok()) << scalar.status.message();
  EXPECT_EQ(scalar.outputs[0].dims, (std::vector<std::int64_t>{1, 1}));
  EXPECT_EQ(scalar.outputs[0].as<float>(), (std::vector<float>{7}));
  const std::vector<std::int64_t> x = {1, -2, 3, -4, 5, -6};
  Outcome ints = run_node("Flatten", 9, {value("x", {3, 1, 2}, x)}, {{"y", DataType::int64}});
  ASSERT_TRUE(ints.status.ok()) << ints.status.message();
  EXPECT_EQ(ints.outputs[0].dims, (std::vector<std::int64_t>{3, 2}));
  EXPECT_EQ(ints.outputs[0].as<std::int64_t>(), x);
}

TEST(Flatten, NegativeAxisNeedsOpset11AndAxisMustBeInRange) {
  const Value x = value("x", {2, 3, 4}, iota(24));
  Status st = run_node("Flatten", 9, {x}, {{"y", DataType::float32}}, {make_attribute_int("axis", -1)}).status;
  EXPECT_EQ(st.code(), StatusCode::invalid_model);
  EXPECT_NE(std::string(st.message())
                .find("'axis' is -1, expected in [0, 3] for input 0 'x' of shape [2,3,4] "
                      "(negative axes need opset 11)"),
            std::string::npos)
      << st.message();
  st = run_node("Flatten", 13, {x}, {{"y", DataType::float32}}, {make_attribute_int("axis", -4)}).status;
  EXPECT_NE(std::string(st.message()).find("'axis' is -4, expected in [-3, 3]"), std::string::npos) << st.message();
  st = run_node("Flatten", 13, {x}, {{"y", DataType::float32}}, {make_attribute_int("axis", 4)}).status;
  EXPECT_NE(std::string(st.message()).find("'axis' is 4, expected in [-3, 3]"), std::string::npos) << st.message();
}

// ---- the kernel driven directly: in place, packed and string dtypes ---------------------------------------

struct DirectFlatten {
  explicit DirectFlatten(DataType dtype, om::Shape shape, std::int64_t axis, int opset = 13) {
    kernel = om::find_kernel(om::all_kernels_registry(), "", "Flatten", opset);
    encoded = onnxmicro_test::make_node("Flatten", {"x"}, {"y"}, {make_attribute_int("axis", axis)});
    node.op_type = "Flatten";
    node.opset_version = opset;
    EXPECT_TRUE(om::proto::Node::parse(encoded.span(), 0, node.proto).ok());
    input.present = true;
    input.name = "x";
    input.dtype = dtype;
    input.shape = shape;
    output.present = true;
    om::kernels::PrepareContext ctx(node, om::Span<om::kernels::TensorInfo>(&input, 1),
                                    om::Span<om::kernels::TensorInfo>(&output, 1), allocator);
    status = kernel ? kernel->prepare(ctx) : Status(StatusCode::unsupported, "no kernel");
  }
  Status run(const void* in, void* out) const {
    const om::ConstTensorView in_view(input.dtype, input.shape, in);
    om::TensorView out_view;
    out_view.dtype = output.dtype;
    out_view.shape = output.shape;
    out_view.data = out;
    om::kernels::RunContext ctx(om::Span<const om::ConstTensorView>(&in_view, 1),
                                om::Span<const om::TensorView>(&out_view, 1), nullptr, nullptr, 0);
    return kernel->run(ctx);
  }

  const om::KernelEntry* kernel = nullptr;
  ProtoWriter encoded;
  om::model::Node node;
  om::kernels::TensorInfo input, output;
  om::ChunkAllocator allocator;
  Status status;
};

TEST(Flatten, RunsInPlaceOnItsInputBuffer) {
  DirectFlatten f(DataType::float32, om::Shape{2, 3, 4}, 2);
  ASSERT_TRUE(f.status.ok()) << f.status.message();
  ASSERT_NE(f.kernel, nullptr);
  EXPECT_EQ(f.kernel->in_place_input, 0);
  EXPECT_EQ(f.output.shape, (om::Shape{6, 4}));
  std::vector<float> buffer = iota(24);
  ASSERT_TRUE(f.run(buffer.data(), buffer.data()).ok());
  EXPECT_EQ(buffer, iota(24));
  std::vector<float> separate(24, -1.0f);
  ASSERT_TRUE(f.run(buffer.data(), separate.data()).ok());
  EXPECT_EQ(separate, iota(24));
}

TEST(Flatten, PackedFourBitElementsCopyTheirBytes) {
  DirectFlatten f(DataType::int4, om::Shape{3, 3}, 0, 21);
  ASSERT_TRUE(f.status.ok()) << f.status.message();
  EXPECT_EQ(f.output.dtype, DataType::int4);
  EXPECT_EQ(f.output.shape, (om::Shape{1, 9}));
  const std::vector<unsigned char> packed = {0x12, 0x34, 0x56, 0x78, 0x09};  // 9 nibbles in 5 bytes
  std::vector<unsigned char> out(6, 0xEE);
  ASSERT_TRUE(f.run(packed.data(), out.data()).ok());
  EXPECT_EQ(out, (std::vector<unsigned char>{0x12, 0x34, 0x56, 0x78, 0x09, 0xEE}));
}

TEST(Flatten, StringTensorsMoveTheirElementViews) {
  DirectFlatten f(DataType::string, om::Shape{2, 2}, 1);
  ASSERT_TRUE(f.status.ok()) << f.status.message();
  const om::StringRef in[4] = {om::StringRef::of("a"), om::StringRef::of("bc"), om::StringRef::of(""),
                               om::StringRef::of("d")};
  om::StringRef out[4] = {};
  ASSERT_TRUE(f.run(in, out).ok());
  for (int i = 0; i < 4; ++i) EXPECT_EQ(out[i].view(), in[i].view());
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
