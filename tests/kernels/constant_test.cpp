// SPDX-License-Identifier: MIT
// Constant: every way a version may carry the value (tensor in raw_data or typed fields, value_float(s),
// value_int(s)), attributes a version does not define, exactly-one-value checks, what is unsupported (sparse,
// strings), and whole models where the session folds a Constant that feeds Reshape's shape.
#include <gtest/gtest.h>

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
using namespace onnxmicro_test;

// ---- harness: one tensor/generator kernel through prepare() and run() (support/op_runner.hpp) -----------

using namespace onnxmicro_test::op_runner;

Result constant(int opset, const std::vector<ProtoWriter>& attributes) {
  return run_op("Constant", opset, {}, attributes);
}

TEST(Constant, DecodesTheValueTensorFromAnyDataField) {
  const std::vector<float> floats = {1.5f, -2.0f, 0.25f, 8.0f};
  Result raw = constant(9, {make_attribute_tensor("value", make_tensor_raw("v", DataType::float32, {2, 2}, floats))});
  ASSERT_TRUE(raw.ok()) << raw.error();
  EXPECT_EQ(raw.output.dtype, DataType::float32);
  EXPECT_EQ(raw.output.shape, (Shape{2, 2}));
  EXPECT_EQ(values_of<float>(raw.output), floats);

  Result typed = constant(1, {make_attribute_tensor("value", make_float_tensor("v", {4}, floats))});
  ASSERT_TRUE(typed.ok()) << typed.error();
  EXPECT_EQ(values_of<float>(typed.output), floats);

  Result int64 = constant(13, {make_attribute_tensor("value", make_int64_tensor("v", {3}, {-1, 1LL << 40, 7}))});
  ASSERT_TRUE(int64.ok()) << int64.error();
  EXPECT_EQ(values_of<std::int64_t>(int64.output), (std::vector<std::int64_t>{-1, 1LL << 40, 7}));

  Result int8 = constant(13, {make_attribute_tensor("value", make_int32_data_tensor("v", DataType::int8, {}, {-5}))});
  ASSERT_TRUE(int8.ok()) << int8.error();
  EXPECT_EQ(int8.output.shape, Shape{});
  EXPECT_EQ(values_of<std::int8_t>(int8.output), std::vector<std::int8_t>{-5});

  Result empty = constant(13, {make_attribute_tensor("value", make_float_tensor("v", {0, 3}, {}))});
  ASSERT_TRUE(empty.ok()) << empty.error();
  EXPECT_EQ(empty.output.shape, (Shape{0, 3}));
}

TEST(Constant, ScalarAndListAttributesFromOpset12) {
  Result f = constant(12, {make_attribute_float("value_float", 2.5f)});
  ASSERT_TRUE(f.ok()) << f.error();
  EXPECT_EQ(f.output.dtype, DataType::float32);
  EXPECT_EQ(f.output.shape, Shape{});
  EXPECT_EQ(values_of<float>(f.output), std::vector<float>{2.5f});

  Result fs = constant(13, {make_attribute_floats("value_floats", {1.0f, -3.5f})});
  ASSERT_TRUE(fs.ok()) << fs.error();
  EXPECT_EQ(fs.output.shape, (Shape{2}));
  EXPECT_EQ(values_of<float>(fs.output), (std::vector<float>{1.0f, -3.5f}));

  Result i = constant(19, {make_attribute_int("value_int", -7)});
  ASSERT_TRUE(i.ok()) << i.error();
  EXPECT_EQ(i.output.dtype, DataType::int64);
  EXPECT_EQ(values_of<std::int64_t>(i.output), std::vector<std::int64_t>{-7});

  Result is = constant(21, {make_attribute_ints("value_ints", {4, 5, 6})});
  ASSERT_TRUE(is.ok()) << is.error();
  EXPECT_EQ(values_of<std::int64_t>(is.output), (std::vector<std::int64_t>{4, 5, 6}));

  Result none = constant(13, {make_attribute_ints("value_ints", {})});
  ASSERT_TRUE(none.ok()) << none.error();
  EXPECT_EQ(none.output.shape, (Shape{0}));
}

TEST(Constant, AttributesOfLaterVersionsAreRejected) {
  Result old = constant(11, {make_attribute_float("value_float", 1.0f)});
  EXPECT_EQ(old.prepare.code(), StatusCode::invalid_model);
  EXPECT_TRUE(contains(old.prepare, "attribute 'value_float' is not defined for Constant at opset 11"))
      << old.prepare.message();
  ProtoWriter sparse = attribute_head("sparse_value");
  sparse.message_field(22, ProtoWriter().message_field(1, make_float_tensor("values", {1}, {1.0f})).int_field(3, 4));
  sparse.int_field(20, 11);
  Result sparse_9 = constant(9, {sparse});
  EXPECT_TRUE(contains(sparse_9.prepare, "'sparse_value' is not defined for Constant at opset 9"))
      << sparse_9.prepare.message();
  Result sparse_11 = constant(11, {sparse});
  EXPECT_EQ(sparse_11.prepare.code(), StatusCode::unsupported);
  EXPECT_TRUE(contains(sparse_11.prepare, "sparse tensors are not supported yet")) << sparse_11.prepare.message();
}

