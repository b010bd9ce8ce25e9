// SPDX-License-Identifier: MIT
// Squeeze and Unsqueeze: axes from attributes (1, 11) or a constant input (13), negative axes by version,
// removing every size-1 dim, errors for duplicates, out-of-range axes and non-1 dims, and in-place runs.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "onnxmicro/onnxmicro.hpp"
#include "support/op_runner.hpp"
#include "support/proto_writer.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

namespace om = onnxmicro;
using om::DataType;
using om::Shape;
using om::Status;
using om::StatusCode;
using onnxmicro_test::make_attribute_ints;
using onnxmicro_test::ProtoWriter;

// ---- harness: one tensor/generator kernel through prepare() and run() (support/op_runner.hpp) -----------

using namespace onnxmicro_test::op_runner;

Tensor axes(const std::vector<std::int64_t>& values) { return shape_input(values); }

const std::vector<float> kData = {1, 2, 3, 4, 5, 6};

TEST(Unsqueeze, InsertsOnesAtOutputAxesInAnyOrder) {
  struct Case {
    std::vector<std::int64_t> axes;
    Shape expected;
  } cases[] = {{{0}, Shape{1, 2, 3}},
               {{2}, Shape{2, 3, 1}},
               {{-1}, Shape{2, 3, 1}},
               {{3, 0}, Shape{1, 2, 3, 1}},
               {{1, -1, 0}, Shape{1, 1, 2, 3, 1}},
               {{}, Shape{2, 3}}};
  for (const Case& c : cases) {
    Result r = run_op("Unsqueeze", 13, {tensor(Shape{2, 3}, kData), axes(c.axes)});
    ASSERT_TRUE(r.ok()) << r.error();
    EXPECT_EQ(r.output.shape, c.expected);
    EXPECT_EQ(values_of<float>(r.output), kData);
  }
}

TEST(Unsqueeze, AxesAttributeBeforeOpset13AndNegativeOnlyFrom11) {
  Result v1 = run_op("Unsqueeze", 1, {tensor(Shape{2, 3}, kData)}, {make_attribute_ints("axes", {0, 3})});
  ASSERT_TRUE(v1.ok()) << v1.error();
  EXPECT_EQ(v1.output.shape, (Shape{1, 2, 3, 1}));
  Result negative_v1 = run_op("Unsqueeze", 10, {tensor(Shape{2, 3}, kData)}, {make_attribute_ints("axes", {-1})});
  EXPECT_TRUE(contains(negative_v1.prepare, "negative axes are only allowed from opset 11"))
      << negative_v1.prepare.message();
  Result v11 = run_op("Unsqueeze", 11, {tensor(Shape{2, 3}, kData)}, {make_attribute_ints("axes", {-1})});
  ASSERT_TRUE(v11.ok()) << v11.error();
  EXPECT_EQ(v11.output.shape, (Shape{2, 3, 1}));
  Result missing = run_op("Unsqueeze", 11, {tensor(Shape{2, 3}, kData)});
  EXPECT_TRUE(contains(missing.prepare, "required attribute 'axes'")) << missing.prepare.message();
}

TEST(Unsqueeze, RejectsDuplicateAndOutOfRangeAxes) {
  Result duplicate = run_op("Unsqueeze", 13, {tensor(Shape{2, 3}, kData), axes({1, -3})});
  EXPECT_EQ(duplicate.prepare.code(), StatusCode::invalid_model);
  EXPECT_TRUE(contains(duplicate.prepare, "axes [1,-3] names output axis 1 more than once"))
      << duplicate.prepare.message();
  Result range = run_op("Unsqueeze", 13, {tensor(Shape{2, 3}, kData), axes({4})});
  EXPECT_TRUE(contains(range.prepare, "axes[0] (an axis of the output) is 4, expected a value in [-3, 2] for rank 3"))
      << range.prepare.message();
}

TEST(Unsqueeze, AxesInputMustBeKnownAtPrepare) {
  Tensor dynamic = axes({0});
  dynamic.constant = false;
  Result r = run_op("Unsqueeze", 13, {tensor(Shape{2, 3}, kData), dynamic});
  EXPECT_EQ(r.prepare.code(), StatusCode::unsupported);
  EXPECT_EQ(r.missing_constant_input, 1);
}

TEST(Unsqueeze, RunsInPlace) {
  Result r = run_op("Unsqueeze", 21, {tensor(Shape{6}, kData), axes({0})}, {}, /*in_place=*/true);
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(r.output.shape, (Shape{1, 6}));
  EXPECT_EQ(values_of<float>(r.output), kData);
}

