// SPDX-License-Identifier: MIT
// The configured limits (core/config.hpp): for each one a model exactly at the limit works, and one just past it
// fails with limit_exceeded naming the limit's macro. The corpus in tests/malformed covers far-past-limit input.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "onnxmicro/onnxmicro.hpp"
#include "support/loaded_model.hpp"
#include "support/proto_writer.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

using namespace onnxmicro_test;
namespace om = onnxmicro;
using om::ConstTensorView;
using om::Shape;
using om::Status;
using om::StatusCode;

using Loaded = LoadedModel;

::testing::AssertionResult fails_with_limit(const Status& status, const char* limit_name) {
  if (status.code() != StatusCode::limit_exceeded) {
    return ::testing::AssertionFailure() << "expected limit_exceeded, got " << om::status_code_name(status.code())
                                         << ": " << status.message();
  }
  if (status.message_view().find(limit_name) == std::string_view::npos) {
    return ::testing::AssertionFailure() << "message does not name " << limit_name << ": " << status.message();
  }
  return ::testing::AssertionSuccess();
}

// ---- ONNXMICRO_MAX_PROTO_DEPTH ----------------------------------------------------------------------------------

// A graph input whose type is sequence(sequence(...(tensor(float)))) `levels` deep, the tensor type with
// `extra` more levels (1: a shape, 2: a shape with a dim). Messages count from ModelProto = 1: graph 2, input
// (ValueInfoProto) 3, its TypeProto 4; each level adds a TypeProto.Sequence and a TypeProto (2); the innermost
// TypeProto holds a TypeProto.Tensor (1), then `extra`. The deepest message is at 5 + 2 * levels + extra.
ProtoWriter nested_sequence_input_model(int levels, int extra) {
  ProtoWriter tensor_type;
  tensor_type.int_field(1, static_cast<std::int64_t>(DataType::float32));
  if (extra > 0) {
    ProtoWriter shape;
    if (extra > 1) shape.message_field(1, ProtoWriter().int_field(1, 3));
    tensor_type.message_field(2, shape);
  }
  ProtoWriter type;
  type.message_field(1, tensor_type);
  for (int i = 0; i < levels; ++i) {
    ProtoWriter sequence;
    sequence.message_field(1, type);
    ProtoWriter outer;
    outer.message_field(4, sequence);
    type = outer;
  }
  ProtoWriter input;
  input.string_field(1, "s");
  input.message_field(2, type);
  return make_model(make_graph("g", {make_node("Identity", {"s"}, {"y"}, {}, "id0")}, {input},
                               {make_value_info("y", DataType::float32, {1})}));
}
constexpr int kLevels = (ONNXMICRO_MAX_PROTO_DEPTH - 5) / 2;
constexpr int kExtraAtLimit = ONNXMICRO_MAX_PROTO_DEPTH - 5 - 2 * kLevels;  // 0 or 1: lands on the limit exactly

TEST(Limits, MessageNestingAtTheProtoDepthLimitLoads) {
  Loaded m;
  const Status st = m.load(nested_sequence_input_model(kLevels, kExtraAtLimit));
  EXPECT_TRUE(st.ok()) << st.message();
}

TEST(Limits, MessageNestingOnePastTheProtoDepthLimitFails) {
  Loaded m;
  const Status st = m.load(nested_sequence_input_model(kLevels, kExtraAtLimit + 1));
  EXPECT_TRUE(fails_with_limit(st, "ONNXMICRO_MAX_PROTO_DEPTH"));
  const std::string depth = "depth " + std::to_string(ONNXMICRO_MAX_PROTO_DEPTH + 1) + " exceeds";
  EXPECT_NE(st.message_view().find(depth), std::string_view::npos) << st.message();
}

// ---- ONNXMICRO_MAX_SUBGRAPH_DEPTH -------------------------------------------------------------------------------

