// SPDX-License-Identifier: MIT
// HammingWindow beyond the ONNX node suite: a hand-checked periodic window in float16 (alpha = 25/46).
#include <gtest/gtest.h>

#include <vector>

#include "support/kernel_harness.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

using namespace onnxmicro_test;

// 25/46 - 21/46*cos(pi*n/2) for n = 0..3: [4/46, 25/46, 1, 25/46].
TEST(HammingWindowKernel, PeriodicFloat16) {
  NodeResult r = run_node(om::all_kernels_registry(), "HammingWindow", 17,
                          {make<std::int32_t>(Shape{}, {4}).named("size").as_constant()},
                          {make_attribute_int("output_datatype", 10)});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  const std::vector<om::float16_t> y = values_of<om::float16_t>(r.output);
  const double expected[] = {4.0 / 46, 25.0 / 46, 1, 25.0 / 46};
  ASSERT_EQ(y.size(), 4u);
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(y[i].bits, om::float16_t::from_float(static_cast<float>(expected[i])).bits) << i;
  }
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
