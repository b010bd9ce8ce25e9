// SPDX-License-Identifier: MIT
// Pad beyond the ONNX node suite: reflect and wrap with pads longer than the axis (numpy bounces/repeats), edge,
// 2-D reflect corners, negative pads (cropping), the opset-2 FLOAT 'value' converted to double and float16, the
// constant_value input read at run time, axes (18+), 'wrap' only from opset 19, and errors.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "onnxmicro/kernels/tensor/pad.hpp"
#include "support/kernel_test_prelude.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

using namespace onnxmicro_test::prelude;

using PadKernels = om::KernelSet<om::kernels::Pad_1, om::kernels::Pad_2, om::kernels::Pad_11, om::kernels::Pad_18,
                                 om::kernels::Pad_19>;

NodeResult pad(int opset, const std::vector<TestTensor>& inputs, const std::vector<ProtoWriter>& attributes = {}) {
  return onnxmicro_test::run_node(PadKernels::registry(), "Pad", opset, inputs, attributes);
}
TestTensor pads(const std::vector<std::int64_t>& v) {
  return make(Shape{static_cast<std::int64_t>(v.size())}, v).named("pads").as_constant();
}
const TestTensor kOneTwoThree = make(Shape{3}, std::vector<std::int32_t>{1, 2, 3});

TEST(Pad, ReflectAndWrapRepeatForPadsLongerThanTheAxis) {
  NodeResult r = pad(19, {kOneTwoThree, pads({5, 6})}, {make_attribute_string("mode", "reflect")});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  // numpy.pad([1, 2, 3], (5, 6), mode='reflect')
  EXPECT_EQ(values_of<std::int32_t>(r.output), (std::vector<std::int32_t>{2, 1, 2, 3, 2, 1, 2, 3, 2, 1, 2, 3, 2, 1}));
  r = pad(19, {kOneTwoThree, pads({4, 5})}, {make_attribute_string("mode", "wrap")});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(values_of<std::int32_t>(r.output), (std::vector<std::int32_t>{3, 1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2}));
  r = pad(19, {kOneTwoThree, pads({2, 1})}, {make_attribute_string("mode", "edge")});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(values_of<std::int32_t>(r.output), (std::vector<std::int32_t>{1, 1, 1, 2, 3, 3}));
}

TEST(Pad, Reflect2DFillsCornersLikeNumpy) {
  TestTensor x = make(Shape{2, 3}, std::vector<std::int64_t>{0, 1, 2, 3, 4, 5});
  NodeResult r = pad(13, {x, pads({1, 2, 1, 2})}, {make_attribute_string("mode", "reflect")});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.output.shape, (Shape{4, 7}));
  EXPECT_EQ(values_of<std::int64_t>(r.output), (std::vector<std::int64_t>{5, 4, 3, 4, 5, 4, 3, 2, 1, 0, 1, 2, 1, 0,
                                                                          5, 4, 3, 4, 5, 4, 3, 2, 1, 0, 1, 2, 1, 0}));
}

TEST(Pad, NegativePadsCrop) {
  TestTensor x = make(Shape{5}, std::vector<float>{1, 2, 3, 4, 5});
  NodeResult r = pad(13, {x, pads({-1, 2})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(values_of<float>(r.output), (std::vector<float>{2, 3, 4, 5, 0, 0}));
}

TEST(Pad, Opset2ValueAttributeIsConvertedToTheDataType) {
  TestTensor x = make(Shape{1}, std::vector<double>{7});
  NodeResult r = pad(2, {x}, {make_attribute_ints("pads", {1, 1}), make_attribute_float("value", 1.5f)});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(values_of<double>(r.output), (std::vector<double>{1.5, 7, 1.5}));
  TestTensor h = make(DataType::float16, Shape{1}, std::vector<std::uint16_t>{0x3C00});
  r = pad(1, {h}, {make_attribute_ints("paddings", {0, 1}), make_attribute_float("value", -2.0f)});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(values_of<std::uint16_t>(r.output), (std::vector<std::uint16_t>{0x3C00, 0xC000}));
}

TEST(Pad, ConstantValueInputIsReadAtRunTime) {
  TestTensor value = make(Shape{}, std::vector<std::int32_t>{-9}).named("v");  // not constant
  NodeResult r = pad(11, {kOneTwoThree, pads({1, 0}), value});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(values_of<std::int32_t>(r.output), (std::vector<std::int32_t>{-9, 1, 2, 3}));
}

TEST(Pad, AxesSelectThePaddedAxesFromOpset18) {
  TestTensor x = make(Shape{2, 2}, std::vector<std::uint8_t>{1, 2, 3, 4});
  TestTensor axes = make(Shape{1}, std::vector<std::int64_t>{-2}).named("axes").as_constant();
  NodeResult r = pad(18, {x, pads({0, 1}), kOmitted, axes});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.output.shape, (Shape{3, 2}));
  EXPECT_EQ(values_of<std::uint8_t>(r.output), (std::vector<std::uint8_t>{1, 2, 3, 4, 0, 0}));
}

TEST(Pad, WrapOnlyFromOpset19AndOtherErrors) {
  NodeResult r = pad(18, {kOneTwoThree, pads({1, 1})}, {make_attribute_string("mode", "wrap")});
  EXPECT_EQ(r.status.code(), StatusCode::invalid_model);
  EXPECT_NE(std::string(r.status.message()).find("\"wrap\""), std::string::npos) << r.status.message();

  r = pad(13, {kOneTwoThree, pads({1, 1, 1})});
  EXPECT_NE(std::string(r.status.message()).find("expected 2"), std::string::npos) << r.status.message();

  TestTensor empty = make(Shape{0}, std::vector<std::int32_t>{});
  r = pad(13, {empty, pads({1, 1})}, {make_attribute_string("mode", "edge")});
  EXPECT_NE(std::string(r.status.message()).find("is empty"), std::string::npos) << r.status.message();

  r = pad(13, {kOneTwoThree, pads({-2, -2})});
  EXPECT_NE(std::string(r.status.message()).find("negative size"), std::string::npos) << r.status.message();
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
