// SPDX-License-Identifier: MIT
// Trilu beyond the ONNX node suite: non-square matrices with k past either side (values from numpy.triu/tril),
// batches, a k input that is not constant (read at run time), in-place runs, and errors.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "onnxmicro/kernels/tensor/trilu.hpp"
#include "support/kernel_test_prelude.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

using namespace onnxmicro_test::prelude;

NodeResult trilu(const TestTensor& x, std::int64_t k, bool upper, bool in_place = false) {
  TestTensor k_input = make(Shape{}, std::vector<std::int64_t>{k}).named("k");  // not constant
  return onnxmicro_test::run_node(om::KernelSet<om::kernels::Trilu_14>::registry(), "Trilu", 14, {x, k_input},
                                  {make_attribute_int("upper", upper ? 1 : 0)}, in_place);
}
TestTensor iota(Shape shape) {
  std::vector<std::int32_t> v(static_cast<std::size_t>(shape.element_count()));
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<std::int32_t>(i);
  return make(shape, v);
}

TEST(Trilu, NonSquareWithOffsetsLikeNumpy) {
  for (bool in_place : {false, true}) {
    NodeResult r = trilu(iota(Shape{3, 4}), -1, false, in_place);
    ASSERT_TRUE(r.status.ok()) << r.status.message();
    EXPECT_EQ(values_of<std::int32_t>(r.output), (std::vector<std::int32_t>{0, 0, 0, 0, 4, 0, 0, 0, 8, 9, 0, 0}));
    r = trilu(iota(Shape{3, 4}), 2, true, in_place);
    ASSERT_TRUE(r.status.ok()) << r.status.message();
    EXPECT_EQ(values_of<std::int32_t>(r.output), (std::vector<std::int32_t>{0, 0, 2, 3, 0, 0, 0, 7, 0, 0, 0, 0}));
  }
  NodeResult r = trilu(iota(Shape{2, 2}), -5, true);  // every element kept
  EXPECT_EQ(values_of<std::int32_t>(r.output), (std::vector<std::int32_t>{0, 1, 2, 3}));
  r = trilu(iota(Shape{2, 2}), 5, true);  // none kept
  EXPECT_EQ(values_of<std::int32_t>(r.output), (std::vector<std::int32_t>{0, 0, 0, 0}));
}

TEST(Trilu, BatchesAndDefaultK) {
  NodeResult r = onnxmicro_test::run_node(om::KernelSet<om::kernels::Trilu_14>::registry(), "Trilu", 14,
                                          {iota(Shape{2, 2, 2}), kOmitted});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(values_of<std::int32_t>(r.output), (std::vector<std::int32_t>{0, 1, 0, 3, 4, 5, 0, 7}));
}

TEST(Trilu, NeedsRankTwo) {
  NodeResult r = trilu(iota(Shape{3}), 0, true);
  EXPECT_EQ(r.status.code(), StatusCode::invalid_model);
  EXPECT_NE(std::string(r.status.message()).find("rank >= 2"), std::string::npos) << r.status.message();
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
