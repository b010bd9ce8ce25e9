// SPDX-License-Identifier: MIT
// Reshape: -1 inference and 0 copying per version (allowzero from opset 14, the shape attribute of opset 1),
// errors naming the incompatible sizes, the constant-shape requirement, in-place runs and byte-exact moves of
// packed types.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "onnxmicro/onnxmicro.hpp"
#include "support/op_runner.hpp"
#include "support/proto_writer.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

namespace om = onnxmicro;
using om::DataType;
using om::Shape;
using om::Status;
using om::StatusCode;
using onnxmicro_test::make_attribute_int;
using onnxmicro_test::make_attribute_ints;
using onnxmicro_test::ProtoWriter;

// ---- harness: one tensor/generator kernel through prepare() and run() (support/op_runner.hpp) -----------

using namespace onnxmicro_test::op_runner;

std::vector<float> iota(std::size_t n) {
  std::vector<float> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<float>(i) * 0.5f - 3.0f;
  return v;
}

// ---- tests ----------------------------------------------------------------------------------------------

TEST(Reshape, InfersMinusOneAndCopiesZeroDims) {
  const std::vector<float> data = iota(24);
  struct Case {
    std::vector<std::int64_t> requested;
    Shape expected;
  } cases[] = {
      {{4, -1}, Shape{4, 6}}, {{0, -1}, Shape{2, 12}},           {{0, 0, -1}, Shape{2, 3, 4}},
      {{-1}, Shape{24}},      {{2, 0, 2, 2}, Shape{2, 3, 2, 2}}, {{1, 1, 24}, Shape{1, 1, 24}},
  };
  for (const Case& c : cases) {
    Result r = run_op("Reshape", 13, {tensor(Shape{2, 3, 4}, data), shape_input(c.requested)});
    ASSERT_TRUE(r.ok()) << r.error();
    EXPECT_EQ(r.output.shape, c.expected);
    EXPECT_EQ(values_of<float>(r.output), data);  // same elements, same order
  }
}

TEST(Reshape, IncompatibleSizesNameBothElementCounts) {
  Result r = run_op("Reshape", 13, {tensor(Shape{2, 3, 4}, iota(24)), shape_input({5, 5})});
  ASSERT_EQ(r.prepare.code(), StatusCode::invalid_model);
  EXPECT_TRUE(contains(r.prepare, "[2,3,4] (24 elements) to [5,5]")) << r.prepare.message();
  EXPECT_TRUE(contains(r.prepare, "25 elements")) << r.prepare.message();

  r = run_op("Reshape", 13, {tensor(Shape{2, 3, 4}, iota(24)), shape_input({5, -1})});
  ASSERT_EQ(r.prepare.code(), StatusCode::invalid_model);
  EXPECT_TRUE(contains(r.prepare, "24 elements cannot be split")) << r.prepare.message();
  EXPECT_TRUE(contains(r.prepare, "multiplies to 5")) << r.prepare.message();
}

TEST(Reshape, RejectsMalformedShapes) {
  const Tensor data = tensor(Shape{2, 3, 4}, iota(24));
  Result two_unknowns = run_op("Reshape", 13, {data, shape_input({-1, 4, -1})});
  EXPECT_EQ(two_unknowns.prepare.code(), StatusCode::invalid_model);
  EXPECT_TRUE(contains(two_unknowns.prepare, "more than one -1 (at 0 and 2)")) << two_unknowns.prepare.message();

  Result below_minus_one = run_op("Reshape", 13, {data, shape_input({-2, 12})});
  EXPECT_TRUE(contains(below_minus_one.prepare, "shape[0] is -2")) << below_minus_one.prepare.message();

  Result zero_past_rank = run_op("Reshape", 13, {data, shape_input({2, 3, 4, 0})});
  EXPECT_TRUE(contains(zero_past_rank.prepare, "shape[3] is 0, which copies input dim 3, but the input has rank 3"))
      << zero_past_rank.prepare.message();

  Result unknown_from_zero = run_op("Reshape", 13, {tensor(Shape{0, 3}, std::vector<float>{}), shape_input({0, -1})});
  EXPECT_EQ(unknown_from_zero.prepare.code(), StatusCode::invalid_model);

  Tensor matrix_shape = tensor(Shape{1, 2}, std::vector<std::int64_t>{4, 6}, true);
  Result not_1d = run_op("Reshape", 13, {data, matrix_shape});
  EXPECT_TRUE(contains(not_1d.prepare, "must be 1-D")) << not_1d.prepare.message();

  Tensor float_shape = tensor(Shape{2}, std::vector<float>{4, 6}, true);
  Result wrong_dtype = run_op("Reshape", 13, {data, float_shape});
  EXPECT_TRUE(contains(wrong_dtype.prepare, "has dtype float, expected int64 (or int32)"))
      << wrong_dtype.prepare.message();
}

