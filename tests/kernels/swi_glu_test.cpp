// SPDX-License-Identifier: MIT
// SwiGLU beyond the ONNX node suite: Swish_alpha(A) * B in double for default and custom alpha, in-place runs,
// double and bfloat16, and the errors for mismatched shapes/dtypes (no broadcasting).
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "onnxmicro/onnxmicro.hpp"
#include "support/kernel_test_prelude.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

using namespace onnxmicro_test::prelude;

NodeResult swiglu(const std::vector<TestTensor>& inputs, const std::vector<ProtoWriter>& attributes = {},
                  bool in_place = false) {
  return onnxmicro_test::run_node(om::all_kernels_registry(), "SwiGLU", 28, inputs, attributes, in_place);
}

TEST(SwiGLU, GatesTheValueWithSwish) {
  const std::vector<double> a = {-4.0, -1.0, 0.0, 0.5, 3.0, 30.0};
  const std::vector<double> b = {2.0, -3.0, 5.0, 1.5, -0.25, 0.5};
  for (double alpha : {1.0, 1.702}) {
    for (bool in_place : {false, true}) {
      std::vector<ProtoWriter> attributes;
      if (alpha != 1.0) attributes.push_back(onnxmicro_test::make_attribute_float("alpha", static_cast<float>(alpha)));
      NodeResult r = swiglu({make<double>({2, 3}, a), make<double>({2, 3}, b)}, attributes, in_place);
      ASSERT_TRUE(r.status.ok()) << r.status.message();
      const std::vector<double> y = values_of<double>(r.output);
      const double alpha_as_float = static_cast<float>(alpha);  // the attribute is a float
      for (std::size_t i = 0; i < a.size(); ++i) {
        EXPECT_NEAR(y[i], a[i] / (1.0 + std::exp(-alpha_as_float * a[i])) * b[i], 1e-12) << i;
      }
    }
  }
}

TEST(SwiGLU, Bfloat16RoundsOnce) {
  NodeResult r = swiglu({make<om::bfloat16_t>({1}, {om::bfloat16_t::from_float(1.0f)}),
                         make<om::bfloat16_t>({1}, {om::bfloat16_t::from_float(3.0f)})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(values_of<om::bfloat16_t>(r.output)[0].to_float(),
            om::bfloat16_t::from_float(static_cast<float>(3.0 / (1.0 + std::exp(-1.0)))).to_float());
}

TEST(SwiGLU, MismatchedInputsAreRejected) {
  NodeResult r = swiglu({make<float>({2}, {1, 2}), make<float>({1}, {1})});
  EXPECT_EQ(r.status.code(), StatusCode::invalid_model);
  EXPECT_NE(
      std::string(r.status.message()).find("has shape [1], expected input 0's shape [2] (SwiGLU does not broadcast)"),
      std::string::npos)
      << r.status.message();
  r = swiglu({make<float>({2}, {1, 2}), make<double>({2}, {1, 2})});
  EXPECT_EQ(r.status.code(), StatusCode::invalid_model);
  r = onnxmicro_test::run_node(om::all_kernels_registry(), "SwiGLU", 27,
                               {make<float>({1}, {1}), make<float>({1}, {1})});
  EXPECT_EQ(r.status.code(), StatusCode::unsupported);
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
