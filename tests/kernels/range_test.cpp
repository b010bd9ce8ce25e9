// SPDX-License-Identifier: MIT
// Range beyond the ONNX node suite: negative integer deltas with a remainder, float counts rounded up (values
// from numpy.arange), empty results, float16 only from opset 27 and its 'stash_type', and errors.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "onnxmicro/kernels/generator/range.hpp"
#include "support/kernel_test_prelude.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

using namespace onnxmicro_test::prelude;

template <typename T>
NodeResult range(int opset, T start, T limit, T delta, const std::vector<ProtoWriter>& attributes = {},
                 DataType dtype = om::dtype_of<T>::value) {
  const auto scalar = [&](T v, const char* name) {
    return make(dtype, Shape{}, std::vector<T>{v}).named(name).as_constant();
  };
  return onnxmicro_test::run_node(om::KernelSet<om::kernels::Range_11, om::kernels::Range_27>::registry(), "Range",
                                  opset, {scalar(start, "start"), scalar(limit, "limit"), scalar(delta, "delta")},
                                  attributes);
}

TEST(Range, IntegersWithNegativeDeltaAndRemainder) {
  NodeResult r = range<std::int16_t>(11, 10, -3, -4);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(values_of<std::int16_t>(r.output), (std::vector<std::int16_t>{10, 6, 2, -2}));  // numpy.arange
  r = range<std::int64_t>(11, 5, 5, 1);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.output.shape, (Shape{0}));
  r = range<std::int32_t>(11, 0, 10, -1);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.output.shape, (Shape{0}));
}

TEST(Range, FloatCountRoundsUp) {
  NodeResult r = range<float>(11, 0.5f, 2.0f, 0.3f);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  // numpy.arange of the float32 inputs in double, then float32 (1.4000000953674316, not 1.4f, as 4th value)
  EXPECT_EQ(values_of<std::uint32_t>(r.output),
            (std::vector<std::uint32_t>{0x3f000000, 0x3f4ccccd, 0x3f8ccccd, 0x3fb33334, 0x3fd9999a}));
}

TEST(Range, HalfOnlyFromOpset27WithStashType) {
  // float16 1.0, 3.0, 0.5 -> 1.0, 1.5, 2.0, 2.5
  const std::vector<std::uint16_t> expected = {0x3C00, 0x3E00, 0x4000, 0x4100};
  NodeResult r = range<std::uint16_t>(11, 0x3C00, 0x4200, 0x3800, {}, DataType::float16);
  EXPECT_EQ(r.status.code(), StatusCode::unsupported);
  r = range<std::uint16_t>(27, 0x3C00, 0x4200, 0x3800, {}, DataType::float16);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(values_of<std::uint16_t>(r.output), expected);
  r = range<std::uint16_t>(27, 0x3C00, 0x4200, 0x3800, {make_attribute_int("stash_type", 11)}, DataType::float16);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(values_of<std::uint16_t>(r.output), expected);
  r = range<std::uint16_t>(27, 0x3C00, 0x4200, 0x3800, {make_attribute_int("stash_type", 10)}, DataType::float16);
  EXPECT_NE(std::string(r.status.message()).find("'stash_type' is 10"), std::string::npos) << r.status.message();
}

TEST(Range, ZeroDeltaIsAnError) {
  NodeResult r = range<std::int32_t>(11, 0, 3, 0);
  EXPECT_EQ(r.status.code(), StatusCode::invalid_model);
  EXPECT_NE(std::string(r.status.message()).find("(delta) is 0"), std::string::npos) << r.status.message();
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
