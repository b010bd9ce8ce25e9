// SPDX-License-Identifier: MIT
// onnxmicro/runtime.hpp is enough for a program that names its kernels: it and one op header come first here, so they
// must compile on their own (proto_writer.hpp, which builds the test model, pulls in the umbrella after them); the
// kernel set is picked by hand and runs a model.
#include <gtest/gtest.h>

#include <vector>

#include "onnxmicro/kernels/math/relu.hpp"
#include "onnxmicro/runtime.hpp"
#include "support/proto_writer.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

using namespace onnxmicro_test;

TEST(RuntimeHeader, RunsAModelWithAHandPickedKernelSet) {
  using Kernels = onnxmicro::KernelSet<onnxmicro::kernels::Relu_1>;
  const std::vector<unsigned char> bytes =
      make_model(make_graph("g", {make_node("Relu", {"x"}, {"y"})}, {make_value_info("x", DataType::float32, {3})},
                            {make_value_info("y", DataType::float32, {3})}),
                 14)
          .bytes();
  onnxmicro::Model model;
  ASSERT_TRUE(model.load(onnxmicro::ByteSpan(bytes.data(), bytes.size())).ok());
  onnxmicro::Session session;
  const onnxmicro::Status st = session.prepare(model, Kernels::registry());
  ASSERT_TRUE(st.ok()) << st.message();
  const float x[3] = {-1.0f, 0.5f, 2.0f};
  ASSERT_TRUE(session.set_input(0, onnxmicro::ConstTensorView(DataType::float32, onnxmicro::Shape{3}, x)).ok());
  ASSERT_TRUE(session.run().ok());
  const float* y = session.output(0).data_as<float>();
  EXPECT_EQ(y[0], 0.0f);
  EXPECT_EQ(y[1], 0.5f);
  EXPECT_EQ(y[2], 2.0f);
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