TEST(Constant, NeedsExactlyOneValue) {
  Result none = constant(13, {});
  EXPECT_EQ(none.prepare.code(), StatusCode::invalid_model);
  EXPECT_TRUE(contains(none.prepare,
                       "expected exactly one value attribute (value, sparse_value, value_float, "
                       "value_floats, value_int, value_ints, value_string, value_strings), found 0"))
      << none.prepare.message();
  Result two = constant(13, {make_attribute_int("value_int", 1), make_attribute_float("value_float", 1.0f)});
  EXPECT_TRUE(contains(two.prepare, "found 2")) << two.prepare.message();
  Result v1 = constant(1, {});
  EXPECT_TRUE(contains(v1.prepare, "expected exactly one value attribute (value), found 0")) << v1.prepare.message();
}

TEST(Constant, WrongAttributeTypeAndStringsAreClearErrors) {
  Result wrong_type = constant(13, {make_attribute_int("value_float", 1)});
  EXPECT_EQ(wrong_type.prepare.code(), StatusCode::invalid_model);
  EXPECT_TRUE(contains(wrong_type.prepare, "'value_float' has type INT, expected FLOAT"))
      << wrong_type.prepare.message();
}

TEST(Constant, StringsAreViewsOfTheAttributeBytes) {
  Result strings = constant(13, {make_attribute_strings("value_strings", {"a", "bc"})});
  ASSERT_TRUE(strings.prepare.ok()) << strings.prepare.message();
  EXPECT_EQ(strings.output.shape, (Shape{2}));
  const std::vector<om::StringRef> values = values_of<om::StringRef>(strings.output);
  ASSERT_EQ(values.size(), 2u);
  EXPECT_EQ(values[1].view(), "bc");
  ProtoWriter string_tensor;
  string_tensor.int_field(1, 1).int_field(2, static_cast<std::int64_t>(DataType::string)).string_field(6, "x");
  Result string_value = constant(13, {make_attribute_tensor("value", string_tensor)});
  ASSERT_TRUE(string_value.prepare.ok()) << string_value.prepare.message();
  EXPECT_EQ(values_of<om::StringRef>(string_value.output)[0].view(), "x");
  Result one = constant(13, {make_attribute_string("value_string", "solo")});
  ASSERT_TRUE(one.prepare.ok()) << one.prepare.message();
  EXPECT_EQ(one.output.shape, Shape());
  EXPECT_EQ(values_of<om::StringRef>(one.output)[0].view(), "solo");
}

// ---- whole models: the session folds Constant at prepare time ----

struct LoadedModel {
  std::vector<unsigned char> bytes;
  om::Model model;
  om::Session session;
  Status prepare(const ProtoWriter& proto) {
    bytes = proto.bytes();
    Status status = model.load(om::ByteSpan(bytes.data(), bytes.size()));
    if (!status.ok()) return status;
    return session.prepare(model, om::all_kernels_registry());
  }
};

TEST(ConstantModel, FoldedConstantFeedsReshapeShape) {
  // x[6] -> Reshape(x, Constant [3,2]) -> Transpose -> y[2,3]
  ProtoWriter graph = make_graph(
      "g",
      {make_node("Constant", {}, {"shape"}, {make_attribute_tensor("value", make_int64_tensor("s", {2}, {3, -1}))}),
       make_node("Reshape", {"x", "shape"}, {"r"}), make_node("Transpose", {"r"}, {"y"})},
      {make_value_info("x", DataType::float32, {6})}, {make_value_info("y", DataType::float32, {2, 3})});
  LoadedModel m;
  Status status = m.prepare(make_model(graph, 14));
  ASSERT_TRUE(status.ok()) << status.message();
  ASSERT_EQ(m.session.node_reports().size(), 3u);
  EXPECT_TRUE(m.session.node_reports()[0].folded);
  const std::vector<float> x = {0, 1, 2, 3, 4, 5};
  ASSERT_TRUE(m.session.set_input(0, om::ConstTensorView(DataType::float32, Shape{6}, x.data())).ok());
  status = m.session.run();
  ASSERT_TRUE(status.ok()) << status.message();
  const om::ConstTensorView y = m.session.output(0);
  ASSERT_EQ(y.shape, (Shape{2, 3}));
  const float* v = y.data_as<float>();
  EXPECT_EQ(std::vector<float>(v, v + 6), (std::vector<float>{0, 2, 4, 1, 3, 5}));
}

TEST(ConstantModel, ConstantAsGraphOutput) {
  ProtoWriter graph = make_graph("g", {make_node("Constant", {}, {"c"}, {make_attribute_ints("value_ints", {9, 8})})},
                                 {}, {make_value_info("c", DataType::int64, {2})});
  LoadedModel m;
  Status status = m.prepare(make_model(graph, 13));
  ASSERT_TRUE(status.ok()) << status.message();
  ASSERT_TRUE(m.session.run().ok());
  const om::ConstTensorView c = m.session.output(0);
  ASSERT_EQ(c.dtype, DataType::int64);
  EXPECT_EQ(c.data_as<std::int64_t>()[0], 9);
  EXPECT_EQ(c.data_as<std::int64_t>()[1], 8);
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
