// SPDX-License-Identifier: MIT
// QDQ fusion (runtime/qdq_fusion.hpp): DequantizeLinear -> op -> QuantizeLinear groups run as integer kernels,
// give what the float reference path gives, and every op reading a DQ output is reported with how it ran.
// Scales are powers of two, so the float path is exact and both paths must agree bit for bit with the
// reference the test computes itself.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <string_view>
#include <vector>

#include "onnxmicro/onnxmicro.hpp"
#include "support/loaded_model.hpp"
#include "support/proto_writer.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

using namespace onnxmicro_test;
using onnxmicro::DataType;

constexpr float kXScale = 0.5f;
constexpr int kXZero = 128;
constexpr float kWScale[2] = {0.25f, 0.5f};
constexpr float kYScale = 0.25f;
constexpr int kYZero = 10;
const std::vector<std::int8_t> kWeights = {1, -2, 3, 4, -5, 6, 7, -1};  // [2,1,2,2]
const std::vector<std::int32_t> kBias = {4, -8};                        // in units of x_scale * w_scale[m]
const std::vector<float> kInput = {0.6f, -1.2f, 2.5f, 3.1f, -0.4f, 1.0f, -2.2f, 0.9f, 1.7f};

struct ConvModel {
  std::string activation = "Relu";  ///< "Relu", "Clip" (0..1) or "" (none)
  float bias_scale_factor = 1.0f;   ///< != 1: the bias scale is not x_scale * w_scale
  bool exp_reads_input = false;     ///< a float Exp (no integer kernel) also reads the dequantized input
};

ProtoWriter conv_model(const ConvModel& c) {
  std::vector<ProtoWriter> nodes = {
      make_node("QuantizeLinear", {"x", "x_scale", "x_zero"}, {"xq"}),
      make_node("DequantizeLinear", {"xq", "x_scale", "x_zero"}, {"xd"}),
      make_node("DequantizeLinear", {"w", "w_scale", "w_zero"}, {"wd"}, {make_attribute_int("axis", 0)}),
      make_node("DequantizeLinear", {"b", "b_scale", "b_zero"}, {"bd"}, {make_attribute_int("axis", 0)}),
      make_node("Conv", {"xd", "wd", "bd"}, {"conv"}, {}, "the_conv"),
  };
  std::string quantized = "conv";
  if (c.activation == "Relu") {
    nodes.push_back(make_node("Relu", {"conv"}, {"act"}));
    quantized = "act";
  } else if (c.activation == "Clip") {
    nodes.push_back(make_node("Clip", {"conv", "lo", "hi"}, {"act"}));
    quantized = "act";
  }
  nodes.push_back(make_node("QuantizeLinear", {quantized, "y_scale", "y_zero"}, {"yq"}));
  nodes.push_back(make_node("DequantizeLinear", {"yq", "y_scale", "y_zero"}, {"y"}));
  std::vector<ProtoWriter> outputs = {make_value_info("y", DataType::float32, {1, 2, 2, 2})};
  if (c.exp_reads_input) {
    nodes.push_back(make_node("Exp", {"xd"}, {"s"}, {}, "the_exp"));
    outputs.push_back(make_value_info("s", DataType::float32, {1, 1, 3, 3}));
  }
  const float f = c.bias_scale_factor;
  std::vector<ProtoWriter> initializers = {
      make_float_tensor("x_scale", {}, {kXScale}),
      make_tensor_raw("x_zero", DataType::uint8, {}, std::vector<std::uint8_t>{kXZero}),
      make_tensor_raw("w", DataType::int8, {2, 1, 2, 2}, kWeights),
      make_float_tensor("w_scale", {2}, {kWScale[0], kWScale[1]}),
      make_tensor_raw("w_zero", DataType::int8, {2}, std::vector<std::int8_t>{0, 0}),
      make_tensor_raw("b", DataType::int32, {2}, kBias),
      make_float_tensor("b_scale", {2}, {kXScale * kWScale[0] * f, kXScale * kWScale[1] * f}),
      make_tensor_raw("b_zero", DataType::int32, {2}, std::vector<std::int32_t>{0, 0}),
      make_float_tensor("y_scale", {}, {kYScale}),
      make_tensor_raw("y_zero", DataType::uint8, {}, std::vector<std::uint8_t>{kYZero}),
      make_float_tensor("lo", {}, {0.0f}),
      make_float_tensor("hi", {}, {1.0f}),
  };
  return make_model(
      make_graph("qdq_conv", nodes, {make_value_info("x", DataType::float32, {1, 1, 3, 3})}, outputs, initializers),
      13);
}

