// SPDX-License-Identifier: MIT
// The OpenCL backend (include/onnxmicro/backends/opencl.hpp) on whatever OpenCL device the machine has (CI: PoCL on
// the CPU). Every lowering runs against the CPU kernels on shapes that stress edges (odd sizes, channels not a
// multiple of 4, pads, strides, dilations, groups, broadcasts), in device_strict mode so that nothing can quietly
// fall back; outputs must agree within rtol 1e-4 + atol 1e-5 (float32: the device sums in another order and its
// exp/erf/tanh are within their OpenCL ULP bounds). Also: placement and transfer reports of a mixed model, strict
// failures, the program cache, and (ctest opencl_no_platform, with OCL_ICD_VENDORS at an empty folder) a machine
// without any OpenCL platform. OpenClModels.* runs the generated CNN and BERT-tiny exports (ctest
// opencl_models_strict) when ONNXMICRO_OPENCL_MODELS_DIR names them.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "onnxmicro/backends/opencl.hpp"
#include "onnxmicro/onnxmicro.hpp"
#include "support/proto_writer.hpp"
#include "support/scoped_environment.hpp"

namespace {

namespace om = ::onnxmicro;
using om::DataType;
using onnxmicro_test::ProtoWriter;
using namespace onnxmicro_test;  // NOLINT: the proto builders

/// A graph under test: nodes, initializers, graph inputs with their data, outputs.
struct Net {
  struct Feed {
    std::string name;
    DataType dtype;
    std::vector<std::int64_t> dims;
    std::vector<unsigned char> bytes;
  };
  int opset = 17;
  std::vector<ProtoWriter> nodes, initializers, inputs, outputs;
  std::vector<Feed> feeds;
  std::mt19937 random{1234};

