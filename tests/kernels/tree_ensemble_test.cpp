// SPDX-License-Identifier: MIT
// TreeEnsemble beyond the ONNX node suite: every aggregate function, a one-leaf tree, NaN with and without
// nodes_missing_value_tracks_true, BRANCH_MEMBER, the post transforms, float16, and attribute errors.
#include <cmath>
#include <limits>

#include "support/node_runner.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

using namespace onnxmicro_test::node_runner;
using onnxmicro_test::make_attribute_int;
using onnxmicro_test::make_attribute_ints;
using onnxmicro_test::make_attribute_tensor;
using onnxmicro_test::make_tensor_raw;
using onnxmicro_test::ProtoWriter;

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

// Two trees over feature 0 and two targets: tree 0 (node 0) sends x <= 1 to leaf 0 (1 -> target 0), else to
// leaf 1 (2 -> target 1); tree 1 (node 1) is the single leaf 2 (4 -> target 0).
std::vector<ProtoWriter> two_trees(std::int64_t aggregate, std::int64_t post, std::vector<std::int64_t> missing = {}) {
  const std::vector<float> splits = {1.0f, 0.0f};
  const std::vector<float> weights = {1.0f, 2.0f, 4.0f};
  const std::vector<std::uint8_t> modes = {0, 0};
  std::vector<ProtoWriter> a = {
      make_attribute_int("aggregate_function", aggregate),
      make_attribute_int("post_transform", post),
      make_attribute_int("n_targets", 2),
      make_attribute_ints("tree_roots", {0, 1}),
      make_attribute_ints("nodes_featureids", {0, 0}),
      make_attribute_tensor("nodes_modes", make_tensor_raw("m", DataType::uint8, {2}, modes)),
      make_attribute_tensor("nodes_splits", make_tensor_raw("s", DataType::float32, {2}, splits)),
      make_attribute_ints("nodes_truenodeids", {0, 2}),
      make_attribute_ints("nodes_trueleafs", {1, 1}),
      make_attribute_ints("nodes_falsenodeids", {1, 2}),
      make_attribute_ints("nodes_falseleafs", {1, 1}),
      make_attribute_ints("leaf_targetids", {0, 1, 0}),
      make_attribute_tensor("leaf_weights", make_tensor_raw("w", DataType::float32, {3}, weights)),
  };
  if (!missing.empty()) a.push_back(make_attribute_ints("nodes_missing_value_tracks_true", missing));
  return a;
}

std::vector<float> run_two_trees(std::int64_t aggregate, std::int64_t post, std::vector<std::int64_t> missing = {}) {
  NodeRunner node;
  const Status st = node.prepare("TreeEnsemble", "ai.onnx.ml", 5, {input<float>("x", {3, 1}, {0.5f, 3.0f, kNaN})},
                                 DataType::float32, two_trees(aggregate, post, std::move(missing)));
  EXPECT_TRUE(st.ok()) << st.message();
  if (!st.ok()) return {};
  EXPECT_TRUE(node.run().ok());
  EXPECT_EQ(node.dims(), (std::vector<std::int64_t>{3, 2}));
  return node.values<float>();
}

TEST(TreeEnsembleOp, AggregateFunctions) {
  EXPECT_EQ(run_two_trees(1, 0), (std::vector<float>{5, 0, 4, 2, 4, 2}));     // SUM; NaN goes false
  EXPECT_EQ(run_two_trees(0, 0), (std::vector<float>{2.5f, 0, 2, 1, 2, 1}));  // AVERAGE over 2 trees
  const float big = std::numeric_limits<float>::max();
  EXPECT_EQ(run_two_trees(2, 0), (std::vector<float>{1, big, 4, 2, 4, 2}));   // MIN; unreached = max
  EXPECT_EQ(run_two_trees(3, 0), (std::vector<float>{4, -big, 4, 2, 4, 2}));  // MAX; unreached = lowest
}

TEST(TreeEnsembleOp, MissingValueTracksTrue) {
  EXPECT_EQ(run_two_trees(1, 0, {1, 0}), (std::vector<float>{5, 0, 4, 2, 5, 0}));
}

