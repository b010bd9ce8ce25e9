// SPDX-License-Identifier: MIT
// DFT beyond the ONNX node suite: hand-checked transforms (a real length-4 signal, zero padding through
// dft_length, a complex inverse, the inverse of a one-sided spectrum), float64 and float16, the axis as
// attribute (opset 17) vs input (opset 20), and errors for the (re, im) axis and a non-constant dft_length.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "support/kernel_harness.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

using namespace onnxmicro_test;

bool contains(const Status& st, const std::string& text) {
  return std::string(st.message()).find(text) != std::string::npos;
}
void expect_values(const TestTensor& t, const std::vector<float>& expected) {
  const std::vector<float> actual = values_of<float>(t);
  ASSERT_EQ(actual.size(), expected.size());
  for (std::size_t i = 0; i < actual.size(); ++i) EXPECT_NEAR(actual[i], expected[i], 1e-5) << "element " << i;
}
TestTensor length(std::int64_t n) { return make<std::int64_t>(Shape{}, {n}).named("dft_length").as_constant(); }
TestTensor axis(std::int64_t a) { return make<std::int64_t>(Shape{}, {a}).named("axis").as_constant(); }

// DFT of [1, 2, 3, 4] = [10, -2+2i, -2, -2-2i] (by hand: X_k = sum x_m (-i)^(km)).
TEST(DFTKernel, RealSignalAlongTheDefaultAxis) {
  NodeResult r = run_node(om::all_kernels_registry(), "DFT", 17, {make<float>(Shape{1, 4, 1}, {1, 2, 3, 4})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.output.shape, (Shape{1, 4, 2}));
  expect_values(r.output, {10, 0, -2, 2, -2, 0, -2, -2});
}

// dft_length 6 zero-pads: numpy.fft.fft([1, 2, 3, 4], n=6); onesided keeps bins 0..3.
TEST(DFTKernel, DftLengthZeroPadsAndOnesidedKeepsHalf) {
  NodeResult r =
      run_node(om::all_kernels_registry(), "DFT", 20, {make<float>(Shape{4, 1}, {1, 2, 3, 4}), length(6), axis(0)},
               {make_attribute_int("onesided", 1)});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.output.shape, (Shape{4, 2}));
  expect_values(r.output, {10, 0, -3.5f, -4.33012702f, 2.5f, 0.8660254f, -2, 0});
}

// numpy.fft.ifft([1+1j, 2, 3-2j]) = [2-0.3333i, -1.0774+0.3780i, 0.0774+0.9553i], in float64.
TEST(DFTKernel, ComplexInverseInFloat64) {
  NodeResult r = run_node(om::all_kernels_registry(), "DFT", 20, {make<double>(Shape{1, 3, 2}, {1, 1, 2, 0, 3, -2})},
                          {make_attribute_int("inverse", 1)});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  const std::vector<double> y = values_of<double>(r.output);
  const std::vector<double> expected = {2, -1.0 / 3, -1.07735027, 0.37799153, 0.07735027, 0.9553418};
  ASSERT_EQ(y.size(), expected.size());
  for (std::size_t i = 0; i < y.size(); ++i) EXPECT_NEAR(y[i], expected[i], 1e-8) << i;
}

// The inverse of the one-sided spectrum [10, -2+2i, -2] is the real signal [1, 2, 3, 4] (default length 4).
TEST(DFTKernel, InverseOfOnesidedSpectrumIsReal) {
  NodeResult r = run_node(om::all_kernels_registry(), "DFT", 20, {make<float>(Shape{1, 3, 2}, {10, 0, -2, 2, -2, 0})},
                          {make_attribute_int("inverse", 1), make_attribute_int("onesided", 1)});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.output.shape, (Shape{1, 4, 1}));
  expect_values(r.output, {1, 2, 3, 4});
}

TEST(DFTKernel, Float16RoundsOnceAtTheEnd) {
  std::vector<om::float16_t> x;
  for (float v : {1.0f, 2.0f, 3.0f, 4.0f}) x.push_back(om::float16_t::from_float(v));
  NodeResult r = run_node(om::all_kernels_registry(), "DFT", 17, {make<om::float16_t>(Shape{1, 4, 1}, x)});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  const std::vector<om::float16_t> y = values_of<om::float16_t>(r.output);
  const float expected[] = {10, 0, -2, 2, -2, 0, -2, -2};
  for (std::size_t i = 0; i < 8; ++i) EXPECT_EQ(y[i].to_float(), expected[i]) << i;
}

// Opset 17 takes the axis as an attribute, opset 20 as input 2; both transform the same dimension here.
TEST(DFTKernel, AxisAttributeInOpset17AxisInputInOpset20) {
  const TestTensor x = make<float>(Shape{2, 2, 1}, {1, 2, 3, 4});
  NodeResult attr = run_node(om::all_kernels_registry(), "DFT", 17, {x}, {make_attribute_int("axis", 0)});
  NodeResult input = run_node(om::all_kernels_registry(), "DFT", 20, {x, kOmitted, axis(0)});
  ASSERT_TRUE(attr.status.ok()) << attr.status.message();
  ASSERT_TRUE(input.status.ok()) << input.status.message();
  expect_values(attr.output, {4, 0, 6, 0, -2, 0, -2, 0});
  expect_values(input.output, {4, 0, 6, 0, -2, 0, -2, 0});
}

TEST(DFTKernel, RejectsTheComplexAxisAndNonConstantLength) {
  const TestTensor x = make<float>(Shape{1, 4, 1}, {1, 2, 3, 4});
  NodeResult r = run_node(om::all_kernels_registry(), "DFT", 17, {x}, {make_attribute_int("axis", -1)});
  EXPECT_TRUE(contains(r.status, "attribute 'axis' is -1, which is the (re, im) dimension")) << r.status.message();
  r = run_node(om::all_kernels_registry(), "DFT", 20, {x, make<std::int64_t>(Shape{}, {4}).named("n")});
  EXPECT_EQ(r.status.code(), StatusCode::unsupported);
  EXPECT_TRUE(contains(r.status, "must be known at prepare time")) << r.status.message();
  r = run_node(om::all_kernels_registry(), "DFT", 20, {make<float>(Shape{4, 3}, std::vector<float>(12, 0.0f))});
  EXPECT_TRUE(contains(r.status, "last dimension of 1 (real) or 2")) << r.status.message();
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
