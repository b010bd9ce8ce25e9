// SPDX-License-Identifier: MIT
// Identity: byte-exact copies for every fixed-size dtype (packed sub-byte types included), the in-place case
// where the copy is skipped, the string dtype it does not take yet, and version resolution.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
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

TEST(Identity, CopiesEveryFixedSizeDtypeBitForBit) {
  const DataType dtypes[] = {DataType::float32,    DataType::uint8,      DataType::int8,     DataType::uint16,
                             DataType::int16,      DataType::int32,      DataType::int64,    DataType::boolean,
                             DataType::float16,    DataType::float64,    DataType::uint32,   DataType::uint64,
                             DataType::complex64,  DataType::complex128, DataType::bfloat16, DataType::float8e4m3fn,
                             DataType::float8e5m2, DataType::uint4,      DataType::int4,     DataType::float4e2m1};
  for (DataType dtype : dtypes) {
    const Shape shape{3, 1, 5};  // 15 elements: an odd count, so packed 4-bit types end in half a byte
    std::vector<std::uint8_t> bytes(om::byte_size_of(dtype, shape.element_count()));
    for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<std::uint8_t>(i * 37 + 11);
    NodeResult r = run_node("Identity", 21, {make(dtype, shape, bytes)});
    ASSERT_TRUE(r.status.ok()) << om::dtype_name(dtype) << ": " << r.status.message();
    EXPECT_EQ(r.output.dtype, dtype);
    EXPECT_EQ(r.output.shape, shape);
    EXPECT_EQ(r.output.bytes, bytes) << om::dtype_name(dtype);
  }
}

TEST(Identity, ScalarAndEmptyTensors) {
  NodeResult scalar = run_node("Identity", 13, {make(Shape{}, std::vector<double>{2.5})});
  ASSERT_TRUE(scalar.status.ok()) << scalar.status.message();
  EXPECT_EQ(values_of<double>(scalar.output), (std::vector<double>{2.5}));
  NodeResult empty = run_node("Identity", 13, {make(Shape{4, 0}, std::vector<float>{})});
  ASSERT_TRUE(empty.status.ok()) << empty.status.message();
  EXPECT_EQ(empty.output.shape, (Shape{4, 0}));
}

TEST(Identity, InPlaceRunKeepsTheValues) {
  const std::vector<std::int64_t> values = {-3, 0, 1LL << 50, 7};
  NodeResult r = run_node("Identity", 16, {make(Shape{2, 2}, values)}, {}, /*in_place=*/true);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(values_of<std::int64_t>(r.output), values);
}

TEST(Identity, StringTensorsAreNotSupportedYet) {
  NodeResult r = run_node("Identity", 13, {make(DataType::string, Shape{1}, std::vector<std::uint8_t>{})});
  ASSERT_EQ(r.status.code(), StatusCode::unsupported);
  EXPECT_NE(std::string(r.status.message()).find("input 0 'X' has dtype string"), std::string::npos)
      << r.status.message();
}

TEST(Identity, EveryOpsetResolves) {
  for (int opset = 1; opset <= ONNXMICRO_MAX_OPSET + 2; ++opset)
    EXPECT_NE(om::find_kernel(om::kernels::MathKernels::registry(), "", "Identity", opset), nullptr) << opset;
}

}  // namespace
