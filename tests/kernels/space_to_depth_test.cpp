// SPDX-License-Identifier: MIT
// SpaceToDepth: the inverse of DepthToSpace in both modes (a round trip restores the input), the mode
// attribute only from opset 28, and the divisibility error.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "support/kernel_test_prelude.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

using namespace onnxmicro_test::prelude;

TEST(SpaceToDepth, RoundTripsThroughDepthToSpaceInBothModes) {
  const Shape shape{2, 3, 4, 6};
  std::vector<std::uint8_t> x(static_cast<std::size_t>(shape.element_count()));
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = static_cast<std::uint8_t>(i * 7);
  for (const char* mode : {"DCR", "CRD"}) {
    NodeResult down =
        onnxmicro_test::run_node(om::all_kernels_registry(), "SpaceToDepth", 28, {make(shape, x)},
                                 {make_attribute_int("blocksize", 2), make_attribute_string("mode", mode)});
    ASSERT_TRUE(down.status.ok()) << down.status.message();
    ASSERT_EQ(down.output.shape, (Shape{2, 12, 2, 3}));
    NodeResult up = onnxmicro_test::run_node(om::all_kernels_registry(), "DepthToSpace", 13, {down.output},
                                             {make_attribute_int("blocksize", 2), make_attribute_string("mode", mode)});
    ASSERT_TRUE(up.status.ok()) << up.status.message();
    EXPECT_EQ(up.output.shape, shape);
    EXPECT_EQ(values_of<std::uint8_t>(up.output), x) << mode;
  }
}

TEST(SpaceToDepth, ModeOnlyFromOpset28) {
  // [1,1,2,2] with blocksize 2: DCR and CRD agree for one channel, so use two channels.
  const std::vector<std::int32_t> x = {0, 1, 2, 3, 10, 11, 12, 13};
  NodeResult old =
      onnxmicro_test::run_node(om::all_kernels_registry(), "SpaceToDepth", 13, {make(Shape{1, 2, 2, 2}, x)},
                               {make_attribute_int("blocksize", 2), make_attribute_string("mode", "CRD")});
  ASSERT_TRUE(old.status.ok()) << old.status.message();
  EXPECT_EQ(values_of<std::int32_t>(old.output), (std::vector<std::int32_t>{0, 10, 1, 11, 2, 12, 3, 13}));  // DCR
  NodeResult crd =
      onnxmicro_test::run_node(om::all_kernels_registry(), "SpaceToDepth", 28, {make(Shape{1, 2, 2, 2}, x)},
                               {make_attribute_int("blocksize", 2), make_attribute_string("mode", "CRD")});
  ASSERT_TRUE(crd.status.ok()) << crd.status.message();
  EXPECT_EQ(values_of<std::int32_t>(crd.output), x);
}

TEST(SpaceToDepth, SpatialDimsMustDivideByBlocksize) {
  NodeResult r = onnxmicro_test::run_node(om::all_kernels_registry(), "SpaceToDepth", 13,
                                          {make(Shape{1, 1, 3, 2}, std::vector<float>(6, 0.0f))},
                                          {make_attribute_int("blocksize", 2)});
  EXPECT_NE(std::string(r.status.message()).find("must be multiples of blocksize 2"), std::string::npos)
      << r.status.message();
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
