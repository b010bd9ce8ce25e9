// SPDX-License-Identifier: MIT
// Size beyond the ONNX node suite: scalars count one element, zero-sized tensors zero, and the data is never read
// (string inputs work; the kernel declares kNeedsInputData = false so the session folds it).
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "onnxmicro/kernels/tensor/size.hpp"
#include "support/kernel_test_prelude.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

using namespace onnxmicro_test::prelude;

std::int64_t size_of(const TestTensor& x) {
  NodeResult r = onnxmicro_test::run_node(om::KernelSet<om::kernels::Size_1>::registry(), "Size", 21, {x});
  EXPECT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.output.dtype, DataType::int64);
  EXPECT_EQ(r.output.shape, Shape());
  return values_of<std::int64_t>(r.output).at(0);
}

TEST(Size, CountsElementsOfAnyShapeAndDtype) {
  EXPECT_EQ(size_of(make(Shape{}, std::vector<float>{1})), 1);
  EXPECT_EQ(size_of(make(Shape{2, 0, 3}, std::vector<float>{})), 0);
  EXPECT_EQ(size_of(make(Shape{2, 3, 4}, std::vector<std::int8_t>(24))), 24);
  TestTensor strings;
  strings.dtype = DataType::string;
  strings.shape = Shape{5};
  EXPECT_EQ(size_of(strings), 5);
  static_assert(!om::kernels::Size_1::kNeedsInputData, "Size must not need its input's data");
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
