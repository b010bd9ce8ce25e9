// SPDX-License-Identifier: MIT
// Softmax beyond the ONNX node suite (which only has opset 13 float cases): the opset 1-12 2-D coercion
// against the opset 13 single-axis semantics on the same input, default axes per version, every axis of a
// 4-D input for both, numerical stability, NaN confinement, float16/bfloat16/double, in-place runs and axis
// errors. References are computed in double straight from the definitions.
#include <gtest/gtest.h>

#include <algorithm>
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

// ---- references ---------------------------------------------------------------------------------------------

// Softmax of x viewed as [outer, length, inner] along the middle dimension, in double.
std::vector<double> softmax_ref(const std::vector<double>& x, std::int64_t outer, std::int64_t length,
                                std::int64_t inner) {
  std::vector<double> y(x.size());
  for (std::int64_t o = 0; o < outer; ++o) {
    for (std::int64_t i = 0; i < inner; ++i) {
      double max = -INFINITY, sum = 0;
      for (std::int64_t k = 0; k < length; ++k) max = std::max(max, x[(o * length + k) * inner + i]);
      for (std::int64_t k = 0; k < length; ++k) sum += std::exp(x[(o * length + k) * inner + i] - max);
      for (std::int64_t k = 0; k < length; ++k)
        y[(o * length + k) * inner + i] = std::exp(x[(o * length + k) * inner + i] - max) / sum;
    }
  }
  return y;
}
std::int64_t product(const Shape& s, int begin, int end) {
  std::int64_t n = 1;
  for (int i = begin; i < end; ++i) n *= s[i];
  return n;
}
// Opset 13: along `axis` only.
std::vector<double> softmax13_ref(const std::vector<double>& x, const Shape& s, int axis) {
  return softmax_ref(x, product(s, 0, axis), s[axis], product(s, axis + 1, s.rank()));
}
// Opset 1-12: rows of the input coerced to 2-D at `axis`.
std::vector<double> softmax1_ref(const std::vector<double>& x, const Shape& s, int axis) {
  return softmax_ref(x, product(s, 0, axis), product(s, axis, s.rank()), 1);
}

std::vector<double> ramp(std::size_t n) {  // distinct, irregular values
  std::vector<double> x(n);
  for (std::size_t i = 0; i < n; ++i) x[i] = std::sin(static_cast<double>(i) * 1.7) * 3.0 + static_cast<double>(i % 5);
  return x;
}

void expect_close(const std::vector<double>& got, const std::vector<double>& want, double tol,
                  const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (std::size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], tol) << what << " element " << i;
}

TEST(Softmax, Opset13NormalisesAlongEachAxis) {
  const Shape shape{2, 3, 4, 5};
  const std::vector<double> x = ramp(120);
  for (int axis = -4; axis < 4; ++axis) {
    KernelHarness softmax("Softmax", 13, {make(shape, x)}, {make_attribute_int("axis", axis)});
    ASSERT_TRUE(softmax.prepare_status.ok()) << softmax.prepare_status.message();
    TestTensor y;
    ASSERT_TRUE(softmax.run(y).ok());
    const int a = axis < 0 ? axis + 4 : axis;
    expect_close(values_of<double>(y), softmax13_ref(x, shape, a), 1e-12, "axis " + std::to_string(axis));
    // The running max and sum live in scratch when the axis is not the innermost one.
    if (a < 3) {
      EXPECT_GE(softmax.scratch_bytes(), 2 * sizeof(double) * static_cast<std::size_t>(product(shape, a + 1, 4)));
    }
  }
}

TEST(Softmax, Opset11CoercesTo2D) {
  const Shape shape{2, 3, 4, 5};
  const std::vector<double> x = ramp(120);
  for (int axis = -4; axis <= 4; ++axis) {
    NodeResult r = run_node("Softmax", 11, {make(shape, x)}, {make_attribute_int("axis", axis)});
    ASSERT_TRUE(r.status.ok()) << r.status.message();
    const int a = axis < 0 ? axis + 4 : axis;
    expect_close(values_of<double>(r.output), softmax1_ref(x, shape, a), 1e-12, "axis " + std::to_string(axis));
  }
}