float quantize_dequantize(float v, float scale, int zero) {
  double q = std::nearbyint(static_cast<double>(v) / scale) + zero;
  q = q < 0 ? 0 : (q > 255 ? 255 : q);
  return static_cast<float>((q - zero) * scale);
}

/// The model's arithmetic written out: quantize x, 2x2 valid convolution, bias, activation, quantize y.
std::vector<float> reference(const ConvModel& c) {
  std::vector<float> x(9), y;
  for (int i = 0; i < 9; ++i) x[i] = quantize_dequantize(kInput[i], kXScale, kXZero);
  for (int m = 0; m < 2; ++m) {
    for (int oy = 0; oy < 2; ++oy) {
      for (int ox = 0; ox < 2; ++ox) {
        double sum = kBias[m] * static_cast<double>(kXScale * kWScale[m] * c.bias_scale_factor);
        for (int ky = 0; ky < 2; ++ky)
          for (int kx = 0; kx < 2; ++kx)
            sum += x[(oy + ky) * 3 + ox + kx] * static_cast<double>(kWeights[m * 4 + ky * 2 + kx]) * kWScale[m];
        if (c.activation == "Relu") sum = sum < 0 ? 0 : sum;
        if (c.activation == "Clip") sum = sum < 0 ? 0 : (sum > 1 ? 1 : sum);
        y.push_back(quantize_dequantize(static_cast<float>(sum), kYScale, kYZero));
      }
    }
  }
  return y;
}

struct Ran {
  std::vector<float> y;
  std::vector<onnxmicro::QuantizedNodeReport> reports;
  std::vector<std::string> ops;  ///< op types the session executes
};

Ran run(const ConvModel& c, bool fuse, onnxmicro::KernelRegistry registry = onnxmicro::all_kernels_registry()) {
  LoadedModel m;
  Ran out;
  onnxmicro::Status st = m.load(conv_model(c));
  EXPECT_TRUE(st.ok()) << st.message();
  onnxmicro::SessionOptions options;
  options.fuse_qdq = fuse;
  options.fuse_activations = fuse;  // unfused: every node its own kernel, the float Conv and Relu too
  st = m.session.prepare(m.model, registry, options);
  EXPECT_TRUE(st.ok()) << st.message();
  if (!st.ok()) return out;
  onnxmicro::Shape shape;
  EXPECT_TRUE(shape.assign(std::vector<std::int64_t>{1, 1, 3, 3}.data(), 4).ok());
  st = m.session.set_input(0, onnxmicro::ConstTensorView(DataType::float32, shape, kInput.data()));
  EXPECT_TRUE(st.ok()) << st.message();
  st = m.session.run();
  EXPECT_TRUE(st.ok()) << st.message();
  out.y = m.floats(0);
  for (const onnxmicro::QuantizedNodeReport& r : m.session.quantized_nodes()) out.reports.push_back(r);
  for (const onnxmicro::NodeReport& r : m.session.node_reports()) {
    if (!r.folded) out.ops.push_back(std::string(r.node->op_type));
  }
  for (auto& r : out.reports) r.node = nullptr;  // points into the session, gone with it
  return out;
}

TEST(QdqFusion, ConvReluRunsAsQLinearConvAndMatchesTheFloatPath) {
  ConvModel c;
  const std::vector<float> expected = reference(c);
  const Ran fused = run(c, true);
  const Ran unfused = run(c, false);
  EXPECT_EQ(fused.y, expected);
  EXPECT_EQ(unfused.y, expected);
  ASSERT_EQ(fused.reports.size(), 1u);
  EXPECT_TRUE(fused.reports[0].integer);
  EXPECT_EQ(fused.reports[0].kernel, "QLinearConv");
  EXPECT_EQ(fused.reports[0].absorbed_nodes, 5);  // DQ x, DQ w, DQ b, Relu, Q
  EXPECT_EQ(fused.ops, (std::vector<std::string>{"QuantizeLinear", "QLinearConv", "DequantizeLinear"}));
  EXPECT_TRUE(unfused.reports.empty());
  EXPECT_EQ(unfused.ops.size(), 6u);  // Q, DQ x, Conv, Relu, Q, DQ y; the weights' DQs are folded
}