  static std::int64_t count(const std::vector<std::int64_t>& dims) {
    std::int64_t n = 1;
    for (std::int64_t d : dims) n *= d;
    return n;
  }
  std::vector<float> values(const std::vector<std::int64_t>& dims, float low, float high) {
    std::uniform_real_distribution<float> pick(low, high);
    std::vector<float> v(static_cast<std::size_t>(count(dims)));
    for (float& e : v) e = pick(random);
    return v;
  }
  /// A float input, uniform in [low, high].
  Net& input(const std::string& name, const std::vector<std::int64_t>& dims, float low = -1.0f, float high = 1.0f) {
    const std::vector<float> v = values(dims, low, high);
    return typed_input(name, DataType::float32, dims, v.data(), v.size() * sizeof(float));
  }
  Net& typed_input(const std::string& name, DataType dtype, const std::vector<std::int64_t>& dims, const void* data,
                   std::size_t bytes) {
    inputs.push_back(make_value_info(name, dtype, dims));
    Feed feed{name, dtype, dims, std::vector<unsigned char>(bytes)};
    if (bytes > 0) std::memcpy(feed.bytes.data(), data, bytes);
    feeds.push_back(feed);
    return *this;
  }
  /// A float initializer, uniform in [low, high].
  Net& weight(const std::string& name, const std::vector<std::int64_t>& dims, float low = -1.0f, float high = 1.0f) {
    initializers.push_back(make_float_tensor(name, dims, values(dims, low, high)));
    return *this;
  }
  Net& ints(const std::string& name, const std::vector<std::int64_t>& v) {
    initializers.push_back(make_int64_tensor(name, {static_cast<std::int64_t>(v.size())}, v));
    return *this;
  }
  Net& scalar(const std::string& name, float v) {
    initializers.push_back(make_float_tensor(name, {}, {v}));
    return *this;
  }
  Net& node(const std::string& op, const std::vector<std::string>& in, const std::vector<std::string>& out,
            const std::vector<ProtoWriter>& attributes = {}) {
    nodes.push_back(make_node(op, in, out, attributes, op + "_" + std::to_string(nodes.size())));
    return *this;
  }
  Net& output(const std::string& name, DataType dtype = DataType::float32) {
    ProtoWriter info;
    info.string_field(1, name);
    info.message_field(2, make_tensor_type(dtype, {}, false));
    outputs.push_back(info);
    return *this;
  }
  std::vector<unsigned char> bytes() const {
    return make_model(make_graph("g", nodes, inputs, outputs, initializers), opset).bytes();
  }
};

/// A prepared session and its model (the model must outlive the session).
struct Prepared {
  std::vector<unsigned char> bytes;
  om::Model model;
  om::Session session;
  om::opencl::Backend backend;
};

std::string fresh_directory(const std::string& name);

/// The program cache every session of this process shares (each test session would otherwise compile the program).
const std::string& shared_cache() {
  static const std::string dir = fresh_directory("shared");
  return dir;
}

om::Status prepare(const Net& net, Prepared& p, om::DevicePolicy policy, bool fuse = true) {
  p.bytes = net.bytes();
  om::Status st = p.model.load(om::ByteSpan(p.bytes.data(), p.bytes.size()));
  if (!st.ok()) return st;
  om::SessionOptions options;
  options.fuse_activations = fuse;
  if (policy != om::DevicePolicy::cpu_only) {
    om::opencl::Options opencl;
    opencl.cache_directory = shared_cache();
    // A failure to open is reported by the session (every node a fallback, or strict's error).
    static_cast<void>(p.backend.open(opencl));
    options.device = &p.backend;
    options.device_policy = policy;
  }
  return p.session.prepare(p.model, om::AllKernels::registry(), options);
}

om::Status feed_and_run(const Net& net, om::Session& session) {
  for (const Net::Feed& f : net.feeds) {
    om::Shape shape;
    EXPECT_TRUE(shape.assign(f.dims.data(), f.dims.size()).ok());
    const om::Status st = session.set_input(f.name, om::ConstTensorView(f.dtype, shape, f.bytes.data()));
    if (!st.ok()) return st;
  }
  return session.run();
}

/// rtol 1e-4, atol 1e-5: the float32 tolerance of the issue (summation order, device math ULPs).
void expect_close(const om::ConstTensorView& device, const om::ConstTensorView& cpu, const std::string& what) {
  ASSERT_EQ(device.dtype, cpu.dtype) << what;
  ASSERT_EQ(device.shape, cpu.shape) << what;
  std::size_t bad = 0, worst_index = 0;
  double worst = 0;
  for (std::int64_t e = 0; e < cpu.element_count(); ++e) {
    double a = 0, b = 0;
    if (cpu.dtype == DataType::float32) {
      a = device.data_as<float>()[e];
      b = cpu.data_as<float>()[e];
    } else if (cpu.dtype == DataType::int64) {
      a = static_cast<double>(device.data_as<std::int64_t>()[e]);
      b = static_cast<double>(cpu.data_as<std::int64_t>()[e]);
    } else if (cpu.dtype == DataType::int32) {
      a = device.data_as<std::int32_t>()[e];
      b = cpu.data_as<std::int32_t>()[e];
    } else if (cpu.dtype == DataType::boolean) {
      a = static_cast<const unsigned char*>(device.data)[e];
      b = static_cast<const unsigned char*>(cpu.data)[e];
    } else {
      ADD_FAILURE() << what << ": dtype not compared by this test";
      return;
    }
    const double diff = std::fabs(a - b);
    const bool same_nan = std::isnan(a) && std::isnan(b);
    const bool same_inf = std::isinf(a) && a == b;
    if (!same_nan && !same_inf && !(diff <= 1e-5 + 1e-4 * std::fabs(b))) {
      ++bad;
      if (!(diff <= worst)) {
        worst = diff;
        worst_index = static_cast<std::size_t>(e);
      }
    }
  }
  EXPECT_EQ(bad, 0u) << what << ": " << bad << " of " << cpu.element_count() << " elements beyond rtol 1e-4 + atol "
                     << "1e-5; worst at " << worst_index << " differs by " << worst;
}

/// Runs `net` on the CPU and strictly on OpenCL; every output must agree.
void expect_same_on_opencl(const Net& net, const std::string& what, bool fuse = true) {
  SCOPED_TRACE(what);
  Prepared cpu, device;
  ASSERT_TRUE(prepare(net, cpu, om::DevicePolicy::cpu_only, fuse).ok());
  const om::Status st = prepare(net, device, om::DevicePolicy::device_strict, fuse);
  ASSERT_TRUE(st.ok()) << st.message();
  for (const om::NodeReport& r : device.session.node_reports()) {
    EXPECT_TRUE(r.folded || r.placement == om::Placement::opencl) << r.node->op_type;
  }
  const om::Status cpu_run = feed_and_run(net, cpu.session);
  ASSERT_TRUE(cpu_run.ok()) << cpu_run.message();
  const om::Status device_run = feed_and_run(net, device.session);
  ASSERT_TRUE(device_run.ok()) << device_run.message();
  for (std::size_t k = 0; k < cpu.session.output_count(); ++k) {
    expect_close(device.session.output(k), cpu.session.output(k), what + " output " + std::to_string(k));
  }
  // A second run gives the same answer (uploads and downloads happen every run, constants stay).
  ASSERT_TRUE(feed_and_run(net, device.session).ok());
  for (std::size_t k = 0; k < cpu.session.output_count(); ++k) {
    expect_close(device.session.output(k), cpu.session.output(k), what + " (second run) output " + std::to_string(k));
  }
}

Net single(const std::string& op, const std::vector<std::int64_t>& dims,
           const std::vector<ProtoWriter>& attributes = {}, float low = -3.0f, float high = 3.0f) {
  Net net;
  net.input("x", dims, low, high).node(op, {"x"}, {"y"}, attributes).output("y");
  return net;
}

// ---- elementwise -------------------------------------------------------------------------------------------------

TEST(OpenClKernels, UnaryActivations) {
  const char* const signed_ops[] = {"Relu", "Sigmoid",  "Tanh",  "Erf",  "HardSwish", "Exp", "Neg",     "Abs",
                                    "Elu",  "Softplus", "Floor", "Ceil", "Sin",       "Cos", "Softsign"};
  for (const char* op : signed_ops) expect_same_on_opencl(single(op, {2, 3, 5, 7}), op);
  for (const char* op : {"Sqrt", "Log", "Reciprocal"}) expect_same_on_opencl(single(op, {3, 17}, {}, 0.1f, 4.0f), op);
  expect_same_on_opencl(single("LeakyRelu", {1, 9, 13}, {make_attribute_float("alpha", 0.2f)}), "LeakyRelu");
  expect_same_on_opencl(
      single("HardSigmoid", {4, 33}, {make_attribute_float("alpha", 0.3f), make_attribute_float("beta", 0.4f)}),
      "HardSigmoid");
  Net gelu = single("Gelu", {2, 65});
  gelu.opset = 20;
  expect_same_on_opencl(gelu, "Gelu");
  Net gelu_tanh = single("Gelu", {2, 65}, {make_attribute_string("approximate", "tanh")});
  gelu_tanh.opset = 20;
  expect_same_on_opencl(gelu_tanh, "Gelu tanh");
  Net clip;
  clip.input("x", {5, 11}, -3, 3).scalar("lo", -0.5f).scalar("hi", 1.25f).node("Clip", {"x", "lo", "hi"}, {"y"});
  expect_same_on_opencl(clip.output("y"), "Clip 13");
  Net clip_max;
  clip_max.input("x", {5, 11}, -3, 3).scalar("hi", 1.25f).node("Clip", {"x", "", "hi"}, {"y"});
  expect_same_on_opencl(clip_max.output("y"), "Clip 13 max only");
  Net clip6 = single("Clip", {3, 7}, {make_attribute_float("min", -1.0f), make_attribute_float("max", 2.0f)});
  clip6.opset = 6;
  expect_same_on_opencl(clip6, "Clip 6");
}

TEST(OpenClKernels, BinaryBroadcast) {
  const std::vector<std::pair<std::vector<std::int64_t>, std::vector<std::int64_t>>> shapes = {
      {{2, 3, 5, 7}, {3, 1, 7}}, {{1}, {4, 5}}, {{2, 1, 4}, {3, 1}}, {{6, 5}, {6, 5}}, {{1, 1, 1, 1, 1, 3}, {2, 1, 3}}};
  for (const char* op : {"Add", "Sub", "Mul", "Div", "Max", "Min", "Pow"}) {
    for (const auto& [a, b] : shapes) {
      Net net;
      const bool pow = std::string(op) == "Pow";
      net.input("a", a, pow ? 0.1f : -2.0f, 2.0f).input("b", b, pow ? -2.0f : 0.25f, 2.0f);
      net.node(op, {"a", "b"}, {"y"}).output("y");
      expect_same_on_opencl(net, std::string(op) + " " + std::to_string(a.size()) + "x" + std::to_string(b.size()));
    }
  }
  Net prelu;
  prelu.input("x", {2, 5, 3, 3}).weight("slope", {5, 1, 1}).node("PRelu", {"x", "slope"}, {"y"}).output("y");
  expect_same_on_opencl(prelu, "PRelu");
  Net constant_operand;
  constant_operand.input("x", {3, 4}).weight("w", {4}).node("Mul", {"x", "w"}, {"y"}).output("y");
  expect_same_on_opencl(constant_operand, "Mul by an initializer");
}

TEST(OpenClKernels, ComparisonsAndVariadic) {
  for (const char* op : {"Equal", "Less", "Greater", "LessOrEqual", "GreaterOrEqual"}) {
    Net net;
    // Few distinct values, so that equal elements occur.
    std::vector<float> a(2 * 3 * 4), b(3 * 1);
    for (std::size_t i = 0; i < a.size(); ++i) a[i] = static_cast<float>(i % 3) - 1.0f;
    for (std::size_t i = 0; i < b.size(); ++i) b[i] = static_cast<float>(i) - 1.0f;
    net.typed_input("a", DataType::float32, {2, 3, 4}, a.data(), a.size() * 4);
    net.typed_input("b", DataType::float32, {3, 1}, b.data(), b.size() * 4);
    net.node(op, {"a", "b"}, {"y"}).output("y", DataType::boolean);
    expect_same_on_opencl(net, op);
  }
  for (const char* op : {"Sum", "Mean", "Max", "Min"}) {
    Net three;
    three.input("a", {2, 3, 4}).input("b", {3, 1}).weight("c", {4});
    three.node(op, {"a", "b", "c"}, {"y"}).output("y");
    expect_same_on_opencl(three, std::string(op) + " of 3");
    Net one = single(op, {5, 2});
    expect_same_on_opencl(one, std::string(op) + " of 1");
  }
}

TEST(OpenClKernels, WhereAndCast) {
  Net net;
  std::vector<unsigned char> condition(3 * 4);
  for (std::size_t i = 0; i < condition.size(); ++i) condition[i] = (i * 7 % 3) == 0;
  net.typed_input("c", DataType::boolean, {3, 4}, condition.data(), condition.size());
  net.input("x", {2, 3, 4}).input("z", {4}).node("Where", {"c", "x", "z"}, {"y"}).output("y");
  expect_same_on_opencl(net, "Where");
  Net cast;
  const std::vector<std::int64_t> ids = {0, -3, 7, 1 << 20, 5, 9};
  cast.typed_input("i", DataType::int64, {2, 3}, ids.data(), ids.size() * 8);
  cast.node("Cast", {"i"}, {"f"}, {make_attribute_int("to", 1)});
  cast.node("Cast", {"f"}, {"back"}, {make_attribute_int("to", 7)});
  cast.node("Cast", {"f"}, {"narrow"}, {make_attribute_int("to", 6)});
  expect_same_on_opencl(cast.output("f").output("back", DataType::int64).output("narrow", DataType::int32), "Cast");
}

// ---- convolution, products, pooling -------------------------------------------------------------------------------

Net conv(const std::vector<std::int64_t>& x, const std::vector<std::int64_t>& w, bool bias,
         const std::vector<ProtoWriter>& attributes) {
  Net net;
  net.input("x", x).weight("w", w, -0.5f, 0.5f);
  std::vector<std::string> in = {"x", "w"};
  if (bias) {
    net.weight("b", {w[0]});
    in.push_back("b");
  }
  net.node("Conv", in, {"y"}, attributes).output("y");
  return net;
}

TEST(OpenClKernels, Conv) {
  expect_same_on_opencl(conv({1, 5, 9, 11}, {7, 5, 3, 3}, true,
                             {make_attribute_ints("pads", {1, 1, 1, 1}), make_attribute_ints("strides", {2, 2}),
                              make_attribute_ints("dilations", {2, 1})}),
                        "3x3 stride 2 dilation");
  expect_same_on_opencl(conv({2, 6, 8, 7}, {6, 1, 3, 3}, true,
                             {make_attribute_int("group", 6), make_attribute_ints("pads", {1, 0, 2, 1})}),
                        "depthwise, asymmetric pads");
  expect_same_on_opencl(conv({1, 6, 5, 5}, {4, 3, 2, 3}, false, {make_attribute_int("group", 2)}), "grouped");
  expect_same_on_opencl(conv({1, 13, 6, 6}, {9, 13, 1, 1}, true, {}), "1x1");
  expect_same_on_opencl(conv({2, 3, 17}, {5, 3, 4}, true, {make_attribute_ints("strides", {3})}), "1-D");
  expect_same_on_opencl(conv({1, 3, 10, 9}, {4, 3, 3, 3}, true,
                             {make_attribute_string("auto_pad", "SAME_UPPER"), make_attribute_ints("strides", {2, 2})}),
                        "SAME_UPPER");
  expect_same_on_opencl(conv({1, 3, 10, 9}, {4, 3, 4, 4}, true, {make_attribute_string("auto_pad", "SAME_LOWER")}),
                        "SAME_LOWER");
  // Conv -> Relu and Conv -> Clip fuse (SessionOptions::fuse_activations): the device applies the clamp.
  for (const char* activation : {"Relu", "Clip"}) {
    Net net = conv({1, 4, 7, 7}, {5, 4, 3, 3}, true, {make_attribute_ints("pads", {1, 1, 1, 1})});
    net.outputs.clear();
    net.scalar("lo", -0.1f).scalar("hi", 0.3f);
    if (std::string(activation) == "Relu") {
      net.node("Relu", {"y"}, {"z"});
    } else {
      net.node("Clip", {"y", "lo", "hi"}, {"z"});
    }
    net.output("z");
    Prepared probe;
    ASSERT_TRUE(prepare(net, probe, om::DevicePolicy::device_strict).ok());
    EXPECT_NE(probe.session.fused_activation(0), nullptr) << activation;
    expect_same_on_opencl(net, std::string("Conv + ") + activation);
  }
}

TEST(OpenClKernels, GemmAndMatMul) {
  for (int ta = 0; ta < 2; ++ta) {
    for (int tb = 0; tb < 2; ++tb) {
      Net net;
      net.input("a", ta ? std::vector<std::int64_t>{7, 5} : std::vector<std::int64_t>{5, 7});
      net.weight("b", tb ? std::vector<std::int64_t>{9, 7} : std::vector<std::int64_t>{7, 9}).weight("c", {9});
      net.node("Gemm", {"a", "b", "c"}, {"y"},
               {make_attribute_int("transA", ta), make_attribute_int("transB", tb), make_attribute_float("alpha", 0.5f),
                make_attribute_float("beta", 2.0f)});
      expect_same_on_opencl(net.output("y"), "Gemm transA " + std::to_string(ta) + " transB " + std::to_string(tb));
    }
  }
  Net column_bias;
  column_bias.input("a", {4, 3}).weight("b", {3, 6}).weight("c", {4, 1});
  expect_same_on_opencl(column_bias.node("Gemm", {"a", "b", "c"}, {"y"}).output("y"), "Gemm bias [M,1]");
  const std::vector<std::pair<std::vector<std::int64_t>, std::vector<std::int64_t>>> shapes = {
      {{3, 4}, {4, 6}}, {{2, 1, 3, 4}, {5, 4, 6}}, {{4}, {2, 4, 3}}, {{2, 3, 4}, {4}},
      {{5}, {5}},       {{1, 17, 33}, {33, 9}}};
  for (const auto& [a, b] : shapes) {
    Net net;
    net.input("a", a).input("b", b).node("MatMul", {"a", "b"}, {"y"}).output("y");
    expect_same_on_opencl(net, "MatMul rank " + std::to_string(a.size()) + " x " + std::to_string(b.size()));
  }
}

TEST(OpenClKernels, Pooling) {
  expect_same_on_opencl(single("MaxPool", {1, 3, 9, 10},
                               {make_attribute_ints("kernel_shape", {3, 3}), make_attribute_ints("strides", {2, 2}),
                                make_attribute_ints("pads", {1, 1, 1, 1})}),
                        "MaxPool");
  expect_same_on_opencl(single("MaxPool", {2, 2, 11, 8},
                               {make_attribute_ints("kernel_shape", {2, 3}), make_attribute_ints("dilations", {2, 1}),
                                make_attribute_int("ceil_mode", 1), make_attribute_ints("strides", {2, 2})}),
                        "MaxPool dilation ceil_mode");
  for (int include_pad = 0; include_pad < 2; ++include_pad) {
    expect_same_on_opencl(
        single("AveragePool", {1, 5, 7, 7},
               {make_attribute_ints("kernel_shape", {3, 3}), make_attribute_ints("pads", {1, 1, 1, 1}),
                make_attribute_ints("strides", {2, 2}), make_attribute_int("count_include_pad", include_pad)}),
        "AveragePool count_include_pad " + std::to_string(include_pad));
  }
  expect_same_on_opencl(single("AveragePool", {1, 2, 15}, {make_attribute_ints("kernel_shape", {4})}), "1-D pool");
  expect_same_on_opencl(single("GlobalAveragePool", {2, 7, 5, 3}), "GlobalAveragePool");
  expect_same_on_opencl(single("GlobalMaxPool", {1, 9, 4, 4}), "GlobalMaxPool");
}

// ---- normalization, softmax, reductions --------------------------------------------------------------------------

TEST(OpenClKernels, SoftmaxAndNormalization) {
  for (int opset : {11, 13}) {
    for (std::int64_t axis : {1, -1}) {
      for (const char* op : {"Softmax", "LogSoftmax"}) {
        Net net = single(op, {2, 3, 5}, {make_attribute_int("axis", axis)});
        net.opset = opset;
        expect_same_on_opencl(net,
                              std::string(op) + " opset " + std::to_string(opset) + " axis " + std::to_string(axis));
      }
    }
  }
  Net layer_norm;
  layer_norm.input("x", {2, 5, 24}).weight("s", {24}).weight("b", {24});
  layer_norm.node("LayerNormalization", {"x", "s", "b"}, {"y"}, {make_attribute_float("epsilon", 1e-5f)});
  expect_same_on_opencl(layer_norm.output("y"), "LayerNormalization");
  Net layer_norm2;
  layer_norm2.input("x", {3, 4, 6}).weight("s", {4, 6});
  layer_norm2.node("LayerNormalization", {"x", "s"}, {"y"}, {make_attribute_int("axis", 1)});
  expect_same_on_opencl(layer_norm2.output("y"), "LayerNormalization axis 1, no bias");
  Net batch_norm;
  batch_norm.input("x", {2, 3, 4, 5}).weight("s", {3}).weight("b", {3}).weight("m", {3}).weight("v", {3}, 0.5f, 2);
  batch_norm.node("BatchNormalization", {"x", "s", "b", "m", "v"}, {"y"});
  expect_same_on_opencl(batch_norm.output("y"), "BatchNormalization");
  for (const char* op : {"ReduceMean", "ReduceSum", "ReduceMax", "ReduceMin"}) {
    Net net;
    net.opset = 18;
    net.input("x", {2, 3, 4, 5}).ints("axes", {1, 2}).node(op, {"x", "axes"}, {"y"}).output("y");
    expect_same_on_opencl(net, std::string(op) + " axes 1,2");
    Net old = single(op, {3, 7}, {make_attribute_ints("axes", {-1}), make_attribute_int("keepdims", 0)});
    old.opset = 11;
    expect_same_on_opencl(old, std::string(op) + " opset 11");
  }
}

// ---- data movement -----------------------------------------------------------------------------------------------

TEST(OpenClKernels, DataMovement) {
  expect_same_on_opencl(single("Transpose", {2, 3, 4, 5}, {make_attribute_ints("perm", {0, 2, 3, 1})}), "Transpose");
  expect_same_on_opencl(single("Transpose", {3, 7}), "Transpose default perm");
  Net concat;
  concat.input("a", {2, 3, 4}).input("b", {2, 1, 4}).weight("c", {2, 5, 4});
  concat.node("Concat", {"a", "b", "c"}, {"y"}, {make_attribute_int("axis", 1)});
  expect_same_on_opencl(concat.output("y"), "Concat");
  Net slice;
  slice.input("x", {5, 7, 6}).ints("st", {4, 1}).ints("en", {0, 7}).ints("ax", {0, 2}).ints("sp", {-2, 2});
  slice.node("Slice", {"x", "st", "en", "ax", "sp"}, {"y"});
  expect_same_on_opencl(slice.output("y"), "Slice negative step");
  Net split;
  split.input("x", {2, 9, 3}).ints("parts", {2, 3, 4});
  split.node("Split", {"x", "parts"}, {"a", "b", "c"}, {make_attribute_int("axis", 1)});
  expect_same_on_opencl(split.output("a").output("b").output("c"), "Split");
  Net expand;
  expand.input("x", {3, 1}).ints("shape", {2, 3, 4}).node("Expand", {"x", "shape"}, {"y"});
  expect_same_on_opencl(expand.output("y"), "Expand");
  Net reshape;
  reshape.input("x", {2, 3, 4}).ints("shape", {4, -1}).ints("axes", {0});
  reshape.node("Reshape", {"x", "shape"}, {"r"}).node("Relu", {"r"}, {"s"});
  reshape.node("Unsqueeze", {"s", "axes"}, {"u"}).node("Flatten", {"u"}, {"f"}).node("Squeeze", {"f", "axes"}, {"q"});
  reshape.node("Identity", {"q"}, {"y"});
  expect_same_on_opencl(reshape.output("y"), "Reshape, Unsqueeze, Flatten, Squeeze, Identity");
}

TEST(OpenClKernels, Resize) {
  struct ResizeCase {
    const char* what;
    std::vector<ProtoWriter> attributes;
    std::vector<float> scales;
    std::vector<std::int64_t> sizes;
  };
  const std::vector<ResizeCase> cases = {
      {"nearest 2x", {make_attribute_string("mode", "nearest")}, {1, 1, 2, 2}, {}},
      {"nearest floor asymmetric 1.5x",
       {make_attribute_string("mode", "nearest"), make_attribute_string("nearest_mode", "floor"),
        make_attribute_string("coordinate_transformation_mode", "asymmetric")},
       {1, 1, 1.5f, 1.5f},
       {}},
      {"linear half_pixel to sizes", {make_attribute_string("mode", "linear")}, {}, {2, 3, 4, 13}},
      {"linear align_corners",
       {make_attribute_string("mode", "linear"),
        make_attribute_string("coordinate_transformation_mode", "align_corners")},
       {1, 1, 2.5f, 0.6f},
       {}},
      {"cubic pytorch_half_pixel",
       {make_attribute_string("mode", "cubic"),
        make_attribute_string("coordinate_transformation_mode", "pytorch_half_pixel")},
       {1, 1, 1.7f, 2},
       {}},
  };
  for (const ResizeCase& c : cases) {
    Net net;
    net.opset = 13;
    net.input("x", {2, 3, 7, 9});
    std::vector<std::string> in = {"x", "", ""};
    if (!c.scales.empty()) {
      net.initializers.push_back(make_float_tensor("scales", {4}, c.scales));
      in[2] = "scales";
    } else {
      net.ints("sizes", c.sizes);
      in.push_back("sizes");
    }
    net.node("Resize", in, {"y"}, c.attributes).output("y");
    expect_same_on_opencl(net, std::string("Resize ") + c.what);
  }
}

TEST(OpenClKernels, Gather) {
  Net constant_indices;
  constant_indices.input("x", {4, 5, 3}).ints("i", {3, -1, 0, 2});
  constant_indices.node("Gather", {"x", "i"}, {"y"}, {make_attribute_int("axis", 1)});
  expect_same_on_opencl(constant_indices.output("y"), "Gather constant indices");
  Net run_time_indices;
  const std::vector<std::int64_t> ids = {7, 0, 3, 3, -2, 9};
  run_time_indices.weight("table", {10, 8}).typed_input("ids", DataType::int64, {2, 3}, ids.data(), ids.size() * 8);
  run_time_indices.node("Gather", {"table", "ids"}, {"y"});
  expect_same_on_opencl(run_time_indices.output("y"), "Gather run-time indices (embedding)");
}

TEST(OpenClKernels, GatherIndexOutOfRangeFailsTheRun) {
  Net net;
  const std::vector<std::int64_t> ids = {1, 12};
  net.weight("table", {10, 4}).typed_input("ids", DataType::int64, {2}, ids.data(), ids.size() * 8);
  net.node("Gather", {"table", "ids"}, {"y"}).output("y");
  Prepared device;
  ASSERT_TRUE(prepare(net, device, om::DevicePolicy::device_strict).ok());
  const om::Status st = feed_and_run(net, device.session);
  EXPECT_EQ(st.code(), om::StatusCode::out_of_range);
  EXPECT_NE(std::string(st.message()).find("Gather"), std::string::npos) << st.message();
  // The error word is cleared: a run with valid indices succeeds again.
  const std::vector<std::int64_t> good = {1, 9};
  std::memcpy(net.feeds[0].bytes.data(), good.data(), 16);
  EXPECT_TRUE(feed_and_run(net, device.session).ok());
}

// ---- placement, transfers, strict mode ---------------------------------------------------------------------------

/// x -> Relu -> Round (no OpenCL kernel) -> Sigmoid -> y, plus a Shape (shape arithmetic).
Net mixed() {
  Net net;
  net.input("x", {2, 3, 4}).node("Relu", {"x"}, {"r"}).node("Round", {"r"}, {"q"}).node("Sigmoid", {"q"}, {"y"});
  net.node("Shape", {"x"}, {"s"});
  return net.output("y").output("s", DataType::int64);
}

TEST(OpenClPlacement, MixedModelReportsEveryFallbackAndTransfer) {
  const Net net = mixed();
  Prepared device, cpu;
  ASSERT_TRUE(prepare(net, cpu, om::DevicePolicy::cpu_only).ok());
  const om::Status st = prepare(net, device, om::DevicePolicy::prefer_device);
  ASSERT_TRUE(st.ok()) << st.message();
  const om::Span<const om::NodeReport> reports = device.session.node_reports();
  ASSERT_EQ(reports.size(), 4u);
  EXPECT_EQ(reports[0].placement, om::Placement::opencl);
  EXPECT_EQ(reports[1].placement, om::Placement::cpu);
  EXPECT_TRUE(reports[1].fallback);
  EXPECT_EQ(device.session.placement_reason(1), "no OpenCL kernel for Round");
  EXPECT_EQ(device.session.placement_reason(0), "");
  EXPECT_EQ(device.session.placement_reason(3), "folded at prepare");
  EXPECT_EQ(reports[2].placement, om::Placement::opencl);
  // Shape of a graph input: folded at prepare (static shape), never a fallback.
  EXPECT_FALSE(reports[3].fallback);
  EXPECT_TRUE(reports[3].folded);
  const om::Span<const om::TransferReport> transfers = device.session.transfers();
  ASSERT_EQ(transfers.size(), 4u);
  const std::size_t bytes = 2 * 3 * 4 * sizeof(float);
  const struct {
    const char* tensor;
    om::TransferDirection direction;
  } expected[] = {{"x", om::TransferDirection::host_to_device},
                  {"r", om::TransferDirection::device_to_host},
                  {"q", om::TransferDirection::host_to_device},
                  {"y", om::TransferDirection::device_to_host}};
  for (std::size_t k = 0; k < 4; ++k) {
    EXPECT_EQ(transfers[k].tensor, expected[k].tensor) << k;
    EXPECT_EQ(transfers[k].direction, expected[k].direction) << k;
    EXPECT_EQ(transfers[k].bytes, bytes) << k;
  }
  EXPECT_EQ(om::opencl::placement_summary(device.session),
            "2 nodes on opencl, 1 on cpu (1 fallback: Round 'Round_1': no OpenCL kernel for Round), 1 folded at "
            "prepare, 4 transfers, 0.0 MB");
  ASSERT_TRUE(feed_and_run(net, cpu.session).ok());
  ASSERT_TRUE(feed_and_run(net, device.session).ok());
  expect_close(device.session.output(0), cpu.session.output(0), "mixed model");
  expect_close(device.session.output(1), cpu.session.output(1), "mixed model shape");
}

TEST(OpenClPlacement, StrictModeNamesEveryNodeThatWouldFallBack) {
  Net net = mixed();
  net.node("Mod", {"y", "y"}, {"m"}, {make_attribute_int("fmod", 1)}).output("m");
  Prepared device;
  const om::Status st = prepare(net, device, om::DevicePolicy::device_strict);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.code(), om::StatusCode::unsupported);
  const std::string message = st.message();
  EXPECT_NE(message.find("device_strict: 2 nodes would fall back"), std::string::npos) << message;
  EXPECT_NE(message.find("node 'Round_1' (Round"), std::string::npos) << message;
  EXPECT_NE(message.find("no OpenCL kernel for Round"), std::string::npos) << message;
  EXPECT_NE(message.find("no OpenCL kernel for Mod"), std::string::npos) << message;
}