// Ifs nested `levels` deep in their then-branches (else: a constant 0); the innermost branch outputs 7. With a
// true condition every level takes its then-branch and y = 7.
ProtoWriter nested_if_model(int levels) {
  auto constant_graph = [](const std::string& output, float value) {
    return make_graph(
        "const_" + output,
        {make_node("Constant", {}, {output}, {make_attribute_tensor("value", make_float_tensor("c", {1}, {value}))},
                   "const_" + output)},
        {}, {make_value_info(output, DataType::float32, {1})});
  };
  ProtoWriter then_branch = constant_graph("r" + std::to_string(levels), 7.0f);
  for (int level = levels - 1; level >= 0; --level) {
    const std::string out = level == 0 ? "y" : "r" + std::to_string(level);
    ProtoWriter if_node = make_node("If", {"cond"}, {out},
                                    {make_attribute_graph("then_branch", then_branch),
                                     make_attribute_graph("else_branch", constant_graph(out, 0.0f))},
                                    "if" + std::to_string(level));
    if (level == 0) {
      return make_model(make_graph("g", {if_node}, {make_value_info("cond", DataType::boolean, {})},
                                   {make_value_info("y", DataType::float32, {1})}));
    }
    then_branch =
        make_graph("b" + std::to_string(level), {if_node}, {}, {make_value_info(out, DataType::float32, {1})});
  }
  return {};
}

TEST(Limits, SubgraphsNestedAtTheLimitLoadPrepareAndRun) {
  Loaded m;
  Status st = m.load(nested_if_model(ONNXMICRO_MAX_SUBGRAPH_DEPTH));
  ASSERT_TRUE(st.ok()) << st.message();
  st = m.session.prepare(m.model, om::all_kernels_registry());
  ASSERT_TRUE(st.ok()) << st.message();
  const bool cond = true;
  ASSERT_TRUE(m.session.set_input(0, ConstTensorView(DataType::boolean, Shape{}, &cond)).ok());
  st = m.session.run();
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_EQ(m.session.output(0).data_as<float>()[0], 7.0f);
}

TEST(Limits, SubgraphsNestedPastTheLimitFailToLoad) {
  Loaded m;
  EXPECT_TRUE(
      fails_with_limit(m.load(nested_if_model(ONNXMICRO_MAX_SUBGRAPH_DEPTH + 1)), "ONNXMICRO_MAX_SUBGRAPH_DEPTH"));
}

// ---- ONNXMICRO_MAX_FUNCTION_CALL_DEPTH ---------------------------------------------------------------------------

// The main graph calls F1, whose body calls F2, ... F`depth`, whose body is Neg: y = -x however deep.
ProtoWriter nested_function_model(int depth) {
  ProtoWriter model = make_model(
      make_graph("g", {make_node("F1", {"x"}, {"y"}, {}, "call_f1", "local")},
                 {make_value_info("x", DataType::float32, {2})}, {make_value_info("y", DataType::float32, {2})}),
      18, 10, {make_opset("", 18), make_opset("local", 1)});
  for (int level = 1; level <= depth; ++level) {
    // FunctionProto: name 1, input 4, output 5, node 7, opset_import 9, domain 10.
    ProtoWriter f;
    f.string_field(1, "F" + std::to_string(level));
    f.string_field(4, "a").string_field(5, "b");
    if (level == depth) {
      f.message_field(7, make_node("Neg", {"a"}, {"b"}));
    } else {
      f.message_field(7, make_node("F" + std::to_string(level + 1), {"a"}, {"b"}, {}, "", "local"));
    }
    f.message_field(9, make_opset("", 18)).message_field(9, make_opset("local", 1));
    f.string_field(10, "local");
    model.message_field(25, f);
  }
  return model;
}

TEST(Limits, FunctionCallsNestedAtTheLimitExpandAndRun) {
  Loaded m;
  Status st = m.load(nested_function_model(ONNXMICRO_MAX_FUNCTION_CALL_DEPTH));
  ASSERT_TRUE(st.ok()) << st.message();
  st = m.session.prepare(m.model, om::all_kernels_registry());
  ASSERT_TRUE(st.ok()) << st.message();
  const float x[2] = {1.5f, -2.0f};
  ASSERT_TRUE(m.session.set_input(0, ConstTensorView(DataType::float32, Shape{2}, x)).ok());
  ASSERT_TRUE(m.session.run().ok());
  const float* y = m.session.output(0).data_as<float>();
  EXPECT_EQ(std::vector<float>(y, y + 2), (std::vector<float>{-1.5f, 2.0f}));
}

TEST(Limits, FunctionCallsNestedPastTheLimitFailToLoad) {
  Loaded m;
  const Status st = m.load(nested_function_model(ONNXMICRO_MAX_FUNCTION_CALL_DEPTH + 1));
  EXPECT_TRUE(fails_with_limit(st, "ONNXMICRO_MAX_FUNCTION_CALL_DEPTH"));
  const std::string deepest = "'F" + std::to_string(ONNXMICRO_MAX_FUNCTION_CALL_DEPTH + 1) + "'";
  EXPECT_NE(st.message_view().find(deepest), std::string_view::npos) << st.message();
}

