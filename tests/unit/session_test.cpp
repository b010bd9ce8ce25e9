// SPDX-License-Identifier: MIT
// Session: kernel resolution against the model's opset import, input checks with precise messages, the
// caller's arena, in-place reuse, constant folding, and values bound at prepare time.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "onnxmicro/onnxmicro.hpp"
#include "support/proto_writer.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

using namespace onnxmicro_test;
using onnxmicro::ConstTensorView;
using onnxmicro::Model;
using onnxmicro::Session;
using onnxmicro::SessionOptions;
using onnxmicro::Shape;
using onnxmicro::Status;
using onnxmicro::StatusCode;
namespace k = onnxmicro::kernels;

// Two versions of a test op whose outputs differ, to see which one the model's opset import selects.
template <int Since, int Until, int Marker>
struct MarkOp : k::KernelDefaults {
  static constexpr std::string_view kDomain = "";
  static constexpr std::string_view kOpType = "Mark";
  static constexpr int kSinceVersion = Since;
  static constexpr int kUntilVersion = Until;
  static Status prepare(k::PrepareContext& ctx) noexcept {
    ctx.set_output(0, onnxmicro::DataType::float32, ctx.input(0).shape);
    return {};
  }
  static Status run(k::RunContext& ctx) noexcept {
    float* y = ctx.output(0).data_as<float>();
    for (std::int64_t i = 0; i < ctx.output(0).element_count(); ++i) y[i] = Marker;
    return {};
  }
};
using Mark_1 = MarkOp<1, 7, 1>;
using Mark_7 = MarkOp<7, k::kOpenEnded, 7>;
using MarkSet = onnxmicro::KernelSet<Mark_1, Mark_7, k::Relu_1>;

struct Fixture {
  std::vector<unsigned char> bytes;
  Model model;
  Session session;
  Status load(const ProtoWriter& proto) {
    bytes = proto.bytes();
    return model.load(onnxmicro::ByteSpan(bytes.data(), bytes.size()));
  }
};

ProtoWriter unary_model(std::string_view op, std::int64_t opset, std::vector<std::int64_t> dims = {2, 2}) {
  return make_model(
      make_graph("g", {make_node(op, {"x"}, {"y"}, {}, "n0")}, {make_value_info("x", DataType::float32, dims)},
                 {make_value_info("y", DataType::float32, dims)}),
      opset);
}

float run_mark(std::int64_t opset) {
  Fixture f;
  EXPECT_TRUE(f.load(unary_model("Mark", opset)).ok());
  Status st = f.session.prepare(f.model, MarkSet::registry());
  EXPECT_TRUE(st.ok()) << st.message();
  float x[4] = {0, 0, 0, 0};
  EXPECT_TRUE(f.session.set_input(0, ConstTensorView(DataType::float32, Shape{2, 2}, x)).ok());
  EXPECT_TRUE(f.session.run().ok());
  return f.session.output(0).data_as<float>()[0];
}

TEST(Session, NodeResolvesToTheKernelOfTheImportedOpsetVersion) {
  EXPECT_EQ(run_mark(1), 1.0f);
  EXPECT_EQ(run_mark(6), 1.0f);
  EXPECT_EQ(run_mark(7), 7.0f);
  EXPECT_EQ(run_mark(21), 7.0f);
}

TEST(Session, MissingKernelNamesNodeOpsetAndAvailableVersions) {
  Fixture f;
  ASSERT_TRUE(f.load(unary_model("Mark", 5)).ok());
  using OnlyNew = onnxmicro::KernelSet<Mark_7>;
  Status st = f.session.prepare(f.model, OnlyNew::registry());
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.code(), StatusCode::unsupported);
  std::string msg = st.message();
  EXPECT_NE(msg.find("node 'n0' (Mark, domain ai.onnx, opset 5)"), std::string::npos) << msg;
  EXPECT_NE(msg.find("versions this build has: [7,newest]"), std::string::npos) << msg;

  Fixture g;
  ASSERT_TRUE(g.load(unary_model("Hardmax", 13)).ok());
  st = g.session.prepare(g.model, MarkSet::registry());
  ASSERT_FALSE(st.ok());
  EXPECT_NE(std::string(st.message()).find("versions this build has: none"), std::string::npos) << st.message();
}

