// SPDX-License-Identifier: MIT
// Identity: byte-exact copies for every fixed-size dtype (packed sub-byte types included), the in-place case
// where the copy is skipped, the string dtype it does not take yet, and version resolution.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "onnxmicro/onnxmicro.hpp"
#include "support/kernel_test_prelude.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

using namespace onnxmicro_test::prelude;

// ---- harness: one kernel of the build driven through prepare() and run() (support/kernel_harness.hpp) ------

using onnxmicro_test::KernelHarness;
using onnxmicro_test::run_node;

TEST(Identity, CopiesEveryFixedSizeDtypeBitForBit) {
  const DataType dtypes[] = {DataType::float32,    DataType::uint8,      DataType::int8,     DataType::uint16,
                             DataType::int16,      DataType::int32,      DataType::int64,    DataType::boolean,
                             DataType::float16,    DataType::float64,    DataType::uint32,   DataType::uint64,
                             DataType::complex64,  DataType::complex128, DataType::bfloat16, DataType::float8e4m3fn,
                             DataType::float8e5m2, DataType::uint4,      DataType::int4,     DataType::float4e2m1};
  for (DataType dtype : dtypes) {
    const Shape shape{3, 1, 5};  // 15 elements: an odd count, so packed 4-bit types end in half a byte
    std::vector<std::uint8_t> bytes(om::byte_size_of(dtype, shape.element_count()));
    for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<std::uint8_t>(i * 37 + 11);
    NodeResult r = run_node("Identity", 21, {make(dtype, shape, bytes)});
    ASSERT_TRUE(r.status.ok()) << om::dtype_name(dtype) << ": " << r.status.message();
    EXPECT_EQ(r.output.dtype, dtype);
    EXPECT_EQ(r.output.shape, shape);
    EXPECT_EQ(r.output.bytes, bytes) << om::dtype_name(dtype);
  }
}

TEST(Identity, ScalarAndEmptyTensors) {
  NodeResult scalar = run_node("Identity", 13, {make(Shape{}, std::vector<double>{2.5})});
  ASSERT_TRUE(scalar.status.ok()) << scalar.status.message();
  EXPECT_EQ(values_of<double>(scalar.output), (std::vector<double>{2.5}));
  NodeResult empty = run_node("Identity", 13, {make(Shape{4, 0}, std::vector<float>{})});
  ASSERT_TRUE(empty.status.ok()) << empty.status.message();
  EXPECT_EQ(empty.output.shape, (Shape{4, 0}));
}

TEST(Identity, InPlaceRunKeepsTheValues) {
  const std::vector<std::int64_t> values = {-3, 0, 1LL << 50, 7};
  NodeResult r = run_node("Identity", 16, {make(Shape{2, 2}, values)}, {}, /*in_place=*/true);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(values_of<std::int64_t>(r.output), values);
}

TEST(Identity, StringTensorsCopyTheirElementViews) {
  const std::vector<om::StringRef> strings = {om::StringRef::of("one"), om::StringRef::of("")};
  NodeResult r = run_node("Identity", 13, {make(DataType::string, Shape{2}, strings)});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  const std::vector<om::StringRef> out = values_of<om::StringRef>(r.output);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].view(), "one");
  EXPECT_EQ(out[1].view(), "");
}

TEST(Identity, EveryOpsetResolves) {
  for (int opset = 1; opset <= ONNXMICRO_MAX_OPSET + 2; ++opset)
    EXPECT_NE(om::find_kernel(om::all_kernels_registry(), "", "Identity", opset), nullptr) << opset;
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
