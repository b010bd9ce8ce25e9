// SPDX-License-Identifier: MIT
// Squeeze and Unsqueeze: axes from attributes (1, 11) or a constant input (13), negative axes by version,
// removing every size-1 dim, errors for duplicates, out-of-range axes and non-1 dims, and in-place runs.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "onnxmicro/kernels/generator/generator_kernels.hpp"
#include "onnxmicro/kernels/tensor/tensor_kernels.hpp"
#include "support/proto_writer.hpp"

namespace {

namespace om = onnxmicro;
using om::DataType;
using om::Shape;
using om::Status;
using om::StatusCode;
using onnxmicro_test::make_attribute_ints;
using onnxmicro_test::ProtoWriter;

// ---- harness: one tensor/generator kernel through prepare() and run() (same in each of their tests) -----

using Registry = om::MergeKernelSets<om::kernels::TensorKernels, om::kernels::GeneratorKernels>;

struct Tensor {
  DataType dtype = DataType::undefined;  ///< undefined: an omitted optional input
  Shape shape;
  std::vector<unsigned char> bytes;
  bool constant = false;  ///< known at prepare time, like an initializer
};

template <typename T>
Tensor tensor(Shape shape, const std::vector<T>& values, bool constant = false) {
  Tensor t;
  t.dtype = om::dtype_of<T>::value;
  t.shape = shape;
  t.bytes.resize(values.size() * sizeof(T));
  if (!values.empty()) std::memcpy(t.bytes.data(), values.data(), t.bytes.size());
  t.constant = constant;
  return t;
}
[[maybe_unused]] Tensor shape_input(const std::vector<std::int64_t>& dims) {
  return tensor(Shape{static_cast<std::int64_t>(dims.size())}, dims, true);
}
template <typename T>
std::vector<T> values_of(const Tensor& t) {
  std::vector<T> out(t.bytes.size() / sizeof(T));
  if (!out.empty()) std::memcpy(out.data(), t.bytes.data(), out.size() * sizeof(T));
  return out;
}

struct Result {
  Status prepare;
  Status run;
  Tensor output;
  int missing_constant_input = -1;
  bool ok() const { return prepare.ok() && run.ok(); }
  std::string error() const { return std::string(prepare.message()) + run.message(); }
};

// Resolves `op` at `opset`, prepares and (if that worked) runs once. The output gets guard bytes that must
// survive; with `in_place` it is written into input 0's buffer instead, as the session does.
Result run_op(const std::string& op, int opset, const std::vector<Tensor>& inputs,
              const std::vector<ProtoWriter>& attributes = {}, bool in_place = false) {
  Result result;
  const om::KernelEntry* kernel = om::find_kernel(Registry::registry(), "", op, opset);
  if (kernel == nullptr) {
    result.prepare = Status(StatusCode::unsupported, "no kernel");
    return result;
  }
  std::vector<std::string> names;
  for (std::size_t i = 0; i < inputs.size(); ++i)
    names.push_back(inputs[i].dtype == DataType::undefined ? "" : "in" + std::to_string(i));
  ProtoWriter encoded = onnxmicro_test::make_node(op, names, {"out"}, attributes);
  om::model::Node node;
  node.op_type = kernel->op_type;
  node.opset_version = opset;
  EXPECT_TRUE(om::proto::Node::parse(encoded.span(), 0, node.proto).ok());
  std::vector<om::kernels::TensorInfo> infos(inputs.size());
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    infos[i].present = inputs[i].dtype != DataType::undefined;
    infos[i].name = names[i];
    infos[i].dtype = inputs[i].dtype;
    infos[i].shape = inputs[i].shape;
    infos[i].is_constant = inputs[i].constant;
    infos[i].const_data = inputs[i].constant ? inputs[i].bytes.data() : nullptr;
  }
  om::kernels::TensorInfo output_info;
  output_info.present = true;
  om::ChunkAllocator allocator;
  om::kernels::PrepareContext prepare(node, om::Span<om::kernels::TensorInfo>(infos.data(), infos.size()),
                                      om::Span<om::kernels::TensorInfo>(&output_info, 1), allocator);
  result.prepare = kernel->prepare(prepare);
  result.missing_constant_input = prepare.missing_constant_input();
  if (!result.prepare.ok()) return result;

