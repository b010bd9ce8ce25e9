// SPDX-License-Identifier: MIT
// Swish beyond the ONNX node suite: the definition x * sigmoid(alpha * x) in double for default and custom
// alpha, large magnitudes, float16, in-place runs, and no kernel before opset 24.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "onnxmicro/onnxmicro.hpp"
#include "support/kernel_test_prelude.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

using namespace onnxmicro_test::prelude;

double swish(double x, double alpha) { return x / (1.0 + std::exp(-alpha * x)); }

TEST(Swish, MatchesDefinitionForDefaultAndCustomAlpha) {
  const std::vector<float> x = {-100.0f, -3.0f, -0.5f, 0.0f, 0.25f, 2.0f, 100.0f};
  for (float alpha : {1.0f, 0.5f, -2.0f}) {
    for (bool in_place : {false, true}) {
      std::vector<ProtoWriter> attributes;
      if (alpha != 1.0f) attributes.push_back(onnxmicro_test::make_attribute_float("alpha", alpha));
      NodeResult r = onnxmicro_test::run_node(om::all_kernels_registry(), "Swish", 24, {make<float>({7}, x)},
                                              attributes, in_place);
      ASSERT_TRUE(r.status.ok()) << r.status.message();
      const std::vector<float> y = values_of<float>(r.output);
      for (std::size_t i = 0; i < x.size(); ++i) EXPECT_NEAR(y[i], swish(x[i], alpha), 1e-5) << "alpha " << alpha;
    }
  }
}

TEST(Swish, Float16AndVersions) {
  NodeResult r = onnxmicro_test::run_node(om::all_kernels_registry(), "Swish", 24,
                                          {make<om::float16_t>({1}, {om::float16_t::from_float(2.0f)})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(values_of<om::float16_t>(r.output)[0].to_float(),
            om::float16_t::from_float(static_cast<float>(swish(2.0, 1.0))).to_float());
  r = onnxmicro_test::run_node(om::all_kernels_registry(), "Swish", 23, {make<float>({1}, {1.0f})});
  EXPECT_EQ(r.status.code(), StatusCode::unsupported);
  r = onnxmicro_test::run_node(om::all_kernels_registry(), "Swish", 24, {make<std::int32_t>({1}, {1})});
  EXPECT_EQ(r.status.code(), StatusCode::unsupported);
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
