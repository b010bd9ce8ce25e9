// SPDX-License-Identifier: MIT
// Shape: dims as int64, the start/end slice of opset 15 with Python's clamping, scalars, dtypes whose data it
// never reads (strings), and an exported-model shape subgraph (Shape -> Gather -> Unsqueeze -> Concat ->
// Reshape) that the session folds so Reshape gets a constant shape.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "onnxmicro/kernels/generator/generator_kernels.hpp"
#include "onnxmicro/kernels/tensor/tensor_kernels.hpp"
#include "onnxmicro/model/loader.hpp"
#include "onnxmicro/runtime/session.hpp"
#include "support/proto_writer.hpp"

namespace {

namespace om = onnxmicro;
using om::DataType;
using om::Shape;
using om::Status;
using om::StatusCode;
using onnxmicro_test::make_attribute_int;
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

// Python's dims[start:end] (for the grid below; the literal cases check it too).
std::vector<std::int64_t> python_slice(const std::vector<std::int64_t>& dims, std::int64_t start, std::int64_t end) {
  const auto n = static_cast<std::int64_t>(dims.size());
  auto clamp = [n](std::int64_t v) { return v < 0 ? std::max<std::int64_t>(v + n, 0) : std::min(v, n); };
  std::vector<std::int64_t> out;
  for (std::int64_t i = clamp(start); i < clamp(end); ++i) out.push_back(dims[static_cast<std::size_t>(i)]);
  return out;
}

TEST(Shape, OutputsEveryDimAsInt64) {
  Result r = run_op("Shape", 13, {tensor(Shape{3, 1, 4, 0}, std::vector<float>{})});
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(r.output.dtype, DataType::int64);
  EXPECT_EQ(r.output.shape, (Shape{4}));
  EXPECT_EQ(values_of<std::int64_t>(r.output), (std::vector<std::int64_t>{3, 1, 4, 0}));
}

TEST(Shape, StartAndEndSliceLikePythonFromOpset15) {
  const Tensor x = tensor(Shape{3, 4, 5}, std::vector<std::uint8_t>(60, 7));
  struct Case {
    std::int64_t start, end;
    std::vector<std::int64_t> expected;
  } cases[] = {{1, 2, {4}}, {-1, 100, {5}}, {-10, 1, {3}}, {2, 1, {}}, {0, -1, {3, 4}}, {3, 3, {}}};
  for (const Case& c : cases) {
    Result r = run_op("Shape", 15, {x}, {make_attribute_int("start", c.start), make_attribute_int("end", c.end)});
    ASSERT_TRUE(r.ok()) << r.error();
    EXPECT_EQ(values_of<std::int64_t>(r.output), c.expected) << c.start << ":" << c.end;
    EXPECT_EQ(r.output.shape, (Shape{static_cast<std::int64_t>(c.expected.size())}));
  }
  for (std::int64_t start = -5; start <= 5; ++start) {
    Result open_end = run_op("Shape", 19, {x}, {make_attribute_int("start", start)});
    ASSERT_TRUE(open_end.ok()) << open_end.error();
    EXPECT_EQ(values_of<std::int64_t>(open_end.output), python_slice({3, 4, 5}, start, 3)) << start;
    for (std::int64_t end = -5; end <= 5; ++end) {
      Result r = run_op("Shape", 15, {x}, {make_attribute_int("start", start), make_attribute_int("end", end)});
      ASSERT_TRUE(r.ok()) << r.error();
      EXPECT_EQ(values_of<std::int64_t>(r.output), python_slice({3, 4, 5}, start, end)) << start << ":" << end;
    }
  }
}

TEST(Shape, BeforeOpset15StartAndEndDoNotExist) {
  Result r = run_op("Shape", 14, {tensor(Shape{3, 4}, std::vector<float>(12))}, {make_attribute_int("start", 1)});
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(values_of<std::int64_t>(r.output), (std::vector<std::int64_t>{3, 4}));
}

TEST(Shape, ScalarGivesAnEmptyShape) {
  Result r = run_op("Shape", 15, {tensor(Shape{}, std::vector<double>{1.0})});
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(r.output.shape, (Shape{0}));
}

TEST(Shape, ReadsOnlyTheShapeSoAnyDtypeWorks) {
  Tensor strings;  // no data at all: Shape must not touch it
  strings.dtype = DataType::string;
  strings.shape = Shape{2, 5};
  Result r = run_op("Shape", 13, {strings});
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(values_of<std::int64_t>(r.output), (std::vector<std::int64_t>{2, 5}));
}

TEST(ShapeModel, ShapeSubgraphIsFoldedIntoReshapesTargetShape) {
  using namespace onnxmicro_test;
  // y = Reshape(x, Concat(Unsqueeze(Gather(Shape(x), 0), [0]), [-1])): x[2,3,4] -> y[2,12]
  ProtoWriter graph = make_graph(
      "g",
      {make_node("Shape", {"x"}, {"s"}), make_node("Gather", {"s", "zero"}, {"n"}, {make_attribute_int("axis", 0)}),
       make_node("Unsqueeze", {"n", "axes"}, {"n1"}),
       make_node("Concat", {"n1", "minus_one"}, {"target"}, {make_attribute_int("axis", 0)}),
       make_node("Reshape", {"x", "target"}, {"y"})},
      {make_value_info("x", DataType::float32, {2, 3, 4})}, {make_value_info("y", DataType::float32, {2, 12})},
      {make_int64_tensor("zero", {}, {0}), make_int64_tensor("axes", {1}, {0}),
       make_int64_tensor("minus_one", {1}, {-1})});
  const std::vector<unsigned char> bytes = make_model(graph, 13).bytes();
  om::Model model;
  Status status = model.load(om::ByteSpan(bytes.data(), bytes.size()));
  ASSERT_TRUE(status.ok()) << status.message();
  om::Session session;
  status = session.prepare(model, Registry::registry());
  ASSERT_TRUE(status.ok()) << status.message();
  for (std::size_t i = 0; i < 4; ++i) EXPECT_TRUE(session.node_reports()[i].folded) << "node " << i;
  std::vector<float> x(24);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i);
  ASSERT_TRUE(session.set_input(0, om::ConstTensorView(DataType::float32, Shape{2, 3, 4}, x.data())).ok());
  status = session.run();
  ASSERT_TRUE(status.ok()) << status.message();
  const om::ConstTensorView y = session.output(0);
  ASSERT_EQ(y.shape, (Shape{2, 12}));
  EXPECT_EQ(std::vector<float>(y.data_as<float>(), y.data_as<float>() + 24), x);
}

}  // namespace
