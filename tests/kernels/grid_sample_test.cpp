// SPDX-License-Identifier: MIT
// GridSample beyond the conformance suite: nearest rounds half to even and copies integer elements, zeros padding
// reads 0 outside, version 16's mode names and 4-D limit, and errors for bad dtypes and shapes.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "support/kernel_test_prelude.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

using namespace onnxmicro_test::prelude;

NodeResult grid_sample(int opset, const TestTensor& x, const TestTensor& grid,
                       const std::vector<ProtoWriter>& attributes) {
  return onnxmicro_test::run_node(om::all_kernels_registry(), "GridSample", opset, {x, grid.named("grid")}, attributes);
}

TEST(GridSampleKernel, NearestRoundsHalfToEvenOnIntegers) {
  // Width 4 without align_corners: x = ((n + 1) * 4 - 1) / 2, so n = -0.5, 0, 0.5 -> 0.5, 1.5, 2.5 -> 0, 2, 2;
  // n = 1.5 -> 4.5 is outside and reads 0 with zeros padding.
  TestTensor x = make(Shape{1, 1, 1, 4}, std::vector<std::int32_t>{10, 20, 30, 40});
  TestTensor grid = make(Shape{1, 1, 4, 2}, std::vector<float>{-0.5f, 0, 0, 0, 0.5f, 0, 1.5f, 0});
  NodeResult r = grid_sample(20, x, grid, {make_attribute_string("mode", "nearest")});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.output.shape, (Shape{1, 1, 1, 4}));
  EXPECT_EQ(values_of<std::int32_t>(r.output), (std::vector<std::int32_t>{10, 30, 30, 0}));
  // border padding clamps the same outside point to the last pixel.
  r = grid_sample(20, x, grid,
                  {make_attribute_string("mode", "nearest"), make_attribute_string("padding_mode", "border")});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(values_of<std::int32_t>(r.output), (std::vector<std::int32_t>{10, 30, 30, 40}));
}

TEST(GridSampleKernel, LinearAlignCornersHitsPixelCentres) {
  // align_corners=1 maps -1 and 1 to the corner pixels; 0 is halfway between the two middle ones.
  TestTensor x = make(Shape{1, 1, 1, 3}, std::vector<double>{1.0, 2.0, 5.0});
  TestTensor grid = make(Shape{1, 1, 3, 2}, std::vector<double>{-1, 0, 0.5, 0, 1, 0});
  NodeResult r = grid_sample(22, x, grid, {make_attribute_int("align_corners", 1)});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(values_of<double>(r.output), (std::vector<double>{1.0, 3.5, 5.0}));
}

TEST(GridSampleKernel, Version16UsesOldModeNamesAndFourDims) {
  TestTensor x = make(Shape{1, 1, 1, 2}, std::vector<float>{1, 3});
  TestTensor grid = make(Shape{1, 1, 1, 2}, std::vector<float>{0, 0});
  NodeResult r = grid_sample(16, x, grid, {make_attribute_string("mode", "bilinear")});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(values_of<float>(r.output), (std::vector<float>{2}));
  r = grid_sample(16, x, grid, {make_attribute_string("mode", "linear")});
  EXPECT_TRUE(contains(r.status, "expected one of 'bilinear', 'nearest', 'bicubic'")) << r.status.message();
  r = grid_sample(20, x, grid, {make_attribute_string("mode", "bicubic")});
  EXPECT_TRUE(contains(r.status, "expected one of 'linear', 'nearest', 'cubic'")) << r.status.message();
  TestTensor x3 = make(Shape{1, 1, 3}, std::vector<float>{1, 2, 3});
  TestTensor grid1 = make(Shape{1, 2, 1}, std::vector<float>{-1, 1});
  r = grid_sample(16, x3, grid1, {});
  EXPECT_TRUE(contains(r.status, "expected rank 4")) << r.status.message();
  r = grid_sample(20, x3, grid1, {make_attribute_int("align_corners", 1)});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(values_of<float>(r.output), (std::vector<float>{1, 3}));
}

TEST(GridSampleKernel, RejectsBadDtypesAndShapes) {
  TestTensor x = make(Shape{1, 1, 1, 2}, std::vector<std::int32_t>{1, 3});
  TestTensor grid = make(Shape{1, 1, 1, 2}, std::vector<float>{0, 0});
  NodeResult r = grid_sample(20, x, grid, {});
  EXPECT_EQ(r.status.code(), StatusCode::unsupported);
  EXPECT_TRUE(contains(r.status, "linear and cubic sampling need")) << r.status.message();
  r = grid_sample(20, make(Shape{1, 1, 1, 2}, std::vector<float>{1, 3}),
                  make(Shape{1, 1, 1, 3}, std::vector<float>{0, 0, 0}), {});
  EXPECT_TRUE(contains(r.status, "input 1 'grid' has shape [1,1,1,3]")) << r.status.message();
  r = grid_sample(20, make(Shape{1, 1, 1, 2}, std::vector<float>{1, 3}), grid,
                  {make_attribute_string("padding_mode", "wrap")});
  EXPECT_TRUE(contains(r.status, "attribute 'padding_mode' is 'wrap'")) << r.status.message();
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
