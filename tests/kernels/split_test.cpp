// SPDX-License-Identifier: MIT
// Split beyond the ONNX node suite, through Model + Session (several outputs): an uneven equal split along an
// inner axis (ceil-sized pieces, smaller last one, as the reference), sizes from the opset-2 attribute and from a
// constant input with a zero-sized piece, and errors naming the sizes.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "onnxmicro/kernels/tensor/split.hpp"
#include "onnxmicro/model/loader.hpp"
#include "onnxmicro/runtime/session.hpp"
#include "support/proto_writer.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

namespace om = onnxmicro;
using om::DataType;
using om::Shape;
using om::Status;
using om::StatusCode;
using onnxmicro_test::ProtoWriter;

using SplitKernels = om::KernelSet<om::kernels::Split_1, om::kernels::Split_2, om::kernels::Split_11,
                                   om::kernels::Split_13, om::kernels::Split_18>;

struct SplitRun {
  Status status;
  std::vector<Shape> shapes;
  std::vector<std::vector<float>> values;
};

// Splits x[2,5] = 0..9 into `outputs` pieces with `attributes`, sizes from initializer 'split' when given.
SplitRun split(int opset, int outputs, const std::vector<ProtoWriter>& attributes,
               const std::vector<std::int64_t>* sizes = nullptr) {
  using namespace onnxmicro_test;
  std::vector<std::string> names;
  std::vector<ProtoWriter> infos;
  for (int i = 0; i < outputs; ++i) {
    names.push_back("y" + std::to_string(i));
    infos.push_back(make_value_info(names.back(), DataType::float32, {}));
  }
  std::vector<ProtoWriter> initializers;
  std::vector<std::string> inputs = {"x"};
  if (sizes != nullptr) {
    initializers.push_back(make_int64_tensor("split", {static_cast<std::int64_t>(sizes->size())}, *sizes));
    inputs.push_back("split");
  }
  ProtoWriter graph = make_graph("g", {make_node("Split", inputs, names, attributes)},
                                 {make_value_info("x", DataType::float32, {2, 5})}, infos, initializers);
  const std::vector<unsigned char> bytes = make_model(graph, opset).bytes();
  SplitRun result;
  om::Model model;
  result.status = model.load(om::ByteSpan(bytes.data(), bytes.size()));
  if (!result.status.ok()) return result;
  om::Session session;
  result.status = session.prepare(model, SplitKernels::registry());
  if (!result.status.ok()) return result;
  float x[10] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
  result.status = session.set_input(0, om::ConstTensorView(DataType::float32, Shape{2, 5}, x));
  if (result.status.ok()) result.status = session.run();
  if (!result.status.ok()) return result;
  for (int i = 0; i < outputs; ++i) {
    const om::ConstTensorView y = session.output(static_cast<std::size_t>(i));
    result.shapes.push_back(y.shape);
    result.values.emplace_back(y.data_as<float>(), y.data_as<float>() + y.element_count());
  }
  return result;
}

TEST(Split, UnevenEqualSplitHasASmallerLastPiece) {
  SplitRun r = split(
      18, 3, {onnxmicro_test::make_attribute_int("axis", -1), onnxmicro_test::make_attribute_int("num_outputs", 3)});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.shapes, (std::vector<Shape>{Shape{2, 2}, Shape{2, 2}, Shape{2, 1}}));
  EXPECT_EQ(r.values, (std::vector<std::vector<float>>{{0, 1, 5, 6}, {2, 3, 7, 8}, {4, 9}}));
}

TEST(Split, SizesFromAttributeOrConstantInput) {
  SplitRun r = split(
      2, 2, {onnxmicro_test::make_attribute_int("axis", 1), onnxmicro_test::make_attribute_ints("split", {4, 1})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.values, (std::vector<std::vector<float>>{{0, 1, 2, 3, 5, 6, 7, 8}, {4, 9}}));
  const std::vector<std::int64_t> sizes = {1, 0, 1};
  r = split(13, 3, {}, &sizes);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.shapes, (std::vector<Shape>{Shape{1, 5}, Shape{0, 5}, Shape{1, 5}}));
  EXPECT_EQ(r.values[2], (std::vector<float>{5, 6, 7, 8, 9}));
}

TEST(Split, ErrorsNameTheSizes) {
  const std::vector<std::int64_t> sizes = {1, 2};
  SplitRun r = split(13, 2, {}, &sizes);
  EXPECT_EQ(r.status.code(), StatusCode::invalid_model);
  EXPECT_NE(std::string(r.status.message()).find("split sizes [1,2] must be >= 0 and add up"), std::string::npos)
      << r.status.message();
  r = split(18, 2, {onnxmicro_test::make_attribute_int("num_outputs", 3)});
  EXPECT_NE(std::string(r.status.message()).find("'num_outputs' is 3"), std::string::npos) << r.status.message();
  r = split(11, 2, {onnxmicro_test::make_attribute_int("axis", -3)});
  EXPECT_NE(std::string(r.status.message()).find("attribute 'axis' is -3"), std::string::npos) << r.status.message();
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