TEST(OpenClPlacement, UnsupportedAttributesAndDtypesFallBackWithTheirReason) {
  Net doubles;
  const std::vector<double> values = {1, -2, 3};
  doubles.typed_input("x", DataType::float64, {3}, values.data(), 24).node("Relu", {"x"}, {"y"});
  doubles.output("y", DataType::float64);
  Prepared p;
  ASSERT_TRUE(prepare(doubles, p, om::DevicePolicy::prefer_device).ok());
  EXPECT_TRUE(p.session.node_reports()[0].fallback);
  EXPECT_EQ(p.session.placement_reason(0), "input 0 is double (the OpenCL kernels take float32)");
  Net pool = single("MaxPool", {1, 1, 4, 4, 4}, {make_attribute_ints("kernel_shape", {2, 2, 2})});
  Prepared q;
  ASSERT_TRUE(prepare(pool, q, om::DevicePolicy::prefer_device).ok());
  EXPECT_EQ(q.session.placement_reason(0), "3 spatial dims (OpenCL: 1 or 2)");
  ASSERT_TRUE(feed_and_run(pool, q.session).ok());  // the CPU ran it
}

TEST(OpenClPlacement, MalformedModelsFailAtPrepareAsOnTheCpu) {
  // A Conv whose weights have the wrong rank: the CPU prepare (which runs first) reports it, device or not.
  Net net = conv({1, 3, 6, 6}, {2, 3, 3}, false, {});
  Prepared cpu, device;
  const om::Status on_cpu = prepare(net, cpu, om::DevicePolicy::cpu_only);
  const om::Status on_device = prepare(net, device, om::DevicePolicy::device_strict);
  ASSERT_FALSE(on_cpu.ok());
  EXPECT_EQ(on_device.code(), on_cpu.code());
  EXPECT_EQ(std::string(on_device.message()), std::string(on_cpu.message()));
}

