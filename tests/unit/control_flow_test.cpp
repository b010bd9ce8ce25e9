// SPDX-License-Identifier: MIT
// If, Loop and Scan through the session: subgraphs reading enclosing-scope values (the loader's implicit
// inputs), run-time iteration with nothing known at prepare, and the clear errors for what needs run-time shapes.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "onnxmicro/onnxmicro.hpp"
#include "support/loaded_model.hpp"
#include "support/proto_writer.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

namespace om = onnxmicro;
using om::ConstTensorView;
using om::DataType;
using om::Shape;
using om::Status;
using om::StatusCode;
using namespace onnxmicro_test;

using Loaded = LoadedModel;

// Loop body: (i, cond, acc) -> (cond, acc + w * i), where w is a value of the enclosing graph.
ProtoWriter accumulate_body() {
  return make_graph(
      "body",
      {make_node("Cast", {"i"}, {"i_float"}, {make_attribute_int("to", 1)}),
       make_node("Mul", {"i_float", "w"}, {"step"}), make_node("Add", {"acc", "step"}, {"acc_out"}),
       make_node("Identity", {"cond"}, {"cond_out"})},
      {make_value_info("i", DataType::int64, {}), make_value_info("cond", DataType::boolean, {}),
       make_value_info("acc", DataType::float32, {2})},
      {make_value_info("cond_out", DataType::boolean, {}), make_value_info("acc_out", DataType::float32, {2})});
}

TEST(ControlFlow, LoopRunsAtRunTimeWithAnOuterScopeValue) {
  Loaded m;
  ProtoWriter graph = make_graph(
      "g", {make_node("Loop", {"M", "", "acc0"}, {"acc"}, {make_attribute_graph("body", accumulate_body())}, "loop")},
      {make_value_info("M", DataType::int64, {}), make_value_info("acc0", DataType::float32, {2}),
       make_value_info("w", DataType::float32, {2})},
      {make_value_info("acc", DataType::float32, {2})});
  ASSERT_TRUE(m.load(make_model(graph, 13)).ok());
  // The loader lists 'w' as the Loop node's implicit input.
  const om::model::Node& loop = m.model.graph().nodes[0];
  ASSERT_EQ(loop.explicit_input_count, 3);
  ASSERT_EQ(loop.inputs.size(), 4u);
  EXPECT_EQ(m.model.graph().values[loop.inputs[3]].name, "w");
  Status st = m.prepare();
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_FALSE(m.session.node_reports()[0].folded);
  const float acc0[2] = {1, 2}, w[2] = {1, 10};
  for (std::int64_t trips : {0, 1, 4}) {
    ASSERT_TRUE(m.session.set_input(0, ConstTensorView(DataType::int64, Shape{}, &trips)).ok());
    ASSERT_TRUE(m.session.set_input(1, ConstTensorView(DataType::float32, Shape{2}, acc0)).ok());
    ASSERT_TRUE(m.session.set_input(2, ConstTensorView(DataType::float32, Shape{2}, w)).ok());
    st = m.session.run();
    ASSERT_TRUE(st.ok()) << st.message();
    const float sum = static_cast<float>(trips * (trips - 1) / 2);  // 0 + 1 + ... + trips-1
    EXPECT_EQ(m.floats(0), (std::vector<float>{1 + sum, 2 + 10 * sum})) << trips << " trips";
  }
}

