// SPDX-License-Identifier: MIT
// Model::load validates the graph at load time and every error names the node (name, op, domain, opset) and
// the tensor involved.
#include <gtest/gtest.h>

#include <string>

#include "onnxmicro/onnxmicro.hpp"
#include "support/proto_writer.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

using namespace onnxmicro_test;
using onnxmicro::Model;
using onnxmicro::Status;
using onnxmicro::StatusCode;

struct Loaded {
  std::vector<unsigned char> bytes;
  Model model;
  Status status;
};

void load(const ProtoWriter& model_proto, Loaded& out) {
  out.bytes = model_proto.bytes();
  out.status = out.model.load(onnxmicro::ByteSpan(out.bytes.data(), out.bytes.size()));
}

ProtoWriter relu_graph(const std::vector<ProtoWriter>& nodes, const std::vector<ProtoWriter>& initializers = {}) {
  return make_graph("g", nodes, {make_value_info("x", DataType::float32, {2, 3})},
                    {make_value_info("y", DataType::float32, {2, 3})}, initializers);
}

TEST(ModelLoader, LoadsAValidModelAndResolvesOpsetVersions) {
  Loaded m;
  load(make_model(relu_graph({make_node("Relu", {"x"}, {"y"}, {}, "relu0")}), 14), m);
  ASSERT_TRUE(m.status.ok()) << m.status.message();
  const onnxmicro::model::Graph& g = m.model.graph();
  ASSERT_EQ(g.nodes.size(), 1u);
  EXPECT_EQ(g.nodes[0].name, "relu0");
  EXPECT_EQ(g.nodes[0].opset_version, 14);
  EXPECT_EQ(g.inputs.size(), 1u);
  EXPECT_EQ(g.outputs.size(), 1u);
  EXPECT_EQ(m.model.opset_version(""), 14);
  EXPECT_EQ(m.model.opset_version("ai.onnx"), 14);
  EXPECT_EQ(m.model.opset_version("com.example"), -1);
  EXPECT_GT(m.model.metadata_bytes(), 0u);
}

TEST(ModelLoader, UndefinedInputNamesTheNodeAndTensor) {
  Loaded m;
  load(make_model(relu_graph({make_node("Add", {"x", "nowhere"}, {"y"}, {}, "add0")}), 13), m);
  ASSERT_FALSE(m.status.ok());
  EXPECT_EQ(m.status.code(), StatusCode::invalid_model);
  std::string msg = m.status.message();
  EXPECT_NE(msg.find("node 'add0' (Add, domain ai.onnx, opset 13)"), std::string::npos) << msg;
  EXPECT_NE(msg.find("input 1 'nowhere'"), std::string::npos) << msg;
}