TEST(OpenClPlacement, DevicePolicyWithoutADeviceIsAnError) {
  Net net = single("Relu", {3});
  std::vector<unsigned char> bytes = net.bytes();
  om::Model model;
  ASSERT_TRUE(model.load(om::ByteSpan(bytes.data(), bytes.size())).ok());
  om::Session session;
  om::SessionOptions options;
  options.device_policy = om::DevicePolicy::prefer_device;
  const om::Status st = session.prepare(model, om::AllKernels::registry(), options);
  EXPECT_EQ(st.code(), om::StatusCode::invalid_argument);
  EXPECT_NE(std::string(st.message()).find("SessionOptions::device is null"), std::string::npos);
}

TEST(OpenClPlacement, NoDeviceMatchesTheSelector) {
  om::opencl::Backend backend;
  om::opencl::Options options;
  options.device = "no-such-device-name";
  const om::Status st = backend.open(options);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(std::string(st.message()).find("no OpenCL device matches 'no-such-device-name'"), std::string::npos)
      << st.message();
  EXPECT_FALSE(backend.available().ok());
}

// ---- program cache -----------------------------------------------------------------------------------------------

std::string fresh_directory(const std::string& name) {
  const std::string dir = std::string(::testing::TempDir()) + "onnxmicro_opencl_" + name + "_" +
                          std::to_string(static_cast<long>(::getpid()));
  std::system(("rm -rf '" + dir + "' && mkdir -p '" + dir + "'").c_str());
  return dir;
}

