// SPDX-License-Identifier: MIT
// Activation fusion (runtime/activation_fusion.hpp): which Conv -> Relu/Clip pairs fold (reported per node), which
// stay apart and why, and that fused outputs are bit-identical to the unfused graph (NaN included) for ordinary,
// 1x1 and depthwise convolutions at every instruction-set level this CPU has.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "onnxmicro/onnxmicro.hpp"
#include "support/proto_writer.hpp"

namespace {

namespace om = onnxmicro;
using namespace onnxmicro_test;

constexpr std::int64_t kChannels = 4, kSize = 9;

// Conv (3x3 pad 1, or 1x1, or depthwise 3x3) on x[1,4,9,9] -> `activation` nodes built by the caller.
struct ConvModel {
  std::string kind = "3x3";  // "3x3", "1x1", "depthwise"
  std::vector<ProtoWriter> extra_nodes;
  std::vector<ProtoWriter> extra_initializers;
  std::vector<ProtoWriter> extra_inputs;
  std::vector<std::string> outputs = {"y"};

  ProtoWriter build() const {
    const bool depthwise = kind == "depthwise";
    const std::int64_t k = kind == "1x1" ? 1 : 3;
    const std::int64_t in_per_group = depthwise ? 1 : kChannels;
    std::vector<float> w(static_cast<std::size_t>(kChannels * in_per_group * k * k)), b(kChannels);
    for (std::size_t i = 0; i < w.size(); ++i) w[i] = std::sin(0.7f * static_cast<float>(i)) * 0.5f;
    for (std::size_t i = 0; i < b.size(); ++i) b[i] = 0.1f * static_cast<float>(i) - 0.15f;
    std::vector<ProtoWriter> attributes = {make_attribute_ints(
        "pads", k == 3 ? std::vector<std::int64_t>{1, 1, 1, 1} : std::vector<std::int64_t>{0, 0, 0, 0})};
    if (depthwise) attributes.push_back(make_attribute_int("group", kChannels));
    std::vector<ProtoWriter> nodes = {make_node("Conv", {"x", "w", "b"}, {"c"}, attributes, "conv")};
    nodes.insert(nodes.end(), extra_nodes.begin(), extra_nodes.end());
    std::vector<ProtoWriter> initializers = {make_float_tensor("w", {kChannels, in_per_group, k, k}, w),
                                             make_float_tensor("b", {kChannels}, b)};
    initializers.insert(initializers.end(), extra_initializers.begin(), extra_initializers.end());
    std::vector<ProtoWriter> inputs = {make_value_info("x", om::DataType::float32, {1, kChannels, kSize, kSize})};
    inputs.insert(inputs.end(), extra_inputs.begin(), extra_inputs.end());
    std::vector<ProtoWriter> graph_outputs;
    for (const std::string& name : outputs)
      graph_outputs.push_back(make_value_info(name, om::DataType::float32, {1, kChannels, kSize, kSize}));
    return make_model(make_graph("g", nodes, inputs, graph_outputs, initializers), 13);
  }
};

struct Outcome {
  std::vector<std::vector<float>> outputs;
  std::vector<std::string> fused;  // "Conv 'conv' + Relu 'act'"
  std::size_t nodes = 0;
};

std::vector<float> input_values() {
  std::vector<float> x(static_cast<std::size_t>(kChannels * kSize * kSize));
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = std::cos(0.37f * static_cast<float>(i)) * 3.0f;
  x[5] = std::numeric_limits<float>::quiet_NaN();  // a NaN must come out as NaN, fused or not
  return x;
}

Outcome run_model(const ProtoWriter& proto, bool fuse, om::Isa cap = om::Isa::best, float extra_input = 0.0f) {
  Outcome r;
  const std::vector<unsigned char> bytes = proto.bytes();
  om::Model model;
  om::Status st = model.load(om::ByteSpan(bytes.data(), bytes.size()));
  EXPECT_TRUE(st.ok()) << st.message();
  om::SessionOptions options;
  options.fuse_activations = fuse;
  options.max_isa = cap;
  om::Session session;
  st = session.prepare(model, om::all_kernels_registry(), options);
  EXPECT_TRUE(st.ok()) << st.message();
  if (!st.ok()) return r;
  std::vector<float> x = input_values();
  EXPECT_TRUE(session.set_input(0, {om::DataType::float32, {1, kChannels, kSize, kSize}, x.data()}).ok());
  if (session.input_count() > 1) {
    EXPECT_TRUE(session.set_input(1, {om::DataType::float32, {}, &extra_input}).ok());
  }
  st = session.run();
  EXPECT_TRUE(st.ok()) << st.message();
  for (std::size_t o = 0; o < session.output_count(); ++o) {
    const float* y = session.output(o).data_as<float>();
    r.outputs.emplace_back(y, y + session.output(o).element_count());
  }
  for (std::size_t i = 0; i < session.node_reports().size(); ++i) {
    const om::model::Node* activation = session.fused_activation(i);
    if (activation == nullptr) continue;
    const om::model::Node* node = session.node_reports()[i].node;
    r.fused.push_back(std::string(node->op_type) + " '" + std::string(node->name) + "' + " +
                      std::string(activation->op_type) + " '" + std::string(activation->name) + "'");
  }
  r.nodes = session.node_reports().size();
  return r;
}

// Same bits, NaN for NaN.
void expect_identical(const Outcome& fused, const Outcome& plain) {
  ASSERT_EQ(fused.outputs.size(), plain.outputs.size());
  for (std::size_t o = 0; o < fused.outputs.size(); ++o) {
    ASSERT_EQ(fused.outputs[o].size(), plain.outputs[o].size());
    EXPECT_EQ(std::memcmp(fused.outputs[o].data(), plain.outputs[o].data(), fused.outputs[o].size() * sizeof(float)), 0)
        << "output " << o;
  }
}

ConvModel conv_relu(const std::string& kind) {
  ConvModel m;
  m.kind = kind;
  m.extra_nodes = {make_node("Relu", {"c"}, {"y"}, {}, "act")};
  return m;
}

ConvModel conv_clip() {
  ConvModel m;
  m.extra_nodes = {make_node("Clip", {"c", "lo", "hi"}, {"y"}, {}, "act")};
  m.extra_initializers = {make_float_tensor("lo", {}, {0.0f}), make_float_tensor("hi", {}, {0.75f})};
  return m;
}

TEST(ActivationFusion, ConvReluFoldsAndIsBitIdenticalAtEveryIsaLevel) {
  for (const char* kind : {"3x3", "1x1", "depthwise"}) {
    const ProtoWriter proto = conv_relu(kind).build();
    for (om::Isa cap : {om::Isa::baseline, om::Isa::avx2, om::Isa::avx512}) {
      const Outcome fused = run_model(proto, true, cap), plain = run_model(proto, false, cap);
      ASSERT_EQ(fused.fused.size(), 1u) << kind;
      EXPECT_EQ(fused.fused[0], "Conv 'conv' + Relu 'act'");
      EXPECT_EQ(fused.nodes, 1u);
      EXPECT_TRUE(plain.fused.empty());
      EXPECT_EQ(plain.nodes, 2u);
      expect_identical(fused, plain);
      EXPECT_TRUE(std::isnan(fused.outputs[0][0]) || std::isnan(fused.outputs[0][4]) ||
                  std::isnan(fused.outputs[0][5]) || std::isnan(fused.outputs[0][6]))
          << kind << ": the NaN input must reach the output";
    }
  }
}

TEST(ActivationFusion, ClipWithConstantBoundsFolds) {
  const ProtoWriter proto = conv_clip().build();
  const Outcome fused = run_model(proto, true), plain = run_model(proto, false);
  ASSERT_EQ(fused.fused.size(), 1u);
  EXPECT_EQ(fused.fused[0], "Conv 'conv' + Clip 'act'");
  expect_identical(fused, plain);
  float highest = -1.0f;
  for (float v : fused.outputs[0])
    if (!std::isnan(v)) highest = v > highest ? v : highest;
  EXPECT_EQ(highest, 0.75f);
}

TEST(ActivationFusion, LeavesPairsItCannotFoldAlone) {
  // The Conv output has a second reader.
  ConvModel shared;
  shared.extra_nodes = {make_node("Relu", {"c"}, {"y"}, {}, "act"), make_node("Neg", {"c"}, {"z"}, {}, "neg")};
  shared.outputs = {"y", "z"};
  // The Conv output is a graph output itself.
  ConvModel exposed = conv_relu("3x3");
  exposed.outputs = {"y", "c"};
  // Clip's bound is a graph input, not a constant.
  ConvModel dynamic_bound;
  dynamic_bound.extra_nodes = {make_node("Clip", {"c", "lo"}, {"y"}, {}, "act")};
  dynamic_bound.extra_inputs = {make_value_info("lo", om::DataType::float32, {})};
  for (const ConvModel* m : {&shared, &exposed, &dynamic_bound}) {
    const ProtoWriter proto = m->build();
    const Outcome fused = run_model(proto, true, om::Isa::best, -0.5f),
                  plain = run_model(proto, false, om::Isa::best, -0.5f);
    EXPECT_TRUE(fused.fused.empty()) << fused.fused.size();
    EXPECT_EQ(fused.nodes, plain.nodes);
    expect_identical(fused, plain);
  }
}

}  // namespace