TEST(Session, OpsetRangePresetDropsKernelsOutsideTheRange) {
  using Range = onnxmicro::KernelSetForOpsets<7, 20, MarkSet>;
  EXPECT_EQ(Range::size, 2u);  // Mark_1 covers only 1..6
  Fixture f;
  ASSERT_TRUE(f.load(unary_model("Mark", 6)).ok());
  Status st = f.session.prepare(f.model, Range::registry());
  EXPECT_EQ(st.code(), StatusCode::unsupported);
}

TEST(Session, RunsReluAndChecksInputsPrecisely) {
  Fixture f;
  ASSERT_TRUE(f.load(unary_model("Relu", 14)).ok());
  Status st = f.session.prepare(f.model, onnxmicro::all_kernels_registry());
  ASSERT_TRUE(st.ok()) << st.message();
  ASSERT_EQ(f.session.input_count(), 1u);
  EXPECT_EQ(f.session.input_name(0), "x");
  EXPECT_EQ(f.session.output_name(0), "y");

  float x[4] = {-1, 2, -3, 4};
  ASSERT_TRUE(f.session.set_input("x", ConstTensorView(DataType::float32, Shape{2, 2}, x)).ok());
  ASSERT_TRUE(f.session.run().ok());
  ConstTensorView y = f.session.output(0);
  ASSERT_EQ(y.shape, (Shape{2, 2}));
  const float expected[4] = {0, 2, 0, 4};
  for (int i = 0; i < 4; ++i) EXPECT_EQ(y.data_as<float>()[i], expected[i]);

  std::int64_t wrong_type[4] = {};
  st = f.session.set_input(0, ConstTensorView(DataType::int64, Shape{2, 2}, wrong_type));
  ASSERT_FALSE(st.ok());
  EXPECT_NE(std::string(st.message()).find("input 'x': expected dtype float, got int64"), std::string::npos)
      << st.message();
  st = f.session.set_input(0, ConstTensorView(DataType::float32, Shape{4}, x));
  ASSERT_FALSE(st.ok());
  EXPECT_NE(std::string(st.message()).find("input 'x': expected shape [2,2], got [4]"), std::string::npos)
      << st.message();
  st = f.session.set_input("nope", ConstTensorView(DataType::float32, Shape{2, 2}, x));
  ASSERT_FALSE(st.ok());
  EXPECT_NE(std::string(st.message()).find("no input 'nope'; its inputs are: 'x'"), std::string::npos) << st.message();
}

TEST(Session, SymbolicInputDimMustBeBoundAndBindingIsChecked) {
  Fixture f;
  ProtoWriter graph =
      make_graph("g", {make_node("Relu", {"x"}, {"y"})}, {make_value_info("x", DataType::float32, {-1, 3})},
                 {make_value_info("y", DataType::float32, {-1, 3})});
  ASSERT_TRUE(f.load(make_model(graph, 14)).ok());
  Status st = f.session.prepare(f.model, onnxmicro::all_kernels_registry());
  ASSERT_FALSE(st.ok());
  EXPECT_NE(std::string(st.message()).find("input 'x' dim 0"), std::string::npos) << st.message();

  onnxmicro::InputShape wrong[] = {{"x", Shape{5, 4}}};
  SessionOptions options;
  options.input_shapes = wrong;
  st = f.session.prepare(f.model, onnxmicro::all_kernels_registry(), options);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(std::string(st.message()).find("has dim 1 = 4, the model fixes it to 3"), std::string::npos)
      << st.message();

  onnxmicro::InputShape right[] = {{"x", Shape{5, 3}}};
  options.input_shapes = right;
  st = f.session.prepare(f.model, onnxmicro::all_kernels_registry(), options);
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_EQ(f.session.output(0).shape, (Shape{5, 3}));
}

