// SPDX-License-Identifier: MIT
// Compress: the condition must be known at prepare time (its values decide the output shape), shorter
// conditions drop the trailing slices, a true entry past the axis is an error, negative axes only from opset
// 11, and the flattened form.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "support/kernel_test_prelude.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

using namespace onnxmicro_test::prelude;

NodeResult run(int opset, const std::vector<TestTensor>& inputs, const std::vector<ProtoWriter>& attributes = {}) {
  return onnxmicro_test::run_node(om::all_kernels_registry(), "Compress", opset, inputs, attributes);
}
TestTensor condition(const std::vector<std::uint8_t>& values) {
  return make(DataType::boolean, Shape{static_cast<std::int64_t>(values.size())}, values).named("c").as_constant();
}
const TestTensor kMatrix = make(Shape{2, 3}, std::vector<std::int16_t>{1, 2, 3, 4, 5, 6});

TEST(Compress, KeepsSelectedSlicesAlongAxis) {
  NodeResult r = run(11, {kMatrix, condition({1, 0, 1})}, {make_attribute_int("axis", -1)});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.output.shape, (Shape{2, 2}));
  EXPECT_EQ(values_of<std::int16_t>(r.output), (std::vector<std::int16_t>{1, 3, 4, 6}));
  // A shorter condition drops the rest; the flattened form works on all 6 elements.
  r = run(9, {kMatrix, condition({0, 1})}, {make_attribute_int("axis", 1)});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(values_of<std::int16_t>(r.output), (std::vector<std::int16_t>{2, 5}));
  r = run(9, {kMatrix, condition({0, 0, 0, 1, 1, 0, 0})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.output.shape, (Shape{2}));
  EXPECT_EQ(values_of<std::int16_t>(r.output), (std::vector<std::int16_t>{4, 5}));
}

TEST(Compress, ConditionMustBeKnownAtPrepare) {
  TestTensor c = condition({1, 0});
  c.constant = false;
  NodeResult r = run(11, {kMatrix, c}, {make_attribute_int("axis", 0)});
  EXPECT_EQ(r.status.code(), StatusCode::unsupported);
  EXPECT_NE(std::string(r.status.message()).find("input 1 'c' decides the output shape"), std::string::npos)
      << r.status.message();
}

TEST(Compress, RejectsTrueEntriesPastTheAxisAndOldNegativeAxes) {
  NodeResult r = run(11, {kMatrix, condition({0, 0, 1})}, {make_attribute_int("axis", 0)});
  EXPECT_EQ(r.status.code(), StatusCode::out_of_range);
  EXPECT_NE(std::string(r.status.message()).find("element [2] is true, but the compressed axis has only 2 slices"),
            std::string::npos)
      << r.status.message();
  r = run(9, {kMatrix, condition({1})}, {make_attribute_int("axis", -1)});
  EXPECT_NE(std::string(r.status.message()).find("only allowed from opset 11"), std::string::npos)
      << r.status.message();
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