// The same node means different things before and after opset 13 (default axis 1 vs -1, and rows vs one axis).
TEST(Softmax, DefaultAxisAndSemanticsDependOnTheOpset) {
  const Shape shape{2, 3, 4};
  const std::vector<double> x = ramp(24);
  NodeResult old_default = run_node("Softmax", 12, {make(shape, x)});
  NodeResult new_default = run_node("Softmax", 13, {make(shape, x)});
  ASSERT_TRUE(old_default.status.ok() && new_default.status.ok());
  expect_close(values_of<double>(old_default.output), softmax1_ref(x, shape, 1), 1e-12, "opset 12 default");
  expect_close(values_of<double>(new_default.output), softmax13_ref(x, shape, 2), 1e-12, "opset 13 default");

  NodeResult old_axis1 = run_node("Softmax", 1, {make(shape, x)}, {make_attribute_int("axis", 1)});
  NodeResult new_axis1 = run_node("Softmax", 13, {make(shape, x)}, {make_attribute_int("axis", 1)});
  ASSERT_TRUE(old_axis1.status.ok() && new_axis1.status.ok());
  EXPECT_NE(values_of<double>(old_axis1.output), values_of<double>(new_axis1.output));
  expect_close(values_of<double>(new_axis1.output), softmax13_ref(x, shape, 1), 1e-12, "opset 13 axis 1");
}

TEST(Softmax, LargeInputsDoNotOverflow) {
  NodeResult r =
      run_node("Softmax", 13, {make(Shape{2, 3}, std::vector<float>{1000, 1001, 1002, -1000, -1001, -1002})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  const std::vector<float> y = values_of<float>(r.output);
  const std::vector<double> want = softmax_ref({0, 1, 2, 0, -1, -2}, 2, 3, 1);
  for (int i = 0; i < 6; ++i) EXPECT_NEAR(y[i], want[i], 1e-6) << i;
}

TEST(Softmax, NanStaysInItsSlice) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  // Axis 0 of [3, 2]: column 0 holds the NaN, column 1 must be unaffected.
  NodeResult r = run_node("Softmax", 13, {make(Shape{3, 2}, std::vector<float>{1, 1, nan, 2, 3, 3})},
                          {make_attribute_int("axis", 0)});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  const std::vector<float> y = values_of<float>(r.output);
  const std::vector<double> column1 = softmax_ref({1, 2, 3}, 1, 3, 1);
  for (int k = 0; k < 3; ++k) {
    EXPECT_TRUE(std::isnan(y[k * 2])) << k;
    EXPECT_NEAR(y[k * 2 + 1], column1[k], 1e-6) << k;
  }
}

// 16-bit floats: each result is the float-computed softmax rounded once. The inputs are chosen so that
// rounding exp(x - max) to the 16-bit type before the division would change some elements.
TEST(Softmax, Float16AndBfloat16RoundTheFloatResultOnce) {
  const std::vector<std::uint16_t> half = {0x2C8A, 0x4168, 0xC045, 0x4162, 0xBC84, 0xB75C, 0x3FDD, 0xB85C};
  const std::vector<std::uint16_t> brain = {0xBFB7, 0xBF9B, 0x3FF1, 0xC01D};
  std::vector<double> widened_half, widened_brain;
  for (std::uint16_t h : half) widened_half.push_back(om::float16_t::from_bits(h).to_float());
  for (std::uint16_t b : brain) widened_brain.push_back(om::bfloat16_t::from_bits(b).to_float());
  const std::vector<double> want_half = softmax_ref(widened_half, 1, 8, 1);
  const std::vector<double> want_brain = softmax_ref(widened_brain, 1, 4, 1);
  NodeResult h = run_node("Softmax", 13, {make(DataType::float16, Shape{8}, half)});
  NodeResult b = run_node("Softmax", 13, {make(DataType::bfloat16, Shape{4}, brain)});
  ASSERT_TRUE(h.status.ok() && b.status.ok());
  const std::vector<std::uint16_t> yh = values_of<std::uint16_t>(h.output), yb = values_of<std::uint16_t>(b.output);
  for (std::size_t i = 0; i < half.size(); ++i)
    EXPECT_EQ(yh[i], om::float16_t::from_float(static_cast<float>(want_half[i])).bits) << i;
  for (std::size_t i = 0; i < brain.size(); ++i)
    EXPECT_EQ(yb[i], om::bfloat16_t::from_float(static_cast<float>(want_brain[i])).bits) << i;
}

TEST(Softmax, InPlaceRunsMatchSeparateBuffers) {
  const Shape shape{3, 4, 5};
  std::vector<float> x(60);
  for (int i = 0; i < 60; ++i) x[i] = static_cast<float>(std::cos(i * 0.37) * 4.0);
  for (int opset : {11, 13}) {
    for (int axis = 0; axis < 3; ++axis) {
      NodeResult separate = run_node("Softmax", opset, {make(shape, x)}, {make_attribute_int("axis", axis)});
      NodeResult aliased = run_node("Softmax", opset, {make(shape, x)}, {make_attribute_int("axis", axis)}, true);
      ASSERT_TRUE(separate.status.ok() && aliased.status.ok());
      EXPECT_EQ(values_of<float>(separate.output), values_of<float>(aliased.output)) << opset << " " << axis;
    }
    std::vector<std::uint16_t> half(60);
    for (int i = 0; i < 60; ++i) half[i] = om::float16_t::from_float(x[i]).bits;
    NodeResult separate =
        run_node("Softmax", opset, {make(DataType::float16, shape, half)}, {make_attribute_int("axis", 0)});
    NodeResult aliased =
        run_node("Softmax", opset, {make(DataType::float16, shape, half)}, {make_attribute_int("axis", 0)}, true);
    ASSERT_TRUE(separate.status.ok() && aliased.status.ok());
    EXPECT_EQ(values_of<std::uint16_t>(separate.output), values_of<std::uint16_t>(aliased.output)) << opset;
  }
}

TEST(Softmax, EmptyInputRuns) {
  NodeResult r = run_node("Softmax", 13, {make(Shape{0, 3}, std::vector<float>{})}, {make_attribute_int("axis", 0)});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.output.shape, (Shape{0, 3}));
}