TEST(OpenClProgramCache, BuildsOnceThenLoadsAndRebuildsWhatIsCorruptOrDifferent) {
  const std::string dir = fresh_directory("cache");
  om::opencl::Options options;
  options.cache_directory = dir;
  om::opencl::Backend first;
  ASSERT_TRUE(first.open(options).ok());
  EXPECT_EQ(first.program_stats().builds, 1);
  EXPECT_EQ(first.program_stats().cache_hits, 0);
  om::opencl::Backend second;
  ASSERT_TRUE(second.open(options).ok());
  EXPECT_EQ(second.program_stats().builds, 0);
  EXPECT_EQ(second.program_stats().cache_hits, 1);
  EXPECT_EQ(second.cache_entry(), first.cache_entry());
  // The cached program computes the same thing.
  Net net = conv({1, 3, 6, 6}, {2, 3, 3, 3}, true, {});
  Prepared cpu, device;
  ASSERT_TRUE(prepare(net, cpu, om::DevicePolicy::cpu_only).ok());
  device.bytes = net.bytes();
  ASSERT_TRUE(device.model.load(om::ByteSpan(device.bytes.data(), device.bytes.size())).ok());
  ASSERT_TRUE(device.backend.open(options).ok());
  EXPECT_EQ(device.backend.program_stats().cache_hits, 1);
  om::SessionOptions session_options;
  session_options.device = &device.backend;
  session_options.device_policy = om::DevicePolicy::device_strict;
  ASSERT_TRUE(device.session.prepare(device.model, om::AllKernels::registry(), session_options).ok());
  ASSERT_TRUE(feed_and_run(net, cpu.session).ok());
  ASSERT_TRUE(feed_and_run(net, device.session).ok());
  expect_close(device.session.output(0), cpu.session.output(0), "conv from a cached program");
  // A corrupted entry is rejected and rebuilt, never trusted.
  {
    std::fstream entry(first.cache_entry(), std::ios::in | std::ios::out | std::ios::binary);
    ASSERT_TRUE(entry.good());
    entry.seekp(40);
    entry.write("garbage!", 8);
  }
  om::opencl::Backend third;
  ASSERT_TRUE(third.open(options).ok());
  EXPECT_EQ(third.program_stats().cache_rejected, 1);
  EXPECT_EQ(third.program_stats().builds, 1);
  om::opencl::Backend fourth;
  ASSERT_TRUE(fourth.open(options).ok());
  EXPECT_EQ(fourth.program_stats().cache_hits, 1);  // the rebuilt entry
  // Other build options are another key: a miss, built and stored beside the first.
  om::opencl::Options other = options;
  other.build_options = "-cl-denorms-are-zero";
  om::opencl::Backend fifth;
  ASSERT_TRUE(fifth.open(other).ok());
  EXPECT_EQ(fifth.program_stats().builds, 1);
  EXPECT_EQ(fifth.program_stats().cache_hits, 0);
  EXPECT_NE(fifth.cache_entry(), first.cache_entry());
  std::system(("rm -rf '" + dir + "'").c_str());
}