TEST(Squeeze, RemovesTheGivenAxesOrEverySizeOneDim) {
  const Tensor x = tensor(Shape{1, 2, 1, 3, 1}, kData);
  struct Case {
    std::vector<std::int64_t> axes;
    Shape expected;
  } cases[] = {{{0}, Shape{2, 1, 3, 1}}, {{-1, 2}, Shape{1, 2, 3}}, {{4, 0, 2}, Shape{2, 3}}};
  for (const Case& c : cases) {
    Result r = run_op("Squeeze", 13, {x, axes(c.axes)});
    ASSERT_TRUE(r.ok()) << r.error();
    EXPECT_EQ(r.output.shape, c.expected);
    EXPECT_EQ(values_of<float>(r.output), kData);
  }
  Tensor omitted;  // the optional axes input left out
  Result all = run_op("Squeeze", 13, {x, omitted});
  ASSERT_TRUE(all.ok()) << all.error();
  EXPECT_EQ(all.output.shape, (Shape{2, 3}));
  Result only_data = run_op("Squeeze", 13, {x});
  ASSERT_TRUE(only_data.ok()) << only_data.error();
  EXPECT_EQ(only_data.output.shape, (Shape{2, 3}));
  // An empty axes tensor removes every size-1 dim too (as onnxruntime does).
  Result empty = run_op("Squeeze", 13, {x, axes({})});
  ASSERT_TRUE(empty.ok()) << empty.error();
  EXPECT_EQ(empty.output.shape, (Shape{2, 3}));
  Result scalar = run_op("Squeeze", 13, {tensor(Shape{1, 1}, std::vector<float>{5})});
  ASSERT_TRUE(scalar.ok()) << scalar.error();
  EXPECT_EQ(scalar.output.shape, Shape{});
}

TEST(Squeeze, AxesAttributeBeforeOpset13AndNegativeOnlyFrom11) {
  const Tensor x = tensor(Shape{1, 6, 1}, kData);
  Result v1 = run_op("Squeeze", 1, {x}, {make_attribute_ints("axes", {2})});
  ASSERT_TRUE(v1.ok()) << v1.error();
  EXPECT_EQ(v1.output.shape, (Shape{1, 6}));
  Result all = run_op("Squeeze", 1, {x});
  ASSERT_TRUE(all.ok()) << all.error();
  EXPECT_EQ(all.output.shape, (Shape{6}));
  Result negative_v1 = run_op("Squeeze", 10, {x}, {make_attribute_ints("axes", {-1})});
  EXPECT_EQ(negative_v1.prepare.code(), StatusCode::invalid_model);
  Result v11 = run_op("Squeeze", 12, {x}, {make_attribute_ints("axes", {-1})});
  ASSERT_TRUE(v11.ok()) << v11.error();
  EXPECT_EQ(v11.output.shape, (Shape{1, 6}));
}

TEST(Squeeze, RejectsNonUnitDimsDuplicatesAndOutOfRangeAxes) {
  const Tensor x = tensor(Shape{1, 6, 1}, kData);
  Result non_unit = run_op("Squeeze", 13, {x, axes({1})});
  EXPECT_EQ(non_unit.prepare.code(), StatusCode::invalid_model);
  EXPECT_TRUE(
      contains(non_unit.prepare, "cannot squeeze axis 1 of input 0 'in0' (shape [1,6,1]): its size is 6, expected 1"))
      << non_unit.prepare.message();
  Result duplicate = run_op("Squeeze", 13, {x, axes({0, -3})});
  EXPECT_TRUE(contains(duplicate.prepare, "names axis 0 more than once")) << duplicate.prepare.message();
  Result range = run_op("Squeeze", 13, {x, axes({3})});
  EXPECT_TRUE(contains(range.prepare, "axes[0] is 3, expected a value in [-3, 2]")) << range.prepare.message();
  Tensor dynamic = axes({0});
  dynamic.constant = false;
  Result not_constant = run_op("Squeeze", 13, {x, dynamic});
  EXPECT_EQ(not_constant.prepare.code(), StatusCode::unsupported);
  EXPECT_EQ(not_constant.missing_constant_input, 1);
}

TEST(Squeeze, RunsInPlace) {
  Result r = run_op("Squeeze", 13, {tensor(Shape{1, 6}, kData), axes({0})}, {}, /*in_place=*/true);
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(r.output.shape, (Shape{6}));
  EXPECT_EQ(values_of<float>(r.output), kData);
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
