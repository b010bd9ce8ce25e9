// SPDX-License-Identifier: MIT
// A build with every dtype and feature a firmware may compile out turned off (CMakeLists.txt: its own executable,
// since mixing the macros' values across the units of one program would break the one-definition rule). A float32
// CNN still runs and matches onnxruntime's output; a model that reads or writes a compiled-out dtype (an input, an
// initializer, a Constant, a Cast to it) fails at Session::prepare with one precise message naming node, tensor,
// dtype and macro, before any kernel (or constant folding) sees the tensor. A model that needs a compiled-out
// feature (QDQ fusion, model-local functions, external data, subgraphs, input shapes not fixed by the model) fails
// to load or prepare naming what and the macro; so does a tensor of a rank above ONNXMICRO_MAX_RANK (4 here), and a
// session given a thread pool (ONNXMICRO_ENABLE_THREADS) or a device policy (ONNXMICRO_ENABLE_DEVICES).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "default_model.hpp"  // examples/hello: tests/models/hello_cnn with its input and onnxruntime's output
#include "onnxmicro/onnxmicro.hpp"
#include "support/proto_writer.hpp"

#if ONNXMICRO_ENABLE_FLOAT64 || ONNXMICRO_ENABLE_FLOAT16 || ONNXMICRO_ENABLE_QDQ_FUSION ||              \
    ONNXMICRO_ENABLE_MODEL_FUNCTIONS || ONNXMICRO_ENABLE_EXTERNAL_DATA || ONNXMICRO_ENABLE_SUBGRAPHS || \
    ONNXMICRO_ENABLE_DYNAMIC_SHAPES || ONNXMICRO_ENABLE_THREADS || ONNXMICRO_ENABLE_DEVICES
#error "tests/compiled_out must be compiled with every ONNXMICRO_ENABLE_* of its CMakeLists.txt set to 0"
#endif
static_assert(ONNXMICRO_MAX_RANK == 4, "tests/compiled_out is compiled with ONNXMICRO_MAX_RANK=4 (CMakeLists.txt)");

namespace {

namespace om = onnxmicro;
using om::DataType;
using om::Status;
using om::StatusCode;
using namespace onnxmicro_test;

static_assert(!om::dtype_enabled(DataType::float64) && !om::dtype_enabled(DataType::float16) &&
              !om::dtype_enabled(DataType::bfloat16) && om::dtype_enabled(DataType::float32) &&
              om::dtype_enabled(DataType::int64));
static_assert(om::compiled_dtype(DataType::float64) == DataType::undefined &&
              om::compiled_dtype(DataType::bfloat16) == DataType::undefined &&
              om::compiled_dtype(DataType::float32) == DataType::float32);
// ONNXMICRO_ENABLED_DTYPES without int16's bit (CMakeLists.txt).
static_assert(!om::dtype_enabled(DataType::int16) && om::compiled_dtype(DataType::int16) == DataType::undefined &&
              om::dtype_enabled(DataType::int8) && om::compiled_dtype(DataType::uint16) == DataType::uint16);

// The kernels of the models below (hello_cnn and the one-node models), at opset 13.
using TestKernels =
    om::KernelSet<om::kernels::Conv_1, om::kernels::Relu_1, om::kernels::MaxPool_10, om::kernels::BatchNormalization_9,
                  om::kernels::GlobalAveragePool_1, om::kernels::Flatten_11, om::kernels::Gemm_11,
                  om::kernels::Softmax_13, om::kernels::Cast_6, om::kernels::Add_7, om::kernels::Constant_12,
                  om::kernels::Identity_1, om::kernels::QuantizeLinear_13, om::kernels::DequantizeLinear_13>;

/// Loads `proto` and prepares it with TestKernels; returns the first failing status.
struct Prepared {
  std::vector<unsigned char> bytes;
  om::Model model;
  om::Session session;