TEST(Reshape, AllowZeroFromOpset14MakesZeroARealDim) {
  const Tensor empty = tensor(Shape{0, 3, 4}, std::vector<float>{});
  // Before opset 14 (and with allowzero=0) a 0 copies the input dim: [3,4,0] -> [3,4,4]: 48 != 0 elements.
  EXPECT_EQ(run_op("Reshape", 13, {empty, shape_input({3, 4, 0})}).prepare.code(), StatusCode::invalid_model);
  EXPECT_EQ(run_op("Reshape", 14, {empty, shape_input({3, 4, 0})}).prepare.code(), StatusCode::invalid_model);
  Result r = run_op("Reshape", 14, {empty, shape_input({3, 4, 0})}, {make_attribute_int("allowzero", 1)});
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(r.output.shape, (Shape{3, 4, 0}));
  // Opset 13 does not know allowzero: the attribute changes nothing there.
  Result old =
      run_op("Reshape", 13, {tensor(Shape{2, 3}, iota(6)), shape_input({0, 3})}, {make_attribute_int("allowzero", 1)});
  ASSERT_TRUE(old.ok()) << old.error();
  EXPECT_EQ(old.output.shape, (Shape{2, 3}));

  Result both = run_op("Reshape", 14, {empty, shape_input({0, -1})}, {make_attribute_int("allowzero", 1)});
  EXPECT_TRUE(contains(both.prepare, "may not contain both 0 and -1")) << both.prepare.message();
  Result bad_value = run_op("Reshape", 14, {empty, shape_input({0, 12})}, {make_attribute_int("allowzero", 2)});
  EXPECT_TRUE(contains(bad_value.prepare, "'allowzero' is 2, expected 0 or 1")) << bad_value.prepare.message();
}

TEST(Reshape, Opset1ReadsTheShapeAttribute) {
  Result r = run_op("Reshape", 1, {tensor(Shape{2, 3}, iota(6))}, {make_attribute_ints("shape", {3, -1})});
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(r.output.shape, (Shape{3, 2}));
  EXPECT_EQ(values_of<float>(r.output), iota(6));
  Result missing = run_op("Reshape", 4, {tensor(Shape{2, 3}, iota(6))});
  EXPECT_TRUE(contains(missing.prepare, "'shape'")) << missing.prepare.message();
}

TEST(Reshape, ShapeInputMustBeKnownAtPrepare) {
  Tensor dynamic_shape = shape_input({3, 2});
  dynamic_shape.constant = false;
  Result r = run_op("Reshape", 13, {tensor(Shape{2, 3}, iota(6)), dynamic_shape});
  EXPECT_EQ(r.prepare.code(), StatusCode::unsupported);
  EXPECT_EQ(r.missing_constant_input, 1);  // tells the session which graph input value to bind
}

TEST(Reshape, RunsInPlace) {
  const std::vector<std::int64_t> data = {1, -2, 3, -4, 1LL << 40, 6};
  Result r = run_op("Reshape", 14, {tensor(Shape{6}, data), shape_input({3, 2})}, {}, /*in_place=*/true);
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(r.output.shape, (Shape{3, 2}));
  EXPECT_EQ(values_of<std::int64_t>(r.output), data);
}

TEST(Reshape, MovesPackedAndWideTypesBitForBit) {
  Tensor int4;  // 7 elements: the last byte holds one nibble
  int4.dtype = DataType::int4;
  int4.shape = Shape{7};
  int4.bytes = {0x21, 0x43, 0x65, 0x07};
  Result r = run_op("Reshape", 21, {int4, shape_input({7, 1})});
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(r.output.dtype, DataType::int4);
  EXPECT_EQ(r.output.bytes, int4.bytes);

  Tensor complex;
  complex.dtype = DataType::complex128;
  complex.shape = Shape{2};
  complex.bytes.resize(32);
  for (std::size_t i = 0; i < complex.bytes.size(); ++i) complex.bytes[i] = static_cast<unsigned char>(i * 7);
  r = run_op("Reshape", 14, {complex, shape_input({1, 2})});
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(r.output.bytes, complex.bytes);
}

TEST(Reshape, StringTensorsKeepTheirElementViews) {
  const std::vector<om::StringRef> in = {om::StringRef::of("x"), om::StringRef::of("yz")};
  Result r = run_op("Reshape", 14, {tensor(Shape{2}, in), shape_input({2, 1})});
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(r.output.shape, (Shape{2, 1}));
  const std::vector<om::StringRef> out = values_of<om::StringRef>(r.output);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[1].view(), "yz");
}

TEST(Reshape, EveryOpsetVersionResolves) {
  for (int opset = 1; opset <= ONNXMICRO_MAX_OPSET; ++opset) {
    EXPECT_NE(om::find_kernel(om::all_kernels_registry(), "", "Reshape", opset), nullptr) << opset;
  }
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
