// SPDX-License-Identifier: MIT
// DynamicQuantizeLinear beyond the ONNX node suite: a range whose zero point lands just below .5 in float32, an
// empty input, and the dtype check. Expected values from the ONNX reference's float32 arithmetic, by hand.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "onnxmicro/onnxmicro.hpp"
#include "support/kernel_harness.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

namespace om = onnxmicro;
using om::Shape;
using om::StatusCode;
using onnxmicro_test::make;
using onnxmicro_test::values_of;

TEST(DynamicQuantizeLinearTest, ComputesInFloat32) {
  // scale = 2 / 255 (float32 0.007843138); zero point = 1 / scale = 127.49999 -> 127; y = round(x / scale) + 127.
  onnxmicro_test::KernelHarness h(om::all_kernels_registry(), "DynamicQuantizeLinear", 11,
                                  {make(Shape{3}, std::vector<float>{-1.f, 1.f, 0.5f})});
  ASSERT_TRUE(h.prepare_status.ok()) << h.prepare_status.message();
  onnxmicro_test::TestTensor y;
  ASSERT_TRUE(h.run(y).ok());  // the harness binds output 0 only; the others are absent
  EXPECT_EQ(values_of<std::uint8_t>(y), (std::vector<std::uint8_t>{0, 254, 191}));
}

TEST(DynamicQuantizeLinearTest, EmptyInput) {
  onnxmicro_test::NodeResult r = onnxmicro_test::run_node(om::all_kernels_registry(), "DynamicQuantizeLinear", 11,
                                                          {make(Shape{0, 3}, std::vector<float>{})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.output.shape, (Shape{0, 3}));
}

TEST(DynamicQuantizeLinearTest, OnlyFloatInput) {
  onnxmicro_test::NodeResult r = onnxmicro_test::run_node(om::all_kernels_registry(), "DynamicQuantizeLinear", 11,
                                                          {make(Shape{2}, std::vector<double>{1.0, 2.0})});
  EXPECT_EQ(r.status.code(), StatusCode::unsupported);
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
