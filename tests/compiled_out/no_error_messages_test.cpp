// SPDX-License-Identifier: MIT
// A build with error message text compiled out (ONNXMICRO_ENABLE_ERROR_MESSAGES=0, CMakeLists.txt: its own
// executable). Status shrinks to its code; every failure still fails, with the code the full build gives (the unit
// tests assert those messages word for word), and message() says how to get the full text on the host. A float32
// CNN still runs and matches onnxruntime's output.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "default_model.hpp"  // examples/hello: tests/models/hello_cnn with its input and onnxruntime's output
#include "onnxmicro/onnxmicro.hpp"
#include "support/proto_writer.hpp"

#if ONNXMICRO_ENABLE_ERROR_MESSAGES
#error "tests/compiled_out/no_error_messages_test.cpp must be compiled with ONNXMICRO_ENABLE_ERROR_MESSAGES=0"
#endif

namespace {

namespace om = onnxmicro;
using om::DataType;
using om::Status;
using om::StatusCode;
using namespace onnxmicro_test;

// The point of the switch: a Status is its code, so returning one copies a byte, not a message buffer.
static_assert(sizeof(Status) == 1, "Status without messages is its code");

using TestKernels =
    om::KernelSet<om::kernels::Conv_1, om::kernels::Relu_1, om::kernels::MaxPool_10, om::kernels::BatchNormalization_9,
                  om::kernels::GlobalAveragePool_1, om::kernels::Flatten_11, om::kernels::Gemm_11,
                  om::kernels::Softmax_13, om::kernels::Reshape_5>;

const std::string_view kStripped = Status::kStrippedMessage;

TEST(NoErrorMessages, StatusKeepsItsCodeAndPointsToTheHost) {
  Status ok;
  EXPECT_TRUE(ok.ok());
  EXPECT_STREQ(ok.message(), "");
  Status failed = Status(StatusCode::invalid_model)
                  << "tensor '" << std::string_view("w") << "' has " << 3 << " of " << 2.5 << ' ' << true;
  EXPECT_EQ(failed.code(), StatusCode::invalid_model);
  EXPECT_EQ(failed.message_view(), kStripped);
  failed.prepend("node 'n': ");
  EXPECT_EQ(failed.message_view(), kStripped);
  EXPECT_NE(kStripped.find("ONNXMICRO_ENABLE_ERROR_MESSAGES=0"), std::string_view::npos);
  EXPECT_NE(kStripped.find("onnxmicro plan MODEL"), std::string_view::npos);
}

TEST(NoErrorMessages, Float32CnnStillMatchesOnnxruntime) {
  om::Model model;
  ASSERT_TRUE(model.load(om::ByteSpan(hello_cnn_model, hello_cnn_model_size)).ok());
  om::Session session;
  ASSERT_TRUE(session.prepare(model, TestKernels::registry()).ok());
  om::Shape shape;
  ASSERT_TRUE(shape.assign(hello_cnn_model_input_shape, hello_cnn_model_input_rank).ok());
  ASSERT_TRUE(session.set_input(0, om::ConstTensorView(DataType::float32, shape, hello_cnn_model_input)).ok());
  ASSERT_TRUE(session.run().ok());
  const om::ConstTensorView y = session.output(0);
  ASSERT_EQ(static_cast<std::size_t>(y.element_count()), hello_cnn_model_expected_count);
  for (std::size_t i = 0; i < hello_cnn_model_expected_count; ++i) {
    EXPECT_NEAR(y.data_as<float>()[i], hello_cnn_model_expected[i], 1e-5f) << "element " << i;
  }

  // The caller's mistakes still fail, each with its code.
  const float wrong_dtype[1] = {0};
  Status st = session.set_input(0, om::ConstTensorView(DataType::int32, shape, wrong_dtype));
  EXPECT_EQ(st.code(), StatusCode::invalid_argument);
  EXPECT_EQ(st.message_view(), kStripped);
  st = session.set_input(0, om::ConstTensorView(DataType::float32, om::Shape{1, 2}, wrong_dtype));
  EXPECT_EQ(st.code(), StatusCode::invalid_argument);
  st = session.set_input("no_such_input", om::ConstTensorView(DataType::float32, shape, hello_cnn_model_input));
  EXPECT_EQ(st.code(), StatusCode::invalid_argument);
}

TEST(NoErrorMessages, MalformedModelFailsToLoad) {
  // Every strict prefix of a valid model that cuts a field is malformed: the parser still checks every bound.
  std::size_t failures = 0;
  for (std::size_t size = 1; size < hello_cnn_model_size; size += 97) {
    om::Model model;
    const Status st = model.load(om::ByteSpan(hello_cnn_model, size));
    if (st.ok()) continue;
    ++failures;
    EXPECT_EQ(st.code(), StatusCode::invalid_model) << "prefix of " << size << " bytes";
    EXPECT_EQ(st.message_view(), kStripped);
  }
  EXPECT_GT(failures, 0u);
}

TEST(NoErrorMessages, MissingKernelAndWrongDtypeFailAtPrepare) {
  // An op this kernel set lacks.
  ProtoWriter graph =
      make_graph("g", {make_node("Sigmoid", {"x"}, {"y"}, {}, "sig")}, {make_value_info("x", DataType::float32, {2})},
                 {make_value_info("y", DataType::float32, {2})});
  std::vector<unsigned char> bytes = make_model(graph, 13).bytes();
  om::Model model;
  ASSERT_TRUE(model.load(om::ByteSpan(bytes.data(), bytes.size())).ok());
  om::Session session;
  Status st = session.prepare(model, TestKernels::registry());
  EXPECT_EQ(st.code(), StatusCode::unsupported);
  EXPECT_EQ(st.message_view(), kStripped);

  // A Reshape whose shape input is float: the kernel's dtype check still runs.
  const std::vector<float> shape = {2};
  graph = make_graph("g", {make_node("Reshape", {"x", "s"}, {"y"}, {}, "reshape")},
                     {make_value_info("x", DataType::float32, {2})}, {make_value_info("y", DataType::float32, {2})},
                     {make_tensor_raw("s", DataType::float32, {1}, shape.data(), sizeof(float))});
  bytes = make_model(graph, 13).bytes();
  om::Model reshape_model;
  ASSERT_TRUE(reshape_model.load(om::ByteSpan(bytes.data(), bytes.size())).ok());
  om::Session reshape_session;
  st = reshape_session.prepare(reshape_model, TestKernels::registry());
  EXPECT_FALSE(st.ok());
  EXPECT_EQ(st.message_view(), kStripped);
}

}  // namespace