  constexpr std::size_t kGuard = 16;
  const std::size_t bytes = om::byte_size_of(output_info.dtype, output_info.shape.element_count());
  std::vector<Tensor> owned = inputs;
  std::vector<om::ConstTensorView> views;
  for (const Tensor& t : owned) views.emplace_back(t.dtype, t.shape, t.bytes.data());
  std::vector<unsigned char> buffer(bytes + kGuard, 0xCD);
  if (in_place) {
    EXPECT_EQ(kernel->in_place_input, 0);
    owned[0].bytes.resize(std::max(owned[0].bytes.size(), bytes));
    views[0].data = owned[0].bytes.data();
  }
  om::TensorView out_view;
  out_view.dtype = output_info.dtype;
  out_view.shape = output_info.shape;
  out_view.data = in_place ? owned[0].bytes.data() : buffer.data();
  std::vector<unsigned char> scratch(prepare.scratch_bytes());
  om::kernels::RunContext run(om::Span<const om::ConstTensorView>(views.data(), views.size()),
                              om::Span<const om::TensorView>(&out_view, 1), prepare.state(), scratch.data(),
                              scratch.size());
  result.run = kernel->run(run);
  for (std::size_t i = bytes; i < bytes + kGuard; ++i) EXPECT_EQ(buffer[i], 0xCD) << "write past the end";
  const unsigned char* out = static_cast<const unsigned char*>(out_view.data);
  result.output.dtype = output_info.dtype;
  result.output.shape = output_info.shape;
  result.output.bytes.assign(out, out + bytes);
  return result;
}

[[maybe_unused]] bool contains(const Status& status, const std::string& text) {
  return std::string(status.message()).find(text) != std::string::npos;
}

Tensor axes(const std::vector<std::int64_t>& values) { return shape_input(values); }

const std::vector<float> kData = {1, 2, 3, 4, 5, 6};

TEST(Unsqueeze, InsertsOnesAtOutputAxesInAnyOrder) {
  struct Case {
    std::vector<std::int64_t> axes;
    Shape expected;
  } cases[] = {{{0}, Shape{1, 2, 3}},
               {{2}, Shape{2, 3, 1}},
               {{-1}, Shape{2, 3, 1}},
               {{3, 0}, Shape{1, 2, 3, 1}},
               {{1, -1, 0}, Shape{1, 1, 2, 3, 1}},
               {{}, Shape{2, 3}}};
  for (const Case& c : cases) {
    Result r = run_op("Unsqueeze", 13, {tensor(Shape{2, 3}, kData), axes(c.axes)});
    ASSERT_TRUE(r.ok()) << r.error();
    EXPECT_EQ(r.output.shape, c.expected);
    EXPECT_EQ(values_of<float>(r.output), kData);
  }
}

TEST(Unsqueeze, AxesAttributeBeforeOpset13AndNegativeOnlyFrom11) {
  Result v1 = run_op("Unsqueeze", 1, {tensor(Shape{2, 3}, kData)}, {make_attribute_ints("axes", {0, 3})});
  ASSERT_TRUE(v1.ok()) << v1.error();
  EXPECT_EQ(v1.output.shape, (Shape{1, 2, 3, 1}));
  Result negative_v1 = run_op("Unsqueeze", 10, {tensor(Shape{2, 3}, kData)}, {make_attribute_ints("axes", {-1})});
  EXPECT_TRUE(contains(negative_v1.prepare, "negative axes are only allowed from opset 11"))
      << negative_v1.prepare.message();
  Result v11 = run_op("Unsqueeze", 11, {tensor(Shape{2, 3}, kData)}, {make_attribute_ints("axes", {-1})});
  ASSERT_TRUE(v11.ok()) << v11.error();
  EXPECT_EQ(v11.output.shape, (Shape{2, 3, 1}));
  Result missing = run_op("Unsqueeze", 11, {tensor(Shape{2, 3}, kData)});
  EXPECT_TRUE(contains(missing.prepare, "required attribute 'axes'")) << missing.prepare.message();
}

TEST(Unsqueeze, RejectsDuplicateAndOutOfRangeAxes) {
  Result duplicate = run_op("Unsqueeze", 13, {tensor(Shape{2, 3}, kData), axes({1, -3})});
  EXPECT_EQ(duplicate.prepare.code(), StatusCode::invalid_model);
  EXPECT_TRUE(contains(duplicate.prepare, "axes [1,-3] names output axis 1 more than once"))
      << duplicate.prepare.message();
  Result range = run_op("Unsqueeze", 13, {tensor(Shape{2, 3}, kData), axes({4})});
  EXPECT_TRUE(contains(range.prepare, "axes[0] (an axis of the output) is 4, expected a value in [-3, 2] for rank 3"))
      << range.prepare.message();
}

TEST(Unsqueeze, AxesInputMustBeKnownAtPrepare) {
  Tensor dynamic = axes({0});
  dynamic.constant = false;
  Result r = run_op("Unsqueeze", 13, {tensor(Shape{2, 3}, kData), dynamic});
  EXPECT_EQ(r.prepare.code(), StatusCode::unsupported);
  EXPECT_EQ(r.missing_constant_input, 1);
}

