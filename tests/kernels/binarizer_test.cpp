// SPDX-License-Identifier: MIT
// Binarizer beyond the ONNX node suite: integer and double inputs against a fractional threshold, NaN, the
// default threshold 0, and an unsupported dtype.
#include <cmath>
#include <limits>

#include "support/node_runner.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

using namespace onnxmicro_test::node_runner;
using onnxmicro_test::make_attribute_float;

TEST(BinarizerOp, IntegerInputComparesWithTheFloatThreshold) {
  NodeRunner node;
  ASSERT_TRUE(node.prepare("Binarizer", "ai.onnx.ml", 1, {input<std::int32_t>("x", {2, 2}, {1, 2, -5, 3})},
                           DataType::int32, {make_attribute_float("threshold", 1.5f)})
                  .ok());
  ASSERT_TRUE(node.run().ok());
  EXPECT_EQ(node.values<std::int32_t>(), (std::vector<std::int32_t>{0, 1, 0, 1}));
}

TEST(BinarizerOp, DoubleWithDefaultThresholdAndNaN) {
  NodeRunner node;
  ASSERT_TRUE(node.prepare("Binarizer", "ai.onnx.ml", 1,
                           {input<double>("x", {4}, {0.0, 1e-300, -1.0, std::numeric_limits<double>::quiet_NaN()})},
                           DataType::float64)
                  .ok());
  ASSERT_TRUE(node.run().ok());
  EXPECT_EQ(node.values<double>(), (std::vector<double>{0.0, 1.0, 0.0, 0.0}));
}

TEST(BinarizerOp, RejectsInt8) {
  NodeRunner node;
  const Status st = node.prepare("Binarizer", "ai.onnx.ml", 1, {input<std::int8_t>("x", {1}, {1})}, DataType::int8);
  EXPECT_FALSE(st.ok());
  EXPECT_TRUE(contains(st, "has dtype int8")) << st.message();
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
