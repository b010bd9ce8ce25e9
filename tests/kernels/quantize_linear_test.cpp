// SPDX-License-Identifier: MIT
// QuantizeLinear beyond the ONNX node suite: rounding half to even and saturation, NaN and zero scales, packed
// int4 output (nibble order and padding), version selection, and the errors for scale/zero-point shapes, dtypes
// and attributes. Expected values are worked out by hand from y = saturate(round(x / scale) + zero_point).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "onnxmicro/onnxmicro.hpp"
#include "support/kernel_harness.hpp"
#include "support/proto_writer.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

namespace om = onnxmicro;
using om::DataType;
using om::Shape;
using om::StatusCode;
using onnxmicro_test::kOmitted;
using onnxmicro_test::make;
using onnxmicro_test::make_attribute_int;
using onnxmicro_test::NodeResult;
using onnxmicro_test::ProtoWriter;
using onnxmicro_test::TestTensor;
using onnxmicro_test::values_of;

NodeResult quantize(int opset, const std::vector<TestTensor>& inputs, const std::vector<ProtoWriter>& attributes = {}) {
  return onnxmicro_test::run_node(om::all_kernels_registry(), "QuantizeLinear", opset, inputs, attributes);
}

TEST(QuantizeLinearTest, RoundsHalfToEvenAndSaturates) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  NodeResult r = quantize(
      13, {make(Shape{9}, std::vector<float>{0.5f, 1.5f, 2.5f, -0.5f, -1.5f, 300.f, -300.f, nan, inf}),
           make(Shape{}, std::vector<float>{1.0f}).named("S"), make(Shape{}, std::vector<std::int8_t>{0}).named("Z")});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.output.dtype, DataType::int8);
  EXPECT_EQ(values_of<std::int8_t>(r.output), (std::vector<std::int8_t>{0, 2, 2, 0, -2, 127, -128, 0, 127}));
}

TEST(QuantizeLinearTest, DefaultsToUint8AndAddsTheZeroPointBeforeSaturating) {
  NodeResult r = quantize(10, {make(Shape{4}, std::vector<float>{-10.f, 1.f, 250.f, 3.f}),
                               make(Shape{}, std::vector<float>{2.0f}).named("S")});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.output.dtype, DataType::uint8);
  EXPECT_EQ(values_of<std::uint8_t>(r.output), (std::vector<std::uint8_t>{0, 0, 125, 2}));  // 0.5 -> 0, 1.5 -> 2
  r = quantize(10, {make(Shape{3}, std::vector<float>{-10.f, 1.f, 250.f}), make(Shape{}, std::vector<float>{2.0f}),
                    make(Shape{}, std::vector<std::uint8_t>{130})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(values_of<std::uint8_t>(r.output), (std::vector<std::uint8_t>{125, 130, 255}));
}

TEST(QuantizeLinearTest, PacksInt4LowNibbleFirstAndClearsPadding) {
  // 3 values: -1 -> 0xF, 7 -> 0x7 (saturated from 20), -8 (saturated from -20) -> 0x8.
  NodeResult r = quantize(
      21, {make(Shape{3}, std::vector<float>{-1.f, 20.f, -20.f}), make(Shape{}, std::vector<float>{1.0f}).named("S"),
           make(DataType::int4, Shape{}, std::vector<std::uint8_t>{0}).named("Z")});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.output.dtype, DataType::int4);
  EXPECT_EQ(values_of<std::uint8_t>(r.output), (std::vector<std::uint8_t>{0x7F, 0x08}));
}

TEST(QuantizeLinearTest, PerAxisWithNegativeAxis) {
  // x [2, 2], axis -1: column c uses scale[c] and zero_point[c].
  NodeResult r = quantize(13,
                          {make(Shape{2, 2}, std::vector<float>{1.f, 1.f, 4.f, 4.f}),
                           make(Shape{2}, std::vector<float>{1.0f, 4.0f}).named("S"),
                           make(Shape{2}, std::vector<std::uint8_t>{10, 20}).named("Z")},
                          {make_attribute_int("axis", -1)});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(values_of<std::uint8_t>(r.output), (std::vector<std::uint8_t>{11, 20, 14, 21}));
}

TEST(QuantizeLinearTest, BlockedWithAShortLastBlock) {
  // x [1, 5], block 2 along axis 1: blocks {0,1}, {2,3}, {4}.
  NodeResult r = quantize(21,
                          {make(Shape{1, 5}, std::vector<float>{2.f, 4.f, 2.f, 4.f, 9.f}),
                           make(Shape{1, 3}, std::vector<float>{2.0f, 1.0f, 3.0f}).named("S")},
                          {make_attribute_int("axis", 1), make_attribute_int("block_size", 2)});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(values_of<std::uint8_t>(r.output), (std::vector<std::uint8_t>{1, 2, 2, 4, 3}));
}

