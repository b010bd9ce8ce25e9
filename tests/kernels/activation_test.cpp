// SPDX-License-Identifier: MIT
// Relu, LeakyRelu, Sigmoid, Tanh beyond the ONNX node suite: float16/bfloat16/double, extreme inputs, NaN and
// -0, the alpha attribute, in-place runs, unsupported dtypes, and version resolution.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "onnxmicro/kernels/math/math_kernels.hpp"
#include "support/proto_writer.hpp"

namespace {

namespace om = onnxmicro;
using om::DataType;
using om::Shape;
using om::Status;
using om::StatusCode;
using onnxmicro_test::ProtoWriter;

// ---- harness: one kernel of MathKernels driven through prepare() and run() -------------------------------

struct TestTensor {
  DataType dtype = DataType::undefined;  ///< undefined: an omitted optional input
  Shape shape;
  std::vector<unsigned char> bytes;
  std::string name = "X";
  bool constant = false;  ///< known at prepare time (as an initializer would be)

  TestTensor named(std::string n) const {
    TestTensor t = *this;
    t.name = std::move(n);
    return t;
  }
  TestTensor as_constant() const {
    TestTensor t = *this;
    t.constant = true;
    return t;
  }
};

template <typename T>
TestTensor make(DataType dtype, Shape shape, const std::vector<T>& values) {
  TestTensor t;
  t.dtype = dtype;
  t.shape = shape;
  t.bytes.resize(values.size() * sizeof(T));
  if (!values.empty()) std::memcpy(t.bytes.data(), values.data(), t.bytes.size());
  return t;
}
template <typename T>
TestTensor make(Shape shape, const std::vector<T>& values) {
  return make(om::dtype_of<T>::value, shape, values);
}
const TestTensor kOmitted;

template <typename T>
std::vector<T> values_of(const TestTensor& t) {
  std::vector<T> out(t.bytes.size() / sizeof(T));
  if (!out.empty()) std::memcpy(out.data(), t.bytes.data(), t.bytes.size());
  return out;
}

// Resolves `op` at `opset` in MathKernels and prepares it; run() may then be called repeatedly.
class KernelHarness {
 public:
  KernelHarness(const std::string& op, int opset, std::vector<TestTensor> node_inputs,
                const std::vector<ProtoWriter>& attributes = {})
      : inputs(std::move(node_inputs)) {
    kernel = om::find_kernel(om::kernels::MathKernels::registry(), "", op, opset);
    if (kernel == nullptr) {
      prepare_status = Status(StatusCode::unsupported, "no kernel");
      return;
    }
    std::vector<std::string> names;
    for (const TestTensor& t : inputs) names.push_back(t.dtype == DataType::undefined ? "" : t.name);
    encoded_ = onnxmicro_test::make_node(op, names, {"Y"}, attributes);
    node_.op_type = kernel->op_type;
    node_.opset_version = opset;
    EXPECT_TRUE(om::proto::Node::parse(encoded_.span(), 0, node_.proto).ok());
    infos_.resize(inputs.size());
    for (std::size_t i = 0; i < inputs.size(); ++i) {
      infos_[i].present = inputs[i].dtype != DataType::undefined;
      infos_[i].name = inputs[i].name;
      infos_[i].dtype = inputs[i].dtype;
      infos_[i].shape = inputs[i].shape;
      infos_[i].is_constant = inputs[i].constant;
      infos_[i].const_data = inputs[i].constant ? inputs[i].bytes.data() : nullptr;
    }
    output_info.present = true;
    prepare_ = std::make_unique<om::kernels::PrepareContext>(
        node_, om::Span<om::kernels::TensorInfo>(infos_.data(), infos_.size()),
        om::Span<om::kernels::TensorInfo>(&output_info, 1), allocator_);
    prepare_status = kernel->prepare(*prepare_);
  }

  std::size_t scratch_bytes() const { return prepare_ ? prepare_->scratch_bytes() : 0; }

