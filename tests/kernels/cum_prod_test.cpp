// SPDX-License-Identifier: MIT
// CumProd beyond the ONNX node suite: every exclusive/reverse combination on both axes of a 2-D input against a
// reference, integer wrapping, an int32 axis, float16, in-place runs, and the axis errors.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "onnxmicro/onnxmicro.hpp"
#include "support/kernel_test_prelude.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

using namespace onnxmicro_test::prelude;

NodeResult cumprod(const TestTensor& x, const TestTensor& axis, bool exclusive, bool reverse, bool in_place = false) {
  return onnxmicro_test::run_node(om::all_kernels_registry(), "CumProd", 26, {x, axis.as_constant()},
                                  {onnxmicro_test::make_attribute_int("exclusive", exclusive ? 1 : 0),
                                   onnxmicro_test::make_attribute_int("reverse", reverse ? 1 : 0)},
                                  in_place);
}

// Running products of a [rows, cols] matrix along `axis`, written out directly.
std::vector<double> reference(const std::vector<double>& x, int rows, int cols, int axis, bool exclusive,
                              bool reverse) {
  std::vector<double> y(x.size());
  const int lines = axis == 0 ? cols : rows, length = axis == 0 ? rows : cols;
  for (int line = 0; line < lines; ++line) {
    double acc = 1;
    for (int j = 0; j < length; ++j) {
      const int k = reverse ? length - 1 - j : j;
      const std::size_t p = static_cast<std::size_t>(axis == 0 ? k * cols + line : line * cols + k);
      if (exclusive) {
        y[p] = acc;
        acc *= x[p];
      } else {
        acc *= x[p];
        y[p] = acc;
      }
    }
  }
  return y;
}

TEST(CumProd, EveryFlagCombinationOnBothAxesMatchesReference) {
  const std::vector<double> x = {1, -2, 3.5, 4, 0.5, 6.25, -7, 8, 1.5, 0.25, 2, -3};
  for (int axis : {0, 1, -1, -2}) {
    for (bool exclusive : {false, true}) {
      for (bool reverse : {false, true}) {
        for (bool in_place : {false, true}) {
          SCOPED_TRACE("axis " + std::to_string(axis) + (exclusive ? " exclusive" : "") + (reverse ? " reverse" : "") +
                       (in_place ? " in place" : ""));
          NodeResult r = cumprod(make<double>({3, 4}, x), make<std::int64_t>({}, {axis}), exclusive, reverse, in_place);
          ASSERT_TRUE(r.status.ok()) << r.status.message();
          EXPECT_EQ(values_of<double>(r.output), reference(x, 3, 4, axis < 0 ? axis + 2 : axis, exclusive, reverse));
        }
      }
    }
  }
}

TEST(CumProd, IntegersWrapAndInt32AxisWorks) {
  NodeResult r = cumprod(make<std::int32_t>({3}, {65536, 65536, 3}), make<std::int32_t>({}, {0}), false, false);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(values_of<std::int32_t>(r.output), (std::vector<std::int32_t>{65536, 0, 0}));  // 2^32 wraps to 0
  r = cumprod(make<std::uint64_t>({2}, {3, 5}), make<std::int32_t>({}, {0}), true, true);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(values_of<std::uint64_t>(r.output), (std::vector<std::uint64_t>{5, 1}));
}

TEST(CumProd, Float16RoundsEachOutputOnce) {
  std::vector<om::float16_t> x;
  for (float v : {1.5f, 2.0f, -0.5f}) x.push_back(om::float16_t::from_float(v));
  NodeResult r = cumprod(make<om::float16_t>({3}, x), make<std::int64_t>({}, {0}), false, false);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  const std::vector<om::float16_t> y = values_of<om::float16_t>(r.output);
  EXPECT_EQ(y[0].to_float(), 1.5f);
  EXPECT_EQ(y[1].to_float(), 3.0f);
  EXPECT_EQ(y[2].to_float(), -1.5f);
}

TEST(CumProd, AxisErrorsAndOpsetBeforeTheOp) {
  NodeResult r = cumprod(make<float>({2}, {1, 2}), make<std::int64_t>({}, {1}), false, false);
  EXPECT_EQ(r.status.code(), StatusCode::invalid_model);
  EXPECT_NE(std::string(r.status.message()).find("expected a value in [-1, 0]"), std::string::npos)
      << r.status.message();
  r = cumprod(make<float>({2}, {1, 2}), make<std::int64_t>({2}, {0, 0}), false, false);
  EXPECT_NE(std::string(r.status.message()).find("(axis) must be a scalar"), std::string::npos) << r.status.message();
  r = onnxmicro_test::run_node(om::all_kernels_registry(), "CumProd", 25,
                               {make<float>({2}, {1, 2}), make<std::int64_t>({}, {0}).as_constant()});
  EXPECT_EQ(r.status.code(), StatusCode::unsupported);  // no CumProd before opset 26
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