TEST(QuantizeLinearTest, ZeroPointShapeMustMatchScale) {
  NodeResult r = quantize(
      13, {make(Shape{2, 3}, std::vector<float>(6, 1.f)), make(Shape{3}, std::vector<float>{1.f, 1.f, 1.f}).named("S"),
           make(Shape{2}, std::vector<std::uint8_t>{0, 0}).named("Z")});
  EXPECT_EQ(r.status.code(), StatusCode::invalid_model);
  EXPECT_NE(std::string(r.status.message()).find("input 2 'Z' (zero point) has shape [2], expected [3]"),
            std::string::npos)
      << r.status.message();
}

TEST(QuantizeLinearTest, PerAxisScaleLengthMustMatchTheAxis) {
  NodeResult r = quantize(
      13, {make(Shape{2, 3}, std::vector<float>(6, 1.f)), make(Shape{2}, std::vector<float>{1.f, 1.f}).named("S")});
  EXPECT_EQ(r.status.code(), StatusCode::invalid_model);
  EXPECT_NE(std::string(r.status.message()).find("input 1 'S' (scale) has 2 values, expected 3"), std::string::npos)
      << r.status.message();
}

TEST(QuantizeLinearTest, PerAxisScalesNeedOpset13) {
  NodeResult r = quantize(10, {make(Shape{2, 3}, std::vector<float>(6, 1.f)),
                               make(Shape{3}, std::vector<float>{1.f, 1.f, 1.f}).named("S")});
  EXPECT_EQ(r.status.code(), StatusCode::invalid_model);
  EXPECT_NE(std::string(r.status.message()).find("per-axis scales need opset 13"), std::string::npos)
      << r.status.message();
}

TEST(QuantizeLinearTest, BlockSizeMustGiveTheScaleShape) {
  NodeResult r = quantize(
      21,
      {make(Shape{1, 5}, std::vector<float>(5, 1.f)), make(Shape{1, 3}, std::vector<float>{1.f, 1.f, 1.f}).named("S")},
      {make_attribute_int("axis", 1), make_attribute_int("block_size", 4)});
  EXPECT_EQ(r.status.code(), StatusCode::invalid_model);
  EXPECT_NE(std::string(r.status.message()).find("needs 2 blocks, but input 1 'S' has 3"), std::string::npos)
      << r.status.message();
}

TEST(QuantizeLinearTest, OutputDtypeMustAgreeWithTheZeroPoint) {
  NodeResult r = quantize(21,
                          {make(Shape{2}, std::vector<float>{1.f, 2.f}), make(Shape{}, std::vector<float>{1.f}),
                           make(Shape{}, std::vector<std::uint8_t>{0}).named("Z")},
                          {make_attribute_int("output_dtype", static_cast<int>(DataType::int8))});
  EXPECT_EQ(r.status.code(), StatusCode::invalid_model);
  EXPECT_NE(std::string(r.status.message()).find("attribute 'output_dtype' is int8 but input 2 'Z'"), std::string::npos)
      << r.status.message();
}

TEST(QuantizeLinearTest, NewerOutputDtypesNeedTheirOpset) {
  NodeResult r = quantize(19, {make(Shape{2}, std::vector<float>{1.f, 2.f}), make(Shape{}, std::vector<float>{1.f}),
                               make(Shape{}, std::vector<std::int16_t>{0}).named("Z")});
  EXPECT_EQ(r.status.code(), StatusCode::unsupported);
  EXPECT_NE(std::string(r.status.message()).find("int16"), std::string::npos) << r.status.message();
  EXPECT_NE(std::string(r.status.message()).find("needs opset 21"), std::string::npos) << r.status.message();
}

TEST(QuantizeLinearTest, ScaleDtypeFollowsTheVersion) {
  // Opset 19/21: y_scale has x's dtype; opset 23 lets them differ.
  const std::vector<TestTensor> inputs = {
      make(Shape{2}, std::vector<float>{1.f, 3.f}),
      make(DataType::float16, Shape{}, std::vector<std::uint16_t>{0x4000}).named("S")};
  NodeResult r = quantize(21, inputs);
  EXPECT_EQ(r.status.code(), StatusCode::invalid_model);
  EXPECT_NE(std::string(r.status.message()).find("input 1 'S' (y_scale, same dtype as x) has dtype float16"),
            std::string::npos)
      << r.status.message();
  r = quantize(23, inputs);  // 1 / 2 = 0.5 -> 0, 3 / 2 = 1.5 -> 2
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(values_of<std::uint8_t>(r.output), (std::vector<std::uint8_t>{0, 2}));
}

TEST(QuantizeLinearTest, EveryOpsetResolves) {
  const om::KernelRegistry registry = om::all_kernels_registry();
  EXPECT_EQ(om::find_kernel(registry, "", "QuantizeLinear", 9), nullptr);
  for (int opset : {10, 13, 19, 21, 23, 24, 25, 28}) {
    const om::KernelEntry* entry = om::find_kernel(registry, "", "QuantizeLinear", opset);
    ASSERT_NE(entry, nullptr) << opset;
    EXPECT_LE(entry->since_version, opset);
  }
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