  /// Runs on `inputs` (values may change between runs, dtypes and shapes may not). The output goes to a new
  /// buffer followed by guard bytes that must survive, or with `in_place` into the buffer of the kernel's
  /// kInPlaceInput (which must exist), as the session does when that input dies at this node.
  Status run(TestTensor& output, bool in_place = false) {
    std::vector<om::ConstTensorView> views;
    for (const TestTensor& t : inputs) views.emplace_back(t.dtype, t.shape, t.bytes.data());
    output.dtype = output_info.dtype;
    output.shape = output_info.shape;
    const std::size_t bytes = om::byte_size_of(output.dtype, output.shape.element_count());
    om::TensorView out_view;
    out_view.dtype = output.dtype;
    out_view.shape = output.shape;
    std::vector<unsigned char> aliased;
    if (in_place) {
      EXPECT_GE(kernel->in_place_input, 0);
      if (kernel->in_place_input < 0) return Status(StatusCode::internal, "kernel has no in-place input");
      aliased = inputs[static_cast<std::size_t>(kernel->in_place_input)].bytes;
      aliased.resize(std::max(aliased.size(), bytes));
      views[static_cast<std::size_t>(kernel->in_place_input)].data = aliased.data();
      out_view.data = aliased.data();
    } else {
      output.bytes.assign(bytes + kGuard, 0xCD);
      out_view.data = output.bytes.data();
    }
    std::vector<unsigned char> scratch(scratch_bytes());
    om::kernels::RunContext run(om::Span<const om::ConstTensorView>(views.data(), views.size()),
                                om::Span<const om::TensorView>(&out_view, 1), prepare_->state(), scratch.data(),
                                scratch.size());
    Status status = kernel->run(run);
    if (in_place) {
      output.bytes.assign(aliased.begin(), aliased.begin() + static_cast<std::ptrdiff_t>(bytes));
    } else {
      for (std::size_t i = bytes; i < bytes + kGuard; ++i) EXPECT_EQ(output.bytes[i], 0xCD) << "write past the end";
      output.bytes.resize(bytes);
    }
    return status;
  }

  const om::KernelEntry* kernel = nullptr;
  Status prepare_status;
  om::kernels::TensorInfo output_info;
  std::vector<TestTensor> inputs;