TEST(Softmax, AxisOutOfRangeNamesTheAttribute) {
  NodeResult r = run_node("Softmax", 13, {make(Shape{2, 3}, std::vector<float>(6))}, {make_attribute_int("axis", 2)});
  ASSERT_EQ(r.status.code(), StatusCode::invalid_model);
  EXPECT_NE(std::string(r.status.message()).find("attribute 'axis' is 2, expected a value in [-2, 1]"),
            std::string::npos)
      << r.status.message();
  r = run_node("Softmax", 11, {make(Shape{2, 3}, std::vector<float>(6))}, {make_attribute_int("axis", -3)});
  EXPECT_EQ(r.status.code(), StatusCode::invalid_model);
}

TEST(Softmax, IntegerInputIsUnsupported) {
  NodeResult r = run_node("Softmax", 13, {make(Shape{2}, std::vector<std::int32_t>{1, 2})});
  ASSERT_EQ(r.status.code(), StatusCode::unsupported);
  EXPECT_NE(std::string(r.status.message()).find("dtype int32"), std::string::npos) << r.status.message();
}

TEST(Softmax, VersionsResolveToCoercedOrSingleAxis) {
  for (int opset = 1; opset <= ONNXMICRO_MAX_OPSET + 2; ++opset) {
    const om::KernelEntry* k = om::find_kernel(om::all_kernels_registry(), "", "Softmax", opset);
    ASSERT_NE(k, nullptr) << opset;
    EXPECT_EQ(k->since_version, opset < 13 ? 1 : 13) << opset;
  }
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