using onnxmicro_test::ScopedEnvironment;

// PoCL without its kernel cache gives every program loaded from one binary the same build directory and deletes it
// when any of them is released: the CI run of 7d21101 aborted in PoCL ("Can't get stat() on ...") while one test
// session's program was released and the next one's was compiling into that directory. The backend compiles from
// source there and says why. (PoCL read POCL_KERNEL_CACHE when this process built its first program; the ctest sets
// it to 1, so the program built here under "0" is safe.)
TEST(OpenClProgramCache, IsNotUsedWherePoclWouldDeleteTheDirectoryOfALiveProgram) {
  const std::string dir = fresh_directory("hazard");
  om::opencl::Options options;
  options.cache_directory = dir;
  om::opencl::Backend probe;
  ASSERT_TRUE(probe.open().ok());
  const std::string description = probe.device_description();
  const bool pocl = description.find("Portable Computing Language") != std::string::npos ||
                    description.find("PoCL") != std::string::npos || description.find("pocl") != std::string::npos;
  {
    const ScopedEnvironment uncached("POCL_KERNEL_CACHE", "0");
    for (int open = 0; open < 2; ++open) {
      om::opencl::Backend backend;
      ASSERT_TRUE(backend.open(options).ok());
      const om::opencl::ProgramStats& stats = backend.program_stats();
      if (pocl) {
        EXPECT_NE(stats.cache_bypassed.find("POCL_KERNEL_CACHE=0"), std::string::npos) << stats.cache_bypassed;
        EXPECT_EQ(stats.builds, 1);
        EXPECT_EQ(stats.cache_hits, 0);
        EXPECT_TRUE(backend.cache_entry().empty());
      } else {
        EXPECT_TRUE(stats.cache_bypassed.empty()) << description << ": " << stats.cache_bypassed;
      }
    }
  }
  const ScopedEnvironment cached("POCL_KERNEL_CACHE", "1");
  om::opencl::Backend first, second;
  ASSERT_TRUE(first.open(options).ok());
  ASSERT_TRUE(second.open(options).ok());
  EXPECT_TRUE(second.program_stats().cache_bypassed.empty()) << second.program_stats().cache_bypassed;
  EXPECT_EQ(second.program_stats().cache_hits, 1);
  EXPECT_FALSE(second.cache_entry().empty());
  std::system(("rm -rf '" + dir + "'").c_str());
}

