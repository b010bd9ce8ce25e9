// SPDX-License-Identifier: MIT
// MatMulInteger beyond the ONNX node suite: per-row zero points of A and per-column ones of B (the spec's
// layouts), batch broadcasting, and shape/dtype errors. Expected values worked out by hand.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "onnxmicro/onnxmicro.hpp"
#include "support/kernel_harness.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

namespace om = onnxmicro;
using om::Shape;
using om::StatusCode;
using onnxmicro_test::kOmitted;
using onnxmicro_test::make;
using onnxmicro_test::NodeResult;
using onnxmicro_test::TestTensor;
using onnxmicro_test::values_of;

NodeResult matmul_integer(const std::vector<TestTensor>& inputs) {
  return onnxmicro_test::run_node(om::all_kernels_registry(), "MatMulInteger", 10, inputs);
}

TEST(MatMulIntegerTest, PerRowAndPerColumnZeroPoints) {
  // A - [1, 2] per row = [[4, 4], [3, 3]]; B - [0, 1] per column = [[1, 0], [1, 1]].
  NodeResult r =
      matmul_integer({make(Shape{2, 2}, std::vector<std::uint8_t>{5, 5, 5, 5}),
                      make(Shape{2, 2}, std::vector<std::int8_t>{1, 1, 1, 2}),
                      make(Shape{2}, std::vector<std::uint8_t>{1, 2}), make(Shape{2}, std::vector<std::int8_t>{0, 1})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(values_of<std::int32_t>(r.output), (std::vector<std::int32_t>{8, 4, 6, 3}));
}

TEST(MatMulIntegerTest, BroadcastsBatchesAndPerBatchRowZeroPoints) {
  // A [2, 1, 2] with zero points [2, 1, 1] (one per batch and row); B [2, 1] shared.
  NodeResult r = matmul_integer({make(Shape{2, 1, 2}, std::vector<std::int8_t>{3, 4, -1, 0}),
                                 make(Shape{2, 1}, std::vector<std::int8_t>{1, -1}),
                                 make(Shape{2, 1, 1}, std::vector<std::int8_t>{2, -1}), kOmitted});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.output.shape, (Shape{2, 1, 1}));
  EXPECT_EQ(values_of<std::int32_t>(r.output), (std::vector<std::int32_t>{-1, -1}));
}

TEST(MatMulIntegerTest, ZeroPointShapeAndDtypeErrors) {
  NodeResult r = matmul_integer({make(Shape{2, 2}, std::vector<std::uint8_t>{5, 5, 5, 5}),
                                 make(Shape{2, 3}, std::vector<std::uint8_t>{1, 1, 1, 1, 1, 1}), kOmitted,
                                 make(Shape{2}, std::vector<std::uint8_t>{0, 1}).named("BZ")});
  EXPECT_EQ(r.status.code(), StatusCode::invalid_model);
  EXPECT_NE(std::string(r.status.message()).find("input 3 'BZ' has shape [2], expected a scalar, [3]"),
            std::string::npos)
      << r.status.message();
  r = matmul_integer({make(Shape{2, 2}, std::vector<std::uint8_t>{5, 5, 5, 5}),
                      make(Shape{2, 2}, std::vector<std::uint8_t>{1, 1, 1, 1}),
                      make(Shape{}, std::vector<std::int8_t>{0}).named("AZ"), kOmitted});
  EXPECT_EQ(r.status.code(), StatusCode::invalid_model);
  EXPECT_NE(std::string(r.status.message()).find("'AZ' has dtype int8, expected uint8"), std::string::npos)
      << r.status.message();
  r = matmul_integer({make(Shape{2}, std::vector<std::int32_t>{5, 5}), make(Shape{2}, std::vector<std::int8_t>{1, 1})});
  EXPECT_EQ(r.status.code(), StatusCode::unsupported);
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
