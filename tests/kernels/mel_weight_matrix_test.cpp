// SPDX-License-Identifier: MIT
// MelWeightMatrix beyond the ONNX node suite: a second configuration (3 bands between 50 and 450 Hz, dft_length
// 32, sample rate 1000) in float64, against the ONNX reference implementation's output (onnx 1.23
// ReferenceEvaluator, run offline with /tmp/probe-venv/bin/python), and a non-constant input.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/kernel_harness.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

using namespace onnxmicro_test;

std::vector<TestTensor> inputs(std::int64_t bins, std::int64_t dft_length, std::int64_t rate, float low, float high) {
  return {make<std::int64_t>(Shape{}, {bins}).named("num_mel_bins").as_constant(),
          make<std::int64_t>(Shape{}, {dft_length}).named("dft_length").as_constant(),
          make<std::int64_t>(Shape{}, {rate}).named("sample_rate").as_constant(),
          make<float>(Shape{}, {low}).named("lower_edge_hertz").as_constant(),
          make<float>(Shape{}, {high}).named("upper_edge_hertz").as_constant()};
}

TEST(MelWeightMatrixKernel, MatchesReferenceInFloat64) {
  NodeResult r = run_node(om::all_kernels_registry(), "MelWeightMatrix", 17, inputs(3, 32, 1000, 50, 450),
                          {make_attribute_int("output_datatype", 11)});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.output.shape, (Shape{17, 3}));
  const double third = 1.0 / 3, two_thirds = 2.0 / 3;
  std::vector<double> expected(51, 0.0);
  const double nonzero[][4] = {{2, 0, 0.5},   {3, 0, 1},          {4, 0, two_thirds}, {4, 1, third},
                               {5, 0, third}, {5, 1, two_thirds}, {6, 1, 1},          {7, 1, 0.5},
                               {7, 2, 0.5},   {8, 2, 1},          {9, 2, two_thirds}, {10, 2, third}};
  for (const auto& e : nonzero) expected[static_cast<std::size_t>(e[0] * 3 + e[1])] = e[2];
  const std::vector<double> y = values_of<double>(r.output);
  ASSERT_EQ(y.size(), expected.size());
  for (std::size_t i = 0; i < y.size(); ++i) EXPECT_NEAR(y[i], expected[i], 1e-12) << i;
}

TEST(MelWeightMatrixKernel, InputsMustBeConstant) {
  std::vector<TestTensor> in = inputs(3, 32, 1000, 50, 450);
  in[1].constant = false;
  NodeResult r = run_node(om::all_kernels_registry(), "MelWeightMatrix", 17, in);
  EXPECT_NE(std::string(r.status.message()).find("input 1 'dft_length' decides the output shape"), std::string::npos)
      << r.status.message();
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