  Status load_and_prepare(const ProtoWriter& proto, const om::SessionOptions& options = om::SessionOptions()) {
    bytes = proto.bytes();
    Status st = model.load(om::ByteSpan(bytes.data(), bytes.size()));
    if (!st.ok()) return st;
    return session.prepare(model, TestKernels::registry(), options);
  }
};

/// One node `op` named `node_name` from x (dtype `in`) to y (dtype `out`), both of shape [2].
ProtoWriter one_node_model(std::string_view op, std::string_view node_name, DataType in, DataType out,
                           const std::vector<ProtoWriter>& attributes = {}) {
  ProtoWriter graph = make_graph("g", {make_node(op, {"x"}, {"y"}, attributes, node_name)},
                                 {make_value_info("x", in, {2})}, {make_value_info("y", out, {2})});
  return make_model(graph, 13);
}

/// Loads and prepares `proto`, which must fail as unsupported with exactly `message`.
void expect_unsupported(const ProtoWriter& proto, std::string_view message) {
  Prepared p;
  const Status st = p.load_and_prepare(proto);
  EXPECT_EQ(st.code(), StatusCode::unsupported);
  EXPECT_EQ(st.message_view(), message);
}

TEST(CompiledOut, Float32CnnStillMatchesOnnxruntime) {
  om::Model model;
  ASSERT_TRUE(model.load(om::ByteSpan(hello_cnn_model, hello_cnn_model_size)).ok());
  om::Session session;
  Status st = session.prepare(model, TestKernels::registry());
  ASSERT_TRUE(st.ok()) << st.message();
  om::Shape shape;
  ASSERT_TRUE(shape.assign(hello_cnn_model_input_shape, hello_cnn_model_input_rank).ok());
  st = session.set_input(0, om::ConstTensorView(DataType::float32, shape, hello_cnn_model_input));
  ASSERT_TRUE(st.ok()) << st.message();
  st = session.run();
  ASSERT_TRUE(st.ok()) << st.message();
  const om::ConstTensorView y = session.output(0);
  ASSERT_EQ(y.dtype, DataType::float32);
  ASSERT_EQ(static_cast<std::size_t>(y.element_count()), hello_cnn_model_expected_count);
  for (std::size_t i = 0; i < hello_cnn_model_expected_count; ++i) {
    EXPECT_NEAR(y.data_as<float>()[i], hello_cnn_model_expected[i], 1e-5f) << "element " << i;
  }
}

// A pool that must never be asked for anything: with threads compiled out no kernel splits.
class UnusedPool final : public om::ThreadPool {
 public:
  std::size_t concurrency() const noexcept override { return 4; }
  void parallel_for(std::size_t, Task, void*) noexcept override { ADD_FAILURE() << "parallel_for was called"; }
};

TEST(CompiledOut, ThreadPoolIsRefusedAtPrepareNamingTheMacro) {
  static_assert(om::Workers(nullptr, 4).count() == 1, "without threads every split has one task");
  UnusedPool pool;
  om::SessionOptions options;
  options.thread_pool = &pool;
  Prepared p;
  const Status st = p.load_and_prepare(one_node_model("Relu", "relu", DataType::float32, DataType::float32), options);
  EXPECT_EQ(st.code(), StatusCode::unsupported);
  EXPECT_EQ(st.message_view(),
            "SessionOptions::thread_pool is set, but this build has ONNXMICRO_ENABLE_THREADS=0 (the default on bare "
            "metal and with ONNXMICRO_OPTIMIZE_FOR_SIZE): build with -DONNXMICRO_ENABLE_THREADS=1 or pass no pool");
  Prepared plain;
  EXPECT_TRUE(plain.load_and_prepare(one_node_model("Relu", "relu", DataType::float32, DataType::float32)).ok());
  EXPECT_EQ(plain.session.thread_count(), 1u);
}

TEST(CompiledOut, DevicePolicyIsRefusedAtPrepareNamingTheMacro) {
  om::SessionOptions options;
  options.device_policy = om::DevicePolicy::prefer_device;
  Prepared p;
  const Status st = p.load_and_prepare(one_node_model("Relu", "relu", DataType::float32, DataType::float32), options);
  EXPECT_EQ(st.code(), StatusCode::unsupported);
  EXPECT_EQ(st.message_view(), "SessionOptions::device_policy needs ONNXMICRO_ENABLE_DEVICES=1");
  EXPECT_EQ(p.session.transfers().size(), 0u);
}

TEST(CompiledOut, Float64InputFailsAtPrepare) {
  expect_unsupported(
      one_node_model("Relu", "relu64", DataType::float64, DataType::float64),
      "node 'relu64' (Relu, domain ai.onnx, opset 13): input 0 'x' is double, which this build leaves out "
      "(ONNXMICRO_ENABLE_FLOAT64=0)");
}

TEST(CompiledOut, Float16InputFailsAtPrepare) {
  expect_unsupported(
      one_node_model("Relu", "relu16", DataType::float16, DataType::float16),
      "node 'relu16' (Relu, domain ai.onnx, opset 13): input 0 'x' is float16, which this build leaves out "
      "(ONNXMICRO_ENABLE_FLOAT16=0)");
}

TEST(CompiledOut, Int16OutsideEnabledDtypesFailsAtPrepare) {
  expect_unsupported(
      one_node_model("Relu", "relu_i16", DataType::int16, DataType::int16),
      "node 'relu_i16' (Relu, domain ai.onnx, opset 13): input 0 'x' is int16, which this build leaves out "
      "(ONNXMICRO_ENABLED_DTYPES without this dtype's bit)");
}

TEST(CompiledOut, CastFloat32ToFloat64FailsAtPrepare) {
  expect_unsupported(
      one_node_model("Cast", "to_double", DataType::float32, DataType::float64,
                     {make_attribute_int("to", static_cast<int>(DataType::float64))}),
      "node 'to_double' (Cast, domain ai.onnx, opset 13): output 0 'y' is double, which this build leaves out "
      "(ONNXMICRO_ENABLE_FLOAT64=0)");
}

TEST(CompiledOut, CastFloat32ToBfloat16FailsAtPrepare) {
  expect_unsupported(
      one_node_model("Cast", "to_bf16", DataType::float32, DataType::bfloat16,
                     {make_attribute_int("to", static_cast<int>(DataType::bfloat16))}),
      "node 'to_bf16' (Cast, domain ai.onnx, opset 13): output 0 'y' is bfloat16, which this build leaves out "
      "(ONNXMICRO_ENABLE_FLOAT16=0)");
}

// A float64 initializer cast to float32 would be folded at prepare time: the check comes before folding.
TEST(CompiledOut, Float64InitializerIsNotFoldedAway) {
  const std::vector<double> w = {1.5, -2.0};
  ProtoWriter graph =
      make_graph("g",
                 {make_node("Cast", {"w"}, {"wf"}, {make_attribute_int("to", 1)}, "narrow"),
                  make_node("Add", {"x", "wf"}, {"y"}, {}, "add")},
                 {make_value_info("x", DataType::float32, {2})}, {make_value_info("y", DataType::float32, {2})},
                 {make_tensor_raw("w", DataType::float64, {2}, w.data(), w.size() * sizeof(double))});
  expect_unsupported(
      make_model(graph, 13),
      "node 'narrow' (Cast, domain ai.onnx, opset 13): input 0 'w' is double, which this build leaves out "
      "(ONNXMICRO_ENABLE_FLOAT64=0)");
}

// The same with the data in double_data, which would need decoding: a compiled-out dtype is never decoded
// (Tensor::decode_to is compiled without it); the node reading it is refused as above, a graph output at prepare,
// and decode_to itself refuses the tensor by name.
TEST(CompiledOut, Float64TypedDataIsNeverDecoded) {
  const std::vector<double> w = {1.5, -2.0};
  // TensorProto: dims 1, data_type 2, name 8, double_data 10 (packed).
  ProtoWriter typed;
  typed.int_field(1, 2).int_field(2, static_cast<std::int64_t>(DataType::float64)).string_field(8, "w");
  typed.bytes_field(10, w.data(), w.size() * sizeof(double));
  ProtoWriter graph = make_graph("g",
                                 {make_node("Cast", {"w"}, {"wf"}, {make_attribute_int("to", 1)}, "narrow"),
                                  make_node("Add", {"x", "wf"}, {"y"}, {}, "add")},
                                 {make_value_info("x", DataType::float32, {2})},
                                 {make_value_info("y", DataType::float32, {2})}, {typed});
  expect_unsupported(make_model(graph, 13),
                     "node 'narrow' (Cast, domain ai.onnx, opset 13): input 0 'w' is double, which this build leaves "
                     "out (ONNXMICRO_ENABLE_FLOAT64=0)");

  ProtoWriter output_graph =
      make_graph("g", {make_node("Relu", {"x"}, {"y"}, {}, "relu")}, {make_value_info("x", DataType::float32, {2})},
                 {make_value_info("y", DataType::float32, {2}), make_value_info("w", DataType::float64, {2})}, {typed});
  expect_unsupported(make_model(output_graph, 13),
                     "graph output 'w' is an initializer of dtype double, which this build leaves out "
                     "(ONNXMICRO_ENABLE_FLOAT64=0)");

  const std::vector<unsigned char> bytes = typed.bytes();
  om::proto::Tensor tensor;
  ASSERT_TRUE(om::proto::Tensor::parse(om::ByteSpan(bytes.data(), bytes.size()), 0, tensor).ok());
  double decoded[2] = {};
  const Status st = tensor.decode_to(decoded, sizeof(decoded));
  EXPECT_EQ(st.code(), StatusCode::unsupported);
  EXPECT_EQ(st.message_view(),
            "tensor 'w' (double [2]): its dtype double is one this build leaves out (ONNXMICRO_ENABLE_FLOAT64=0)");
}

// A Constant's output dtype is only known once its kernel ran prepare: checked there, before folding.
TEST(CompiledOut, Float16ConstantFailsAtPrepare) {
  const std::vector<std::uint16_t> bits = {0x3c00, 0x4000};  // 1.0, 2.0
  ProtoWriter value = make_tensor_raw("c_value", DataType::float16, {2}, bits.data(), bits.size() * 2);
  ProtoWriter graph =
      make_graph("g",
                 {make_node("Constant", {}, {"c"}, {make_attribute_tensor("value", value)}, "const16"),
                  make_node("Cast", {"c"}, {"cf"}, {make_attribute_int("to", 1)}, "widen"),
                  make_node("Add", {"x", "cf"}, {"y"}, {}, "add")},
                 {make_value_info("x", DataType::float32, {2})}, {make_value_info("y", DataType::float32, {2})});
  expect_unsupported(
      make_model(graph, 13),
      "node 'const16' (Constant, domain ai.onnx, opset 13): output 0 'c' is float16, which this build leaves "
      "out (ONNXMICRO_ENABLE_FLOAT16=0)");
}

// ---- features ---------------------------------------------------------------------------------------------------

// x -> QuantizeLinear(scale 0.5, zero point 0, uint8) -> DequantizeLinear -> y: a QDQ pair.
ProtoWriter qdq_model() {
  const std::vector<float> scale = {0.5f};
  const std::vector<std::uint8_t> zero = {0};
  ProtoWriter graph =
      make_graph("g",
                 {make_node("QuantizeLinear", {"x", "s", "z"}, {"q"}, {}, "q"),
                  make_node("DequantizeLinear", {"q", "s", "z"}, {"y"}, {}, "dq")},
                 {make_value_info("x", DataType::float32, {4})}, {make_value_info("y", DataType::float32, {4})},
                 {make_tensor_raw("s", DataType::float32, {}, scale.data(), sizeof(float)),
                  make_tensor_raw("z", DataType::uint8, {}, zero.data(), 1)});
  return make_model(graph, 13);
}

// Running QDQ groups in float without being asked would be the silent slow path users come from.
TEST(CompiledOut, QdqModelNeedsFusionOrAnExplicitFloatPath) {
  Prepared p;
  Status st = p.load_and_prepare(qdq_model());
  EXPECT_EQ(st.code(), StatusCode::unsupported);
  EXPECT_EQ(st.message_view(),
            "node 'dq' (DequantizeLinear, domain ai.onnx, opset 13): a QDQ model, but this build compiled QDQ fusion "
            "out (ONNXMICRO_ENABLE_QDQ_FUSION=0); set SessionOptions::fuse_qdq = false to run its DequantizeLinear "
            "-> op -> QuantizeLinear groups in float");

  // Asked for explicitly: the float path, with the values QuantizeLinear/DequantizeLinear define.
  om::SessionOptions options;
  options.fuse_qdq = false;
  Prepared asked;
  st = asked.load_and_prepare(qdq_model(), options);
  ASSERT_TRUE(st.ok()) << st.message();
  const float x[] = {0.74f, -1.0f, 1.3f, 200.0f};  // 1.48 -> 1, clamped to 0, 2.6 -> 3, saturates at 255
  ASSERT_TRUE(asked.session.set_input(0, om::ConstTensorView(DataType::float32, om::Shape{4}, x)).ok());
  ASSERT_TRUE(asked.session.run().ok());
  const float* y = asked.session.output(0).data_as<float>();
  EXPECT_EQ(y[0], 0.5f);
  EXPECT_EQ(y[1], 0.0f);
  EXPECT_EQ(y[2], 1.5f);
  EXPECT_EQ(y[3], 127.5f);
  EXPECT_TRUE(asked.session.quantized_nodes().empty());
}

TEST(CompiledOut, ModelLocalFunctionsAreRefusedAtLoad) {
  // FunctionProto: name 1, input 4, output 5, node 7, opset_import 9, domain 10.
  ProtoWriter function;
  function.string_field(1, "Twice").repeated_strings(4, {"a"}).repeated_strings(5, {"b"});
  function.message_field(7, make_node("Add", {"a", "a"}, {"b"}));
  function.message_field(9, make_opset("", 13)).string_field(10, "custom");
  ProtoWriter graph =
      make_graph("g", {make_node("Twice", {"x"}, {"y"}, {}, "call", "custom")},
                 {make_value_info("x", DataType::float32, {2})}, {make_value_info("y", DataType::float32, {2})});
  ProtoWriter model = make_model(graph, 13, 8, {make_opset("", 13), make_opset("custom", 1)});
  model.message_field(25, function);
  Prepared p;
  Status st = p.load_and_prepare(model);
  EXPECT_EQ(st.code(), StatusCode::unsupported);
  EXPECT_EQ(st.message_view(),
            "the model defines local function 'Twice' (domain 'custom'), which this build cannot expand "
            "(ONNXMICRO_ENABLE_MODEL_FUNCTIONS=0); export the model with functions inlined or build with model "
            "functions enabled");

  // The function is not scanned in full, but it is still checked to be well-formed protobuf: a truncated one
  // makes the model invalid, as with functions enabled.
  ProtoWriter truncated = make_model(graph, 13, 8, {make_opset("", 13), make_opset("custom", 1)});
  std::vector<unsigned char> function_bytes = function.bytes();
  function_bytes.push_back(0x0a);  // field 1 (name), length-delimited, its length missing
  truncated.bytes_field(25, function_bytes);
  Prepared bad;
  st = bad.load_and_prepare(truncated);
  EXPECT_EQ(st.code(), StatusCode::invalid_model);
  EXPECT_NE(st.message_view().find("functions[0]"), std::string_view::npos) << st.message();
}

TEST(CompiledOut, ExternalInitializerIsRefusedAtLoadNamingIt) {
  // TensorProto: dims 1, data_type 2, name 8, external_data 13 (key 1, value 2), data_location 14 (1 = EXTERNAL).
  ProtoWriter location;
  location.string_field(1, "location").string_field(2, "w.bin");
  ProtoWriter w;
  w.int_field(1, 2).int_field(2, static_cast<std::int64_t>(DataType::float32)).string_field(8, "w");
  w.message_field(13, location).int_field(14, 1);
  ProtoWriter graph =
      make_graph("g", {make_node("Add", {"x", "w"}, {"y"}, {}, "add")}, {make_value_info("x", DataType::float32, {2})},
                 {make_value_info("y", DataType::float32, {2})}, {w});
  Prepared p;
  Status st = p.load_and_prepare(make_model(graph, 13));
  EXPECT_EQ(st.code(), StatusCode::unsupported);
  EXPECT_EQ(st.message_view(),
            "initializer 'w' keeps its data outside the model (data_location EXTERNAL), which this build cannot read "
            "(ONNXMICRO_ENABLE_EXTERNAL_DATA=0); embed the data in the model or build with external data enabled");
}

TEST(CompiledOut, SubgraphIsRefusedAtLoadNamingNodeAndAttribute) {
  ProtoWriter branch =
      make_graph("branch", {make_node("Identity", {"x"}, {"b"})}, {}, {make_value_info("b", DataType::float32, {2})});
  ProtoWriter graph = make_graph(
      "g",
      {make_node("If", {"c"}, {"y"},
                 {make_attribute_graph("then_branch", branch), make_attribute_graph("else_branch", branch)}, "choose")},
      {make_value_info("c", DataType::boolean, {}), make_value_info("x", DataType::float32, {2})},
      {make_value_info("y", DataType::float32, {2})});
  expect_unsupported(
      make_model(graph, 13),
      "node 'choose' (If, domain ai.onnx) has subgraph attribute 'then_branch', which this build compiles out "
      "(ONNXMICRO_ENABLE_SUBGRAPHS=0)");
}

TEST(CompiledOut, SymbolicInputDimIsRefusedAtPrepareNamingInputAndDim) {
  // make_value_info: a negative dim becomes dim_param "N<index>".
  expect_unsupported(make_model(make_graph("g", {make_node("Relu", {"x"}, {"y"}, {}, "relu")},
                                           {make_value_info("x", DataType::float32, {2, -1})},
                                           {make_value_info("y", DataType::float32, {2, -1})}),
                                13),
                     "input 'x' dim 1 ('N1') is not fixed by the model, and this build binds no shapes "
                     "(ONNXMICRO_ENABLE_DYNAMIC_SHAPES=0): export the model with fixed input shapes");
  ProtoWriter no_shape;
  no_shape.string_field(1, "x").message_field(2, make_tensor_type(DataType::float32, {}, false));
  expect_unsupported(make_model(make_graph("g", {make_node("Relu", {"x"}, {"y"}, {}, "relu")}, {no_shape},
                                           {make_value_info("y", DataType::float32, {2})}),
                                13),
                     "input 'x' has no declared shape, and this build binds no shapes "
                     "(ONNXMICRO_ENABLE_DYNAMIC_SHAPES=0): export the model with fixed input shapes");
}

TEST(CompiledOut, RankAboveMaxRankFailsAtLoadNamingTheTensor) {
  // ONNXMICRO_MAX_RANK=4 (CMakeLists.txt): a rank-5 graph input or initializer cannot be held, and says so.
  Prepared input;
  Status st = input.load_and_prepare(make_model(make_graph("g", {make_node("Relu", {"x"}, {"y"}, {}, "relu")},
                                                           {make_value_info("x", DataType::float32, {1, 2, 1, 2, 1})},
                                                           {make_value_info("y", DataType::float32, {1, 2, 1, 2, 1})}),
                                                13));
  EXPECT_EQ(st.code(), StatusCode::limit_exceeded);
  EXPECT_EQ(st.message_view(), "graph input 'x' has rank above ONNXMICRO_MAX_RANK (4)");
  Prepared initializer;
  st = initializer.load_and_prepare(make_model(
      make_graph("g", {make_node("Add", {"x", "w"}, {"y"}, {}, "add")}, {make_value_info("x", DataType::float32, {2})},
                 {make_value_info("y", DataType::float32, {1, 1, 1, 1, 2})},
                 {make_float_tensor("w", {1, 1, 1, 1, 2}, {1.0f, 2.0f})}),
      13));
  EXPECT_EQ(st.code(), StatusCode::limit_exceeded);
  EXPECT_EQ(st.message_view(), "graph.initializer[0] (TensorProto 'w'): rank 5 exceeds ONNXMICRO_MAX_RANK (4)");
}

TEST(CompiledOut, BindingShapesOrValuesAndReplanningAreRefused) {
  const om::Shape shape{2};
  om::InputShape bound_shape{"x", shape};
  const float x[] = {1.0f, -2.0f};
  om::InputValue bound_value{"x", om::ConstTensorView(DataType::float32, shape, x)};
  const ProtoWriter relu = one_node_model("Relu", "relu", DataType::float32, DataType::float32);
  const struct {
    const char* option;
    om::SessionOptions options;
  } cases[] = {
      {"input_shapes",
       [&] {
         om::SessionOptions o;
         o.input_shapes = om::Span<const om::InputShape>(&bound_shape, 1);
         return o;
       }()},
      {"max_input_shapes",
       [&] {
         om::SessionOptions o;
         o.max_input_shapes = om::Span<const om::InputShape>(&bound_shape, 1);
         return o;
       }()},
      {"input_values",
       [&] {
         om::SessionOptions o;
         o.input_values = om::Span<const om::InputValue>(&bound_value, 1);
         return o;
       }()},
  };
  for (const auto& c : cases) {
    Prepared p;
    const Status st = p.load_and_prepare(relu, c.options);
    EXPECT_EQ(st.code(), StatusCode::unsupported) << c.option;
    EXPECT_EQ(st.message_view(), std::string("SessionOptions::") + c.option +
                                     " binds graph inputs at prepare time, which this build compiles out "
                                     "(ONNXMICRO_ENABLE_DYNAMIC_SHAPES=0): every input must have the shape the model "
                                     "fixes");
  }

  // A model with fixed shapes prepares and runs; re-planning calls fail loudly instead of re-planning.
  Prepared p;
  ASSERT_TRUE(p.load_and_prepare(relu).ok());
  Status st = p.session.set_input_shapes(om::Span<const om::InputShape>(&bound_shape, 1));
  EXPECT_EQ(st.code(), StatusCode::unsupported);
  EXPECT_EQ(st.message_view(), "set_input_shapes(): this build cannot re-plan (ONNXMICRO_ENABLE_DYNAMIC_SHAPES=0)");
  st = p.session.run(om::Span<const om::InputValue>(&bound_value, 1));
  EXPECT_EQ(st.code(), StatusCode::unsupported);
  EXPECT_EQ(st.message_view(),
            "run(inputs): this build cannot re-plan (ONNXMICRO_ENABLE_DYNAMIC_SHAPES=0); use set_input() and run()");
  ASSERT_TRUE(p.session.set_input(0, bound_value.value).ok());
  ASSERT_TRUE(p.session.run().ok());
  EXPECT_EQ(p.session.output(0).data_as<float>()[0], 1.0f);
  EXPECT_EQ(p.session.output(0).data_as<float>()[1], 0.0f);
  // A different shape is still refused by set_input, naming both shapes.
  const float three[] = {1.0f, 2.0f, 3.0f};
  st = p.session.set_input(0, om::ConstTensorView(DataType::float32, om::Shape{3}, three));
  EXPECT_EQ(st.code(), StatusCode::invalid_argument);
  EXPECT_EQ(st.message_view(),
            "input 'x': expected shape [2], got [3] (the model fixes it, and this build cannot re-plan: "
            "ONNXMICRO_ENABLE_DYNAMIC_SHAPES=0)");
}

}  // namespace
