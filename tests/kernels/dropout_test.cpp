// SPDX-License-Identifier: MIT
// Dropout beyond the ONNX node suite: the MT19937 stream against published values (the C reference's first
// output and numpy.random.RandomState), training mode reproducing numpy's draws for other seeds and float64,
// inference copies in place for every version, a dtype only later versions allow, and bad ratio/training_mode.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "onnxmicro/kernels/nn/dropout.hpp"
#include "support/kernel_test_prelude.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

using namespace onnxmicro_test::prelude;
using onnxmicro_test::run_node;

TestTensor flag(bool value) {
  return make(DataType::boolean, Shape{}, std::vector<std::uint8_t>{static_cast<std::uint8_t>(value)});
}

TEST(DropoutRandom, Mt19937MatchesTheReferenceGenerator) {
  // the seed of the MT19937 reference code; its first output is known
  om::kernels::dropout_detail::Mt19937 standard(5489u);
  EXPECT_EQ(standard.next(), 3499211612u);
  om::kernels::dropout_detail::Mt19937 numpy_seed_7(7u);  // numpy.random.RandomState(7).uniform(0, 1, 3)
  EXPECT_DOUBLE_EQ(numpy_seed_7.next_double(), 0.07630828937395717);
  EXPECT_DOUBLE_EQ(numpy_seed_7.next_double(), 0.7799187922401146);
  EXPECT_DOUBLE_EQ(numpy_seed_7.next_double(), 0.4384092314408935);
}

TEST(Dropout, TrainingModeDropsWhereNumpysUniformDrawIsBelowRatio) {
  // RandomState(0).uniform(0, 1, 8) >= 0.5 keeps all but elements 4 and 6; kept values are scaled by 2.
  const std::vector<double> x = {1, 2, 3, 4, 5, 6, 7, 8};
  auto result = run_node(
      om::all_kernels_registry(), "Dropout", 13,
      {make(Shape{8}, x), make(Shape{}, std::vector<float>{0.5f}).named("ratio"), flag(true).named("training_mode")},
      {make_attribute_int("seed", 0)});
  ASSERT_TRUE(result.status.ok()) << result.status.message();
  EXPECT_EQ(result.output.dtype, DataType::float64);
  EXPECT_EQ(values_of<double>(result.output), (std::vector<double>{2, 4, 6, 8, 0, 12, 0, 16}));
}

TEST(Dropout, TrainingModeFalseOrRatioZeroCopies) {
  const std::vector<float> x = {1.5f, -2.0f, 3.25f};
  for (bool training : {false, true}) {
    const float ratio = training ? 0.0f : 0.9f;
    auto result = run_node(om::all_kernels_registry(), "Dropout", 22,
                           {make(Shape{3}, x), make(Shape{}, std::vector<float>{ratio}).named("ratio"),
                            flag(training).named("training_mode")});
    ASSERT_TRUE(result.status.ok()) << result.status.message();
    EXPECT_EQ(values_of<float>(result.output), x);
  }
}

TEST(Dropout, InferenceVersionsCopyInPlace) {
  const std::vector<float> x = {1.0f, 2.0f, -3.0f, 4.0f};
  for (int opset : {1, 6, 7, 10, 12}) {
    auto result = run_node(om::all_kernels_registry(), "Dropout", opset, {make(Shape{2, 2}, x)},
                           {make_attribute_float("ratio", 0.25f)}, /*in_place=*/opset < 12);
    ASSERT_TRUE(result.status.ok()) << "opset " << opset << ": " << result.status.message();
    EXPECT_EQ(values_of<float>(result.output), x) << "opset " << opset;
  }
}

TEST(Dropout, Bfloat16OnlyFromOpset13) {
  const TestTensor x = make(DataType::bfloat16, Shape{1}, std::vector<std::uint16_t>{0x3f80});
  auto old = run_node(om::all_kernels_registry(), "Dropout", 12, {x});
  EXPECT_EQ(old.status.code(), StatusCode::unsupported);
  EXPECT_NE(std::string(old.status.message()).find("bfloat16"), std::string::npos) << old.status.message();
  EXPECT_TRUE(run_node(om::all_kernels_registry(), "Dropout", 13, {x}).status.ok());
}

TEST(Dropout, RejectsBadRatioAndTrainingMode) {
  const TestTensor x = make(Shape{2}, std::vector<float>{1.0f, 2.0f});
  auto ratio = run_node(om::all_kernels_registry(), "Dropout", 7, {x}, {make_attribute_float("ratio", 1.5f)});
  EXPECT_EQ(ratio.status.code(), StatusCode::invalid_model);
  EXPECT_NE(std::string(ratio.status.message()).find("attribute 'ratio' is 1.5"), std::string::npos)
      << ratio.status.message();

  auto mode = run_node(om::all_kernels_registry(), "Dropout", 13,
                       {x, make(Shape{}, std::vector<float>{0.5f}).named("ratio"),
                        make(Shape{}, std::vector<float>{1.0f}).named("training_mode")});
  EXPECT_EQ(mode.status.code(), StatusCode::invalid_model);
  EXPECT_NE(std::string(mode.status.message()).find("(training_mode) has dtype float, expected bool"),
            std::string::npos)
      << mode.status.message();

  auto run_ratio =
      run_node(om::all_kernels_registry(), "Dropout", 13,
               {x, make(Shape{}, std::vector<float>{1.0f}).named("ratio"), flag(true).named("training_mode")});
  EXPECT_EQ(run_ratio.status.code(), StatusCode::invalid_argument);
  EXPECT_NE(std::string(run_ratio.status.message()).find("expected a value in [0, 1)"), std::string::npos)
      << run_ratio.status.message();
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