TEST(TreeEnsembleOp, PostTransforms) {
  const std::vector<float> logistic = run_two_trees(1, 2);
  ASSERT_EQ(logistic.size(), 6u);
  EXPECT_NEAR(logistic[0], 1.0 / (1.0 + std::exp(-5.0)), 1e-6);
  EXPECT_NEAR(logistic[1], 0.5, 1e-6);
  const std::vector<float> softmax = run_two_trees(1, 1);
  ASSERT_EQ(softmax.size(), 6u);
  EXPECT_NEAR(softmax[2], std::exp(4.0) / (std::exp(4.0) + std::exp(2.0)), 1e-6);
  EXPECT_NEAR(softmax[2] + softmax[3], 1.0, 1e-6);
  // SOFTMAX_ZERO: a zero score stays zero-weighted: row 0 is (5, 0) -> (1, 0).
  const std::vector<float> softmax_zero = run_two_trees(1, 3);
  ASSERT_EQ(softmax_zero.size(), 6u);
  EXPECT_NEAR(softmax_zero[0], 1.0, 1e-6);
  EXPECT_NEAR(softmax_zero[1], 0.0, 1e-6);
}

TEST(TreeEnsembleOp, BranchMemberAndFloat16) {
  // One tree: node 0 tests x[1] in {1, 3}: true -> leaf 0 (10), false -> leaf 1 (20).
  const std::vector<float> members = {1.0f, 3.0f, kNaN};
  const std::vector<float> splits = {0.0f};
  const std::vector<float> weights = {10.0f, 20.0f};
  const std::vector<std::uint8_t> modes = {6};
  const std::vector<ProtoWriter> attributes = {
      make_attribute_int("n_targets", 1),
      make_attribute_ints("tree_roots", {0}),
      make_attribute_ints("nodes_featureids", {1}),
      make_attribute_tensor("nodes_modes", make_tensor_raw("m", DataType::uint8, {1}, modes)),
      make_attribute_tensor("nodes_splits", make_tensor_raw("s", DataType::float32, {1}, splits)),
      make_attribute_tensor("membership_values", make_tensor_raw("mv", DataType::float32, {3}, members)),
      make_attribute_ints("nodes_truenodeids", {0}),
      make_attribute_ints("nodes_trueleafs", {1}),
      make_attribute_ints("nodes_falsenodeids", {1}),
      make_attribute_ints("nodes_falseleafs", {1}),
      make_attribute_ints("leaf_targetids", {0, 0}),
      make_attribute_tensor("leaf_weights", make_tensor_raw("w", DataType::float32, {2}, weights)),
  };
  std::vector<om::float16_t> x;
  for (float v : {0.0f, 3.0f, 0.0f, 2.0f, 9.0f, 1.0f}) x.push_back(om::float16_t::from_float(v));
  NodeRunner node;
  const Status st = node.prepare("TreeEnsemble", "ai.onnx.ml", 5, {input<om::float16_t>("x", {3, 2}, x)},
                                 DataType::float16, attributes);
  ASSERT_TRUE(st.ok()) << st.message();
  ASSERT_TRUE(node.run().ok());
  std::vector<float> y;
  for (om::float16_t v : node.values<om::float16_t>()) y.push_back(v.to_float());
  EXPECT_EQ(y, (std::vector<float>{10, 20, 10}));
}

TEST(TreeEnsembleOp, AttributeErrors) {
  {
    std::vector<ProtoWriter> a = two_trees(1, 0);
    a[11] = make_attribute_ints("leaf_targetids", {0, 2, 0});
    NodeRunner node;
    const Status st =
        node.prepare("TreeEnsemble", "ai.onnx.ml", 5, {input<float>("x", {1, 1}, {0})}, DataType::float32, a);
    EXPECT_FALSE(st.ok());
    EXPECT_TRUE(contains(st, "'leaf_targetids'[1] = 2 is outside [0, n_targets)")) << st.message();
  }
  {
    NodeRunner node;
    const Status st = node.prepare("TreeEnsemble", "ai.onnx.ml", 5, {input<float>("x", {1, 1}, {0})}, DataType::float32,
                                   two_trees(5, 0));
    EXPECT_FALSE(st.ok());
    EXPECT_TRUE(contains(st, "'aggregate_function' is 5")) << st.message();
  }
  {
    std::vector<ProtoWriter> a = two_trees(1, 0);
    a[4] = make_attribute_ints("nodes_featureids", {0, 3});
    NodeRunner node;
    const Status st =
        node.prepare("TreeEnsemble", "ai.onnx.ml", 5, {input<float>("x", {1, 1}, {0})}, DataType::float32, a);
    EXPECT_FALSE(st.ok());
    EXPECT_TRUE(contains(st, "'nodes_featureids'[1] = 3 is outside [0, 1)")) << st.message();
  }
  {
    NodeRunner node;
    const Status st = node.prepare("TreeEnsemble", "ai.onnx.ml", 5, {input<std::int32_t>("x", {1, 1}, {0})},
                                   DataType::float32, two_trees(1, 0));
    EXPECT_FALSE(st.ok());
    EXPECT_TRUE(contains(st, "has dtype int32")) << st.message();
  }
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
