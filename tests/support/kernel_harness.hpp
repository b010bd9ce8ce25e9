// SPDX-License-Identifier: MIT
// Drives one kernel through prepare() and run() without a model or session: inputs as typed byte buffers
// (optionally constant, as initializers are), attributes encoded with ProtoWriter, outputs checked for writes
// past their end, and in-place runs where the kernel allows them. Shared by the kernel tests.
#pragma once
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "onnxmicro/onnxmicro.hpp"
#include "support/proto_writer.hpp"

namespace onnxmicro_test {

namespace om = onnxmicro;
using om::Shape;
using om::Status;
using om::StatusCode;

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
  // Byte copy through iterators: GCC 12's -Warray-bounds misreads the memcpy of a one-element vector.
  const auto* first = reinterpret_cast<const unsigned char*>(values.data());
  std::copy(first, first + t.bytes.size(), t.bytes.begin());
  return t;
}
template <typename T>
TestTensor make(Shape shape, const std::vector<T>& values) {
  return make(om::dtype_of<T>::value, shape, values);
}
inline const TestTensor kOmitted;

template <typename T>
std::vector<T> values_of(const TestTensor& t) {
  std::vector<T> out(t.bytes.size() / sizeof(T));
  if (!out.empty()) std::memcpy(out.data(), t.bytes.data(), t.bytes.size());
  return out;
}

/// Where the harness's environment differs from a default session's.
struct HarnessSettings {
  bool winograd = false;            ///< SessionOptions::winograd_convolutions
  om::ThreadPool* pool = nullptr;   ///< SessionOptions::thread_pool (its concurrency() threads)
  om::Isa max_isa = om::Isa::best;  ///< SessionOptions::max_isa
};

/// Resolves `op` at `opset` in `registry` and prepares it; run() may then be called repeatedly.
class KernelHarness {
 public:
  /// `op` resolved among every kernel of the build (compiled once, in onnxmicro_all_kernels, not in the test).
  KernelHarness(const std::string& op, int opset, std::vector<TestTensor> node_inputs,
                const std::vector<ProtoWriter>& attributes = {})
      : KernelHarness(om::all_kernels_registry(), op, opset, std::move(node_inputs), attributes) {}
  KernelHarness(om::KernelRegistry registry, const std::string& op, int opset, std::vector<TestTensor> node_inputs,
                const std::vector<ProtoWriter>& attributes = {})
      : KernelHarness(registry, "", op, opset, std::move(node_inputs), attributes) {}
  /// `op` in `domain`, prepared with `clamp` as the session's QDQ fusion hands over a fused Relu/Clip, and with
  /// `settings`.
  KernelHarness(om::KernelRegistry registry, std::string_view domain, const std::string& op, int opset,
                std::vector<TestTensor> node_inputs, const std::vector<ProtoWriter>& attributes,
                const om::kernels::FusedClamp& clamp = {}, const HarnessSettings& settings = {})
      : inputs(std::move(node_inputs)) {
    environment_.winograd = settings.winograd;
    if (settings.pool != nullptr) environment_.workers = om::Workers(settings.pool, settings.pool->concurrency());
    kernel = om::find_kernel(registry, domain, op, opset);
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
    clamp_ = clamp;
    // The level a session would choose here (ONNXMICRO_MAX_ISA caps it), so the kernels run their dispatched paths.
    EXPECT_TRUE(om::effective_isa(settings.max_isa, environment_.isa));
    prepare_ = std::make_unique<om::kernels::PrepareContext>(
        node_, om::Span<om::kernels::TensorInfo>(infos_.data(), infos_.size()),
        om::Span<om::kernels::TensorInfo>(&output_info, 1), allocator_, environment_, &clamp_);
    prepare_status = kernel->prepare(*prepare_);
  }

  std::size_t scratch_bytes() const { return prepare_ ? prepare_->scratch_bytes() : 0; }
  /// Bytes prepare() allocated for its state (packed weights and the like).
  std::size_t metadata_bytes() const { return allocator_.used_bytes(); }
  /// The input prepare() needed constant but got without data, or -1.
  int missing_constant_input() const { return prepare_ ? prepare_->missing_constant_input() : -1; }

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
    // The scratch is followed by guard bytes too; they hold `scratch_fill` like the rest.
    std::vector<unsigned char> scratch(scratch_bytes() + kGuard, scratch_fill);
    om::kernels::RunContext run(om::Span<const om::ConstTensorView>(views.data(), views.size()),
                                om::Span<const om::TensorView>(&out_view, 1), prepare_->state(), scratch.data(),
                                scratch_bytes(), nullptr, environment_.workers);
    Status status = kernel->run(run);
    for (std::size_t i = scratch_bytes(); i < scratch.size(); ++i) {
      EXPECT_EQ(scratch[i], scratch_fill) << "write past the scratch";
    }
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
  /// What the scratch holds when run() starts (the session's arena holds whatever came before; a test may poison
  /// it to catch a kernel that reads scratch it has not written).
  unsigned char scratch_fill = 0;

 private:
  static constexpr std::size_t kGuard = 16;
  ProtoWriter encoded_;
  om::model::Node node_;
  std::vector<om::kernels::TensorInfo> infos_;
  om::ChunkAllocator allocator_;
  om::kernels::PrepareEnvironment environment_;  // the context refers to these two
  om::kernels::FusedClamp clamp_;
  std::unique_ptr<om::kernels::PrepareContext> prepare_;
};

// Prepares and runs once; the status is the first failure.
struct NodeResult {
  Status status;
  TestTensor output;
};
inline NodeResult run_node(om::KernelRegistry registry, const std::string& op, int opset,
                           const std::vector<TestTensor>& inputs, const std::vector<ProtoWriter>& attributes = {},
                           bool in_place = false) {
  KernelHarness harness(registry, op, opset, inputs, attributes);
  NodeResult result;
  result.status = harness.prepare_status;
  if (result.status.ok()) result.status = harness.run(result.output, in_place);
  return result;
}
/// run_node among every kernel of the build.
inline NodeResult run_node(const std::string& op, int opset, const std::vector<TestTensor>& inputs,
                           const std::vector<ProtoWriter>& attributes = {}, bool in_place = false) {
  return run_node(om::all_kernels_registry(), op, opset, inputs, attributes, in_place);
}

}  // namespace onnxmicro_test
