// SPDX-License-Identifier: MIT
// Clip beyond the ONNX node suite: opset 1-10 attribute bounds (and how opset 6 changed their defaults),
// opset 11+ bounds as constant or run-time inputs, integer and 16-bit float dtypes, NaN, min > max,
// in-place runs and the errors for malformed bounds.
#include <gtest/gtest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "onnxmicro/onnxmicro.hpp"
#include "support/kernel_test_prelude.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

using namespace onnxmicro_test::prelude;

// ---- harness: one kernel of the build driven through prepare() and run() (support/kernel_harness.hpp) ------

using onnxmicro_test::KernelHarness;
using onnxmicro_test::run_node;

TestTensor scalar_float(float v, const char* name) { return make(Shape{}, std::vector<float>{v}).named(name); }

const std::vector<float> kX = {-5.0f, -1.0f, 0.0f, 0.5f, 2.0f, 9.0f};

TEST(Clip, RuntimeBoundsAreReadAtEveryRun) {
  KernelHarness clip("Clip", 13, {make(Shape{6}, kX), scalar_float(-1.5f, "min"), scalar_float(1.0f, "max")});
  ASSERT_TRUE(clip.prepare_status.ok()) << clip.prepare_status.message();
  TestTensor y;
  ASSERT_TRUE(clip.run(y).ok());
  EXPECT_EQ(values_of<float>(y), (std::vector<float>{-1.5f, -1.0f, 0.0f, 0.5f, 1.0f, 1.0f}));
  clip.inputs[1] = scalar_float(0.25f, "min");  // new values, same prepared shapes
  clip.inputs[2] = scalar_float(4.0f, "max");
  ASSERT_TRUE(clip.run(y).ok());
  EXPECT_EQ(values_of<float>(y), (std::vector<float>{0.25f, 0.25f, 0.25f, 0.5f, 2.0f, 4.0f}));
}

TEST(Clip, ConstantBoundsAndOmittedBounds) {
  NodeResult both =
      run_node("Clip", 11,
               {make(Shape{6}, kX), scalar_float(0.0f, "min").as_constant(), scalar_float(2.0f, "max").as_constant()});
  ASSERT_TRUE(both.status.ok()) << both.status.message();
  EXPECT_EQ(values_of<float>(both.output), (std::vector<float>{0, 0, 0, 0.5f, 2, 2}));
  NodeResult max_only = run_node("Clip", 13, {make(Shape{6}, kX), kOmitted, scalar_float(0.0f, "max").as_constant()});
  ASSERT_TRUE(max_only.status.ok()) << max_only.status.message();
  EXPECT_EQ(values_of<float>(max_only.output), (std::vector<float>{-5, -1, 0, 0, 0, 0}));
  NodeResult min_only = run_node("Clip", 13, {make(Shape{6}, kX), scalar_float(0.5f, "min")});
  ASSERT_TRUE(min_only.status.ok()) << min_only.status.message();
  EXPECT_EQ(values_of<float>(min_only.output), (std::vector<float>{0.5f, 0.5f, 0.5f, 0.5f, 2, 9}));
  NodeResult none = run_node("Clip", 13, {make(Shape{6}, kX)});
  ASSERT_TRUE(none.status.ok()) << none.status.message();
  EXPECT_EQ(values_of<float>(none.output), kX);
}

TEST(Clip, MinAboveMaxGivesMaxAndNanStaysNan) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  NodeResult r = run_node(
      "Clip", 13,
      {make(Shape{3}, std::vector<float>{-1.0f, nan, 7.0f}), scalar_float(3.0f, "min"), scalar_float(1.0f, "max")});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  const std::vector<float> y = values_of<float>(r.output);
  EXPECT_EQ(y[0], 1.0f);
  EXPECT_TRUE(std::isnan(y[1]));
  EXPECT_EQ(y[2], 1.0f);
}

TEST(Clip, IntegerDtypesUseTheirFullRange) {
  NodeResult s8 = run_node("Clip", 12,
                           {make(Shape{4}, std::vector<std::int8_t>{-128, -3, 5, 127}),
                            make(Shape{}, std::vector<std::int8_t>{-4}).named("min"),
                            make(Shape{}, std::vector<std::int8_t>{100}).named("max")});
  ASSERT_TRUE(s8.status.ok()) << s8.status.message();
  EXPECT_EQ(values_of<std::int8_t>(s8.output), (std::vector<std::int8_t>{-4, -3, 5, 100}));
  // Without bounds a uint64 above 2^63 and int64 extremes pass through unchanged.
  const std::uint64_t big = (1ULL << 63) + 12345;
  NodeResult u64 = run_node("Clip", 13, {make(Shape{2}, std::vector<std::uint64_t>{big, 0})});
  ASSERT_TRUE(u64.status.ok()) << u64.status.message();
  EXPECT_EQ(values_of<std::uint64_t>(u64.output), (std::vector<std::uint64_t>{big, 0}));
  NodeResult s64 = run_node("Clip", 13,
                            {make(Shape{2}, std::vector<std::int64_t>{INT64_MIN, INT64_MAX}), kOmitted,
                             make(Shape{1}, std::vector<std::int64_t>{INT64_MAX - 1}).named("max")});
  ASSERT_TRUE(s64.status.ok()) << s64.status.message();
  EXPECT_EQ(values_of<std::int64_t>(s64.output), (std::vector<std::int64_t>{INT64_MIN, INT64_MAX - 1}));
}

