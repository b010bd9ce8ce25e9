// SPDX-License-Identifier: MIT
// BitCast beyond the ONNX node suite: the bits are kept exactly (NaN payloads, -0), packed 4-bit types, in-place
// runs, and errors for different widths and strings.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "onnxmicro/kernels/tensor/bit_cast.hpp"
#include "support/kernel_test_prelude.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

using namespace onnxmicro_test::prelude;

NodeResult bit_cast(const TestTensor& x, DataType to, bool in_place = false) {
  return onnxmicro_test::run_node(om::KernelSet<om::kernels::BitCast_26>::registry(), "BitCast", 26, {x},
                                  {make_attribute_int("to", static_cast<std::int64_t>(to))}, in_place);
}

TEST(BitCast, KeepsEveryBit) {
  const std::vector<std::uint32_t> bits = {0x7FC00123u, 0x80000000u, 0x3F800000u};
  for (bool in_place : {false, true}) {
    NodeResult r = bit_cast(make(DataType::float32, Shape{3}, bits), DataType::int32, in_place);
    ASSERT_TRUE(r.status.ok()) << r.status.message();
    EXPECT_EQ(r.output.dtype, DataType::int32);
    EXPECT_EQ(values_of<std::uint32_t>(r.output), bits);
  }
  NodeResult r = bit_cast(make(DataType::int4, Shape{3}, std::vector<std::uint8_t>{0xF8, 0x01}), DataType::uint4);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.output.bytes, (std::vector<unsigned char>{0xF8, 0x01}));
}

TEST(BitCast, WidthsMustMatch) {
  NodeResult r = bit_cast(make(Shape{2}, std::vector<float>{1, 2}), DataType::float64);
  EXPECT_EQ(r.status.code(), StatusCode::invalid_model);
  EXPECT_NE(std::string(r.status.message()).find("double (64 bits)"), std::string::npos) << r.status.message();
  r = bit_cast(make(Shape{2}, std::vector<float>{1, 2}), DataType::string);
  EXPECT_EQ(r.status.code(), StatusCode::unsupported);
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