TEST(Unsqueeze, RunsInPlace) {
  Result r = run_op("Unsqueeze", 21, {tensor(Shape{6}, kData), axes({0})}, {}, /*in_place=*/true);
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(r.output.shape, (Shape{1, 6}));
  EXPECT_EQ(values_of<float>(r.output), kData);
}

TEST(Squeeze, RemovesTheGivenAxesOrEverySizeOneDim) {
  const Tensor x = tensor(Shape{1, 2, 1, 3, 1}, kData);
  struct Case {
    std::vector<std::int64_t> axes;
    Shape expected;
  } cases[] = {{{0}, Shape{2, 1, 3, 1}}, {{-1, 2}, Shape{1, 2, 3}}, {{4, 0, 2}, Shape{2, 3}}};
  for (const Case& c : cases) {
    Result r = run_op("Squeeze", 13, {x, axes(c.axes)});
    ASSERT_TRUE(r.ok()) << r.error();
    EXPECT_EQ(r.output.shape, c.expected);
    EXPECT_EQ(values_of<float>(r.output), kData);
  }
  Tensor omitted;  // the optional axes input left out
  Result all = run_op("Squeeze", 13, {x, omitted});
  ASSERT_TRUE(all.ok()) << all.error();
  EXPECT_EQ(all.output.shape, (Shape{2, 3}));
  Result only_data = run_op("Squeeze", 13, {x});
  ASSERT_TRUE(only_data.ok()) << only_data.error();
  EXPECT_EQ(only_data.output.shape, (Shape{2, 3}));
  // An empty axes tensor removes every size-1 dim too (as onnxruntime does).
  Result empty = run_op("Squeeze", 13, {x, axes({})});
  ASSERT_TRUE(empty.ok()) << empty.error();
  EXPECT_EQ(empty.output.shape, (Shape{2, 3}));
  Result scalar = run_op("Squeeze", 13, {tensor(Shape{1, 1}, std::vector<float>{5})});
  ASSERT_TRUE(scalar.ok()) << scalar.error();
  EXPECT_EQ(scalar.output.shape, Shape{});
}

TEST(Squeeze, AxesAttributeBeforeOpset13AndNegativeOnlyFrom11) {
  const Tensor x = tensor(Shape{1, 6, 1}, kData);
  Result v1 = run_op("Squeeze", 1, {x}, {make_attribute_ints("axes", {2})});
  ASSERT_TRUE(v1.ok()) << v1.error();
  EXPECT_EQ(v1.output.shape, (Shape{1, 6}));
  Result all = run_op("Squeeze", 1, {x});
  ASSERT_TRUE(all.ok()) << all.error();
  EXPECT_EQ(all.output.shape, (Shape{6}));
  Result negative_v1 = run_op("Squeeze", 10, {x}, {make_attribute_ints("axes", {-1})});
  EXPECT_EQ(negative_v1.prepare.code(), StatusCode::invalid_model);
  Result v11 = run_op("Squeeze", 12, {x}, {make_attribute_ints("axes", {-1})});
  ASSERT_TRUE(v11.ok()) << v11.error();
  EXPECT_EQ(v11.output.shape, (Shape{1, 6}));
}

TEST(Squeeze, RejectsNonUnitDimsDuplicatesAndOutOfRangeAxes) {
  const Tensor x = tensor(Shape{1, 6, 1}, kData);
  Result non_unit = run_op("Squeeze", 13, {x, axes({1})});
  EXPECT_EQ(non_unit.prepare.code(), StatusCode::invalid_model);
  EXPECT_TRUE(
      contains(non_unit.prepare, "cannot squeeze axis 1 of input 0 'in0' (shape [1,6,1]): its size is 6, expected 1"))
      << non_unit.prepare.message();
  Result duplicate = run_op("Squeeze", 13, {x, axes({0, -3})});
  EXPECT_TRUE(contains(duplicate.prepare, "names axis 0 more than once")) << duplicate.prepare.message();
  Result range = run_op("Squeeze", 13, {x, axes({3})});
  EXPECT_TRUE(contains(range.prepare, "axes[0] is 3, expected a value in [-3, 2]")) << range.prepare.message();
  Tensor dynamic = axes({0});
  dynamic.constant = false;
  Result not_constant = run_op("Squeeze", 13, {x, dynamic});
  EXPECT_EQ(not_constant.prepare.code(), StatusCode::unsupported);
  EXPECT_EQ(not_constant.missing_constant_input, 1);
}

TEST(Squeeze, RunsInPlace) {
  Result r = run_op("Squeeze", 13, {tensor(Shape{1, 6}, kData), axes({0})}, {}, /*in_place=*/true);
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(r.output.shape, (Shape{6}));
  EXPECT_EQ(values_of<float>(r.output), kData);
}

}  // namespace
