// SPDX-License-Identifier: MIT
// Model-local functions are expanded into the graph at load time: formal names map to the caller's, internal
// names get a per-call prefix (so they never collide with the graph's), attribute references take the caller's
// value or the function's default, and nested calls expand too. Expected values computed by hand (and checked
// once with onnxruntime 1.31 on the same model built with onnx.helper).
#include <gtest/gtest.h>

#include <vector>

#include "onnxmicro/onnxmicro.hpp"
#include "support/proto_writer.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

namespace om = onnxmicro;
using om::DataType;
using om::Shape;
using namespace onnxmicro_test;

// AttributeProto {name, ref_attr_name, type FLOAT}.
ProtoWriter reference_attribute(std::string_view name, std::string_view referenced) {
  ProtoWriter a;
  a.string_field(1, name).string_field(21, referenced).int_field(20, 1);
  return a;
}

// FunctionProto: name 1, input 4, output 5, node 7, opset_import 9, domain 10, attribute_proto 11.
ProtoWriter function(std::string_view name, const std::vector<std::string>& inputs,
                     const std::vector<std::string>& outputs, const std::vector<ProtoWriter>& nodes,
                     const std::vector<ProtoWriter>& opsets, const std::vector<ProtoWriter>& defaults = {}) {
  ProtoWriter f;
  f.string_field(1, name);
  f.repeated_strings(4, inputs);
  f.repeated_strings(5, outputs);
  for (const ProtoWriter& n : nodes) f.message_field(7, n);
  for (const ProtoWriter& o : opsets) f.message_field(9, o);
  f.string_field(10, "custom");
  for (const ProtoWriter& d : defaults) f.message_field(11, d);
  return f;
}

TEST(FunctionInliner, ExpandsNestedCallsWithAttributeReferencesAndDefaults) {
  // Scale(x) = x * scale (attribute, default 2); Outer(x) = Relu(Scale(x, scale = k)) + x.
  ProtoWriter scale = function("Scale", {"x"}, {"y"},
                               {make_node("Constant", {}, {"a"}, {reference_attribute("value_float", "scale")}),
                                make_node("Mul", {"x", "a"}, {"y"})},
                               {make_opset("", 18)}, {make_attribute_float("scale", 2.0f)});
  ProtoWriter outer = function("Outer", {"x"}, {"z"},
                               {make_node("Scale", {"x"}, {"t"}, {reference_attribute("scale", "k")}, "", "custom"),
                                make_node("Relu", {"t"}, {"a"}), make_node("Add", {"a", "x"}, {"z"})},
                               {make_opset("", 18), make_opset("custom", 1)});
  // The graph has its own 'a' (an initializer) that the functions' internal 'a's must not touch.
  ProtoWriter graph = make_graph(
      "g",
      {make_node("Outer", {"in"}, {"mid"}, {make_attribute_float("k", -3.0f)}, "outer_call", "custom"),
       make_node("Scale", {"mid"}, {"out"}, {}, "scale_call", "custom"), make_node("Identity", {"a"}, {"a_out"})},
      {make_value_info("in", DataType::float32, {4})},
      {make_value_info("out", DataType::float32, {4}), make_value_info("a_out", DataType::float32, {1})},
      {make_float_tensor("a", {1}, {7.0f})});
  ProtoWriter model = make_model(graph, 18, 10, {make_opset("", 18), make_opset("custom", 1)});
  model.message_field(25, scale);
  model.message_field(25, outer);

  std::vector<unsigned char> bytes = model.bytes();
  om::Model m;
  om::Status st = m.load(om::ByteSpan(bytes.data(), bytes.size()));
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_EQ(m.graph().nodes.size(), 4u + 2u + 1u);  // Outer: Scale's 2 + Relu + Add; Scale: 2; Identity
  om::Session session;
  st = session.prepare(m, om::all_kernels_registry());
  ASSERT_TRUE(st.ok()) << st.message();
  const float x[4] = {1, -2, 3, -4};
  ASSERT_TRUE(session.set_input(0, om::ConstTensorView(DataType::float32, Shape{4}, x)).ok());
  ASSERT_TRUE(session.run().ok());
  const float* out = session.output(0).data_as<float>();
  // t = -3x = [-3, 6, -9, 12]; Relu(t) + x = [1, 4, 3, 8]; Scale with the default 2: [2, 8, 6, 16].
  EXPECT_EQ(std::vector<float>(out, out + 4), (std::vector<float>{2, 8, 6, 16}));
  EXPECT_EQ(*session.output(1).data_as<float>(), 7.0f);
}

TEST(FunctionInliner, RecursionIsALoadError) {
  ProtoWriter loop =
      function("Again", {"x"}, {"y"}, {make_node("Again", {"x"}, {"y"}, {}, "", "custom")}, {make_opset("custom", 1)});
  ProtoWriter graph =
      make_graph("g", {make_node("Again", {"in"}, {"out"}, {}, "call", "custom")},
                 {make_value_info("in", DataType::float32, {1})}, {make_value_info("out", DataType::float32, {1})});
  ProtoWriter model = make_model(graph, 18, 10, {make_opset("", 18), make_opset("custom", 1)});
  model.message_field(25, loop);
  std::vector<unsigned char> bytes = model.bytes();
  om::Model m;
  om::Status st = m.load(om::ByteSpan(bytes.data(), bytes.size()));
  EXPECT_EQ(st.code(), om::StatusCode::limit_exceeded);
  EXPECT_NE(st.message_view().find("model-local function 'Again' calls nest more than"), std::string_view::npos)
      << st.message();
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