TEST(ModelLoader, DuplicateOutputNamesBothProducers) {
  Loaded m;
  load(make_model(
           relu_graph({make_node("Relu", {"x"}, {"y"}, {}, "first"), make_node("Relu", {"x"}, {"y"}, {}, "second")}),
           13),
       m);
  ASSERT_FALSE(m.status.ok());
  std::string msg = m.status.message();
  EXPECT_NE(msg.find("node 'second'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("output 'y' is already produced by node 'first'"), std::string::npos) << msg;
}

TEST(ModelLoader, OutputThatShadowsAGraphInputIsRejected) {
  Loaded m;
  load(make_model(relu_graph({make_node("Relu", {"x"}, {"x"}, {}, "r")}), 13), m);
  ASSERT_FALSE(m.status.ok());
  EXPECT_NE(std::string(m.status.message()).find("output 'x' is already a graph input"), std::string::npos)
      << m.status.message();
}

TEST(ModelLoader, CycleIsReportedWithANodeOnIt) {
  Loaded m;
  load(make_model(relu_graph({make_node("Add", {"x", "b"}, {"a"}, {}, "n_a"),
                              make_node("Relu", {"a"}, {"b"}, {}, "n_b"), make_node("Relu", {"a"}, {"y"}, {}, "n_y")}),
                  13),
       m);
  ASSERT_FALSE(m.status.ok());
  std::string msg = m.status.message();
  EXPECT_NE(msg.find("cycle"), std::string::npos) << msg;
  EXPECT_NE(msg.find("node 'n_"), std::string::npos) << msg;
}

TEST(ModelLoader, NodesOutOfOrderAreSortedTopologically) {
  Loaded m;
  load(make_model(
           relu_graph({make_node("Relu", {"t"}, {"y"}, {}, "second"), make_node("Relu", {"x"}, {"t"}, {}, "first")}),
           13),
       m);
  ASSERT_TRUE(m.status.ok()) << m.status.message();
  EXPECT_EQ(m.model.graph().nodes[0].name, "first");
  EXPECT_EQ(m.model.graph().nodes[1].name, "second");
}

TEST(ModelLoader, InitializerSizeMustMatchShapeTimesDtype) {
  Loaded m;
  ProtoWriter bias = make_tensor_raw("b", DataType::float32, {2, 3}, std::vector<float>{1, 2, 3, 4, 5});
  load(make_model(relu_graph({make_node("Add", {"x", "b"}, {"y"})}, {bias}), 13), m);
  ASSERT_FALSE(m.status.ok());
  std::string msg = m.status.message();
  EXPECT_NE(msg.find("initializer 'b' of shape [2,3]"), std::string::npos) << msg;
  EXPECT_NE(msg.find("needs 24 bytes of raw_data, it has 20"), std::string::npos) << msg;
}

TEST(ModelLoader, UnknownInitializerDtypeIsRejected) {
  Loaded m;
  ProtoWriter bias;
  bias.int_field(1, 1).int_field(2, 99).string_field(8, "b").bytes_field(9, "abcd", 4);
  load(make_model(relu_graph({make_node("Add", {"x", "b"}, {"y"})}, {bias}), 13), m);
  ASSERT_FALSE(m.status.ok());
  EXPECT_NE(std::string(m.status.message()).find("initializer 'b' has unknown data_type 99"), std::string::npos)
      << m.status.message();
}

TEST(ModelLoader, UnknownGraphInputDtypeIsRejected) {
  Loaded m;
  ProtoWriter graph =
      make_graph("g", {make_node("Relu", {"x"}, {"y"})}, {make_value_info("x", static_cast<DataType>(77), {1})},
                 {make_value_info("y", DataType::float32, {1})});
  load(make_model(graph, 13), m);
  ASSERT_FALSE(m.status.ok());
  EXPECT_NE(std::string(m.status.message()).find("graph input 'x' has unknown elem_type 77"), std::string::npos)
      << m.status.message();
}

TEST(ModelLoader, NodeInADomainWithoutOpsetImportIsRejected) {
  Loaded m;
  load(make_model(relu_graph({make_node("Custom", {"x"}, {"y"}, {}, "c0", "com.example")}), 13), m);
  ASSERT_FALSE(m.status.ok());
  std::string msg = m.status.message();
  EXPECT_NE(msg.find("node 'c0' (Custom, domain com.example)"), std::string::npos) << msg;
  EXPECT_NE(msg.find("no opset_import for domain 'com.example'"), std::string::npos) << msg;
}

TEST(ModelLoader, GraphOutputNobodyProducesIsRejected) {
  Loaded m;
  ProtoWriter graph = make_graph("g", {make_node("Relu", {"x"}, {"t"})}, {make_value_info("x", DataType::float32, {1})},
                                 {make_value_info("y", DataType::float32, {1})});
  load(make_model(graph, 13), m);
  ASSERT_FALSE(m.status.ok());
  EXPECT_NE(std::string(m.status.message()).find("graph output 'y' is not produced"), std::string::npos)
      << m.status.message();
}

TEST(ModelLoader, ModelWithoutOpsetImportIsRejected) {
  Loaded m;
  ProtoWriter model;
  model.int_field(1, 8).message_field(7, relu_graph({make_node("Relu", {"x"}, {"y"})}));
  load(model, m);
  ASSERT_FALSE(m.status.ok());
  EXPECT_NE(std::string(m.status.message()).find("no opset_import"), std::string::npos) << m.status.message();
}

TEST(ModelLoader, TruncatedModelFailsCleanly) {
  ProtoWriter full = make_model(relu_graph({make_node("Relu", {"x"}, {"y"})}), 13);
  for (std::size_t cut = 1; cut < full.size(); ++cut) {
    std::vector<unsigned char> bytes(full.bytes().begin(), full.bytes().begin() + static_cast<std::ptrdiff_t>(cut));
    Model model;
    Status st = model.load(onnxmicro::ByteSpan(bytes.data(), bytes.size()));
    // A prefix may still be a valid (smaller) message; when it is not, it must fail with a message.
    if (!st.ok()) {
      EXPECT_NE(std::string(st.message()), "") << "cut at " << cut;
    }
  }
}

TEST(ModelLoader, MetadataComesFromACallerBuffer) {
  alignas(16) static unsigned char buffer[64 * 1024];
  onnxmicro::BufferAllocator allocator(buffer, sizeof(buffer));
  onnxmicro::LoadOptions options;
  options.metadata_allocator = &allocator;
  std::vector<unsigned char> bytes = make_model(relu_graph({make_node("Relu", {"x"}, {"y"})}), 13).bytes();
  Model model;
  Status st = model.load(onnxmicro::ByteSpan(bytes.data(), bytes.size()), options);
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_GT(allocator.used_bytes(), 0u);
  EXPECT_EQ(model.metadata_bytes(), allocator.used_bytes());

  onnxmicro::BufferAllocator tiny(buffer, 64);
  options.metadata_allocator = &tiny;
  Model small;
  st = small.load(onnxmicro::ByteSpan(bytes.data(), bytes.size()), options);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.code(), StatusCode::out_of_memory);
  EXPECT_NE(std::string(st.message()).find("metadata allocator exhausted"), std::string::npos) << st.message();
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
