// SPDX-License-Identifier: MIT
// DequantizeLinear beyond the ONNX node suite: packed int4 input (sign extension, nibble order), int32 inputs
// beyond float32's exact range, output_dtype, float8e8m0 scales, version selection, and the errors for zero-point
// dtypes and output dtypes. Expected values are worked out by hand from y = (x - zero_point) * scale.
#include <gtest/gtest.h>

#include <cstdint>
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
using onnxmicro_test::make;
using onnxmicro_test::make_attribute_int;
using onnxmicro_test::NodeResult;
using onnxmicro_test::ProtoWriter;
using onnxmicro_test::TestTensor;
using onnxmicro_test::values_of;

NodeResult dequantize(int opset, const std::vector<TestTensor>& inputs,
                      const std::vector<ProtoWriter>& attributes = {}) {
  return onnxmicro_test::run_node(om::all_kernels_registry(), "DequantizeLinear", opset, inputs, attributes);
}

TEST(DequantizeLinearTest, UnpacksInt4WithSignExtension) {
  // Bytes 0x8F, 0x07: elements 0xF (-1), 0x8 (-8), 0x7 (7); zero point -1.
  NodeResult r = dequantize(
      21, {make(DataType::int4, Shape{3}, std::vector<std::uint8_t>{0x8F, 0x07}),
           make(Shape{}, std::vector<float>{0.5f}), make(DataType::int4, Shape{}, std::vector<std::uint8_t>{0x0F})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(values_of<float>(r.output), (std::vector<float>{0.0f, -3.5f, 4.0f}));
}

TEST(DequantizeLinearTest, Int32WithZeroPointIsExactInDouble) {
  // numpy: x.astype(float32) - zero_point in float64: 2^30 + 1 rounds to 2^30 in float32 first.
  NodeResult r = dequantize(
      13, {make(Shape{2}, std::vector<std::int32_t>{(1 << 30) + 1, 3}), make(Shape{}, std::vector<float>{1.0f}),
           make(Shape{}, std::vector<std::int32_t>{(1 << 30) - 64})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(values_of<float>(r.output), (std::vector<float>{64.0f, 3.0f - static_cast<float>((1 << 30) - 64)}));
}

TEST(DequantizeLinearTest, OutputDtypeRoundsOnce) {
  // (255 - 0) * 0.1f = 25.5 (float32: 25.50000037...) -> float16 25.5 (0x4E60).
  NodeResult r =
      dequantize(23, {make(Shape{1}, std::vector<std::uint8_t>{255}), make(Shape{}, std::vector<float>{0.1f})},
                 {make_attribute_int("output_dtype", static_cast<int>(DataType::float16))});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.output.dtype, DataType::float16);
  EXPECT_EQ(values_of<std::uint16_t>(r.output), (std::vector<std::uint16_t>{0x4E60}));
}

TEST(DequantizeLinearTest, E8M0ScalesNeedAnOutputDtype) {
  // 0x80 is 2^(128-127) = 2.
  const std::vector<TestTensor> inputs = {
      make(Shape{2}, std::vector<std::int8_t>{3, -4}),
      make(DataType::float8e8m0, Shape{}, std::vector<std::uint8_t>{0x80}).named("S")};
  NodeResult r = dequantize(24, inputs);
  EXPECT_EQ(r.status.code(), StatusCode::invalid_model);
  EXPECT_NE(std::string(r.status.message()).find("set 'output_dtype' for float8e8m0 scales"), std::string::npos)
      << r.status.message();
  r = dequantize(24, inputs, {make_attribute_int("output_dtype", static_cast<int>(DataType::float32))});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(values_of<float>(r.output), (std::vector<float>{6.0f, -8.0f}));
  r = dequantize(23, inputs, {make_attribute_int("output_dtype", static_cast<int>(DataType::float32))});
  EXPECT_EQ(r.status.code(), StatusCode::invalid_model) << "float8e8m0 scales need opset 24";
}

TEST(DequantizeLinearTest, ZeroPointMustHaveTheDtypeOfX) {
  NodeResult r =
      dequantize(19, {make(Shape{2}, std::vector<std::int8_t>{3, -4}), make(Shape{}, std::vector<float>{1.f}),
                      make(Shape{}, std::vector<std::uint8_t>{0}).named("Z")});
  EXPECT_EQ(r.status.code(), StatusCode::invalid_model);
  EXPECT_NE(std::string(r.status.message()).find("input 2 'Z' (x_zero_point, same dtype as x) has dtype uint8"),
            std::string::npos)
      << r.status.message();
}

TEST(DequantizeLinearTest, NewerInputDtypesNeedTheirOpset) {
  NodeResult r = dequantize(21, {make(DataType::float4e2m1, Shape{2}, std::vector<std::uint8_t>{0x21}),
                                 make(Shape{}, std::vector<float>{1.f})});
  EXPECT_EQ(r.status.code(), StatusCode::unsupported);
  EXPECT_NE(std::string(r.status.message()).find("needs opset 23"), std::string::npos) << r.status.message();
  r = dequantize(23, {make(DataType::float4e2m1, Shape{2}, std::vector<std::uint8_t>{0x21}),
                      make(Shape{}, std::vector<float>{1.f})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(values_of<float>(r.output), (std::vector<float>{0.5f, 1.0f}));
}

TEST(DequantizeLinearTest, EveryOpsetResolves) {
  const om::KernelRegistry registry = om::all_kernels_registry();
  EXPECT_EQ(om::find_kernel(registry, "", "DequantizeLinear", 9), nullptr);
  for (int opset : {10, 13, 19, 21, 23, 24, 25, 28}) {
    EXPECT_NE(om::find_kernel(registry, "", "DequantizeLinear", opset), nullptr) << opset;
  }
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