TEST(Session, CallerArenaTooSmallNamesTheBytesNeeded) {
  Fixture f;
  ASSERT_TRUE(f.load(unary_model("Relu", 14, {16, 16})).ok());
  ASSERT_TRUE(f.session.prepare(f.model, onnxmicro::all_kernels_registry()).ok());
  std::size_t needed = f.session.required_arena_bytes();
  ASSERT_GE(needed, 16u * 16u * 4u);

  alignas(16) static unsigned char arena[64 * 1024];
  SessionOptions options;
  options.arena = arena;
  options.arena_bytes = needed - 16;
  Status st = f.session.prepare(f.model, onnxmicro::all_kernels_registry(), options);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.code(), StatusCode::out_of_memory);
  EXPECT_NE(std::string(st.message()).find("needs " + std::to_string(needed) + " bytes"), std::string::npos)
      << st.message();
  EXPECT_EQ(f.session.required_arena_bytes(), needed);

  options.arena_bytes = needed;
  st = f.session.prepare(f.model, onnxmicro::all_kernels_registry(), options);
  ASSERT_TRUE(st.ok()) << st.message();
  onnxmicro::TensorView slot = f.session.input(0);
  EXPECT_GE(static_cast<unsigned char*>(slot.data), arena);
  EXPECT_LT(static_cast<unsigned char*>(slot.data), arena + needed);

  options.arena = arena + 1;
  st = f.session.prepare(f.model, onnxmicro::all_kernels_registry(), options);
  EXPECT_EQ(st.code(), StatusCode::invalid_argument);
}

TEST(Session, ElementwiseChainReusesBuffersInPlace) {
  Fixture f;
  ProtoWriter graph =
      make_graph("g",
                 {make_node("Relu", {"x"}, {"a"}), make_node("Relu", {"a"}, {"b"}), make_node("Relu", {"b"}, {"c"}),
                  make_node("Relu", {"c"}, {"y"})},
                 {make_value_info("x", DataType::float32, {64})}, {make_value_info("y", DataType::float32, {64})});
  ASSERT_TRUE(f.load(make_model(graph, 14)).ok());
  ASSERT_TRUE(f.session.prepare(f.model, onnxmicro::all_kernels_registry()).ok());
  const onnxmicro::MemoryPlan& plan = f.session.plan();
  EXPECT_TRUE(plan.is_valid());
  // x keeps its own buffer (inputs are never overwritten); a, b, c and y share one buffer.
  EXPECT_EQ(plan.buffers.size(), 2u);
  EXPECT_EQ(plan.arena_bytes, 2u * 64u * 4u);
  float x[64];
  for (int i = 0; i < 64; ++i) x[i] = static_cast<float>(i - 32);
  ASSERT_TRUE(f.session.set_input(0, ConstTensorView(DataType::float32, Shape{64}, x)).ok());
  ASSERT_TRUE(f.session.run().ok());
  for (int i = 0; i < 64; ++i) EXPECT_EQ(f.session.output(0).data_as<float>()[i], i < 32 ? 0.0f : x[i]);
  EXPECT_EQ(x[0], -32.0f);  // the caller's input is untouched
}

TEST(Session, AllConstantNodesAreFoldedAtPrepare) {
  Fixture f;
  ProtoWriter c = make_float_tensor("cv", {2}, {-1.0f, 3.0f});
  ProtoWriter graph =
      make_graph("g",
                 {make_node("Constant", {}, {"c"}, {make_attribute_tensor("value", c)}, "const"),
                  make_node("Relu", {"c"}, {"rc"}, {}, "relu_const"), make_node("Add", {"x", "rc"}, {"y"}, {}, "add")},
                 {make_value_info("x", DataType::float32, {2})}, {make_value_info("y", DataType::float32, {2})});
  ASSERT_TRUE(f.load(make_model(graph, 14)).ok());
  Status st = f.session.prepare(f.model, onnxmicro::all_kernels_registry());
  ASSERT_TRUE(st.ok()) << st.message();
  auto reports = f.session.node_reports();
  ASSERT_EQ(reports.size(), 3u);
  EXPECT_TRUE(reports[0].folded);
  EXPECT_TRUE(reports[1].folded);
  EXPECT_FALSE(reports[2].folded);
  float x[2] = {10, 20};
  ASSERT_TRUE(f.session.set_input(0, ConstTensorView(DataType::float32, Shape{2}, x)).ok());
  ASSERT_TRUE(f.session.run().ok());
  EXPECT_EQ(f.session.output(0).data_as<float>()[0], 10.0f);
  EXPECT_EQ(f.session.output(0).data_as<float>()[1], 23.0f);
}