TEST(ControlFlow, LoopWithScanOutputsNeedsKnownInputs) {
  Loaded m;
  ProtoWriter body =
      make_graph("body",
                 {make_node("Identity", {"cond"}, {"cond_out"}), make_node("Identity", {"x"}, {"x_out"}),
                  make_node("Identity", {"x"}, {"scan"})},
                 {make_value_info("i", DataType::int64, {}), make_value_info("cond", DataType::boolean, {}),
                  make_value_info("x", DataType::float32, {1})},
                 {make_value_info("cond_out", DataType::boolean, {}), make_value_info("x_out", DataType::float32, {1}),
                  make_value_info("scan", DataType::float32, {1})});
  ProtoWriter graph =
      make_graph("g", {make_node("Loop", {"M", "", "x0"}, {"x", "xs"}, {make_attribute_graph("body", body)}, "loop")},
                 {make_value_info("M", DataType::int64, {}), make_value_info("x0", DataType::float32, {1})},
                 {make_value_info("x", DataType::float32, {1}), make_value_info("xs", DataType::float32, {-1, 1})});
  ASSERT_TRUE(m.load(make_model(graph, 13)).ok());
  Status st = m.prepare();
  EXPECT_EQ(st.code(), StatusCode::unsupported);
  EXPECT_NE(st.message_view().find("node 'loop' (Loop"), std::string::npos) << st.message();
  EXPECT_NE(st.message_view().find("scan outputs needs every input known at prepare time"), std::string::npos)
      << st.message();

  // With the inputs offered at prepare, the loop runs there and its outputs are constants.
  Loaded bound;
  ASSERT_TRUE(bound.load(make_model(graph, 13)).ok());
  const std::int64_t trips = 3;
  const float x0 = 7;
  om::InputValue values[2] = {{"M", ConstTensorView(DataType::int64, Shape{}, &trips)},
                              {"x0", ConstTensorView(DataType::float32, Shape{1}, &x0)}};
  om::SessionOptions options;
  options.input_values = om::Span<const om::InputValue>(values, 2);
  st = bound.session.prepare(bound.model, om::all_kernels_registry(), options);
  ASSERT_TRUE(st.ok()) << st.message();
  ASSERT_TRUE(bound.session.run().ok());
  EXPECT_EQ(bound.session.output(1).shape, (Shape{3, 1}));
  EXPECT_EQ(bound.floats(1), (std::vector<float>{7, 7, 7}));
}

TEST(ControlFlow, ScanReversesAndUsesAxes) {
  // Running sum over axis 1 of a [2, 3] input, read in reverse, scan output written along axis 1.
  ProtoWriter body =
      make_graph("body", {make_node("Add", {"sum", "x"}, {"sum_out"}), make_node("Identity", {"sum_out"}, {"y"})},
                 {make_value_info("sum", DataType::float32, {2}), make_value_info("x", DataType::float32, {2})},
                 {make_value_info("sum_out", DataType::float32, {2}), make_value_info("y", DataType::float32, {2})});
  ProtoWriter graph = make_graph(
      "g",
      {make_node("Scan", {"s0", "xs"}, {"s", "ys"},
                 {make_attribute_graph("body", body), make_attribute_int("num_scan_inputs", 1),
                  make_attribute_ints("scan_input_axes", {1}), make_attribute_ints("scan_input_directions", {1}),
                  make_attribute_ints("scan_output_axes", {-1})})},
      {make_value_info("s0", DataType::float32, {2}), make_value_info("xs", DataType::float32, {2, 3})},
      {make_value_info("s", DataType::float32, {2}), make_value_info("ys", DataType::float32, {2, 3})});
  Loaded m;
  ASSERT_TRUE(m.load(make_model(graph, 11)).ok());
  Status st = m.prepare();
  ASSERT_TRUE(st.ok()) << st.message();
  const float s0[2] = {0, 100}, xs[6] = {1, 2, 3, 4, 5, 6};
  ASSERT_TRUE(m.session.set_input(0, ConstTensorView(DataType::float32, Shape{2}, s0)).ok());
  ASSERT_TRUE(m.session.set_input(1, ConstTensorView(DataType::float32, Shape{2, 3}, xs)).ok());
  st = m.session.run();
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_EQ(m.floats(0), (std::vector<float>{6, 115}));
  // Reverse input: step 0 reads column 2; forward output: column t holds step t's sum.
  EXPECT_EQ(m.floats(1), (std::vector<float>{3, 5, 6, 106, 111, 115}));
}

ProtoWriter branch(const char* name, const char* op, std::vector<std::int64_t> dims) {
  return make_graph(name, {make_node(op, {"x", "x"}, {"y"})}, {}, {make_value_info("y", DataType::float32, dims)});
}

TEST(ControlFlow, IfChoosesAtRunTimeAndReadsOuterValues) {
  ProtoWriter graph =
      make_graph("g",
                 {make_node("If", {"c"}, {"y"},
                            {make_attribute_graph("then_branch", branch("then", "Add", {2})),
                             make_attribute_graph("else_branch", branch("else", "Mul", {2}))},
                            "choose")},
                 {make_value_info("c", DataType::boolean, {}), make_value_info("x", DataType::float32, {2})},
                 {make_value_info("y", DataType::float32, {2})});
  Loaded m;
  ASSERT_TRUE(m.load(make_model(graph, 13)).ok());
  Status st = m.prepare();
  ASSERT_TRUE(st.ok()) << st.message();
  const float x[2] = {3, 4};
  for (bool c : {true, false}) {
    ASSERT_TRUE(m.session.set_input(0, ConstTensorView(DataType::boolean, Shape{}, &c)).ok());
    ASSERT_TRUE(m.session.set_input(1, ConstTensorView(DataType::float32, Shape{2}, x)).ok());
    ASSERT_TRUE(m.session.run().ok());
    EXPECT_EQ(m.floats(0), c ? (std::vector<float>{6, 8}) : (std::vector<float>{9, 16}));
  }
}

