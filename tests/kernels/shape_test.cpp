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

#include "onnxmicro/model/loader.hpp"
#include "onnxmicro/onnxmicro.hpp"
#include "onnxmicro/runtime/session.hpp"
#include "support/op_runner.hpp"
#include "support/proto_writer.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

namespace om = onnxmicro;
using om::DataType;
using om::Shape;
using om::Status;
using om::StatusCode;
using onnxmicro_test::make_attribute_int;
using onnxmicro_test::ProtoWriter;

// ---- harness: one tensor/generator kernel through prepare() and run() (support/op_runner.hpp) -----------

using namespace onnxmicro_test::op_runner;

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
  status = session.prepare(model, om::all_kernels_registry());
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

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
