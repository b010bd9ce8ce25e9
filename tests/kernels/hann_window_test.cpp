// SPDX-License-Identifier: MIT
// HannWindow beyond the ONNX node suite: hand-checked periodic and symmetric windows, output_datatype double
// and int64 (truncated as numpy's astype does), a non-constant size, and an unsupported output_datatype.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/kernel_harness.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

using namespace onnxmicro_test;

TestTensor size(std::int64_t n) { return make<std::int64_t>(Shape{}, {n}).named("size").as_constant(); }

// sin^2(pi*n/4): [0, 0.5, 1, 0.5] (periodic, N = size) and [0, 0.5, 1, 0.5, 0] (symmetric, size 5).
TEST(HannWindowKernel, PeriodicAndSymmetric) {
  NodeResult periodic =
      run_node(om::all_kernels_registry(), "HannWindow", 17, {size(4)}, {make_attribute_int("output_datatype", 11)});
  ASSERT_TRUE(periodic.status.ok()) << periodic.status.message();
  const std::vector<double> p = values_of<double>(periodic.output);
  const double expected_p[] = {0, 0.5, 1, 0.5};
  for (std::size_t i = 0; i < 4; ++i) EXPECT_NEAR(p[i], expected_p[i], 1e-15) << i;
  NodeResult symmetric =
      run_node(om::all_kernels_registry(), "HannWindow", 17, {size(5)}, {make_attribute_int("periodic", 0)});
  ASSERT_TRUE(symmetric.status.ok()) << symmetric.status.message();
  const std::vector<float> s = values_of<float>(symmetric.output);
  const float expected_s[] = {0, 0.5f, 1, 0.5f, 0};
  ASSERT_EQ(s.size(), 5u);
  for (std::size_t i = 0; i < 5; ++i) EXPECT_NEAR(s[i], expected_s[i], 1e-7) << i;
}

TEST(HannWindowKernel, IntegerOutputTruncates) {
  NodeResult r =
      run_node(om::all_kernels_registry(), "HannWindow", 17, {size(4)}, {make_attribute_int("output_datatype", 7)});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(values_of<std::int64_t>(r.output), (std::vector<std::int64_t>{0, 0, 1, 0}));
}

TEST(HannWindowKernel, Errors) {
  NodeResult r = run_node(om::all_kernels_registry(), "HannWindow", 17, {make<std::int64_t>(Shape{}, {4}).named("n")});
  EXPECT_NE(std::string(r.status.message()).find("must be known at prepare time"), std::string::npos)
      << r.status.message();
  r = run_node(om::all_kernels_registry(), "HannWindow", 17, {size(4)}, {make_attribute_int("output_datatype", 9)});
  EXPECT_NE(std::string(r.status.message()).find("attribute 'output_datatype' is 9 (bool)"), std::string::npos)
      << r.status.message();
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
