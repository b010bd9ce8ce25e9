// SPDX-License-Identifier: MIT
// RoiAlign beyond the conformance suite: version 10 samples without the half-pixel shift that version 16 applies
// by default, batch indices are checked at run time, and shape errors name the input.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "support/kernel_test_prelude.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

using namespace onnxmicro_test::prelude;

NodeResult roi_align(int opset, const std::vector<float>& roi, std::int64_t batch_index) {
  TestTensor x = make(Shape{1, 1, 2, 2}, std::vector<float>{0, 1, 2, 3});
  TestTensor rois = make(Shape{1, 4}, roi).named("rois");
  TestTensor batch = make(Shape{1}, std::vector<std::int64_t>{batch_index}).named("batch_indices");
  return onnxmicro_test::run_node(om::all_kernels_registry(), "RoiAlign", opset, {x, rois, batch},
                                  {make_attribute_int("sampling_ratio", 1)});
}

TEST(RoiAlignKernel, Version10HasNoHalfPixelShift) {
  // Roi (0,0)-(1,1), one 1x1 bin, one sample: at (0.5, 0.5) without the shift (the image's mean, 1.5), at (0, 0)
  // with version 16's default half_pixel shift (pixel 0).
  NodeResult r = roi_align(10, {0, 0, 1, 1}, 0);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.output.shape, (Shape{1, 1, 1, 1}));
  EXPECT_EQ(values_of<float>(r.output), (std::vector<float>{1.5f}));
  r = roi_align(16, {0, 0, 1, 1}, 0);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(values_of<float>(r.output), (std::vector<float>{0.0f}));
}

TEST(RoiAlignKernel, BatchIndexOutOfRangeFailsAtRun) {
  NodeResult r = roi_align(16, {0, 0, 1, 1}, 1);
  EXPECT_EQ(r.status.code(), StatusCode::out_of_range);
  EXPECT_NE(std::string(r.status.message()).find("batch_indices"), std::string::npos) << r.status.message();
}

TEST(RoiAlignKernel, RejectsBadRoiShape) {
  TestTensor x = make(Shape{1, 1, 2, 2}, std::vector<float>{0, 1, 2, 3});
  NodeResult r = onnxmicro_test::run_node(om::all_kernels_registry(), "RoiAlign", 16,
                                          {x, make(Shape{1, 5}, std::vector<float>{0, 0, 0, 1, 1}).named("rois"),
                                           make(Shape{1}, std::vector<std::int64_t>{0}).named("batch_indices")});
  EXPECT_EQ(r.status.code(), StatusCode::invalid_model);
  EXPECT_NE(std::string(r.status.message()).find("input 1 'rois' has shape [1,5]"), std::string::npos)
      << r.status.message();
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
