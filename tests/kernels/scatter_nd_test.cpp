// SPDX-License-Identifier: MIT
// ScatterND: slice updates with duplicate indices under add and min, negative indices, the updates-shape rule,
// in-place runs, version gating of the reductions, and out-of-range indices as a run-time error.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "support/kernel_test_prelude.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

using namespace onnxmicro_test::prelude;

NodeResult run(int opset, const std::vector<TestTensor>& inputs, const std::vector<ProtoWriter>& attributes = {},
               bool in_place = false) {
  return onnxmicro_test::run_node(om::all_kernels_registry(), "ScatterND", opset, inputs, attributes, in_place);
}

// data [3,2] = [[1,2],[3,4],[5,6]]; rows 0, -1 (= 2) and 0 again get [10,20], [30,40], [1,100].
std::vector<TestTensor> row_updates() {
  return {make(Shape{3, 2}, std::vector<double>{1, 2, 3, 4, 5, 6}),
          make(Shape{3, 1}, std::vector<std::int64_t>{0, -1, 0}),
          make(Shape{3, 2}, std::vector<double>{10, 20, 30, 40, 1, 100})};
}

TEST(ScatterND, SliceUpdatesWithReductions) {
  NodeResult none = run(11, row_updates());
  ASSERT_TRUE(none.status.ok()) << none.status.message();
  EXPECT_EQ(values_of<double>(none.output), (std::vector<double>{1, 100, 3, 4, 30, 40}));
  NodeResult add = run(16, row_updates(), {make_attribute_string("reduction", "add")});
  ASSERT_TRUE(add.status.ok()) << add.status.message();
  EXPECT_EQ(values_of<double>(add.output), (std::vector<double>{12, 122, 3, 4, 35, 46}));
  NodeResult min = run(18, row_updates(), {make_attribute_string("reduction", "min")});
  ASSERT_TRUE(min.status.ok()) << min.status.message();
  EXPECT_EQ(values_of<double>(min.output), (std::vector<double>{1, 2, 3, 4, 5, 6}));
  NodeResult too_new = run(16, row_updates(), {make_attribute_string("reduction", "min")});
  EXPECT_EQ(too_new.status.code(), StatusCode::invalid_model) << too_new.status.message();
}

TEST(ScatterND, RunsInPlaceInDataBuffer) {
  NodeResult r = run(13, row_updates(), {}, true);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(values_of<double>(r.output), (std::vector<double>{1, 100, 3, 4, 30, 40}));
}

TEST(ScatterND, UpdatesMustMatchIndicesAndDataShapes) {
  NodeResult r =
      run(13, {make(Shape{3, 2}, std::vector<float>(6, 0.0f)), make(Shape{2, 1}, std::vector<std::int64_t>{0, 1}),
               make(Shape{2, 3}, std::vector<float>(6, 1.0f))});
  EXPECT_EQ(r.status.code(), StatusCode::invalid_model);
  EXPECT_NE(std::string(r.status.message()).find("has shape [2,3], expected indices.shape[:-1] + data.shape[1:]"),
            std::string::npos)
      << r.status.message();
}

TEST(ScatterND, OutOfRangeIndexIsARunTimeError) {
  NodeResult r = run(13, {make(Shape{2, 2}, std::vector<float>(4, 0.0f)),
                          make(Shape{1, 2}, std::vector<std::int64_t>{1, 2}), make(Shape{1}, std::vector<float>{1})});
  EXPECT_EQ(r.status.code(), StatusCode::out_of_range);
  EXPECT_NE(std::string(r.status.message()).find("input 1 (indices) element [0,1] = 2 is out of range [-2, 1]"),
            std::string::npos)
      << r.status.message();
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