 private:
  static constexpr std::size_t kGuard = 16;
  ProtoWriter encoded_;
  om::model::Node node_;
  std::vector<om::kernels::TensorInfo> infos_;
  om::ChunkAllocator allocator_;
  std::unique_ptr<om::kernels::PrepareContext> prepare_;
};

// Prepares and runs once; the status is the first failure.
struct NodeResult {
  Status status;
  TestTensor output;
};
NodeResult run_node(const std::string& op, int opset, const std::vector<TestTensor>& inputs,
                    const std::vector<ProtoWriter>& attributes = {}, bool in_place = false) {
  KernelHarness harness(op, opset, inputs, attributes);
  NodeResult result;
  result.status = harness.prepare_status;
  if (result.status.ok()) result.status = harness.run(result.output, in_place);
  return result;
}

// ---- references: straight from the definitions, in double ----------------------------------------------

double sigmoid_ref(double x) { return 1.0 / (1.0 + std::exp(-x)); }
double leaky_ref(double x, double alpha) { return x < 0 ? alpha * x : x; }

const std::vector<float> kSamples = {-100.0f, -20.0f, -3.5f, -1.0f, -0.25f, -0.0f, 0.0f,
                                     1e-7f,   0.5f,   1.0f,  2.75f, 15.0f,  100.0f};

void expect_near_relative(double got, double want, double rtol, const std::string& what) {
  EXPECT_LE(std::fabs(got - want), rtol * std::fabs(want) + 1e-30) << what << ": got " << got << " want " << want;
}

TEST(Activation, SigmoidMatchesDefinitionWithoutOverflow) {
  NodeResult r = run_node("Sigmoid", 13, {make(Shape{13}, kSamples)});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  const std::vector<float> y = values_of<float>(r.output);
  for (std::size_t i = 0; i < kSamples.size(); ++i) {
    ASSERT_FALSE(std::isnan(y[i])) << "x = " << kSamples[i];
    expect_near_relative(y[i], sigmoid_ref(kSamples[i]), 1e-6, "sigmoid(" + std::to_string(kSamples[i]) + ")");
  }
  // Far in the tails the exact answer is 0 or 1, never NaN.
  NodeResult tails = run_node("Sigmoid", 13, {make(Shape{2}, std::vector<double>{-1000.0, 1000.0})});
  ASSERT_TRUE(tails.status.ok()) << tails.status.message();
  EXPECT_EQ(values_of<double>(tails.output), (std::vector<double>{0.0, 1.0}));
}

TEST(Activation, TanhMatchesDefinition) {
  NodeResult r = run_node("Tanh", 13, {make(Shape{13}, kSamples)});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  const std::vector<float> y = values_of<float>(r.output);
  for (std::size_t i = 0; i < kSamples.size(); ++i)
    expect_near_relative(y[i], std::tanh(static_cast<double>(kSamples[i])), 1e-6, "tanh");
}

TEST(Activation, LeakyReluDefaultAlphaAndAttribute) {
  NodeResult defaulted = run_node("LeakyRelu", 16, {make(Shape{13}, kSamples)});
  ASSERT_TRUE(defaulted.status.ok()) << defaulted.status.message();
  NodeResult half =
      run_node("LeakyRelu", 16, {make(Shape{13}, kSamples)}, {onnxmicro_test::make_attribute_float("alpha", 0.5f)});
  ASSERT_TRUE(half.status.ok()) << half.status.message();
  const std::vector<float> y1 = values_of<float>(defaulted.output), y2 = values_of<float>(half.output);
  for (std::size_t i = 0; i < kSamples.size(); ++i) {
    EXPECT_EQ(y1[i], static_cast<float>(leaky_ref(kSamples[i], 0.01f))) << kSamples[i];
    EXPECT_EQ(y2[i], static_cast<float>(leaky_ref(kSamples[i], 0.5))) << kSamples[i];
  }
}

TEST(Activation, LeakyReluKeepsNanInfinityAndNegativeZero) {
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  NodeResult r = run_node("LeakyRelu", 6, {make(Shape{5}, std::vector<float>{nan, -nan, -inf, inf, -0.0f})},
                          {onnxmicro_test::make_attribute_float("alpha", 0.1f)});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  const std::vector<float> y = values_of<float>(r.output);
  EXPECT_TRUE(std::isnan(y[0]));
  EXPECT_TRUE(std::isnan(y[1]));
  EXPECT_EQ(y[2], -inf);
  EXPECT_EQ(y[3], inf);
  EXPECT_EQ(y[4], 0.0f);
  EXPECT_TRUE(std::signbit(y[4]));
}

TEST(Activation, LeakyReluAlphaOfTheWrongTypeIsNamed) {
  NodeResult r = run_node("LeakyRelu", 16, {make(Shape{1}, std::vector<float>{1})},
                          {onnxmicro_test::make_attribute_int("alpha", 1)});
  ASSERT_FALSE(r.status.ok());
  EXPECT_NE(std::string(r.status.message()).find("attribute 'alpha'"), std::string::npos) << r.status.message();
}

TEST(Activation, ReluAcceptsSignedIntegers) {
  NodeResult r = run_node("Relu", 14, {make(Shape{4}, std::vector<std::int8_t>{-128, -1, 0, 127})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(values_of<std::int8_t>(r.output), (std::vector<std::int8_t>{0, 0, 0, 127}));
  NodeResult wide = run_node("Relu", 14, {make(Shape{2}, std::vector<std::int64_t>{-(1LL << 40), 1LL << 40})});
  ASSERT_TRUE(wide.status.ok()) << wide.status.message();
  EXPECT_EQ(values_of<std::int64_t>(wide.output), (std::vector<std::int64_t>{0, 1LL << 40}));
}

// float16 inputs compute in float and round once on store: sigmoid(0) = 0.5 exactly, sigmoid(2) =
// 0.880797... whose nearest half is 0x3B0C (0.880859375), tanh(1) = 0.761594... -> 0x3A18 (0.76171875).
TEST(Activation, Float16RoundsTheFloatResult) {
  const std::vector<std::uint16_t> x = {0x0000 /* 0 */, 0x4000 /* 2 */, 0x3C00 /* 1 */};
  NodeResult s = run_node("Sigmoid", 13, {make(DataType::float16, Shape{3}, x)});
  ASSERT_TRUE(s.status.ok()) << s.status.message();
  EXPECT_EQ(s.output.dtype, DataType::float16);
  const std::vector<std::uint16_t> ys = values_of<std::uint16_t>(s.output);
  EXPECT_EQ(ys[0], 0x3800);  // 0.5
  EXPECT_EQ(ys[1], 0x3B0C);
  NodeResult t = run_node("Tanh", 13, {make(DataType::float16, Shape{3}, x)});
  ASSERT_TRUE(t.status.ok()) << t.status.message();
  EXPECT_EQ(values_of<std::uint16_t>(t.output)[2], 0x3A18);
}

// bfloat16 tanh(1) = 0.761594 -> nearest bfloat16 is 0x3F43 (0.76171875); LeakyRelu(-1) with the default
// alpha = -0.01 -> 0xBC24 (-0.010009765625).
TEST(Activation, Bfloat16RoundsTheFloatResult) {
  NodeResult t = run_node("Tanh", 13, {make(DataType::bfloat16, Shape{1}, std::vector<std::uint16_t>{0x3F80})});
  ASSERT_TRUE(t.status.ok()) << t.status.message();
  EXPECT_EQ(values_of<std::uint16_t>(t.output)[0], 0x3F43);
  NodeResult l = run_node("LeakyRelu", 16, {make(DataType::bfloat16, Shape{1}, std::vector<std::uint16_t>{0xBF80})});
  ASSERT_TRUE(l.status.ok()) << l.status.message();
  EXPECT_EQ(values_of<std::uint16_t>(l.output)[0], 0xBC24);
}

TEST(Activation, InPlaceRunsMatchSeparateBuffers) {
  for (const char* op : {"Relu", "LeakyRelu", "Sigmoid", "Tanh"}) {
    NodeResult separate = run_node(op, 16, {make(Shape{13}, kSamples)});
    NodeResult aliased = run_node(op, 16, {make(Shape{13}, kSamples)}, {}, /*in_place=*/true);
    ASSERT_TRUE(separate.status.ok() && aliased.status.ok()) << op;
    EXPECT_EQ(values_of<float>(separate.output), values_of<float>(aliased.output)) << op;
  }
}

TEST(Activation, IntegerInputsAreRejectedWhereTheSchemaHasNone) {
  for (const char* op : {"Sigmoid", "Tanh", "LeakyRelu"}) {
    NodeResult r = run_node(op, 16, {make(Shape{1}, std::vector<std::int32_t>{1})});
    ASSERT_EQ(r.status.code(), StatusCode::unsupported) << op;
    EXPECT_NE(std::string(r.status.message()).find("input 0 'X' has dtype int32"), std::string::npos)
        << r.status.message();
  }
}

TEST(Activation, EveryOpsetResolves) {
  for (const char* op : {"Relu", "LeakyRelu", "Sigmoid", "Tanh"}) {
    for (int opset = 1; opset <= ONNXMICRO_MAX_OPSET + 2; ++opset)
      EXPECT_NE(om::find_kernel(om::kernels::MathKernels::registry(), "", op, opset), nullptr) << op << " " << opset;
  }
}

}  // namespace
