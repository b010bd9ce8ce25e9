// SPDX-License-Identifier: MIT
// CenterCropPad beyond the ONNX node suite: odd differences (the extra element is cut from / added at the end, as
// the reference does), crop on one axis and pad on another at once, and errors.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "onnxmicro/kernels/tensor/center_crop_pad.hpp"
#include "support/kernel_test_prelude.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

using namespace onnxmicro_test::prelude;

NodeResult center_crop_pad(const TestTensor& x, const std::vector<std::int64_t>& shape,
                           const std::vector<ProtoWriter>& attributes = {}) {
  TestTensor s = make(Shape{static_cast<std::int64_t>(shape.size())}, shape).named("shape").as_constant();
  return onnxmicro_test::run_node(om::KernelSet<om::kernels::CenterCropPad_18>::registry(), "CenterCropPad", 18, {x, s},
                                  attributes);
}

TEST(CenterCropPad, OddDifferencesFavourTheStart) {
  TestTensor x = make(Shape{4}, std::vector<float>{1, 2, 3, 4});
  NodeResult r = center_crop_pad(x, {1});  // crop 3: one from the start, two from the end
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(values_of<float>(r.output), (std::vector<float>{2}));
  r = center_crop_pad(x, {7});  // pad 3: one zero before, two after
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(values_of<float>(r.output), (std::vector<float>{0, 1, 2, 3, 4, 0, 0}));
}

TEST(CenterCropPad, CropOneAxisPadAnother) {
  TestTensor x = make(Shape{3, 2}, std::vector<std::int32_t>{1, 2, 3, 4, 5, 6});
  NodeResult r = center_crop_pad(x, {4, 1}, {make_attribute_ints("axes", {-1, 0})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.output.shape, (Shape{1, 4}));
  EXPECT_EQ(values_of<std::int32_t>(r.output), (std::vector<std::int32_t>{0, 3, 4, 0}));
}

TEST(CenterCropPad, Errors) {
  TestTensor x = make(Shape{3, 2}, std::vector<std::int32_t>{1, 2, 3, 4, 5, 6});
  NodeResult r = center_crop_pad(x, {4});
  EXPECT_EQ(r.status.code(), StatusCode::invalid_model);
  EXPECT_NE(std::string(r.status.message()).find("expected 2 (one per input axis)"), std::string::npos)
      << r.status.message();
  r = center_crop_pad(x, {-1}, {make_attribute_ints("axes", {0})});
  EXPECT_NE(std::string(r.status.message()).find("is negative"), std::string::npos) << r.status.message();
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
