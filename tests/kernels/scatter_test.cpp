// SPDX-License-Identifier: MIT
// Scatter (opset 9-10): the ScatterElements computation under its old name, resolved only for the opsets that
// define it (deprecated in 11), and its out-of-range error.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "support/kernel_test_prelude.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

using namespace onnxmicro_test::prelude;

std::vector<TestTensor> inputs(std::int64_t index) {
  return {make(Shape{2, 2}, std::vector<std::uint16_t>{1, 2, 3, 4}),
          make(Shape{1, 2}, std::vector<std::int32_t>{static_cast<std::int32_t>(index), 0}),
          make(Shape{1, 2}, std::vector<std::uint16_t>{7, 8})};
}

TEST(Scatter, ScattersAlongAxisAtOpsets9And10) {
  for (int opset : {9, 10}) {
    NodeResult r = onnxmicro_test::run_node(om::all_kernels_registry(), "Scatter", opset, inputs(1),
                                            {make_attribute_int("axis", 1)});
    ASSERT_TRUE(r.status.ok()) << r.status.message();
    EXPECT_EQ(values_of<std::uint16_t>(r.output), (std::vector<std::uint16_t>{8, 7, 3, 4}));
  }
}

TEST(Scatter, DeprecatedFromOpset11) {
  EXPECT_EQ(om::find_kernel(om::all_kernels_registry(), "", "Scatter", 11), nullptr);
  EXPECT_NE(om::find_kernel(om::all_kernels_registry(), "", "Scatter", 9), nullptr);
}

TEST(Scatter, OutOfRangeIndexIsARunTimeError) {
  NodeResult r = onnxmicro_test::run_node(om::all_kernels_registry(), "Scatter", 9, inputs(2));
  EXPECT_EQ(r.status.code(), StatusCode::out_of_range);
  EXPECT_NE(std::string(r.status.message()).find("element [0,0] = 2"), std::string::npos) << r.status.message();
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