TEST(QdqFusion, ClipBoundsBecomeTheOutputClamp) {
  ConvModel c;
  c.activation = "Clip";
  const std::vector<float> expected = reference(c);
  bool clamped = false;
  for (float v : expected) clamped = clamped || v == 1.0f;
  ASSERT_TRUE(clamped) << "the data must reach Clip's max for this test to mean anything";
  const Ran fused = run(c, true);
  EXPECT_EQ(fused.y, expected);
  ASSERT_EQ(fused.reports.size(), 1u);
  EXPECT_TRUE(fused.reports[0].integer);
}

TEST(QdqFusion, WithoutActivationTheQuantizeLinearSaturates) {
  ConvModel c;
  c.activation = "";
  const Ran fused = run(c, true);
  EXPECT_EQ(fused.y, reference(c));
  ASSERT_EQ(fused.reports.size(), 1u);
  EXPECT_EQ(fused.reports[0].absorbed_nodes, 4);
}

TEST(QdqFusion, ABiasOnAnotherScaleStaysFloatAndSaysWhy) {
  ConvModel c;
  c.bias_scale_factor = 2.0f;
  const Ran fused = run(c, true);
  EXPECT_EQ(fused.y, reference(c));
  ASSERT_EQ(fused.reports.size(), 1u);
  EXPECT_FALSE(fused.reports[0].integer);
  EXPECT_EQ(fused.reports[0].reason, "the bias is not int32 dequantized with scale x_scale * w_scale");
}

TEST(QdqFusion, ADequantizedValueReadByAFloatOpKeepsItsDequantizeLinear) {
  ConvModel c;
  c.exp_reads_input = true;
  const Ran fused = run(c, true);
  EXPECT_EQ(fused.y, reference(c));
  ASSERT_EQ(fused.reports.size(), 2u);
  EXPECT_TRUE(fused.reports[0].integer);
  EXPECT_FALSE(fused.reports[1].integer);
  EXPECT_NE(fused.reports[1].reason.find("no integer kernel"), std::string::npos);
  int dequantize = 0;
  for (const std::string& op : fused.ops) dequantize += op == "DequantizeLinear" ? 1 : 0;
  EXPECT_EQ(dequantize, 2);  // x's (read by Exp) and y's
}

TEST(QdqFusion, AKernelSetWithoutTheIntegerKernelRunsFloatAndNamesIt) {
  using namespace onnxmicro::kernels;
  using Float = onnxmicro::KernelSet<QuantizeLinear_13, DequantizeLinear_13, Conv_1, Relu_1>;
  ConvModel c;
  const Ran fused = run(c, true, Float::registry());
  EXPECT_EQ(fused.y, reference(c));
  ASSERT_EQ(fused.reports.size(), 1u);
  EXPECT_FALSE(fused.reports[0].integer);
  EXPECT_EQ(fused.reports[0].kernel, "QLinearConv");
  EXPECT_NE(fused.reports[0].reason.find("lacks the integer kernel"), std::string::npos);
}

// MaxPool commutes with quantization only when its DQ and Q agree; otherwise it must stay float.
ProtoWriter maxpool_model(float out_scale, std::string_view op = "MaxPool") {
  std::vector<ProtoWriter> attributes;
  if (op == "MaxPool") attributes.push_back(make_attribute_ints("kernel_shape", {2, 2}));
  const std::vector<std::int64_t> out_shape =
      op == "MaxPool" ? std::vector<std::int64_t>{1, 1, 2, 2} : std::vector<std::int64_t>{1, 1, 3, 3};
  return make_model(
      make_graph("qdq_unary",
                 {make_node("QuantizeLinear", {"x", "s", "z"}, {"xq"}),
                  make_node("DequantizeLinear", {"xq", "s", "z"}, {"xd"}), make_node(op, {"xd"}, {"p"}, attributes),
                  make_node("QuantizeLinear", {"p", "s2", "z"}, {"pq"}),
                  make_node("DequantizeLinear", {"pq", "s2", "z"}, {"y"})},
                 {make_value_info("x", DataType::float32, {1, 1, 3, 3})},
                 {make_value_info("y", DataType::float32, out_shape)},
                 {make_float_tensor("s", {}, {0.5f}), make_float_tensor("s2", {}, {out_scale}),
                  make_tensor_raw("z", DataType::int8, {}, std::vector<std::int8_t>{3})}),
      13);
}

