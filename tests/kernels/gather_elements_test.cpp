// SPDX-License-Identifier: MIT
// GatherElements: random shapes, axes (negative ones too) and int32/int64 indices against a per-element
// reference, indices smaller than data outside the axis, and out-of-range indices: a run-time out_of_range
// naming the indices element, its value and the valid range.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "support/kernel_test_prelude.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

using namespace onnxmicro_test::prelude;

NodeResult run(int opset, const std::vector<TestTensor>& inputs, std::int64_t axis) {
  return onnxmicro_test::run_node(om::all_kernels_registry(), "GatherElements", opset, inputs,
                                  {make_attribute_int("axis", axis)});
}

TEST(GatherElements, MatchesPerElementReferenceForRandomShapesAndAxes) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 40; ++trial) {
    const int rank = 1 + trial % 4;
    Shape data_shape;
    data_shape.resize(rank);
    for (int d = 0; d < rank; ++d) data_shape[d] = 1 + static_cast<std::int64_t>(rng() % 4);
    const int axis = static_cast<int>(rng() % static_cast<unsigned>(rank));
    Shape index_shape = data_shape;
    for (int d = 0; d < rank; ++d) {
      index_shape[d] = 1 + static_cast<std::int64_t>(rng() % static_cast<unsigned>(d == axis ? 5 : data_shape[d]));
    }
    std::vector<float> data(static_cast<std::size_t>(data_shape.element_count()));
    for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<float>(i) * 0.5f - 3.0f;
    std::vector<std::int64_t> indices(static_cast<std::size_t>(index_shape.element_count()));
    const std::int64_t size = data_shape[axis];
    for (auto& v : indices) v = static_cast<std::int64_t>(rng() % (2 * size)) - size;  // [-size, size-1]
    const bool int32 = trial % 2 == 1;
    std::vector<std::int32_t> indices32(indices.begin(), indices.end());
    TestTensor index_tensor = int32 ? make(index_shape, indices32) : make(index_shape, indices);
    const std::int64_t axis_attr = trial % 3 == 0 ? axis - rank : axis;
    NodeResult r = run(trial % 2 ? 11 : 13, {make(data_shape, data), index_tensor.named("I")}, axis_attr);
    ASSERT_TRUE(r.status.ok()) << r.status.message();
    ASSERT_EQ(r.output.shape, index_shape);
    const std::vector<float> out = values_of<float>(r.output);
    // Reference: walk the indices' coordinates, replace the axis coordinate by the index.
    std::int64_t coords[8] = {};
    for (std::size_t k = 0; k < indices.size(); ++k) {
      std::int64_t offset = 0;
      for (int d = 0; d < rank; ++d) {
        std::int64_t c = coords[d];
        if (d == axis) c = indices[k] < 0 ? indices[k] + size : indices[k];
        offset = offset * data_shape[d] + c;
      }
      EXPECT_EQ(out[k], data[static_cast<std::size_t>(offset)]) << "trial " << trial << " k " << k;
      for (int d = rank - 1; d >= 0; --d) {
        if (++coords[d] < index_shape[d]) break;
        coords[d] = 0;
      }
    }
  }
}

TEST(GatherElements, OutOfRangeIndexIsARunTimeErrorNamingPositionAndValue) {
  NodeResult r = run(13,
                     {make(Shape{2, 3}, std::vector<std::int32_t>{1, 2, 3, 4, 5, 6}),
                      make(Shape{2, 2}, std::vector<std::int64_t>{0, 1, 2, 3})},
                     1);
  EXPECT_EQ(r.status.code(), StatusCode::out_of_range);
  EXPECT_NE(std::string(r.status.message()).find("input 1 (indices) element [1,1] = 3 is out of range [-3, 2]"),
            std::string::npos)
      << r.status.message();
  r = run(13, {make(Shape{3}, std::vector<std::int8_t>{1, 2, 3}), make(Shape{1}, std::vector<std::int32_t>{-4})}, 0);
  EXPECT_EQ(r.status.code(), StatusCode::out_of_range) << r.status.message();
}

TEST(GatherElements, RejectsRankMismatchAndOversizedIndices) {
  NodeResult r =
      run(13, {make(Shape{2, 3}, std::vector<float>(6, 1.0f)), make(Shape{2}, std::vector<std::int64_t>{0, 1})}, 0);
  EXPECT_EQ(r.status.code(), StatusCode::invalid_model);
  EXPECT_NE(std::string(r.status.message()).find("expected rank 2"), std::string::npos) << r.status.message();
  r = run(13, {make(Shape{2, 3}, std::vector<float>(6, 1.0f)), make(Shape{1, 4}, std::vector<std::int64_t>(4, 0))}, 0);
  EXPECT_EQ(r.status.code(), StatusCode::invalid_model) << r.status.message();
  r = run(13, {make(Shape{2}, std::vector<float>(2, 1.0f)), make(Shape{1}, std::vector<std::int16_t>{0})}, 0);
  EXPECT_NE(std::string(r.status.message()).find("expected int32 or int64"), std::string::npos) << r.status.message();
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
