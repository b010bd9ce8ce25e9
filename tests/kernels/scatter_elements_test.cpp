// SPDX-License-Identifier: MIT
// ScatterElements: each reduction on integer and float16 data with duplicate indices, which reductions each
// opset accepts, in-place runs (output in data's buffer), complex arithmetic, strings (moved as views, no
// reductions), and out-of-range indices as a run-time error naming the element and value.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "support/kernel_test_prelude.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

using namespace onnxmicro_test::prelude;

NodeResult run(int opset, const std::vector<TestTensor>& inputs, const std::vector<ProtoWriter>& attributes = {},
               bool in_place = false) {
  return onnxmicro_test::run_node(om::all_kernels_registry(), "ScatterElements", opset, inputs, attributes, in_place);
}

// data [2,3] int32, axis 1, indices/updates [2,2] with a duplicate in row 0.
std::vector<std::int32_t> scatter_row_major(const std::string& reduction) {
  const std::vector<TestTensor> inputs = {make(Shape{2, 3}, std::vector<std::int32_t>{1, 2, 3, 4, 5, 6}),
                                          make(Shape{2, 2}, std::vector<std::int64_t>{0, 0, -1, 1}),
                                          make(Shape{2, 2}, std::vector<std::int32_t>{10, -20, 7, 3})};
  NodeResult r = run(18, inputs, {make_attribute_int("axis", 1), make_attribute_string("reduction", reduction)});
  EXPECT_TRUE(r.status.ok()) << reduction << ": " << r.status.message();
  return values_of<std::int32_t>(r.output);
}

TEST(ScatterElements, EveryReductionCombinesDuplicatesInOrder) {
  EXPECT_EQ(scatter_row_major("none"), (std::vector<std::int32_t>{-20, 2, 3, 4, 3, 7}));
  EXPECT_EQ(scatter_row_major("add"), (std::vector<std::int32_t>{-9, 2, 3, 4, 8, 13}));
  EXPECT_EQ(scatter_row_major("mul"), (std::vector<std::int32_t>{-200, 2, 3, 4, 15, 42}));
  EXPECT_EQ(scatter_row_major("max"), (std::vector<std::int32_t>{10, 2, 3, 4, 5, 7}));
  EXPECT_EQ(scatter_row_major("min"), (std::vector<std::int32_t>{-20, 2, 3, 4, 3, 6}));
}

TEST(ScatterElements, Float16AddIsComputedInFloat) {
  using om::float16_t;
  const std::vector<float16_t> data = {float16_t::from_float(1.5f), float16_t::from_float(-2.0f)};
  const std::vector<float16_t> updates = {float16_t::from_float(0.25f), float16_t::from_float(0.5f),
                                          float16_t::from_float(4.0f)};
  NodeResult r =
      run(16, {make(Shape{2}, data), make(Shape{3}, std::vector<std::int32_t>{0, 0, 1}), make(Shape{3}, updates)},
          {make_attribute_string("reduction", "add")});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  const std::vector<float16_t> out = values_of<float16_t>(r.output);
  EXPECT_EQ(out[0].to_float(), 2.25f);
  EXPECT_EQ(out[1].to_float(), 2.0f);
}

TEST(ScatterElements, ReductionsFollowTheOpsetThatDefinesThem) {
  const std::vector<TestTensor> inputs = {make(Shape{2}, std::vector<float>{1, 2}),
                                          make(Shape{1}, std::vector<std::int64_t>{1}),
                                          make(Shape{1}, std::vector<float>{5})};
  NodeResult r = run(16, inputs, {make_attribute_string("reduction", "max")});
  EXPECT_EQ(r.status.code(), StatusCode::invalid_model);
  EXPECT_NE(std::string(r.status.message()).find("opset 18+"), std::string::npos) << r.status.message();
  r = run(18, inputs, {make_attribute_string("reduction", "sum")});
  EXPECT_NE(std::string(r.status.message()).find("expected one of none, add, mul, max, min"), std::string::npos)
      << r.status.message();
  r = run(18, inputs, {make_attribute_string("reduction", "max")});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(values_of<float>(r.output), (std::vector<float>{1, 5}));
}

TEST(ScatterElements, RunsInPlaceInDataBuffer) {
  NodeResult r =
      run(13,
          {make(Shape{4}, std::vector<std::int64_t>{1, 2, 3, 4}), make(Shape{2}, std::vector<std::int64_t>{3, 0}),
           make(Shape{2}, std::vector<std::int64_t>{40, 10})},
          {}, true);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(values_of<std::int64_t>(r.output), (std::vector<std::int64_t>{10, 2, 3, 40}));
}

TEST(ScatterElements, ComplexReductionsAreComplexArithmetic) {
  auto reduce = [](const char* reduction) {
    NodeResult r = run(
        18,
        {make(DataType::complex64, Shape{1}, std::vector<float>{1, 2}), make(Shape{1}, std::vector<std::int64_t>{0}),
         make(DataType::complex64, Shape{1}, std::vector<float>{3, -4})},
        {make_attribute_string("reduction", reduction)});
    EXPECT_TRUE(r.status.ok()) << r.status.message();
    return values_of<float>(r.output);
  };
  EXPECT_EQ(reduce("add"), (std::vector<float>{4, -2}));
  EXPECT_EQ(reduce("mul"), (std::vector<float>{11, 2}));  // (1+2i)(3-4i) = 3 - 4i + 6i + 8
  EXPECT_EQ(reduce("max"), (std::vector<float>{3, -4}));  // real part first
  EXPECT_EQ(reduce("min"), (std::vector<float>{1, 2}));
}

TEST(ScatterElements, StringsScatterButHaveNoReduction) {
  const std::vector<om::StringRef> data = {om::StringRef::of("a"), om::StringRef::of("b")};
  const std::vector<om::StringRef> updates = {om::StringRef::of("z")};
  const std::vector<TestTensor> inputs = {make(DataType::string, Shape{2}, data),
                                          make(Shape{1}, std::vector<std::int64_t>{1}),
                                          make(DataType::string, Shape{1}, updates)};
  NodeResult r = run(18, inputs);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  const std::vector<om::StringRef> out = values_of<om::StringRef>(r.output);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].view(), "a");
  EXPECT_EQ(out[1].view(), "z");
  r = run(18, inputs, {make_attribute_string("reduction", "add")});
  EXPECT_EQ(r.status.code(), StatusCode::unsupported);
  EXPECT_NE(std::string(r.status.message()).find("no add/mul/max/min reduction"), std::string::npos)
      << r.status.message();
}

TEST(ScatterElements, OutOfRangeIndexIsARunTimeError) {
  NodeResult r =
      run(13, {make(Shape{2, 2}, std::vector<float>(4, 0.0f)), make(Shape{1, 2}, std::vector<std::int32_t>{0, -3}),
               make(Shape{1, 2}, std::vector<float>{1, 2})});
  EXPECT_EQ(r.status.code(), StatusCode::out_of_range);
  EXPECT_NE(std::string(r.status.message()).find("input 1 (indices) element [0,1] = -3 is out of range [-2, 1]"),
            std::string::npos)
      << r.status.message();
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
