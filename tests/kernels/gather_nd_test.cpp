// SPDX-License-Identifier: MIT
// GatherND: batch_dims = 2 with negative indices against a hand-computed reference, version selection (the
// batch_dims attribute exists from opset 12), shape errors, and out-of-range indices as a run-time error.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "support/kernel_test_prelude.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

using namespace onnxmicro_test::prelude;

NodeResult run(int opset, const std::vector<TestTensor>& inputs, const std::vector<ProtoWriter>& attributes = {}) {
  return onnxmicro_test::run_node(om::all_kernels_registry(), "GatherND", opset, inputs, attributes);
}

TEST(GatherND, TwoBatchDimsWithNegativeIndices) {
  // data [2,2,3,2]: value = 1000*b0 + 100*b1 + 10*i + j. indices [2,2,1,1]: one index per batch entry into dim 2.
  std::vector<std::int64_t> data;
  for (int b0 = 0; b0 < 2; ++b0)
    for (int b1 = 0; b1 < 2; ++b1)
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 2; ++j) data.push_back(1000 * b0 + 100 * b1 + 10 * i + j);
  const std::vector<std::int64_t> indices = {2, -1, 0, -3};  // -1 -> 2, -3 -> 0
  NodeResult r =
      run(13, {make(Shape{2, 2, 3, 2}, data), make(Shape{2, 2, 1, 1}, indices)}, {make_attribute_int("batch_dims", 2)});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.output.shape, (Shape{2, 2, 1, 2}));
  EXPECT_EQ(values_of<std::int64_t>(r.output), (std::vector<std::int64_t>{20, 21, 120, 121, 1000, 1001, 1100, 1101}));
}

TEST(GatherND, FullIndexTuplesGiveScalarsPerRow) {
  NodeResult r = run(11, {make(Shape{2, 2}, std::vector<float>{1, 2, 3, 4}),
                          make(Shape{3, 2}, std::vector<std::int64_t>{1, 0, 0, 1, -1, -1})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.output.shape, (Shape{3}));
  EXPECT_EQ(values_of<float>(r.output), (std::vector<float>{3, 2, 4}));
}

TEST(GatherND, BatchDimsOnlyFromOpset12) {
  const std::vector<TestTensor> inputs = {make(Shape{2, 2}, std::vector<float>{1, 2, 3, 4}),
                                          make(Shape{2, 1}, std::vector<std::int64_t>{1, 0})};
  // Opset 11 has no batch_dims: the rows index dim 0 of data.
  NodeResult r11 = run(11, inputs, {make_attribute_int("batch_dims", 1)});
  ASSERT_TRUE(r11.status.ok()) << r11.status.message();
  EXPECT_EQ(values_of<float>(r11.output), (std::vector<float>{3, 4, 1, 2}));
  NodeResult r12 = run(12, inputs, {make_attribute_int("batch_dims", 1)});
  ASSERT_TRUE(r12.status.ok()) << r12.status.message();
  EXPECT_EQ(values_of<float>(r12.output), (std::vector<float>{2, 3}));
}

TEST(GatherND, ShapeErrorsNameTheInput) {
  NodeResult r = run(
      13, {make(Shape{2, 2}, std::vector<float>{1, 2, 3, 4}), make(Shape{1, 3}, std::vector<std::int64_t>{0, 0, 0})});
  EXPECT_EQ(r.status.code(), StatusCode::invalid_model);
  EXPECT_NE(std::string(r.status.message()).find("last dim is 3, expected a value in [1, 2]"), std::string::npos)
      << r.status.message();
  r = run(13,
          {make(Shape{2, 2}, std::vector<float>{1, 2, 3, 4}), make(Shape{3, 1}, std::vector<std::int64_t>{0, 0, 0})},
          {make_attribute_int("batch_dims", 1)});
  EXPECT_NE(std::string(r.status.message()).find("differ in batch dim 0"), std::string::npos) << r.status.message();
  r = run(13, {make(Shape{2}, std::vector<float>{1, 2}), make(Shape{1, 1}, std::vector<std::int32_t>{0})});
  EXPECT_NE(std::string(r.status.message()).find("expected int64"), std::string::npos) << r.status.message();
}

TEST(GatherND, OutOfRangeIndexIsARunTimeError) {
  NodeResult r = run(
      13, {make(Shape{2, 3}, std::vector<float>(6, 0.0f)), make(Shape{2, 2}, std::vector<std::int64_t>{1, 2, 1, 3})});
  EXPECT_EQ(r.status.code(), StatusCode::out_of_range);
  EXPECT_NE(std::string(r.status.message()).find("input 1 (indices) element [1,1] = 3 is out of range [-3, 2]"),
            std::string::npos)
      << r.status.message();
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
