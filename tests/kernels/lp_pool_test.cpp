// SPDX-License-Identifier: MIT
// LpPool, GlobalLpPool and GlobalMaxPool beyond the ONNX node suite: opset 1's FLOAT p vs the INT p of later
// versions, windows partly in padding (padding adds nothing to the sum), ceil_mode and dilations gated to
// opset 18, GlobalMaxPool's NaN propagation and float64, and the validation messages. Expected values are
// computed here from the definition (sum over the window of |x|^p, then the p-th root).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "onnxmicro/onnxmicro.hpp"
#include "support/kernel_test_prelude.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

using namespace onnxmicro_test::prelude;

NodeResult run(const std::string& op, int opset, const std::vector<TestTensor>& inputs,
               const std::vector<ProtoWriter>& attributes = {}) {
  return onnxmicro_test::run_node(om::all_kernels_registry(), op, opset, inputs, attributes);
}

const std::vector<float> kLine = {1.0f, -2.0f, 3.0f, -4.0f, 5.0f};

TEST(LpPool, Opset1TakesAFloatP) {
  // p = 3 over windows of 2 (stride 1) of a 1-D line.
  auto result = run("LpPool", 1, {make(Shape{1, 1, 5}, kLine)},
                    {make_attribute_ints("kernel_shape", {2}), make_attribute_float("p", 3.0f)});
  ASSERT_TRUE(result.status.ok()) << result.status.message();
  const std::vector<float> y = values_of<float>(result.output);
  ASSERT_EQ(y.size(), 4u);
  for (std::size_t i = 0; i < 4; ++i) {
    const double expected = std::cbrt(std::pow(std::fabs(kLine[i]), 3.0) + std::pow(std::fabs(kLine[i + 1]), 3.0));
    EXPECT_NEAR(y[i], expected, 1e-5) << i;
  }
  // The same FLOAT p is a type error from opset 2 on, where p is INT.
  auto typed = run("LpPool", 2, {make(Shape{1, 1, 5}, kLine)},
                   {make_attribute_ints("kernel_shape", {2}), make_attribute_float("p", 3.0f)});
  EXPECT_EQ(typed.status.code(), StatusCode::invalid_model);
  EXPECT_NE(std::string(typed.status.message()).find("attribute 'p' has type FLOAT, expected INT"), std::string::npos)
      << typed.status.message();
}

TEST(LpPool, PaddingAddsNothingAndCeilModeKeepsThePartialWindow) {
  // p = 1, kernel 2, stride 2, pads 1/0, ceil_mode: windows [pad, 1], [-2, 3], [-4, 5] -> 1, 5, 9.
  auto result =
      run("LpPool", 18, {make(Shape{1, 1, 5}, kLine)},
          {make_attribute_ints("kernel_shape", {2}), make_attribute_ints("strides", {2}),
           make_attribute_ints("pads", {1, 0}), make_attribute_int("ceil_mode", 1), make_attribute_int("p", 1)});
  ASSERT_TRUE(result.status.ok()) << result.status.message();
  EXPECT_EQ(values_of<float>(result.output), (std::vector<float>{1.0f, 5.0f, 9.0f}));
  auto early = run("LpPool", 11, {make(Shape{1, 1, 5}, kLine)},
                   {make_attribute_ints("kernel_shape", {2}), make_attribute_ints("dilations", {2})});
  EXPECT_EQ(early.status.code(), StatusCode::invalid_model);
  EXPECT_NE(std::string(early.status.message()).find("'dilations' is only defined from opset 18"), std::string::npos)
      << early.status.message();
}

TEST(GlobalLpPool, DefaultPIsTwoInEveryVersion) {
  for (int opset : {1, 2, 22}) {
    auto result = run("GlobalLpPool", opset, {make(Shape{1, 1, 5}, kLine)});
    ASSERT_TRUE(result.status.ok()) << result.status.message();
    EXPECT_NEAR(values_of<float>(result.output)[0], std::sqrt(55.0), 1e-5) << opset;
  }
  auto p = run("GlobalLpPool", 2, {make(Shape{1, 1, 5}, kLine)}, {make_attribute_int("p", 0)});
  EXPECT_NE(std::string(p.status.message()).find("attribute 'p' is 0, expected a finite value > 0"), std::string::npos)
      << p.status.message();
}

TEST(GlobalMaxPool, NanPropagatesAndFloat64) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  auto result =
      run("GlobalMaxPool", 1, {make(Shape{1, 2, 3}, std::vector<float>{1.0f, nan, 0.5f, -3.0f, -1.0f, -2.0f})});
  ASSERT_TRUE(result.status.ok()) << result.status.message();
  const std::vector<float> y = values_of<float>(result.output);
  EXPECT_EQ(result.output.shape, (Shape{1, 2, 1}));
  EXPECT_TRUE(std::isnan(y[0]));
  EXPECT_EQ(y[1], -1.0f);
  auto wide = run("GlobalMaxPool", 22, {make(Shape{1, 1, 2, 2}, std::vector<double>{-4.0, -2.5, -7.0, -3.0})});
  ASSERT_TRUE(wide.status.ok()) << wide.status.message();
  EXPECT_EQ(values_of<double>(wide.output), (std::vector<double>{-2.5}));
  auto rank = run("GlobalMaxPool", 1, {make(Shape{2, 3}, std::vector<float>(6, 1.0f))});
  EXPECT_NE(std::string(rank.status.message()).find("expected rank >= 3"), std::string::npos) << rank.status.message();
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
