// SPDX-License-Identifier: MIT
// STFT beyond the ONNX node suite: hand-checked frames with and without a window, two-sided output, and the
// frame_length/window consistency error.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/kernel_harness.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

using namespace onnxmicro_test;

void expect_values(const TestTensor& t, const std::vector<float>& expected) {
  const std::vector<float> actual = values_of<float>(t);
  ASSERT_EQ(actual.size(), expected.size());
  for (std::size_t i = 0; i < actual.size(); ++i) EXPECT_NEAR(actual[i], expected[i], 1e-5) << "element " << i;
}
TestTensor scalar(const char* name, std::int64_t v) {
  return make<std::int64_t>(Shape{}, {v}).named(name).as_constant();
}
const TestTensor kSignal = make<float>(Shape{1, 6, 1}, {1, 2, 3, 4, 5, 6});

// Frames [1,2,3,4] and [3,4,5,6]: DFT bins 0..2 are [10, -2+2i, -2] and [18, -2+2i, -2].
TEST(STFTKernel, FramesWithoutWindowOnesided) {
  NodeResult r = run_node(om::all_kernels_registry(), "STFT", 17,
                          {kSignal, scalar("frame_step", 2), kOmitted, scalar("frame_length", 4)});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.output.shape, (Shape{1, 2, 3, 2}));
  expect_values(r.output, {10, 0, -2, 2, -2, 0, 18, 0, -2, 2, -2, 0});
}

// Window [0, 1, 1, 0] leaves [0,2,3,0] -> [5, -3-2i, 1, -3+2i] and [0,4,5,0] -> [9, -5-4i, 1, -5+4i].
TEST(STFTKernel, WindowedTwoSided) {
  NodeResult r = run_node(om::all_kernels_registry(), "STFT", 17,
                          {kSignal, scalar("frame_step", 2), make<float>(Shape{4}, {0, 1, 1, 0}).named("window")},
                          {make_attribute_int("onesided", 0)});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.output.shape, (Shape{1, 2, 4, 2}));
  expect_values(r.output, {5, 0, -3, -2, 1, 0, -3, 2, 9, 0, -5, -4, 1, 0, -5, 4});
}

TEST(STFTKernel, FrameLengthMustMatchTheWindow) {
  NodeResult r = run_node(om::all_kernels_registry(), "STFT", 17,
                          {kSignal, scalar("frame_step", 2), make<float>(Shape{4}, {0, 1, 1, 0}).named("window"),
                           scalar("frame_length", 3)});
  EXPECT_NE(
      std::string(r.status.message()).find("input 3 'frame_length' (frame_length) is 3, but the window has 4 values"),
      std::string::npos)
      << r.status.message();
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