// ---- ONNXMICRO_MAX_RANK -----------------------------------------------------------------------------------------

ProtoWriter identity_of_initializer_model(int rank) {
  const std::vector<std::int64_t> dims(static_cast<std::size_t>(rank), 1);
  return make_model(make_graph("g", {make_node("Identity", {"w"}, {"y"}, {}, "id0")}, {},
                               {make_value_info("y", DataType::float32, dims)},
                               {make_float_tensor("w", dims, {2.5f})}));
}

TEST(Limits, TensorAtTheMaxRankLoadsAndRuns) {
  Loaded m;
  Status st = m.load(identity_of_initializer_model(ONNXMICRO_MAX_RANK));
  ASSERT_TRUE(st.ok()) << st.message();
  st = m.session.prepare(m.model, om::all_kernels_registry());
  ASSERT_TRUE(st.ok()) << st.message();
  ASSERT_TRUE(m.session.run().ok());
  EXPECT_EQ(m.session.output(0).shape.rank(), ONNXMICRO_MAX_RANK);
  EXPECT_EQ(m.session.output(0).data_as<float>()[0], 2.5f);
}

TEST(Limits, TensorPastTheMaxRankFailsToLoad) {
  Loaded m;
  const Status st = m.load(identity_of_initializer_model(ONNXMICRO_MAX_RANK + 1));
  EXPECT_TRUE(fails_with_limit(st, "ONNXMICRO_MAX_RANK"));
  EXPECT_NE(st.message_view().find("'w'"), std::string_view::npos) << st.message();
}

TEST(Limits, GraphInputPastTheMaxRankFailsToLoad) {
  const std::vector<std::int64_t> dims(ONNXMICRO_MAX_RANK + 1, 1);
  Loaded m;
  const Status st = m.load(make_model(make_graph("g", {make_node("Relu", {"x"}, {"y"}, {}, "relu0")},
                                                 {make_value_info("x", DataType::float32, dims)},
                                                 {make_value_info("y", DataType::float32, dims)})));
  EXPECT_TRUE(fails_with_limit(st, "ONNXMICRO_MAX_RANK"));
  EXPECT_NE(st.message_view().find("'x'"), std::string_view::npos) << st.message();
}

// ---- ONNXMICRO_MAX_TENSOR_BYTES ---------------------------------------------------------------------------------

// The dims alone decide the byte size (no data needed): a TensorProto of `dtype` and `dims`.
Status element_count_of(DataType dtype, std::vector<std::int64_t> dims, std::int64_t& count) {
  ProtoWriter t;
  for (std::int64_t d : dims) t.int_field(1, d);
  t.int_field(2, static_cast<std::int64_t>(dtype));
  t.string_field(8, "big");
  const std::vector<unsigned char> bytes = t.bytes();
  om::proto::Tensor tensor;
  Status st = om::proto::Tensor::parse(om::ByteSpan(bytes.data(), bytes.size()), 1, tensor);
  if (!st.ok()) return st;
  return tensor.element_count(count);
}

constexpr auto kMaxTensorBytes = static_cast<std::int64_t>(ONNXMICRO_MAX_TENSOR_BYTES);

TEST(Limits, TensorOfExactlyMaxTensorBytesIsAccepted) {
  std::int64_t count = 0;
  Status st = element_count_of(DataType::uint8, {kMaxTensorBytes}, count);
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_EQ(count, kMaxTensorBytes);
  st = element_count_of(DataType::float32, {kMaxTensorBytes / 8, 2}, count);
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_EQ(count, kMaxTensorBytes / 4);
}

TEST(Limits, TensorOneElementPastMaxTensorBytesFails) {
  std::int64_t count = 0;
  const Status st = element_count_of(DataType::uint8, {kMaxTensorBytes + 1}, count);
  EXPECT_TRUE(fails_with_limit(st, "ONNXMICRO_MAX_TENSOR_BYTES"));
  EXPECT_NE(st.message_view().find("'big'"), std::string_view::npos) << st.message();
  // The same element count is fine for one byte per element and too big for four.
  EXPECT_TRUE(fails_with_limit(element_count_of(DataType::float32, {kMaxTensorBytes / 4 + 1}, count),
                               "ONNXMICRO_MAX_TENSOR_BYTES"));
}

