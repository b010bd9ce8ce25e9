// SPDX-License-Identifier: MIT
// Upsample (the suite has one nearest case at opset 9): the experimental version 1 with height/width scales,
// version 7's scales attribute with linear mode, and scales below 1 rejected.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "support/kernel_test_prelude.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

using namespace onnxmicro_test::prelude;

TEST(UpsampleKernel, Version1ScalesHeightAndWidth) {
  NodeResult r = onnxmicro_test::run_node(
      om::all_kernels_registry(), "Upsample", 1, {make(Shape{1, 1, 1, 2}, std::vector<std::int32_t>{4, 7})},
      {make_attribute_float("height_scale", 2.0f), make_attribute_float("width_scale", 1.5f)});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.output.shape, (Shape{1, 1, 2, 3}));
  // Asymmetric nearest: x / 1.5 = 0, 0.67, 1.33 -> floor 0, 0, 1.
  EXPECT_EQ(values_of<std::int32_t>(r.output), (std::vector<std::int32_t>{4, 4, 7, 4, 4, 7}));
}

TEST(UpsampleKernel, Version7LinearIsAsymmetric) {
  NodeResult r =
      onnxmicro_test::run_node(om::all_kernels_registry(), "Upsample", 7, {make(Shape{1, 2}, std::vector<float>{1, 3})},
                               {make_attribute_string("mode", "linear"), make_attribute_floats("scales", {1, 2})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  // Sources 0, 0.5, 1, 1.5 (the last clamps to the edge).
  EXPECT_EQ(values_of<float>(r.output), (std::vector<float>{1, 2, 3, 3}));
}

TEST(UpsampleKernel, RejectsScalesBelowOne) {
  NodeResult r = onnxmicro_test::run_node(om::all_kernels_registry(), "Upsample", 9,
                                          {make(Shape{1, 2}, std::vector<float>{1, 3}),
                                           make(Shape{2}, std::vector<float>{1, 0.5f}).named("scales").as_constant()});
  EXPECT_EQ(r.status.code(), StatusCode::invalid_model);
  EXPECT_NE(std::string(r.status.message()).find("scale 1 is below 1"), std::string::npos) << r.status.message();
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
