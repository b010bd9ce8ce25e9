// SPDX-License-Identifier: MIT
// TensorScatter: per-batch write positions, circular wrap-around (negative positions wrap too), the linear
// mode's bound as a run-time error naming the write_indices element, packed int4 caches, in-place updates, and
// attribute/shape errors.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "support/kernel_test_prelude.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

using namespace onnxmicro_test::prelude;

NodeResult run(const std::vector<TestTensor>& inputs, const std::vector<ProtoWriter>& attributes = {},
               bool in_place = false) {
  return onnxmicro_test::run_node(om::all_kernels_registry(), "TensorScatter", 24, inputs, attributes, in_place);
}

// Cache [2 batch, 4 steps, 2 features] of zeros; update [2, 2, 2] = batch*10 + step*2 + feature + 1.
std::vector<TestTensor> cache_and_update(std::vector<std::int64_t> write_indices) {
  std::vector<float> update;
  for (int b = 0; b < 2; ++b)
    for (int s = 0; s < 2; ++s)
      for (int f = 0; f < 2; ++f) update.push_back(static_cast<float>(b * 10 + s * 2 + f + 1));
  return {make(Shape{2, 4, 2}, std::vector<float>(16, 0.0f)), make(Shape{2, 2, 2}, update),
          make(Shape{2}, write_indices)};
}

TEST(TensorScatter, LinearWritesAtEachBatchPosition) {
  NodeResult r = run(cache_and_update({2, 0}));
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(values_of<float>(r.output), (std::vector<float>{0, 0, 0, 0, 1, 2, 3, 4, 11, 12, 13, 14, 0, 0, 0, 0}));
  // Without write_indices every batch entry writes from 0.
  std::vector<TestTensor> inputs = cache_and_update({0, 0});
  inputs[2] = kOmitted;
  NodeResult r0 = run(inputs);
  ASSERT_TRUE(r0.status.ok()) << r0.status.message();
  EXPECT_EQ(values_of<float>(r0.output), (std::vector<float>{1, 2, 3, 4, 0, 0, 0, 0, 11, 12, 13, 14, 0, 0, 0, 0}));
}

TEST(TensorScatter, CircularWrapsPastTheEndAndNegativePositions) {
  NodeResult r = run(cache_and_update({3, -1}), {make_attribute_string("mode", "circular")});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(values_of<float>(r.output), (std::vector<float>{3, 4, 0, 0, 0, 0, 1, 2, 13, 14, 0, 0, 0, 0, 11, 12}));
}

TEST(TensorScatter, LinearOverflowIsARunTimeError) {
  NodeResult r = run(cache_and_update({0, 3}));
  EXPECT_EQ(r.status.code(), StatusCode::out_of_range);
  EXPECT_NE(std::string(r.status.message()).find("input 2 (write_indices) element [1] = 3 is out of range [0, 2]"),
            std::string::npos)
      << r.status.message();
}

TEST(TensorScatter, RunsInPlaceOnThePastCache) {
  NodeResult r = run(cache_and_update({1, 1}), {}, true);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(values_of<float>(r.output), (std::vector<float>{0, 0, 1, 2, 3, 4, 0, 0, 0, 0, 11, 12, 13, 14, 0, 0}));
}

TEST(TensorScatter, PackedInt4Cache) {
  // Cache [1, 3, 1] int4 = 1, 2, 3 (packed low nibble first); update [1, 1, 1] = 7 at position 1 (axis 1).
  NodeResult r = run({make(DataType::int4, Shape{1, 3, 1}, std::vector<std::uint8_t>{0x21, 0x03}),
                      make(DataType::int4, Shape{1, 1, 1}, std::vector<std::uint8_t>{0x07}),
                      make(Shape{1}, std::vector<std::int64_t>{1})},
                     {make_attribute_int("axis", 1)});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(values_of<std::uint8_t>(r.output), (std::vector<std::uint8_t>{0x71, 0x03}));
}

TEST(TensorScatter, RejectsBatchAxisBadModeAndShapes) {
  NodeResult r = run(cache_and_update({0, 0}), {make_attribute_int("axis", 0)});
  EXPECT_NE(std::string(r.status.message()).find("which is the batch dim"), std::string::npos) << r.status.message();
  r = run(cache_and_update({0, 0}), {make_attribute_string("mode", "ring")});
  EXPECT_NE(std::string(r.status.message()).find("expected linear or circular"), std::string::npos)
      << r.status.message();
  r = run({make(Shape{2, 4, 2}, std::vector<float>(16, 0.0f)), make(Shape{2, 5, 2}, std::vector<float>(20, 0.0f))});
  EXPECT_EQ(r.status.code(), StatusCode::invalid_model) << r.status.message();
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