TEST(Session, ShapeDecidingInputIsBoundFromOfferedValues) {
  Fixture f;
  ProtoWriter graph =
      make_graph("g", {make_node("Reshape", {"x", "shape"}, {"y"}, {}, "reshape")},
                 {make_value_info("x", DataType::float32, {2, 3}), make_value_info("shape", DataType::int64, {2})},
                 {make_value_info("y", DataType::float32, {3, 2})});
  ASSERT_TRUE(f.load(make_model(graph, 14)).ok());
  Status st = f.session.prepare(f.model, onnxmicro::all_kernels_registry());
  ASSERT_FALSE(st.ok());
  EXPECT_NE(std::string(st.message()).find("SessionOptions::input_values"), std::string::npos) << st.message();

  std::int64_t shape[2] = {3, 2};
  onnxmicro::InputValue values[] = {{"shape", ConstTensorView(DataType::int64, Shape{2}, shape)}};
  SessionOptions options;
  options.input_values = values;
  st = f.session.prepare(f.model, onnxmicro::all_kernels_registry(), options);
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_TRUE(f.session.input_bound_at_prepare(1));
  EXPECT_FALSE(f.session.input_bound_at_prepare(0));
  float x[6] = {1, 2, 3, 4, 5, 6};
  ASSERT_TRUE(f.session.set_input(0, ConstTensorView(DataType::float32, Shape{2, 3}, x)).ok());
  ASSERT_TRUE(f.session.set_input(1, ConstTensorView(DataType::int64, Shape{2}, shape)).ok());
  ASSERT_TRUE(f.session.run().ok());
  EXPECT_EQ(f.session.output(0).shape, (Shape{3, 2}));
  EXPECT_EQ(std::memcmp(f.session.output(0).data, x, sizeof(x)), 0);

  std::int64_t other[2] = {6, 1};
  st = f.session.set_input(1, ConstTensorView(DataType::int64, Shape{2}, other));
  ASSERT_FALSE(st.ok());
  EXPECT_NE(std::string(st.message()).find("was bound at prepare time"), std::string::npos) << st.message();
}

TEST(Session, KernelErrorsArePrefixedWithTheNode) {
  Fixture f;
  ProtoWriter graph =
      make_graph("g", {make_node("Add", {"x", "z"}, {"y"}, {}, "adder")},
                 {make_value_info("x", DataType::float32, {2, 3}), make_value_info("z", DataType::float32, {4})},
                 {make_value_info("y", DataType::float32, {2, 3})});
  ASSERT_TRUE(f.load(make_model(graph, 14)).ok());
  Status st = f.session.prepare(f.model, onnxmicro::all_kernels_registry());
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(std::string(st.message()).rfind("node 'adder' (Add, domain ai.onnx, opset 14): ", 0), 0u) << st.message();
}

TEST(Session, DeclaredOutputDtypeThatContradictsTheOpIsAnError) {
  Fixture f;
  ProtoWriter graph =
      make_graph("g", {make_node("Relu", {"x"}, {"y"}, {}, "r")}, {make_value_info("x", DataType::float32, {2})},
                 {make_value_info("y", DataType::int64, {2})});
  ASSERT_TRUE(f.load(make_model(graph, 14)).ok());
  Status st = f.session.prepare(f.model, onnxmicro::all_kernels_registry());
  ASSERT_FALSE(st.ok());
  EXPECT_NE(std::string(st.message()).find("output 0 'y' is declared int64 but the op produces float"),
            std::string::npos)
      << st.message();
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