TEST(Clip, Float16BoundsApplyInFloat) {
  // x = {-2, 0.5, 3}, min = -1, max = 1 (half bits).
  NodeResult r = run_node("Clip", 13,
                          {make(DataType::float16, Shape{3}, std::vector<std::uint16_t>{0xC000, 0x3800, 0x4200}),
                           make(DataType::float16, Shape{}, std::vector<std::uint16_t>{0xBC00}).named("min"),
                           make(DataType::float16, Shape{}, std::vector<std::uint16_t>{0x3C00}).named("max")});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(values_of<std::uint16_t>(r.output), (std::vector<std::uint16_t>{0xBC00, 0x3800, 0x3C00}));
}

TEST(Clip, InPlaceRunMatchesSeparateBuffers) {
  NodeResult aliased = run_node("Clip", 13, {make(Shape{6}, kX), scalar_float(-1.0f, "min"), scalar_float(1.0f, "max")},
                                {}, /*in_place=*/true);
  ASSERT_TRUE(aliased.status.ok()) << aliased.status.message();
  EXPECT_EQ(values_of<float>(aliased.output), (std::vector<float>{-1, -1, 0, 0.5f, 1, 1}));
  NodeResult legacy = run_node("Clip", 6, {make(Shape{6}, kX)}, {make_attribute_float("max", 0.0f)}, true);
  ASSERT_TRUE(legacy.status.ok()) << legacy.status.message();
  EXPECT_EQ(values_of<float>(legacy.output), (std::vector<float>{-5, -1, 0, 0, 0, 0}));
}

TEST(Clip, BoundsMustBeScalarsOfTheInputDtype) {
  NodeResult vector_bound =
      run_node("Clip", 13, {make(Shape{6}, kX), make(Shape{2}, std::vector<float>{0, 1}).named("min")});
  ASSERT_EQ(vector_bound.status.code(), StatusCode::invalid_model);
  EXPECT_NE(std::string(vector_bound.status.message()).find("input 1 'min' has shape [2], expected a scalar"),
            std::string::npos)
      << vector_bound.status.message();
  NodeResult wrong_dtype =
      run_node("Clip", 13, {make(Shape{6}, kX), kOmitted, make(Shape{}, std::vector<double>{1}).named("max")});
  ASSERT_EQ(wrong_dtype.status.code(), StatusCode::invalid_model);
  EXPECT_NE(std::string(wrong_dtype.status.message()).find("input 2 'max' has dtype double, expected float"),
            std::string::npos)
      << wrong_dtype.status.message();
}

TEST(Clip, UnsupportedDtypeIsAClearStatus) {
  NodeResult r = run_node("Clip", 13, {make(DataType::boolean, Shape{1}, std::vector<std::uint8_t>{1})});
  ASSERT_EQ(r.status.code(), StatusCode::unsupported);
  EXPECT_NE(std::string(r.status.message()).find("dtype bool"), std::string::npos) << r.status.message();
  // Opset 1-10 bounds are floats: integer inputs did not exist there.
  r = run_node("Clip", 10, {make(Shape{1}, std::vector<std::int32_t>{1})});
  EXPECT_EQ(r.status.code(), StatusCode::unsupported);
}

TEST(ClipLegacy, AttributeBounds) {
  NodeResult r = run_node("Clip", 6, {make(Shape{6}, kX)},
                          {make_attribute_float("min", -2.0f), make_attribute_float("max", 1.0f)});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(values_of<float>(r.output), (std::vector<float>{-2, -1, 0, 0.5f, 1, 1}));
}

// Opset 6 made absent bounds default to -FLT_MAX / FLT_MAX, which clips doubles beyond float range; in
// opset 1 an absent bound does not clip.
TEST(ClipLegacy, Opset6DefaultsClipDoublesToFloatRange) {
  const std::vector<double> x = {-1e300, 1.0, 1e300};
  NodeResult v6 = run_node("Clip", 6, {make(Shape{3}, x)});
  ASSERT_TRUE(v6.status.ok()) << v6.status.message();
  EXPECT_EQ(values_of<double>(v6.output), (std::vector<double>{-static_cast<double>(FLT_MAX), 1.0, FLT_MAX}));
  NodeResult v1 = run_node("Clip", 1, {make(Shape{3}, x)});
  ASSERT_TRUE(v1.status.ok()) << v1.status.message();
  EXPECT_EQ(values_of<double>(v1.output), x);
  NodeResult v1_max = run_node("Clip", 1, {make(Shape{3}, x)}, {make_attribute_float("max", 0.5f)});
  ASSERT_TRUE(v1_max.status.ok()) << v1_max.status.message();
  EXPECT_EQ(values_of<double>(v1_max.output), (std::vector<double>{-1e300, 0.5, 0.5}));
}

TEST(ClipLegacy, BfloatBoundRoundsToTheInputDtype) {
  // max = 0.3 is not a bfloat16: the bound is rounded to the nearest bfloat16 (0x3E9A = 0.30078125).
  NodeResult r = run_node("Clip", 6, {make(DataType::bfloat16, Shape{1}, std::vector<std::uint16_t>{0x3F80})},
                          {make_attribute_float("max", 0.3f)});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(values_of<std::uint16_t>(r.output)[0], 0x3E9A);
}

TEST(Clip, VersionsResolveToAttributeOrInputBounds) {
  for (int opset = 1; opset <= ONNXMICRO_MAX_OPSET + 2; ++opset) {
    const om::KernelEntry* k = om::find_kernel(om::all_kernels_registry(), "", "Clip", opset);
    ASSERT_NE(k, nullptr) << opset;
    EXPECT_EQ(k->since_version, opset < 11 ? 1 : 11) << opset;
  }
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
