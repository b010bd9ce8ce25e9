// SPDX-License-Identifier: MIT
// Every kind of graph value through the public Session API: string tensors (StringRef views the caller owns in,
// strings a kernel builds read from the session's string pool out), sequences and optionals as inputs (offered at
// prepare or by run(inputs), views the caller owns) and as outputs (ValueRefs readable until the next run), and the
// errors a wrong kind or element type gives.
#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "onnxmicro/onnxmicro.hpp"
#include "support/proto_writer.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

namespace om = onnxmicro;
using namespace onnxmicro_test;

// TypeProto.sequence_type (4) of float tensors; TypeProto.optional_type (9) of a float tensor.
ProtoWriter float_sequence_type() {
  ProtoWriter sequence;
  sequence.message_field(1, make_tensor_type(om::DataType::float32, {}, /*with_shape=*/false));
  ProtoWriter type;
  type.message_field(4, sequence);
  return type;
}
ProtoWriter float_optional_type() {
  ProtoWriter optional;
  optional.message_field(1, make_tensor_type(om::DataType::float32, {}, /*with_shape=*/false));
  ProtoWriter type;
  type.message_field(9, optional);
  return type;
}
ProtoWriter typed_value(std::string_view name, const ProtoWriter& type) {
  ProtoWriter v;
  v.string_field(1, name);
  v.message_field(2, type);
  return v;
}

/// A loaded model that owns its bytes.
struct Loaded {
  std::vector<unsigned char> bytes;
  om::Model model;
  explicit Loaded(const ProtoWriter& graph, std::int64_t opset) : bytes(make_model(graph, opset).bytes()) {
    const om::Status status = model.load(om::ByteSpan(bytes.data(), bytes.size()));
    EXPECT_TRUE(status.ok()) << status.message();
  }
};

std::vector<std::string_view> strings_of(const om::ConstTensorView& view) {
  std::vector<std::string_view> out;
  const auto* refs = view.data_as<om::StringRef>();
  for (std::int64_t i = 0; i < view.element_count(); ++i) out.push_back(refs[i].view());
  return out;
}

std::vector<float> floats_of(const om::ConstTensorView& view) {
  const float* p = view.data_as<float>();
  return std::vector<float>(p, p + view.element_count());
}

TEST(ValueKinds, StringTensorsInAndPooledStringsOut) {
  Loaded m(
      make_graph("g", {make_node("StringConcat", {"x", "y"}, {"z"}, {}, "concat")},
                 {make_value_info("x", om::DataType::string, {2}), make_value_info("y", om::DataType::string, {2})},
                 {make_value_info("z", om::DataType::string, {2})}),
      20);
  om::Session session;
  ASSERT_TRUE(session.prepare(m.model, om::all_kernels_registry()).ok());
  const std::string left[] = {"ab", ""}, right[] = {"c", "de"};  // the caller owns the bytes the views point at
  const om::StringRef x[] = {om::StringRef::of(left[0]), om::StringRef::of(left[1])};
  const om::StringRef y[] = {om::StringRef::of(right[0]), om::StringRef::of(right[1])};
  ASSERT_TRUE(session.set_input("x", om::ConstTensorView(om::DataType::string, om::Shape{2}, x)).ok());
  ASSERT_TRUE(session.set_input("y", om::ConstTensorView(om::DataType::string, om::Shape{2}, y)).ok());
  ASSERT_TRUE(session.run().ok());
  EXPECT_EQ(strings_of(session.output(0)), (std::vector<std::string_view>{"abc", "de"}));
  EXPECT_GT(session.string_pool_peak(), 0u);  // "abc" and "de" were built in the session's pool

  // A float tensor where strings are declared: the message names the input and both dtypes.
  const float numbers[] = {1, 2};
  const om::Status status = session.set_input("x", om::ConstTensorView(om::DataType::float32, om::Shape{2}, numbers));
  ASSERT_FALSE(status.ok());
  EXPECT_NE(std::string(status.message()).find("'x'"), std::string::npos) << status.message();
  EXPECT_NE(std::string(status.message()).find("string"), std::string::npos) << status.message();
}

TEST(ValueKinds, SequenceInputOfferedAtPrepareAndReplacedByRunInputs) {
  Loaded m(make_graph("g", {make_node("ConcatFromSequence", {"seq"}, {"c"}, {make_attribute_int("axis", 0)}, "concat")},
                      {typed_value("seq", float_sequence_type())}, {make_value_info("c", om::DataType::float32, {-1})}),
           13);
  const float a[] = {1, 2}, b[] = {3};
  om::ValueRef two[] = {om::value_ref_of(om::ConstTensorView(om::DataType::float32, om::Shape{2}, a)),
                        om::value_ref_of(om::ConstTensorView(om::DataType::float32, om::Shape{1}, b))};
  const om::InputValue offered[] = {{"seq", om::ConstTensorView(om::DataType::sequence, om::Shape{2}, two)}};
  om::SessionOptions options;
  options.input_values = offered;
  om::Session session;
  om::Status status = session.prepare(m.model, om::all_kernels_registry(), options);
  ASSERT_TRUE(status.ok()) << status.message();
  EXPECT_TRUE(session.input_bound_at_prepare(0));
  ASSERT_TRUE(session.run().ok());
  EXPECT_EQ(floats_of(session.output(0)), (std::vector<float>{1, 2, 3}));

  // Another sequence through run(inputs): a re-plan, then the new values.
  om::ValueRef three[] = {two[1], two[0], two[1]};
  const om::InputValue next[] = {{"seq", om::ConstTensorView(om::DataType::sequence, om::Shape{3}, three)}};
  status = session.run(next);
  ASSERT_TRUE(status.ok()) << status.message();
  EXPECT_EQ(session.replan_count(), 1u);
  EXPECT_EQ(floats_of(session.output(0)), (std::vector<float>{3, 1, 2, 3}));
  status = session.run(next);  // the same sequence again: no re-plan
  ASSERT_TRUE(status.ok()) << status.message();
  EXPECT_EQ(session.replan_count(), 1u);
}