TEST(Limits, InitializerPastMaxTensorBytesFailsToLoadBeforeItsDataIsChecked) {
  // At the limit the loader goes on to compare raw_data with the shape (and finds it empty); past the limit it
  // stops at the size.
  auto model_with = [](std::int64_t elements) {
    ProtoWriter t;
    t.int_field(1, elements);
    t.int_field(2, static_cast<std::int64_t>(DataType::uint8));
    t.string_field(8, "w");
    t.bytes_field(9, "", 0);
    return make_model(make_graph("g", {make_node("Identity", {"w"}, {"y"}, {}, "id0")}, {},
                                 {make_value_info("y", DataType::uint8, {elements})}, {t}));
  };
  Loaded at;
  const Status at_limit = at.load(model_with(kMaxTensorBytes));
  EXPECT_EQ(at_limit.code(), StatusCode::invalid_model) << at_limit.message();
  EXPECT_NE(at_limit.message_view().find("raw_data"), std::string_view::npos) << at_limit.message();
  Loaded past;
  EXPECT_TRUE(fails_with_limit(past.load(model_with(kMaxTensorBytes + 1)), "ONNXMICRO_MAX_TENSOR_BYTES"));
}

// ---- ONNXMICRO_MAX_LOOP_ITERATIONS ------------------------------------------------------------------------------

// Loop(M, cond = true) whose body adds 1 to a float counter and never stops on its own: it runs M iterations.
ProtoWriter counting_loop_model() {
  ProtoWriter body =
      make_graph("body",
                 {make_node("Identity", {"c_in"}, {"c_out"}, {}, "keep_going"),
                  make_node("Add", {"v_in", "one"}, {"v_out"}, {}, "count")},
                 {make_value_info("i", DataType::int64, {}), make_value_info("c_in", DataType::boolean, {}),
                  make_value_info("v_in", DataType::float32, {1})},
                 {make_value_info("c_out", DataType::boolean, {}), make_value_info("v_out", DataType::float32, {1})},
                 {make_float_tensor("one", {1}, {1.0f})});
  return make_model(
      make_graph("g", {make_node("Loop", {"M", "cond", "v0"}, {"v"}, {make_attribute_graph("body", body)}, "loop0")},
                 {make_value_info("M", DataType::int64, {}), make_value_info("cond", DataType::boolean, {})},
                 {make_value_info("v", DataType::float32, {1})}, {make_float_tensor("v0", {1}, {0.0f})}));
}

Status run_counting_loop(std::int64_t trip_count, float& counter) {
  Loaded m;
  Status st = m.load(counting_loop_model());
  if (!st.ok()) return st;
  st = m.session.prepare(m.model, om::all_kernels_registry());
  if (!st.ok()) return st;
  const bool cond = true;
  st = m.session.set_input(0, ConstTensorView(DataType::int64, Shape{}, &trip_count));
  if (!st.ok()) return st;
  st = m.session.set_input(1, ConstTensorView(DataType::boolean, Shape{}, &cond));
  if (!st.ok()) return st;
  st = m.session.run();
  if (st.ok()) counter = m.session.output(0).data_as<float>()[0];
  return st;
}

// The counter is a float: exact up to 2^24, the default limit.
static_assert(ONNXMICRO_MAX_LOOP_ITERATIONS <= (1LL << 24), "the float counter must count the limit exactly");

TEST(Limits, LoopRunsExactlyMaxLoopIterations) {
  float counter = -1;
  const Status st = run_counting_loop(ONNXMICRO_MAX_LOOP_ITERATIONS, counter);
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_EQ(counter, static_cast<float>(ONNXMICRO_MAX_LOOP_ITERATIONS));
}

TEST(Limits, LoopOneIterationPastTheLimitFailsNamingTheNode) {
  float counter = -1;
  const Status st = run_counting_loop(ONNXMICRO_MAX_LOOP_ITERATIONS + 1, counter);
  EXPECT_TRUE(fails_with_limit(st, "ONNXMICRO_MAX_LOOP_ITERATIONS"));
  EXPECT_NE(st.message_view().find("'loop0'"), std::string_view::npos) << st.message();
  EXPECT_EQ(counter, -1.0f);
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