TEST(ControlFlow, IfWithBranchesOfDifferentShapesNeedsAKnownCondition) {
  ProtoWriter then_branch =
      make_graph("then", {make_node("Concat", {"x", "x"}, {"y"}, {make_attribute_int("axis", 0)})}, {},
                 {make_value_info("y", DataType::float32, {4})});
  ProtoWriter graph =
      make_graph("g",
                 {make_node("If", {"c"}, {"y"},
                            {make_attribute_graph("then_branch", then_branch),
                             make_attribute_graph("else_branch", branch("else", "Mul", {2}))},
                            "choose")},
                 {make_value_info("c", DataType::boolean, {}), make_value_info("x", DataType::float32, {2})},
                 {make_value_info("y", DataType::float32, {-1})});
  Loaded m;
  ASSERT_TRUE(m.load(make_model(graph, 13)).ok());
  Status st = m.prepare();
  EXPECT_EQ(st.code(), StatusCode::unsupported);
  EXPECT_NE(st.message_view().find("then_branch gives float [4], else_branch float [2]"), std::string::npos)
      << st.message();
}

TEST(ControlFlow, UndefinedNamesInSubgraphsAreLoadErrors) {
  ProtoWriter graph =
      make_graph("g",
                 {make_node("If", {"c"}, {"y"},
                            {make_attribute_graph("then_branch", branch("then", "Add", {2})),
                             make_attribute_graph("else_branch", branch("else", "Mul", {2}))},
                            "choose")},
                 {make_value_info("c", DataType::boolean, {})}, {make_value_info("y", DataType::float32, {2})});
  Loaded m;
  Status st = m.load(make_model(graph, 13));
  EXPECT_EQ(st.code(), StatusCode::invalid_model);
  EXPECT_NE(st.message_view().find("node 'choose' (If, domain ai.onnx, opset 13): a subgraph reads 'x'"),
            std::string::npos)
      << st.message();
}

TEST(ControlFlow, NestedSubgraphsReachTheMainGraph) {
  // Loop body holds an If whose branches read 'x' from the main graph: 'x' is an implicit input of both.
  ProtoWriter body = make_graph(
      "body",
      {make_node("If", {"cond"}, {"picked"},
                 {make_attribute_graph("then_branch", branch("then", "Add", {2})),
                  make_attribute_graph("else_branch", branch("else", "Mul", {2}))}),
       make_node("Add", {"acc", "picked"}, {"acc_out"}), make_node("Identity", {"cond"}, {"cond_out"})},
      {make_value_info("i", DataType::int64, {}), make_value_info("cond", DataType::boolean, {}),
       make_value_info("acc", DataType::float32, {2})},
      {make_value_info("cond_out", DataType::boolean, {}), make_value_info("acc_out", DataType::float32, {2})});
  ProtoWriter graph =
      make_graph("g", {make_node("Loop", {"M", "c", "acc0"}, {"acc"}, {make_attribute_graph("body", body)}, "loop")},
                 {make_value_info("M", DataType::int64, {}), make_value_info("c", DataType::boolean, {}),
                  make_value_info("acc0", DataType::float32, {2}), make_value_info("x", DataType::float32, {2})},
                 {make_value_info("acc", DataType::float32, {2})});
  Loaded m;
  ASSERT_TRUE(m.load(make_model(graph, 13)).ok());
  ASSERT_EQ(m.model.graph().nodes[0].inputs.size(), 4u);
  Status st = m.prepare();
  ASSERT_TRUE(st.ok()) << st.message();
  const std::int64_t trips = 2;
  const bool c = true;
  const float acc0[2] = {0, 0}, x[2] = {1, 3};
  ASSERT_TRUE(m.session.set_input(0, ConstTensorView(DataType::int64, Shape{}, &trips)).ok());
  ASSERT_TRUE(m.session.set_input(1, ConstTensorView(DataType::boolean, Shape{}, &c)).ok());
  ASSERT_TRUE(m.session.set_input(2, ConstTensorView(DataType::float32, Shape{2}, acc0)).ok());
  ASSERT_TRUE(m.session.set_input(3, ConstTensorView(DataType::float32, Shape{2}, x)).ok());
  st = m.session.run();
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_EQ(m.floats(0), (std::vector<float>{4, 12}));  // two iterations of x + x
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
