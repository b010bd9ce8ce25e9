// SPDX-License-Identifier: MIT
// CastLike beyond the ONNX node suite: the destination dtype comes from input 1, whose values are never read
// (even an empty target works), 'saturate' exists from opset 19, 'round_mode' from 24 for float8e8m0, and
// errors for strings and bad attribute values.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "onnxmicro/kernels/tensor/cast_like.hpp"
#include "support/kernel_test_prelude.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

using namespace onnxmicro_test::prelude;

NodeResult cast_like(int opset, const TestTensor& x, DataType target, const std::vector<ProtoWriter>& attributes = {}) {
  TestTensor like;
  like.dtype = target;
  like.shape = Shape{0};
  like.name = "like";
  return onnxmicro_test::run_node(
      om::KernelSet<om::kernels::CastLike_15, om::kernels::CastLike_19, om::kernels::CastLike_24>::registry(),
      "CastLike", opset, {x, like}, attributes);
}

TEST(CastLike, TakesTheDtypeOfInputOne) {
  NodeResult r = cast_like(15, make(Shape{3}, std::vector<float>{-1.5f, 2.9f, 300.0f}), DataType::int32);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.output.shape, (Shape{3}));
  EXPECT_EQ(values_of<std::int32_t>(r.output), (std::vector<std::int32_t>{-1, 2, 300}));
  r = cast_like(15, make(Shape{2}, std::vector<float>{1.0f, 65520.0f}), DataType::float16);
  EXPECT_EQ(values_of<std::uint16_t>(r.output), (std::vector<std::uint16_t>{0x3C00, 0x7C00}));  // rounds to inf
}

TEST(CastLike, SaturateFrom19AndRoundModeFrom24) {
  const TestTensor big = make(Shape{1}, std::vector<float>{1000.0f});
  NodeResult r = cast_like(19, big, DataType::float8e4m3fn);
  EXPECT_EQ(r.output.bytes, (std::vector<unsigned char>{0x7E}));  // saturated to 448
  r = cast_like(19, big, DataType::float8e4m3fn, {make_attribute_int("saturate", 0)});
  EXPECT_EQ(r.output.bytes, (std::vector<unsigned char>{0x7F}));  // NaN
  const TestTensor three = make(Shape{1}, std::vector<float>{3.0f});
  r = cast_like(24, three, DataType::float8e8m0);
  EXPECT_EQ(r.output.bytes, (std::vector<unsigned char>{129}));  // up: 2^2
  r = cast_like(24, three, DataType::float8e8m0, {make_attribute_string("round_mode", "down")});
  EXPECT_EQ(r.output.bytes, (std::vector<unsigned char>{128}));  // down: 2^1
  r = cast_like(24, three, DataType::float8e8m0, {make_attribute_string("round_mode", "sideways")});
  EXPECT_NE(std::string(r.status.message()).find("'round_mode' is \"sideways\""), std::string::npos)
      << r.status.message();
}

TEST(CastLike, StringsAreNotSupportedYet) {
  NodeResult r = cast_like(15, make(Shape{1}, std::vector<float>{1}), DataType::string);
  EXPECT_EQ(r.status.code(), StatusCode::unsupported);
  EXPECT_NE(std::string(r.status.message()).find("string casts"), std::string::npos) << r.status.message();
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
