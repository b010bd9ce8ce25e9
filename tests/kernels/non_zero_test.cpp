// SPDX-License-Identifier: MIT
// NonZero: floats compare as numbers (-0.0 is zero, NaN is not) in float32 and float16, a scalar gives a
// [0, count] result, and X must be known at prepare time (its values decide the output shape).
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "support/kernel_test_prelude.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

using namespace onnxmicro_test::prelude;

NodeResult run(const TestTensor& x) { return onnxmicro_test::run_node(om::all_kernels_registry(), "NonZero", 13, {x}); }

TEST(NonZero, NegativeZeroIsZeroAndNaNIsNot) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  NodeResult r = run(make(Shape{2, 2}, std::vector<float>{-0.0f, nan, 0.0f, 2.5f}).as_constant());
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.output.shape, (Shape{2, 2}));
  EXPECT_EQ(values_of<std::int64_t>(r.output), (std::vector<std::int64_t>{0, 1, 1, 1}));
  using om::float16_t;
  r = run(make(Shape{3}, std::vector<float16_t>{float16_t::from_bits(0x8000), float16_t::from_float(1.0f),
                                                float16_t::from_float(0.0f)})
              .as_constant());
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(values_of<std::int64_t>(r.output), (std::vector<std::int64_t>{1}));
}

TEST(NonZero, ScalarGivesRankZeroRows) {
  NodeResult r = run(make(Shape{}, std::vector<std::int32_t>{7}).as_constant());
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.output.shape, (Shape{0, 1}));
}

TEST(NonZero, InputMustBeKnownAtPrepare) {
  NodeResult r = run(make(Shape{2}, std::vector<std::int32_t>{7, 0}));
  EXPECT_EQ(r.status.code(), StatusCode::unsupported);
  EXPECT_NE(std::string(r.status.message()).find("decides the output shape"), std::string::npos) << r.status.message();
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
