// SPDX-License-Identifier: MIT
// Activation fusion (runtime/activation_fusion.hpp): which Conv|Gemm -> Relu/Clip pairs and MatMul -> bias Add ->
// Relu/Clip/GELU chains fold (reported per node), which stay apart and why, and that fused outputs are bit-identical
// to the unfused graph (NaN, infinities and both of erf's ranges included) for ordinary, 1x1 and depthwise
// convolutions and for MatMul rows with vector tails, at every instruction-set level this CPU has, on 1 and 2
// threads.
#include <gtest/gtest.h>

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
using namespace onnxmicro_test;

constexpr std::int64_t kChannels = 4, kSize = 9;

// Conv (3x3 pad 1, or 1x1, or depthwise 3x3 pad 1, stride 1 or 2) on x[1,4,9,9] -> `activation` nodes built by the
// caller.
struct ConvModel {
  std::string kind = "3x3";  // "3x3", "1x1", "depthwise", "depthwise_s2"
  std::vector<ProtoWriter> extra_nodes;
  std::vector<ProtoWriter> extra_initializers;
  std::vector<ProtoWriter> extra_inputs;
  std::vector<std::string> outputs = {"y"};

  ProtoWriter build() const {
    const bool depthwise = kind == "depthwise" || kind == "depthwise_s2";
    const std::int64_t stride = kind == "depthwise_s2" ? 2 : 1, out_size = (kSize - 1) / stride + 1;
    const std::int64_t k = kind == "1x1" ? 1 : 3;
    const std::int64_t in_per_group = depthwise ? 1 : kChannels;
    std::vector<float> w(static_cast<std::size_t>(kChannels * in_per_group * k * k)), b(kChannels);
    for (std::size_t i = 0; i < w.size(); ++i) w[i] = std::sin(0.7f * static_cast<float>(i)) * 0.5f;
    for (std::size_t i = 0; i < b.size(); ++i) b[i] = 0.1f * static_cast<float>(i) - 0.15f;
    std::vector<ProtoWriter> attributes = {make_attribute_ints(
        "pads", k == 3 ? std::vector<std::int64_t>{1, 1, 1, 1} : std::vector<std::int64_t>{0, 0, 0, 0})};
    if (depthwise) attributes.push_back(make_attribute_int("group", kChannels));
    if (stride != 1) attributes.push_back(make_attribute_ints("strides", {stride, stride}));
    std::vector<ProtoWriter> nodes = {make_node("Conv", {"x", "w", "b"}, {"c"}, attributes, "conv")};
    nodes.insert(nodes.end(), extra_nodes.begin(), extra_nodes.end());
    std::vector<ProtoWriter> initializers = {make_float_tensor("w", {kChannels, in_per_group, k, k}, w),
                                             make_float_tensor("b", {kChannels}, b)};
    initializers.insert(initializers.end(), extra_initializers.begin(), extra_initializers.end());
    std::vector<ProtoWriter> inputs = {make_value_info("x", om::DataType::float32, {1, kChannels, kSize, kSize})};
    inputs.insert(inputs.end(), extra_inputs.begin(), extra_inputs.end());
    std::vector<ProtoWriter> graph_outputs;
    for (const std::string& name : outputs)
      graph_outputs.push_back(make_value_info(name, om::DataType::float32, {1, kChannels, out_size, out_size}));
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
  x[40] = std::numeric_limits<float>::infinity();  // and +inf as +inf after Relu (not clamped to FLT_MAX)
  return x;
}

// "Conv 'conv' + Relu 'act'" per node that absorbed others, and the node count.
void record_fusions(const om::Session& session, Outcome& r) {
  for (std::size_t i = 0; i < session.node_reports().size(); ++i) {
    if (session.fused_nodes(i).empty()) continue;
    const om::model::Node* node = session.node_reports()[i].node;
    std::string line = std::string(node->op_type) + " '" + std::string(node->name) + "'";
    for (const om::model::Node* absorbed : session.fused_nodes(i))
      line += " + " + std::string(absorbed->op_type) + " '" + std::string(absorbed->name) + "'";
    r.fused.push_back(line);
    EXPECT_EQ(session.fused_activation(i), session.fused_nodes(i)[session.fused_nodes(i).size() - 1]);
  }
  r.nodes = session.node_reports().size();
}

// Runs `session` (inputs set) and records its outputs and fusions in `r`.
void run_and_record(om::Session& session, Outcome& r) {
  const om::Status st = session.run();
  EXPECT_TRUE(st.ok()) << st.message();
  for (std::size_t o = 0; o < session.output_count(); ++o) {
    const float* y = session.output(o).data_as<float>();
    r.outputs.emplace_back(y, y + session.output(o).element_count());
  }
  record_fusions(session, r);
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
  run_and_record(session, r);
  return r;
}

// Same bits, NaN for NaN.
void expect_identical(const Outcome& fused, const Outcome& plain) {
  ASSERT_EQ(fused.outputs.size(), plain.outputs.size());
  for (std::size_t o = 0; o < fused.outputs.size(); ++o) {
    ASSERT_EQ(fused.outputs[o].size(), plain.outputs[o].size());
    for (std::size_t i = 0; i < fused.outputs[o].size(); ++i) {
      if (std::memcmp(&fused.outputs[o][i], &plain.outputs[o][i], sizeof(float)) == 0) continue;
      ADD_FAILURE() << "output " << o << " element " << i << ": fused " << fused.outputs[o][i] << ", unfused "
                    << plain.outputs[o][i];
      break;
    }
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
  for (const char* kind : {"3x3", "1x1", "depthwise", "depthwise_s2"}) {
    const ProtoWriter proto = conv_relu(kind).build();
    for (om::Isa cap : {om::Isa::baseline, om::Isa::avx2, om::Isa::avx512}) {
      const Outcome fused = run_model(proto, true, cap), plain = run_model(proto, false, cap);
      ASSERT_EQ(fused.fused.size(), 1u) << kind;
      EXPECT_EQ(fused.fused[0], "Conv 'conv' + Relu 'act'");
      EXPECT_EQ(fused.nodes, 1u);
      EXPECT_TRUE(plain.fused.empty());
      EXPECT_EQ(plain.nodes, 2u);
      expect_identical(fused, plain);
      bool nan = false;
      for (float v : fused.outputs[0]) nan = nan || std::isnan(v);
      EXPECT_TRUE(nan) << kind << ": the NaN input must reach the output";
      bool infinite = false;
      for (float v : fused.outputs[0]) infinite = infinite || v == std::numeric_limits<float>::infinity();
      EXPECT_TRUE(infinite) << kind << ": the +inf input must reach the output";
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

// ---- MatMul -> [Add(bias)] -> [Relu | Clip | GELU] ---------------------------------------------------------------

// Two tasks run one after the other, the last first, on the caller's thread: kernels split their work as for two
// threads, deterministically (tests/unit builds against the single header, which leaves the std::thread pool out).
class ReversedTwoTaskPool final : public om::ThreadPool {
 public:
  std::size_t concurrency() const noexcept override { return 2; }
  void parallel_for(std::size_t tasks, Task task, void* context) noexcept override {
    for (std::size_t i = tasks; i > 0; --i) task(context, i - 1);
  }
};

// x[2,rows/2,16] (a graph input) times w[16,columns] (an initializer: 37 or 1031 columns leave vector tails at 8 and
// 16 lanes; 64 rows of 1031 are enough work to split over two tasks), then the caller's nodes on "mm". Initializers
// "bias" [columns], "sqrt2", "one", "half" (scalars) are there to use.
struct MatMulModel {
  std::vector<ProtoWriter> nodes;
  std::vector<ProtoWriter> extra_initializers;
  std::vector<std::string> outputs = {"y"};
  bool weights_are_input = false;
  std::int64_t rows = 6, columns = 37;
  std::int64_t bias_length = -1;  ///< -1: columns

  static constexpr std::int64_t kDepth = 16;

  ProtoWriter build() const {
    const std::int64_t bias_size = bias_length < 0 ? columns : bias_length;
    std::vector<float> w(static_cast<std::size_t>(kDepth * columns)), b(static_cast<std::size_t>(bias_size));
    for (std::size_t i = 0; i < w.size(); ++i) w[i] = std::sin(0.91f * static_cast<float>(i)) * 0.6f;
    for (std::size_t i = 0; i < b.size(); ++i) b[i] = 0.05f * static_cast<float>(i) - 0.8f;
    std::vector<ProtoWriter> all_nodes = {make_node("MatMul", {"x", "w"}, {"mm"}, {}, "mm")};
    all_nodes.insert(all_nodes.end(), nodes.begin(), nodes.end());
    std::vector<ProtoWriter> initializers = {
        make_float_tensor("bias", {bias_size}, b), make_float_tensor("sqrt2", {}, {1.4142135f}),
        make_float_tensor("one", {1}, {1.0f}), make_float_tensor("half", {}, {0.5f})};
    std::vector<ProtoWriter> inputs = {make_value_info("x", om::DataType::float32, {2, rows / 2, kDepth})};
    if (weights_are_input) {
      inputs.push_back(make_value_info("w", om::DataType::float32, {kDepth, columns}));
    } else {
      initializers.push_back(make_float_tensor("w", {kDepth, columns}, w));
    }
    initializers.insert(initializers.end(), extra_initializers.begin(), extra_initializers.end());
    std::vector<ProtoWriter> graph_outputs;
    for (const std::string& name : outputs)
      graph_outputs.push_back(make_value_info(name, om::DataType::float32, {2, rows / 2, columns}));
    return make_model(make_graph("g", all_nodes, inputs, graph_outputs, initializers), 17);
  }
};

// Values over both of erf's ranges (|x / sqrt2| below and above 0.9), large ones, signed zeros, NaN and infinities.
std::vector<float> matmul_input(std::int64_t rows) {
  std::vector<float> x(static_cast<std::size_t>(rows * MatMulModel::kDepth));
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = std::cos(0.53f * static_cast<float>(i)) * 1.7f;
  x[3] = std::numeric_limits<float>::quiet_NaN();
  x[20] = std::numeric_limits<float>::infinity();
  x[41] = -std::numeric_limits<float>::infinity();
  x[70] = 40.0f;
  return x;
}

Outcome run_matmul(const MatMulModel& m, bool fuse, om::Isa cap, std::size_t threads = 1) {
  Outcome r;
  const std::vector<unsigned char> bytes = m.build().bytes();
  om::Model model;
  om::Status st = model.load(om::ByteSpan(bytes.data(), bytes.size()));
  EXPECT_TRUE(st.ok()) << st.message();
  ReversedTwoTaskPool pool;
  om::SessionOptions options;
  options.fuse_activations = fuse;
  options.max_isa = cap;
  if (threads > 1) options.thread_pool = &pool;
  om::Session session;
  st = session.prepare(model, om::all_kernels_registry(), options);
  EXPECT_TRUE(st.ok()) << st.message();
  if (!st.ok()) return r;
  std::vector<float> x = matmul_input(m.rows);
  std::vector<float> w(static_cast<std::size_t>(MatMulModel::kDepth * m.columns), 0.25f);
  EXPECT_TRUE(session.set_input(0, {om::DataType::float32, {2, m.rows / 2, MatMulModel::kDepth}, x.data()}).ok());
  if (session.input_count() > 1) {
    EXPECT_TRUE(session.set_input(1, {om::DataType::float32, {MatMulModel::kDepth, m.columns}, w.data()}).ok());
  }
  run_and_record(session, r);
  return r;
}

// GELU as torch exports F.gelu ((x * t) * c) or with the scale first ((x * c) * t), on `x`, into `y`.
std::vector<ProtoWriter> gelu_nodes(const std::string& x, bool scale_first) {
  std::vector<ProtoWriter> nodes = {make_node("Div", {x, "sqrt2"}, {"d"}, {}, "div"),
                                    make_node("Erf", {"d"}, {"e"}, {}, "erf"),
                                    make_node("Add", {"one", "e"}, {"t"}, {}, "plus_one")};
  if (scale_first) {
    nodes.push_back(make_node("Mul", {"half", x}, {"h"}, {}, "scale"));
    nodes.push_back(make_node("Mul", {"t", "h"}, {"y"}, {}, "product"));
  } else {
    nodes.push_back(make_node("Mul", {x, "t"}, {"p"}, {}, "product"));
    nodes.push_back(make_node("Mul", {"p", "half"}, {"y"}, {}, "scale"));
  }
  return nodes;
}

MatMulModel matmul_bias_gelu(bool scale_first) {
  MatMulModel m;
  m.nodes = {make_node("Add", {"bias", "mm"}, {"v"}, {}, "bias")};
  const std::vector<ProtoWriter> gelu = gelu_nodes("v", scale_first);
  m.nodes.insert(m.nodes.end(), gelu.begin(), gelu.end());
  return m;
}

// Fused and unfused at every level on 1 and 2 threads, small and wide: same bits; `expected` is the one fusion's
// report.
void expect_folds_bit_identically(MatMulModel m, const std::string& expected, std::size_t nodes_left) {
  for (std::int64_t size : {0, 1}) {
    m.rows = size == 0 ? 6 : 64;
    m.columns = size == 0 ? 37 : 1031;
    for (om::Isa cap : {om::Isa::baseline, om::Isa::avx2, om::Isa::avx512}) {
      for (std::size_t threads : {1u, 2u}) {
        const Outcome fused = run_matmul(m, true, cap, threads), plain = run_matmul(m, false, cap, threads);
        ASSERT_EQ(fused.fused.size(), 1u) << expected;
        EXPECT_EQ(fused.fused[0], expected);
        EXPECT_EQ(fused.nodes, nodes_left);
        EXPECT_TRUE(plain.fused.empty());
        expect_identical(fused, plain);
      }
    }
  }
}

TEST(ActivationFusion, MatMulBiasGeluFoldsBitIdenticallyInEitherProductOrder) {
  expect_folds_bit_identically(matmul_bias_gelu(false),
                               "MatMul 'mm' + Add 'bias' + Div 'div' + Erf 'erf' + Add 'plus_one' + Mul 'product' + "
                               "Mul 'scale'",
                               1);
  expect_folds_bit_identically(matmul_bias_gelu(true),
                               "MatMul 'mm' + Add 'bias' + Div 'div' + Erf 'erf' + Add 'plus_one' + Mul 'scale' + "
                               "Mul 'product'",
                               1);
  // The inputs reach both of erf's ranges, NaN and the infinities reach the output.
  const Outcome out = run_matmul(matmul_bias_gelu(false), true, om::Isa::best);
  ASSERT_EQ(out.outputs.size(), 1u);
  std::size_t nan = 0, small = 0, large = 0;
  for (float v : out.outputs[0]) {
    nan += std::isnan(v) ? 1 : 0;
    small += std::fabs(v) < 0.3f ? 1 : 0;
    large += std::fabs(v) > 2.0f ? 1 : 0;
  }
  EXPECT_GT(nan, 0u);
  EXPECT_GT(small, 0u);
  EXPECT_GT(large, 0u);
}

TEST(ActivationFusion, MatMulTakesABiasAClampOrGeluAlone) {
  MatMulModel bias_only;
  bias_only.nodes = {make_node("Add", {"mm", "bias"}, {"y"}, {}, "bias")};
  expect_folds_bit_identically(bias_only, "MatMul 'mm' + Add 'bias'", 1);
  MatMulModel bias_clip;
  bias_clip.nodes = {make_node("Add", {"mm", "bias"}, {"v"}, {}, "bias"),
                     make_node("Clip", {"v", "lo", "hi"}, {"y"}, {}, "clip")};
  bias_clip.extra_initializers = {make_float_tensor("lo", {}, {-0.25f}), make_float_tensor("hi", {}, {1.5f})};
  expect_folds_bit_identically(bias_clip, "MatMul 'mm' + Add 'bias' + Clip 'clip'", 1);
  MatMulModel relu;
  relu.nodes = {make_node("Relu", {"mm"}, {"y"}, {}, "relu")};
  expect_folds_bit_identically(relu, "MatMul 'mm' + Relu 'relu'", 1);
  MatMulModel gelu;
  gelu.nodes = gelu_nodes("mm", false);
  expect_folds_bit_identically(gelu,
                               "MatMul 'mm' + Div 'div' + Erf 'erf' + Add 'plus_one' + Mul 'product' + Mul 'scale'", 1);
}

// x[6,16] (NaN and infinities among its values) -> Gemm (B [37,16] transposed, C [37], alpha 1.5) -> `activation`
// nodes on "g" (initializers "lo", "hi" for a Clip).
Outcome run_gemm(const std::vector<ProtoWriter>& activation, bool fuse, om::Isa cap) {
  std::vector<float> w(37 * 16), c(37);
  for (std::size_t i = 0; i < w.size(); ++i) w[i] = std::sin(0.77f * static_cast<float>(i)) * 0.5f;
  for (std::size_t i = 0; i < c.size(); ++i) c[i] = 0.03f * static_cast<float>(i) - 0.5f;
  std::vector<ProtoWriter> nodes = {make_node(
      "Gemm", {"x", "w", "c"}, {"g"}, {make_attribute_int("transB", 1), make_attribute_float("alpha", 1.5f)}, "gemm")};
  nodes.insert(nodes.end(), activation.begin(), activation.end());
  const ProtoWriter proto =
      make_model(make_graph("g", nodes, {make_value_info("x", om::DataType::float32, {6, 16})},
                            {make_value_info("y", om::DataType::float32, {6, 37})},
                            {make_float_tensor("w", {37, 16}, w), make_float_tensor("c", {37}, c),
                             make_float_tensor("lo", {}, {-0.25f}), make_float_tensor("hi", {}, {1.5f})}),
                 13);
  Outcome r;
  const std::vector<unsigned char> bytes = proto.bytes();
  om::Model model;
  EXPECT_TRUE(model.load(om::ByteSpan(bytes.data(), bytes.size())).ok());
  om::SessionOptions options;
  options.fuse_activations = fuse;
  options.max_isa = cap;
  om::Session session;
  const om::Status st = session.prepare(model, om::all_kernels_registry(), options);
  EXPECT_TRUE(st.ok()) << st.message();
  if (!st.ok()) return r;
  std::vector<float> x = matmul_input(6);
  EXPECT_TRUE(session.set_input(0, {om::DataType::float32, {6, 16}, x.data()}).ok());
  run_and_record(session, r);
  return r;
}

TEST(ActivationFusion, GemmTakesAReluOrAClipBitIdentically) {
  const std::vector<ProtoWriter> relu = {make_node("Relu", {"g"}, {"y"}, {}, "relu")};
  const std::vector<ProtoWriter> clip = {make_node("Clip", {"g", "lo", "hi"}, {"y"}, {}, "clip")};
  for (const auto* activation : {&relu, &clip}) {
    for (om::Isa cap : {om::Isa::baseline, om::Isa::avx2, om::Isa::avx512}) {
      const Outcome fused = run_gemm(*activation, true, cap), plain = run_gemm(*activation, false, cap);
      ASSERT_EQ(fused.fused.size(), 1u);
      EXPECT_EQ(fused.fused[0], activation == &relu ? "Gemm 'gemm' + Relu 'relu'" : "Gemm 'gemm' + Clip 'clip'");
      EXPECT_EQ(fused.nodes, 1u);
      EXPECT_TRUE(plain.fused.empty());
      expect_identical(fused, plain);
    }
  }
}

TEST(ActivationFusion, MatMulChainsStopWhereTheyWouldChangeAShapeOrAValue) {
  struct Case {
    const char* what;
    MatMulModel model;
    std::size_t fusions;
  };
  std::vector<Case> cases;
  {
    Case c{"a bias of one element broadcasts: not a bias", matmul_bias_gelu(false), 0};
    c.model.bias_length = 1;
    cases.push_back(c);
  }
  {
    Case c{"weights given at run time", matmul_bias_gelu(false), 0};
    c.model.weights_are_input = true;
    cases.push_back(c);
  }
  {
    Case c{"Erf's input is a graph output too: the bias folds, GELU stays", matmul_bias_gelu(false), 1};
    c.model.outputs = {"y", "d"};
    cases.push_back(c);
  }
  {
    Case c{"Div's operands swapped", MatMulModel(), 0};
    c.model.nodes = {make_node("Div", {"sqrt2", "mm"}, {"d"}, {}, "div"), make_node("Erf", {"d"}, {"e"}, {}, "erf"),
                     make_node("Add", {"one", "e"}, {"t"}, {}, "plus_one"),
                     make_node("Mul", {"mm", "t"}, {"p"}, {}, "product"),
                     make_node("Mul", {"p", "half"}, {"y"}, {}, "scale")};
    cases.push_back(c);
  }
  {
    Case c{"a scale per column, not a scalar", MatMulModel(), 0};
    c.model.nodes = gelu_nodes("mm", false);
    c.model.nodes.back() = make_node("Mul", {"p", "bias"}, {"y"}, {}, "scale");
    cases.push_back(c);
  }
  {
    Case c{"the bias Add's output has a second reader: the bias folds, Relu stays", MatMulModel(), 1};
    c.model.nodes = {make_node("Add", {"mm", "bias"}, {"v"}, {}, "bias"), make_node("Relu", {"v"}, {"r"}, {}, "relu"),
                     make_node("Sub", {"v", "r"}, {"y"}, {}, "sub")};
    cases.push_back(c);
  }
  for (const Case& c : cases) {
    const Outcome fused = run_matmul(c.model, true, om::Isa::best), plain = run_matmul(c.model, false, om::Isa::best);
    EXPECT_EQ(fused.fused.size(), c.fusions) << c.what;
    if (c.fusions == 1 && fused.fused.size() == 1) {
      EXPECT_EQ(fused.fused[0], "MatMul 'mm' + Add 'bias'") << c.what;
    }
    expect_identical(fused, plain);
  }
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