TEST(ValueKinds, SequenceOutputReadableUntilTheNextRun) {
  Loaded m(make_graph("g", {make_node("SequenceConstruct", {"x", "x"}, {"seq"}, {}, "construct")},
                      {make_value_info("x", om::DataType::float32, {2})}, {typed_value("seq", float_sequence_type())}),
           13);
  // A sequence is built when planning (values known at prepare in this build): without x's value prepare says so.
  om::Session session;
  om::Status status = session.prepare(m.model, om::all_kernels_registry());
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(session.missing_input_value(), 0);
  const float x[] = {4, 5}, x2[] = {6, 7};
  const om::InputValue offered[] = {{"x", om::ConstTensorView(om::DataType::float32, om::Shape{2}, x)}};
  om::SessionOptions options;
  options.input_values = offered;
  status = session.prepare(m.model, om::all_kernels_registry(), options);
  ASSERT_TRUE(status.ok()) << status.message();
  ASSERT_TRUE(session.run().ok());
  auto expect_sequence = [&](std::vector<float> expected) {
    const om::ConstTensorView seq = session.output(0);
    ASSERT_EQ(seq.dtype, om::DataType::sequence);
    ASSERT_EQ(seq.shape, om::Shape{2});
    for (int k = 0; k < 2; ++k) {
      const om::ConstTensorView element = om::view_of(seq.data_as<om::ValueRef>()[k]);
      EXPECT_EQ(element.dtype, om::DataType::float32);
      EXPECT_EQ(floats_of(element), expected);
    }
  };
  expect_sequence({4, 5});
  const om::InputValue next[] = {{"x", om::ConstTensorView(om::DataType::float32, om::Shape{2}, x2)}};
  ASSERT_TRUE(session.run(next).ok());
  expect_sequence({6, 7});
}

TEST(ValueKinds, OptionalInputEmptyOrNot) {
  Loaded m(make_graph("g", {make_node("OptionalHasElement", {"opt"}, {"has"}, {}, "has")},
                      {typed_value("opt", float_optional_type())}, {make_value_info("has", om::DataType::boolean, {})}),
           18);
  const float value[] = {7};
  const om::ValueRef element = om::value_ref_of(om::ConstTensorView(om::DataType::float32, om::Shape{1}, value));
  const om::InputValue full[] = {{"opt", om::ConstTensorView(om::DataType::optional, om::Shape{1}, &element)}};
  const om::InputValue empty[] = {{"opt", om::ConstTensorView(om::DataType::optional, om::Shape{0}, nullptr)}};
  om::SessionOptions options;
  options.input_values = full;
  om::Session session;
  ASSERT_TRUE(session.prepare(m.model, om::all_kernels_registry(), options).ok());
  ASSERT_TRUE(session.run().ok());
  EXPECT_EQ(*session.output(0).data_as<bool>(), true);
  const om::Status status = session.run(empty);
  ASSERT_TRUE(status.ok()) << status.message();
  EXPECT_EQ(*session.output(0).data_as<bool>(), false);
}

TEST(ValueKinds, WrongKindOrElementTypeIsRefusedNamingTheInput) {
  Loaded m(make_graph("g", {make_node("SequenceLength", {"seq"}, {"n"}, {}, "length")},
                      {typed_value("seq", float_sequence_type())}, {make_value_info("n", om::DataType::int64, {})}),
           13);
  const float a[] = {1};
  const std::int64_t i[] = {1};
  const om::ValueRef floats[] = {om::value_ref_of(om::ConstTensorView(om::DataType::float32, om::Shape{1}, a))};
  const om::ValueRef ints[] = {om::value_ref_of(om::ConstTensorView(om::DataType::int64, om::Shape{1}, i))};
  const om::InputValue good[] = {{"seq", om::ConstTensorView(om::DataType::sequence, om::Shape{1}, floats)}};
  om::SessionOptions options;
  options.input_values = good;
  om::Session session;
  ASSERT_TRUE(session.prepare(m.model, om::all_kernels_registry(), options).ok());

  const om::InputValue tensor[] = {{"seq", om::ConstTensorView(om::DataType::float32, om::Shape{1}, a)}};
  om::Status status = session.run(tensor);
  ASSERT_FALSE(status.ok());
  EXPECT_NE(std::string(status.message()).find("'seq'"), std::string::npos) << status.message();

  ASSERT_TRUE(session.prepare(m.model, om::all_kernels_registry(), options).ok());
  const om::InputValue wrong_elements[] = {{"seq", om::ConstTensorView(om::DataType::sequence, om::Shape{1}, ints)}};
  status = session.run(wrong_elements);
  ASSERT_FALSE(status.ok());
  EXPECT_NE(std::string(status.message()).find("'seq'"), std::string::npos) << status.message();
  EXPECT_NE(std::string(status.message()).find("int64"), std::string::npos) << status.message();
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