TEST(QdqFusion, MaxPoolRunsOnInt8OnlyWhenScalesAgree) {
  for (float out_scale : {0.5f, 0.25f}) {
    LoadedModel m;
    ASSERT_TRUE(m.load(maxpool_model(out_scale)).ok());
    onnxmicro::Status st = m.prepare();
    ASSERT_TRUE(st.ok()) << st.message();
    onnxmicro::Shape shape;
    ASSERT_TRUE(shape.assign(std::vector<std::int64_t>{1, 1, 3, 3}.data(), 4).ok());
    ASSERT_TRUE(m.session.set_input(0, onnxmicro::ConstTensorView(DataType::float32, shape, kInput.data())).ok());
    st = m.session.run();
    ASSERT_TRUE(st.ok()) << st.message();
    std::vector<float> expected;
    for (int oy = 0; oy < 2; ++oy) {
      for (int ox = 0; ox < 2; ++ox) {
        float best = -1e9f;
        for (int k = 0; k < 4; ++k) {
          float v = quantize_dequantize(kInput[(oy + k / 2) * 3 + ox + k % 2] * 1.0f, 0.5f, 3);
          best = v > best ? v : best;
        }
        // int8 range: the quantized maxima here stay inside it
        expected.push_back(static_cast<float>((std::nearbyint(best / out_scale) + 3 - 3) * out_scale));
      }
    }
    EXPECT_EQ(m.floats(0), expected) << "out_scale " << out_scale;
    ASSERT_EQ(m.session.quantized_nodes().size(), 1u);
    const onnxmicro::QuantizedNodeReport& r = m.session.quantized_nodes()[0];
    EXPECT_EQ(r.integer, out_scale == 0.5f);
    if (!r.integer) {
      EXPECT_EQ(r.reason, "its DequantizeLinear and QuantizeLinear have different scales or zero points");
    } else {
      EXPECT_EQ(r.kernel, "MaxPool on int8/uint8");
    }
  }
}

// A Relu between a DQ and a Q with no fusable op before it (what symmetric quantization leaves) runs as a
// 256-entry table: the same values as the float path.
TEST(QdqFusion, AStandaloneReluRunsAsATable) {
  LoadedModel m;
  ASSERT_TRUE(m.load(maxpool_model(0.25f, "Relu")).ok());
  onnxmicro::Status st = m.prepare();
  ASSERT_TRUE(st.ok()) << st.message();
  onnxmicro::Shape shape;
  ASSERT_TRUE(shape.assign(std::vector<std::int64_t>{1, 1, 3, 3}.data(), 4).ok());
  ASSERT_TRUE(m.session.set_input(0, onnxmicro::ConstTensorView(DataType::float32, shape, kInput.data())).ok());
  st = m.session.run();
  ASSERT_TRUE(st.ok()) << st.message();
  std::vector<float> expected;
  for (float v : kInput) {
    const double x = (std::nearbyint(v / 0.5) + 3 - 3) * 0.5;  // int8, zero point 3: no saturation here
    const double relu = x < 0 ? 0 : x;
    expected.push_back(static_cast<float>(std::nearbyint(relu / 0.25) * 0.25));
  }
  EXPECT_EQ(m.floats(0), expected);
  ASSERT_EQ(m.session.quantized_nodes().size(), 1u);
  EXPECT_TRUE(m.session.quantized_nodes()[0].integer);
  EXPECT_EQ(m.session.quantized_nodes()[0].kernel, "com.microsoft.QLinearLeakyRelu (table)");
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
