// SPDX-License-Identifier: MIT
// BlackmanWindow beyond the ONNX node suite: hand-checked periodic and symmetric windows.
#include <gtest/gtest.h>

#include <vector>

#include "support/kernel_harness.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

using namespace onnxmicro_test;

// 0.42 - 0.5*cos(2*pi*n/N) + 0.08*cos(4*pi*n/N): periodic size 4 (N = 4) -> [0, 0.34, 1, 0.34];
// symmetric size 3 (N = 2) -> [0, 1, 0].
TEST(BlackmanWindowKernel, PeriodicAndSymmetric) {
  NodeResult periodic = run_node(om::all_kernels_registry(), "BlackmanWindow", 17,
                                 {make<std::int64_t>(Shape{}, {4}).named("size").as_constant()});
  ASSERT_TRUE(periodic.status.ok()) << periodic.status.message();
  const std::vector<float> p = values_of<float>(periodic.output);
  const float expected_p[] = {0, 0.34f, 1, 0.34f};
  ASSERT_EQ(p.size(), 4u);
  for (std::size_t i = 0; i < 4; ++i) EXPECT_NEAR(p[i], expected_p[i], 1e-7) << i;
  NodeResult symmetric =
      run_node(om::all_kernels_registry(), "BlackmanWindow", 17,
               {make<std::int64_t>(Shape{}, {3}).named("size").as_constant()}, {make_attribute_int("periodic", 0)});
  ASSERT_TRUE(symmetric.status.ok()) << symmetric.status.message();
  const std::vector<float> s = values_of<float>(symmetric.output);
  ASSERT_EQ(s.size(), 3u);
  EXPECT_NEAR(s[0], 0, 1e-7);
  EXPECT_NEAR(s[1], 1, 1e-7);
  EXPECT_NEAR(s[2], 0, 1e-7);
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