// ---- no OpenCL platform (ctest opencl_no_platform: OCL_ICD_VENDORS at an empty folder) ---------------------------

TEST(NoPlatform, PreferredRunsOnTheCpuAndSaysSoStrictFails) {
  om::opencl::Backend probe;
  const om::Status opened = probe.open();
  ASSERT_FALSE(opened.ok()) << "this test expects no OpenCL platform (run it through ctest opencl_no_platform)";
  EXPECT_NE(std::string(opened.message()).find("no OpenCL platform"), std::string::npos) << opened.message();
  const Net net = mixed();
  Prepared preferred, cpu;
  ASSERT_TRUE(prepare(net, cpu, om::DevicePolicy::cpu_only).ok());
  ASSERT_TRUE(prepare(net, preferred, om::DevicePolicy::prefer_device).ok());
  for (std::size_t i = 0; i < preferred.session.node_reports().size(); ++i) {
    const om::NodeReport& r = preferred.session.node_reports()[i];
    EXPECT_EQ(r.placement, om::Placement::cpu);
    if (r.folded) continue;
    EXPECT_TRUE(r.fallback);
    const std::string reason(preferred.session.placement_reason(i));
    EXPECT_NE(reason.find("no OpenCL platform"), std::string::npos) << reason;
  }
  EXPECT_TRUE(preferred.session.transfers().empty());
  ASSERT_TRUE(feed_and_run(net, cpu.session).ok());
  ASSERT_TRUE(feed_and_run(net, preferred.session).ok());
  expect_close(preferred.session.output(0), cpu.session.output(0), "preferred without a platform");
  Prepared strict;
  const om::Status st = prepare(net, strict, om::DevicePolicy::device_strict);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(std::string(st.message()).find("device_strict: the device is unavailable: no OpenCL platform"),
            std::string::npos)
      << st.message();
}

