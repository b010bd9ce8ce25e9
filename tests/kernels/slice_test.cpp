// SPDX-License-Identifier: MIT
// Slice beyond the ONNX node suite: negative steps with out-of-range starts/ends (expected values from numpy),
// INT64_MIN/INT64_MAX ends, empty results, int32 indices, opset-1 attributes, negative axes only from opset 11,
// and errors (step 0, repeated axis, non-constant starts).
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "onnxmicro/kernels/tensor/slice.hpp"
#include "support/kernel_test_prelude.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

using namespace onnxmicro_test::prelude;

using SliceKernels = om::KernelSet<om::kernels::Slice_1, om::kernels::Slice_10, om::kernels::Slice_11>;

NodeResult slice(int opset, const std::vector<TestTensor>& inputs, const std::vector<ProtoWriter>& attributes = {}) {
  return onnxmicro_test::run_node(SliceKernels::registry(), "Slice", opset, inputs, attributes);
}
TestTensor iota_3x4x5() {
  std::vector<std::int32_t> v(60);
  for (int i = 0; i < 60; ++i) v[static_cast<std::size_t>(i)] = i;
  return make(Shape{3, 4, 5}, v);
}
TestTensor ints(const std::vector<std::int64_t>& v, const std::string& name) {
  return make(Shape{static_cast<std::int64_t>(v.size())}, v).named(name).as_constant();
}

constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();

TEST(Slice, NegativeStepsAndClampingMatchNumpy) {
  // numpy: x[::-1, 3:0:-2, -100:100:3] of arange(60).reshape(3,4,5)
  NodeResult r = slice(13, {iota_3x4x5(), ints({-1, 3, -100}, "starts"), ints({kMin, 0, 100}, "ends"),
                            ints({0, 1, 2}, "axes"), ints({-1, -2, 3}, "steps")});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.output.shape, (Shape{3, 2, 2}));
  EXPECT_EQ(values_of<std::int32_t>(r.output),
            (std::vector<std::int32_t>{55, 58, 45, 48, 35, 38, 25, 28, 15, 18, 5, 8}));
}

TEST(Slice, DefaultAxesAndStepsWithInt64MaxEnds) {
  // numpy: x[-2:, -2:-1, 4:5] -> [[[34]], [[54]]]
  NodeResult r = slice(13, {iota_3x4x5(), ints({-2, -2, 4}, "starts"), ints({kMax, -1, 5}, "ends")});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.output.shape, (Shape{2, 1, 1}));
  EXPECT_EQ(values_of<std::int32_t>(r.output), (std::vector<std::int32_t>{34, 54}));
}

TEST(Slice, EmptyRangeGivesAZeroDim) {
  NodeResult r = slice(13, {iota_3x4x5(), ints({2}, "starts"), ints({2}, "ends")});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.output.shape, (Shape{0, 4, 5}));
  // A start past the end with a negative step is empty too (Python: x[-10:0:-1] on 3 elements).
  r = slice(13, {iota_3x4x5(), ints({-10}, "starts"), ints({0}, "ends"), kOmitted, ints({-1}, "steps")});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.output.shape, (Shape{0, 4, 5}));
}

TEST(Slice, Int32IndicesWork) {
  TestTensor starts = make(Shape{1}, std::vector<std::int32_t>{1}).named("starts").as_constant();
  TestTensor ends = make(Shape{1}, std::vector<std::int32_t>{2}).named("ends").as_constant();
  TestTensor axes = make(Shape{1}, std::vector<std::int32_t>{-1}).named("axes").as_constant();
  NodeResult r = slice(13, {iota_3x4x5(), starts, ends, axes});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.output.shape, (Shape{3, 4, 1}));
  EXPECT_EQ(values_of<std::int32_t>(r.output)[5], 26);
}

TEST(Slice, StringElementsAreCopiedAsViews) {
  const char text[] = "abc";
  const std::vector<om::StringRef> refs = {{text, 1}, {text + 1, 1}, {text + 2, 1}};
  NodeResult r = slice(13, {make(DataType::string, Shape{3}, refs), ints({-1}, "starts"), ints({kMin}, "ends"),
                            kOmitted, ints({-2}, "steps")});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  const std::vector<om::StringRef> out = values_of<om::StringRef>(r.output);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].view(), "c");
  EXPECT_EQ(out[1].view(), "a");
}

TEST(Slice, Opset1ReadsAttributes) {
  NodeResult r = slice(1, {iota_3x4x5()},
                       {make_attribute_ints("starts", {1, 0}), make_attribute_ints("ends", {2, 1}),
                        make_attribute_ints("axes", {2, 0})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.output.shape, (Shape{1, 4, 1}));
  EXPECT_EQ(values_of<std::int32_t>(r.output), (std::vector<std::int32_t>{1, 6, 11, 16}));
}

TEST(Slice, NegativeAxesOnlyFromOpset11) {
  const std::vector<TestTensor> inputs = {iota_3x4x5(), ints({0}, "starts"), ints({1}, "ends"), ints({-1}, "axes")};
  NodeResult r = slice(10, inputs);
  EXPECT_EQ(r.status.code(), StatusCode::invalid_model);
  EXPECT_NE(std::string(r.status.message()).find("negative axes"), std::string::npos) << r.status.message();
  EXPECT_TRUE(slice(11, inputs).status.ok());
}

TEST(Slice, ErrorsNameTheProblem) {
  NodeResult r = slice(13, {iota_3x4x5(), ints({0}, "starts"), ints({1}, "ends"), kOmitted, ints({0}, "steps")});
  EXPECT_EQ(r.status.code(), StatusCode::invalid_model);
  EXPECT_NE(std::string(r.status.message()).find("steps[0] is 0"), std::string::npos) << r.status.message();

  r = slice(13, {iota_3x4x5(), ints({0, 0}, "starts"), ints({1, 1}, "ends"), ints({1, -2}, "axes")});
  EXPECT_NE(std::string(r.status.message()).find("more than once"), std::string::npos) << r.status.message();

  r = slice(13, {iota_3x4x5(), ints({0}, "starts"), ints({1, 1}, "ends")});
  EXPECT_NE(std::string(r.status.message()).find("'ends' has 2 values, expected 1"), std::string::npos)
      << r.status.message();

  TestTensor dynamic_starts = make(Shape{1}, std::vector<std::int64_t>{0}).named("starts");
  r = slice(13, {iota_3x4x5(), dynamic_starts, ints({1}, "ends")});
  EXPECT_EQ(r.status.code(), StatusCode::unsupported);
  EXPECT_NE(std::string(r.status.message()).find("prepare time"), std::string::npos) << r.status.message();
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
