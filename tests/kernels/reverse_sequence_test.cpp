// SPDX-License-Identifier: MIT
// ReverseSequence: batch-major and time-major layouts with inner dims, lengths 0 and max, a length outside
// [0, max_time] as a run-time error naming the sequence_lens element, and axis validation.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "support/kernel_test_prelude.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

using namespace onnxmicro_test::prelude;

NodeResult run(const std::vector<TestTensor>& inputs, const std::vector<ProtoWriter>& attributes) {
  return onnxmicro_test::run_node(om::all_kernels_registry(), "ReverseSequence", 10, inputs, attributes);
}

TEST(ReverseSequence, BatchMajorWithInnerDims) {
  // [batch 2, time 3, 2]: value = 100*b + 10*t + f. Lengths 3 and 0.
  std::vector<std::int64_t> x;
  for (int b = 0; b < 2; ++b)
    for (int t = 0; t < 3; ++t)
      for (int f = 0; f < 2; ++f) x.push_back(100 * b + 10 * t + f);
  NodeResult r = run({make(Shape{2, 3, 2}, x), make(Shape{2}, std::vector<std::int64_t>{3, 0})},
                     {make_attribute_int("batch_axis", 0), make_attribute_int("time_axis", 1)});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(values_of<std::int64_t>(r.output),
            (std::vector<std::int64_t>{20, 21, 10, 11, 0, 1, 100, 101, 110, 111, 120, 121}));
}

TEST(ReverseSequence, TimeMajorDefaults) {
  // [time 3, batch 2]: value = 10*t + b. Lengths 2 and 1.
  NodeResult r = run(
      {make(Shape{3, 2}, std::vector<float>{0, 1, 10, 11, 20, 21}), make(Shape{2}, std::vector<std::int64_t>{2, 1})},
      {});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(values_of<float>(r.output), (std::vector<float>{10, 1, 0, 11, 20, 21}));
}

TEST(ReverseSequence, LengthOutsideTheTimeAxisIsARunTimeError) {
  NodeResult r =
      run({make(Shape{3, 2}, std::vector<float>(6, 0.0f)), make(Shape{2}, std::vector<std::int64_t>{1, 4})}, {});
  EXPECT_EQ(r.status.code(), StatusCode::out_of_range);
  EXPECT_NE(std::string(r.status.message()).find("input 1 (sequence_lens) element [1] = 4 is out of range [0, 3]"),
            std::string::npos)
      << r.status.message();
}

TEST(ReverseSequence, AxesMustBeZeroAndOne) {
  NodeResult r = run({make(Shape{3, 2}, std::vector<float>(6, 0.0f)), make(Shape{2}, std::vector<std::int64_t>{1, 1})},
                     {make_attribute_int("batch_axis", 1), make_attribute_int("time_axis", 1)});
  EXPECT_NE(std::string(r.status.message()).find("expected 0 and 1 in either order"), std::string::npos)
      << r.status.message();
  r = run({make(Shape{3, 2}, std::vector<float>(6, 0.0f)), make(Shape{3}, std::vector<std::int64_t>{1, 1, 1})}, {});
  EXPECT_NE(std::string(r.status.message()).find("expected [2] (the batch size)"), std::string::npos)
      << r.status.message();
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
