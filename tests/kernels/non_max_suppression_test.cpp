// SPDX-License-Identifier: MIT
// NonMaxSuppression beyond the conformance suite: equal scores keep the lower box index first, an omitted
// max_output_boxes_per_class selects nothing, and the inputs must be known at prepare time (the output size
// depends on their values).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "support/kernel_test_prelude.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

using namespace onnxmicro_test::prelude;

// Three unit boxes: 0 and 2 identical, 1 far away.
TestTensor boxes() {
  return make(Shape{1, 3, 4}, std::vector<float>{0, 0, 1, 1, 5, 5, 6, 6, 0, 0, 1, 1}).named("boxes").as_constant();
}
TestTensor scores(const std::vector<float>& v) { return make(Shape{1, 1, 3}, v).named("scores").as_constant(); }
TestTensor max_boxes(std::int64_t n) { return make(Shape{1}, std::vector<std::int64_t>{n}).named("max").as_constant(); }

NodeResult nms(int opset, const std::vector<TestTensor>& inputs) {
  return onnxmicro_test::run_node(om::all_kernels_registry(), "NonMaxSuppression", opset, inputs);
}

TEST(NonMaxSuppressionKernel, EqualScoresKeepTheLowerIndex) {
  NodeResult r = nms(10, {boxes(), scores({0.5f, 0.9f, 0.5f}), max_boxes(10)});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.output.shape, (Shape{2, 3}));
  // Box 1 first (highest score), then box 0; box 2 overlaps box 0 completely (IoU 1 > 0).
  EXPECT_EQ(values_of<std::int64_t>(r.output), (std::vector<std::int64_t>{0, 0, 1, 0, 0, 0}));
}

TEST(NonMaxSuppressionKernel, ScoreThresholdIsStrictAndMaxLimits) {
  TestTensor iou = make(Shape{1}, std::vector<float>{0.5f}).named("iou").as_constant();
  TestTensor score = make(Shape{1}, std::vector<float>{0.5f}).named("score").as_constant();
  NodeResult r = nms(11, {boxes(), scores({0.5f, 0.9f, 0.7f}), max_boxes(10), iou, score});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(values_of<std::int64_t>(r.output), (std::vector<std::int64_t>{0, 0, 1, 0, 0, 2}));
  r = nms(11, {boxes(), scores({0.5f, 0.9f, 0.7f}), max_boxes(1), iou, score});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(values_of<std::int64_t>(r.output), (std::vector<std::int64_t>{0, 0, 1}));
}

TEST(NonMaxSuppressionKernel, OmittedMaxSelectsNothing) {
  NodeResult r = nms(11, {boxes(), scores({0.5f, 0.9f, 0.7f})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.output.shape, (Shape{0, 3}));
}

TEST(NonMaxSuppressionKernel, InputsMustBeKnownAtPrepare) {
  TestTensor dynamic_boxes = boxes();
  dynamic_boxes.constant = false;
  NodeResult r = nms(11, {dynamic_boxes, scores({0.5f, 0.9f, 0.7f}), max_boxes(3)});
  EXPECT_EQ(r.status.code(), StatusCode::unsupported);
  EXPECT_NE(std::string(r.status.message()).find("decides the output shape"), std::string::npos) << r.status.message();
}

TEST(NonMaxSuppressionKernel, RejectsMismatchedScores) {
  NodeResult r = nms(11, {boxes(), make(Shape{1, 1, 2}, std::vector<float>{1, 2}).named("scores").as_constant()});
  EXPECT_EQ(r.status.code(), StatusCode::invalid_model);
  EXPECT_NE(std::string(r.status.message()).find("expected [1, num_classes, 3]"), std::string::npos)
      << r.status.message();
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
