// SPDX-License-Identifier: MIT
// Det beyond the ONNX node suite: pivoting (a zero leading entry and row swaps change the sign), singular
// matrices, batches, 1x1 and 0x0 matrices, float16 and double, the opset that admits bfloat16, and shape errors.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "onnxmicro/onnxmicro.hpp"
#include "support/kernel_test_prelude.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

using namespace onnxmicro_test::prelude;

NodeResult det(const TestTensor& x, int opset = 11) {
  return onnxmicro_test::run_node(om::all_kernels_registry(), "Det", opset, {x});
}

TEST(Det, PivotingSingularAndBatchesMatchCofactorExpansion) {
  // Batch of three 3x3 matrices: one needing a row swap (zero leading entry), one singular, one generic.
  const std::vector<double> x = {0, 2,  1, 3,  1, 4,  5, 6,  0,   // 0*(0-24) - 2*(0-20) + 1*(18-5) = 53
                                 1, 2,  3, 2,  4, 6,  7, 8,  9,   // row 2 = 2 * row 1: 0
                                 2, -1, 0, -1, 2, -1, 0, -1, 2};  // 2*(4-1) + 1*(-2-0) = 4
  NodeResult r = det(make<double>({3, 3, 3}, x));
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.output.shape, (Shape{3}));
  const std::vector<double> y = values_of<double>(r.output);
  EXPECT_NEAR(y[0], 53, 1e-12);
  EXPECT_NEAR(y[1], 0, 1e-12);
  EXPECT_NEAR(y[2], 4, 1e-12);
  // A permutation matrix: one swap, determinant -1.
  r = det(make<float>({2, 2}, {0, 1, 1, 0}));
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.output.shape.rank(), 0);
  EXPECT_EQ(values_of<float>(r.output), (std::vector<float>{-1}));
}

TEST(Det, OneByOneAndEmptyMatrices) {
  NodeResult r = det(make<float>({2, 1, 1}, {-3, 7}));
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(values_of<float>(r.output), (std::vector<float>{-3, 7}));
  r = det(make<float>({2, 0, 0}, {}));  // numpy: the determinant of a 0x0 matrix is 1
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(values_of<float>(r.output), (std::vector<float>{1, 1}));
}

TEST(Det, HalfPrecisionAndTheOpsetThatAdmitsBfloat16) {
  const std::vector<float> x = {4, 3, 6, 3};  // 12 - 18 = -6
  std::vector<om::float16_t> half;
  std::vector<om::bfloat16_t> brain;
  for (float v : x) {
    half.push_back(om::float16_t::from_float(v));
    brain.push_back(om::bfloat16_t::from_float(v));
  }
  NodeResult r = det(make<om::float16_t>({2, 2}, half));
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(values_of<om::float16_t>(r.output)[0].to_float(), -6.0f);
  r = det(make<om::bfloat16_t>({2, 2}, brain));
  EXPECT_EQ(r.status.code(), StatusCode::unsupported);
  r = det(make<om::bfloat16_t>({2, 2}, brain), 22);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(values_of<om::bfloat16_t>(r.output)[0].to_float(), -6.0f);
}

TEST(Det, NonSquareInputIsRejected) {
  NodeResult r = det(make<float>({2, 3}, {1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(r.status.code(), StatusCode::invalid_model);
  EXPECT_NE(std::string(r.status.message()).find("must be square matrices [*, M, M], got shape [2,3]"),
            std::string::npos)
      << r.status.message();
  r = det(make<float>({3}, {1, 2, 3}));
  EXPECT_EQ(r.status.code(), StatusCode::invalid_model);
  r = det(make<std::int32_t>({1, 1}, {1}));
  EXPECT_EQ(r.status.code(), StatusCode::unsupported);
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