// ---- real exports (ctest opencl_models_strict) -------------------------------------------------------------------

std::vector<unsigned char> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<unsigned char>((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

/// Every node of `model_dir`/model.onnx on OpenCL (strict), outputs equal to the CPU path on deterministic inputs.
void expect_model_on_opencl(const std::string& model_dir) {
  SCOPED_TRACE(model_dir);
  const std::vector<unsigned char> bytes = read_file(model_dir + "/model.onnx");
  ASSERT_FALSE(bytes.empty()) << "missing " << model_dir << "/model.onnx";
  om::Model model;
  ASSERT_TRUE(model.load(om::ByteSpan(bytes.data(), bytes.size())).ok());
  om::Session cpu, device;
  om::opencl::Backend backend;
  ASSERT_TRUE(cpu.prepare(model, om::AllKernels::registry()).ok());
  om::SessionOptions options;
  options.device = &backend;
  options.device_policy = om::DevicePolicy::device_strict;
  const om::Status st = device.prepare(model, om::AllKernels::registry(), options);
  ASSERT_TRUE(st.ok()) << st.message();
  std::printf("%s: %s\n", model_dir.c_str(), om::opencl::placement_summary(device).c_str());
  for (std::size_t i = 0; i < cpu.input_count(); ++i) {
    const om::TensorView a = cpu.input(i), b = device.input(i);
    for (std::int64_t e = 0; e < a.element_count(); ++e) {
      if (a.dtype == DataType::float32) {
        static_cast<float*>(a.data)[e] = static_cast<float*>(b.data)[e] = std::sin(0.37f * static_cast<float>(e));
      } else if (a.dtype == DataType::int64) {
        // input ids within any vocabulary; an attention mask of ones with the last three positions masked
        const std::int64_t v = i == 0 ? (e * 37) % 500 : (e < a.element_count() - 3 ? 1 : 0);
        static_cast<std::int64_t*>(a.data)[e] = static_cast<std::int64_t*>(b.data)[e] = v;
      }
    }
  }
  ASSERT_TRUE(cpu.run().ok());
  const om::Status ran = device.run();
  ASSERT_TRUE(ran.ok()) << ran.message();
  for (std::size_t k = 0; k < cpu.output_count(); ++k) {
    expect_close(device.output(k), cpu.output(k), model_dir + " output " + std::to_string(k));
  }
}

TEST(OpenClModels, CnnAndBertExportsRunWhollyOnOpenCl) {
  const char* dir = std::getenv("ONNXMICRO_OPENCL_MODELS_DIR");
  ASSERT_NE(dir, nullptr) << "set ONNXMICRO_OPENCL_MODELS_DIR (ctest opencl_models_strict does)";
  for (const char* name :
       {"resnet18_float", "mobilenet_v2_float", "squeezenet1_1_float", "shufflenet_v2_x1_0_float", "bert_tiny"}) {
    expect_model_on_opencl(std::string(dir) + "/" + name);
  }
}

TEST(OpenClModels, HelloCnnRunsWhollyOnOpenCl) {
  expect_model_on_opencl(std::string(ONNXMICRO_SOURCE_DIR) + "/tests/models/hello_cnn");
}

}  // namespace
