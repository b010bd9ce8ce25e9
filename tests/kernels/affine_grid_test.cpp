// SPDX-License-Identifier: MIT
// AffineGrid beyond the conformance suite: double theta gives a double grid, the identity theta reproduces the
// pixel-centre positions, and `size` must be constant and of length 4 or 5.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "support/kernel_test_prelude.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

using namespace onnxmicro_test::prelude;

NodeResult affine_grid(const TestTensor& theta, const TestTensor& size, int align_corners) {
  return onnxmicro_test::run_node(om::all_kernels_registry(), "AffineGrid", 20, {theta, size.named("size")},
                                  {make_attribute_int("align_corners", align_corners)});
}

TEST(AffineGridKernel, IdentityThetaGivesPixelCentres) {
  TestTensor theta = make(Shape{1, 2, 3}, std::vector<double>{1, 0, 0, 0, 1, 0});
  TestTensor size = make(Shape{4}, std::vector<std::int64_t>{1, 1, 2, 2}).as_constant();
  NodeResult r = affine_grid(theta, size, 0);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.output.dtype, om::DataType::float64);
  EXPECT_EQ(r.output.shape, (Shape{1, 2, 2, 2}));
  EXPECT_EQ(values_of<double>(r.output), (std::vector<double>{-0.5, -0.5, 0.5, -0.5, -0.5, 0.5, 0.5, 0.5}));
  r = affine_grid(theta, size, 1);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(values_of<double>(r.output), (std::vector<double>{-1, -1, 1, -1, -1, 1, 1, 1}));
}

TEST(AffineGridKernel, SizeMustBeConstantWithFourOrFiveValues) {
  TestTensor theta = make(Shape{1, 2, 3}, std::vector<float>{1, 0, 0, 0, 1, 0});
  NodeResult r = affine_grid(theta, make(Shape{4}, std::vector<std::int64_t>{1, 1, 2, 2}), 0);
  EXPECT_EQ(r.status.code(), StatusCode::unsupported);
  r = affine_grid(theta, make(Shape{3}, std::vector<std::int64_t>{1, 1, 2}).as_constant(), 0);
  EXPECT_NE(std::string(r.status.message()).find("expected 4 (N, C, H, W) or 5"), std::string::npos)
      << r.status.message();
  r = affine_grid(theta, make(Shape{5}, std::vector<std::int64_t>{1, 1, 2, 2, 2}).as_constant(), 0);
  EXPECT_NE(std::string(r.status.message()).find("expected [1, 3, 4]"), std::string::npos) << r.status.message();
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
