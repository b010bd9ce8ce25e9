// SPDX-License-Identifier: MIT
// Tile beyond the ONNX node suite: 2-D repeats (values from numpy.tile), zero repeats, the opset-1 form with
// scalar 'tiles' and 'axis' inputs, and errors (wrong repeat count, negative repeats).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "onnxmicro/kernels/tensor/tile.hpp"
#include "support/kernel_test_prelude.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

using namespace onnxmicro_test::prelude;

NodeResult tile(int opset, const std::vector<TestTensor>& inputs) {
  return onnxmicro_test::run_node(om::KernelSet<om::kernels::Tile_1, om::kernels::Tile_6>::registry(), "Tile", opset,
                                  inputs);
}
TestTensor int64s(Shape shape, const std::vector<std::int64_t>& v, const char* name) {
  return make(shape, v).named(name).as_constant();
}
const TestTensor kTwoByThree = make(Shape{2, 3}, std::vector<std::int16_t>{0, 1, 2, 3, 4, 5});

TEST(Tile, RepeatsEveryAxisLikeNumpy) {
  NodeResult r = tile(13, {kTwoByThree, int64s(Shape{2}, {2, 3}, "repeats")});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.output.shape, (Shape{4, 9}));
  EXPECT_EQ(values_of<std::int16_t>(r.output),
            (std::vector<std::int16_t>{0, 1, 2, 0, 1, 2, 0, 1, 2, 3, 4, 5, 3, 4, 5, 3, 4, 5,
                                       0, 1, 2, 0, 1, 2, 0, 1, 2, 3, 4, 5, 3, 4, 5, 3, 4, 5}));
  r = tile(13, {kTwoByThree, int64s(Shape{2}, {0, 1}, "repeats")});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.output.shape, (Shape{0, 3}));
}

TEST(Tile, Opset1TilesOneAxis) {
  NodeResult r = tile(1, {kTwoByThree, int64s(Shape{}, {2}, "tiles"), int64s(Shape{}, {1}, "axis")});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.output.shape, (Shape{2, 6}));
  EXPECT_EQ(values_of<std::int16_t>(r.output), (std::vector<std::int16_t>{0, 1, 2, 0, 1, 2, 3, 4, 5, 3, 4, 5}));
}

TEST(Tile, Errors) {
  NodeResult r = tile(13, {kTwoByThree, int64s(Shape{1}, {2}, "repeats")});
  EXPECT_EQ(r.status.code(), StatusCode::invalid_model);
  EXPECT_NE(std::string(r.status.message()).find("expected one per axis"), std::string::npos) << r.status.message();
  r = tile(13, {kTwoByThree, int64s(Shape{2}, {1, -1}, "repeats")});
  EXPECT_NE(std::string(r.status.message()).find("is negative"), std::string::npos) << r.status.message();
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
