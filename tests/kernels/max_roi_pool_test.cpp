// SPDX-License-Identifier: MIT
// MaxRoiPool (no conformance cases): quadrant maxima of a whole-image roi, spatial_scale rounding, and a batch
// id outside the input failing at run time.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "support/kernel_test_prelude.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

using namespace onnxmicro_test::prelude;

NodeResult pool(const std::vector<float>& roi, float spatial_scale) {
  std::vector<float> x(16);
  for (int i = 0; i < 16; ++i) x[static_cast<std::size_t>(i)] = static_cast<float>(i);
  return onnxmicro_test::run_node(
      om::all_kernels_registry(), "MaxRoiPool", 1, {make(Shape{1, 1, 4, 4}, x), make(Shape{1, 5}, roi).named("rois")},
      {make_attribute_ints("pooled_shape", {2, 2}), make_attribute_float("spatial_scale", spatial_scale)});
}

TEST(MaxRoiPoolKernel, WholeImageGivesQuadrantMaxima) {
  NodeResult r = pool({0, 0, 0, 3, 3}, 1.0f);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.output.shape, (Shape{1, 1, 2, 2}));
  EXPECT_EQ(values_of<float>(r.output), (std::vector<float>{5, 7, 13, 15}));
  // Scale 0.5 rounds (0, 0)-(6, 2) to (0, 0)-(3, 1): a 2x4 roi, bins of 1x2.
  r = pool({0, 0, 0, 6, 2}, 0.5f);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(values_of<float>(r.output), (std::vector<float>{1, 3, 5, 7}));
}

TEST(MaxRoiPoolKernel, BatchIdOutsideInputFailsAtRun) {
  NodeResult r = pool({1, 0, 0, 3, 3}, 1.0f);
  EXPECT_EQ(r.status.code(), StatusCode::out_of_range);
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
