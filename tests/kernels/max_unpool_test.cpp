// SPDX-License-Identifier: MIT
// MaxUnpool, Col2Im and DeformConv beyond the ONNX node suite: MaxUnpool's run-time index check and an
// output_shape smaller than the inferred one (cropped), Col2Im on integers and its shape checks, and
// DeformConv with zero offsets equalling a plain convolution (and with a half-pixel offset interpolating).
#include <gtest/gtest.h>

#include <cstdint>
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

TestTensor ints(Shape shape, std::vector<std::int64_t> values, const char* name) {
  return make(shape, values).named(name);
}

TEST(MaxUnpool, OutputShapeSmallerThanInferredCrops) {
  // Inferred 4x4; indices 0, 3, 12, 15 are its corners; a 3x3 output keeps only index 0.
  auto result = run("MaxUnpool", 11,
                    {make(Shape{1, 1, 2, 2}, std::vector<float>{1, 2, 3, 4}),
                     ints(Shape{1, 1, 2, 2}, {0, 3, 12, 15}, "I"), ints(Shape{4}, {1, 1, 3, 3}, "shape").as_constant()},
                    {make_attribute_ints("kernel_shape", {2, 2}), make_attribute_ints("strides", {2, 2})});
  ASSERT_TRUE(result.status.ok()) << result.status.message();
  EXPECT_EQ(result.output.shape, (Shape{1, 1, 3, 3}));
  EXPECT_EQ(values_of<float>(result.output), (std::vector<float>{1, 0, 0, 0, 0, 0, 0, 0, 0}));
}

TEST(MaxUnpool, IndexOutOfRangeFailsAtRun) {
  auto result =
      run("MaxUnpool", 9, {make(Shape{1, 1, 1, 2}, std::vector<float>{1, 2}), ints(Shape{1, 1, 1, 2}, {0, 4}, "I")},
          {make_attribute_ints("kernel_shape", {1, 2}), make_attribute_ints("strides", {1, 2})});
  EXPECT_EQ(result.status.code(), StatusCode::invalid_argument);
  EXPECT_NE(std::string(result.status.message()).find("element 1 is 4, expected a value in [0, 4)"), std::string::npos)
      << result.status.message();
}

TEST(MaxUnpool, OutputShapeMustBeConstant) {
  auto result = run("MaxUnpool", 11,
                    {make(Shape{1, 1, 1, 1}, std::vector<float>{1}), ints(Shape{1, 1, 1, 1}, {0}, "I"),
                     ints(Shape{4}, {1, 1, 2, 2}, "shape")},
                    {make_attribute_ints("kernel_shape", {2, 2}), make_attribute_ints("strides", {2, 2})});
  EXPECT_EQ(result.status.code(), StatusCode::unsupported);
  EXPECT_NE(std::string(result.status.message()).find("must be known at prepare time"), std::string::npos)
      << result.status.message();
}

TEST(Col2Im, SumsOverlappingBlocksOfIntegers) {
  // 1-D image of 4, block 2, stride 1: 3 positions; column rows are taps 0 and 1.
  auto result =
      run("Col2Im", 18,
          {make(Shape{1, 2, 3}, std::vector<std::int32_t>{1, 2, 3, 10, 20, 30}),
           ints(Shape{1}, {4}, "image_shape").as_constant(), ints(Shape{1}, {2}, "block_shape").as_constant()});
  ASSERT_TRUE(result.status.ok()) << result.status.message();
  EXPECT_EQ(result.output.dtype, DataType::int32);
  EXPECT_EQ(values_of<std::int32_t>(result.output), (std::vector<std::int32_t>{1, 12, 23, 30}));
  auto length =
      run("Col2Im", 18,
          {make(Shape{1, 2, 4}, std::vector<float>(8, 1.0f)), ints(Shape{1}, {4}, "image_shape").as_constant(),
           ints(Shape{1}, {2}, "block_shape").as_constant()});
  EXPECT_EQ(length.status.code(), StatusCode::invalid_model);
  EXPECT_NE(std::string(length.status.message()).find("dim 2 = the number of block positions 3"), std::string::npos)
      << length.status.message();
}

TEST(DeformConv, ZeroOffsetsAreAConvolutionAndHalfPixelsInterpolate) {
  const std::vector<float> x = {1, 2, 3, 4, 5, 6, 7, 8, 9};  // 3x3
  const std::vector<float> w = {1, 0, 0, 2};                 // 2x2: y = x[i][j] + 2 x[i+1][j+1]
  auto plain = run("DeformConv", 19,
                   {make(Shape{1, 1, 3, 3}, x), make(Shape{1, 1, 2, 2}, w).named("W"),
                    make(Shape{1, 8, 2, 2}, std::vector<float>(32, 0.0f)).named("offset")});
  ASSERT_TRUE(plain.status.ok()) << plain.status.message();
  EXPECT_EQ(values_of<float>(plain.output), (std::vector<float>{11, 14, 20, 23}));
  // Shift every tap half a pixel right: the sample is the mean of two neighbours (0 beyond the image).
  std::vector<float> offsets(32, 0.0f);
  for (int tap = 0; tap < 4; ++tap)
    for (int o = 0; o < 4; ++o) offsets[static_cast<std::size_t>((tap * 2 + 1) * 4 + o)] = 0.5f;
  auto shifted = run("DeformConv", 22,
                     {make(Shape{1, 1, 3, 3}, x), make(Shape{1, 1, 2, 2}, w).named("W"),
                      make(Shape{1, 8, 2, 2}, offsets).named("offset")});
  ASSERT_TRUE(shifted.status.ok()) << shifted.status.message();
  // Position (0,0): x(0,0.5) = 1.5, x(1,1.5) = 5.5 -> 12.5; (0,1): 2.5 + 2 * x(1,2.5) = 2.5 + 2 * 3 = 8.5.
  const std::vector<float> y = values_of<float>(shifted.output);
  EXPECT_NEAR(y[0], 12.5f, 1e-6);
  EXPECT_NEAR(y[1], 8.5f, 1e-6);
  auto shape = run("DeformConv", 19,
                   {make(Shape{1, 1, 3, 3}, x), make(Shape{1, 1, 2, 2}, w).named("W"),
                    make(Shape{1, 4, 2, 2}, std::vector<float>(16, 0.0f)).named("offset")});
  EXPECT_NE(std::string(shape.status.message()).find("(offset) has shape [1,4,2,2], expected [1,8,2,2]"),
            std::string::npos)
      << shape.status.message();
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
