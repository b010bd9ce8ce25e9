// SPDX-License-Identifier: MIT
// ArrayFeatureExtractor beyond the ONNX node suite: a 1-D input gives [1, n], strings, a 3-D input with 2-D
// indices, and an out-of-range index.
#include "support/node_runner.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

using namespace onnxmicro_test::node_runner;

TEST(ArrayFeatureExtractorOp, OneDimensionalInputGivesOneRow) {
  NodeRunner node;
  ASSERT_TRUE(node.prepare("ArrayFeatureExtractor", "ai.onnx.ml", 1,
                           {input<std::int64_t>("x", {4}, {10, 11, 12, 13}), input<std::int64_t>("i", {3}, {3, 0, 3})},
                           DataType::int64)
                  .ok());
  ASSERT_TRUE(node.run().ok());
  EXPECT_EQ(node.dims(), (std::vector<std::int64_t>{1, 3}));
  EXPECT_EQ(node.values<std::int64_t>(), (std::vector<std::int64_t>{13, 10, 13}));
}

TEST(ArrayFeatureExtractorOp, StringsAndThreeDimensionalInput) {
  NodeRunner node;
  ASSERT_TRUE(node.prepare("ArrayFeatureExtractor", "ai.onnx.ml", 1,
                           {string_input("x", {2, 1, 3}, {"a", "b", "c", "d", "e", "f"}),
                            input<std::int64_t>("i", {2, 1}, {2, 1})},
                           DataType::string)
                  .ok());
  ASSERT_TRUE(node.run().ok());
  EXPECT_EQ(node.dims(), (std::vector<std::int64_t>{2, 1, 2}));
  EXPECT_EQ(node.strings(), (std::vector<std::string>{"c", "b", "f", "e"}));
}

TEST(ArrayFeatureExtractorOp, OutOfRangeIndexFailsAtRunTime) {
  NodeRunner node;
  ASSERT_TRUE(node.prepare("ArrayFeatureExtractor", "ai.onnx.ml", 1,
                           {input<float>("x", {2, 2}, {1, 2, 3, 4}), input<std::int64_t>("i", {1}, {2})},
                           DataType::float32)
                  .ok());
  const Status st = node.run();
  EXPECT_EQ(st.code(), StatusCode::out_of_range);
  EXPECT_TRUE(contains(st, "index 2 at position 0 is out of range [0, 2)")) << st.message();
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
