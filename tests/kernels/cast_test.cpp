// SPDX-License-Identifier: MIT
// Cast: the ONNX reference's rounding and overflow rules on values the conformance suite does not cover
// (float -> integer truncation and wrap-around, NaN, integer wrap, double rounding avoided for double ->
// float16), float8 saturate/no-saturate, float8e8m0 round modes, packed 2- and 4-bit outputs, blocks longer than
// the kernel's buffer, Cast-1's string 'to', per-version attributes, and clear errors for what is unsupported.
// Expected values come from numpy / ml_dtypes (the ONNX reference) and were checked by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
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
using onnxmicro_test::make_attribute_string;
using onnxmicro_test::ProtoWriter;

// ---- harness: one tensor/generator kernel through prepare() and run() (support/op_runner.hpp) -----------

using namespace onnxmicro_test::op_runner;

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

template <typename From>
Result cast(const std::vector<From>& values, DataType to, int opset = 21, std::vector<ProtoWriter> attributes = {}) {
  attributes.push_back(make_attribute_int("to", static_cast<std::int64_t>(to)));
  return run_op("Cast", opset, {tensor(Shape{static_cast<std::int64_t>(values.size())}, values)}, attributes);
}
template <typename To, typename From>
std::vector<To> cast_values(const std::vector<From>& values, DataType to) {
  Result r = cast(values, to);
  EXPECT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(r.output.dtype, to);
  return values_of<To>(r.output);
}
template <typename From>
std::vector<std::uint8_t> cast_bytes(const std::vector<From>& values, DataType to, int opset = 21,
                                     std::vector<ProtoWriter> attributes = {}) {
  Result r = cast(values, to, opset, attributes);
  EXPECT_TRUE(r.ok()) << r.error();
  return r.output.bytes;
}

TEST(Cast, FloatToIntegerTruncatesThenKeepsTheLowBits) {
  EXPECT_EQ(
      cast_values<std::int8_t>(std::vector<float>{300.5f, -300.5f, -1.5f, 2.9f, 127.9f, -128.9f, kNaN}, DataType::int8),
      (std::vector<std::int8_t>{44, -44, -1, 2, 127, -128, 0}));
  EXPECT_EQ(cast_values<std::uint8_t>(std::vector<float>{-1.5f, 255.9f, 256.0f, 3.7f}, DataType::uint8),
            (std::vector<std::uint8_t>{255, 255, 0, 3}));
  EXPECT_EQ(cast_values<std::int64_t>(std::vector<double>{-2.5, 1e15 + 0.5, 9.5e18}, DataType::int64),
            (std::vector<std::int64_t>{-2, 1000000000000000, static_cast<std::int64_t>(9500000000000000000ULL)}));
  EXPECT_EQ(cast_values<std::uint64_t>(std::vector<double>{1.8e19, -1.0}, DataType::uint64),
            (std::vector<std::uint64_t>{18000000000000000000ULL, 18446744073709551615ULL}));
  Tensor half = tensor(Shape{2}, std::vector<std::uint16_t>{0xC0B0, 0x7E00});  // -2.34375, NaN
  half.dtype = DataType::float16;
  Result r = run_op("Cast", 13, {half}, {make_attribute_int("to", static_cast<int>(DataType::int32))});
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(values_of<std::int32_t>(r.output), (std::vector<std::int32_t>{-2, 0}));
}

TEST(Cast, BoolFollowsZeroAndNonZero) {
  EXPECT_EQ(cast_values<std::uint8_t>(std::vector<float>{0.0f, -0.0f, kNaN, 1e-30f, -kInf}, DataType::boolean),
            (std::vector<std::uint8_t>{0, 0, 1, 1, 1}));
  EXPECT_EQ(cast_values<std::uint8_t>(std::vector<std::int64_t>{0, -1, 1LL << 40}, DataType::boolean),
            (std::vector<std::uint8_t>{0, 1, 1}));
  Tensor flags;  // any non-zero byte is true
  flags.dtype = DataType::boolean;
  flags.shape = Shape{3};
  flags.bytes = {0, 1, 2};
  Result r = run_op("Cast", 13, {flags}, {make_attribute_int("to", static_cast<int>(DataType::float32))});
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(values_of<float>(r.output), (std::vector<float>{0, 1, 1}));
}

TEST(Cast, IntegerToIntegerWrapsTwosComplement) {
  EXPECT_EQ(cast_values<std::int8_t>(std::vector<std::int64_t>{200, -129, (1LL << 40) | 5}, DataType::int8),
            (std::vector<std::int8_t>{-56, 127, 5}));
  EXPECT_EQ(cast_values<std::uint16_t>(std::vector<std::int32_t>{-1, 65536 + 7}, DataType::uint16),
            (std::vector<std::uint16_t>{65535, 7}));
  EXPECT_EQ(cast_values<std::int64_t>(std::vector<std::uint64_t>{18446744073709551615ULL}, DataType::int64),
            (std::vector<std::int64_t>{-1}));
}

TEST(Cast, FloatingResultsRoundToNearestEvenOnce) {
  // Ties in float16 (spacing 2 above 2048) go to the even neighbour; past 65520 is infinity.
  EXPECT_EQ(cast_values<std::uint16_t>(std::vector<std::int32_t>{2049, 2051, 65519, 65520}, DataType::float16),
            (std::vector<std::uint16_t>{0x6800, 0x6802, 0x7BFF, 0x7C00}));
  // 1 + 2^-11 + 2^-40 is just above a float16 tie: rounding through float (which drops 2^-40) would give 1.0.
  EXPECT_EQ(cast_values<std::uint16_t>(std::vector<double>{1.0 + 0x1p-11 + 0x1p-40}, DataType::float16),
            std::vector<std::uint16_t>{0x3C01});
  const float max = std::numeric_limits<float>::max();
  EXPECT_EQ(cast_values<float>(
                std::vector<double>{static_cast<double>(max), 1e300, -1e300, static_cast<double>(max) + 0x1p102},
                DataType::float32),
            (std::vector<float>{max, kInf, -kInf, max}));
  EXPECT_EQ(cast_values<float>(std::vector<std::uint64_t>{18446744073709551615ULL}, DataType::float32),
            std::vector<float>{0x1p64f});
  EXPECT_EQ(cast_values<std::uint16_t>(std::vector<float>{1.00390625f, 1.01171875f}, DataType::bfloat16),
            (std::vector<std::uint16_t>{0x3F80, 0x3F82}));  // ties to even in bfloat16
}

TEST(Cast, Float8SaturatesByDefaultAndOverflowsWithSaturateZero) {
  const std::vector<float> x = {464.0f, 465.0f, kInf, -kInf, kNaN, 1e-7f, -1e-7f};
  EXPECT_EQ(cast_bytes(x, DataType::float8e4m3fn, 19),
            (std::vector<std::uint8_t>{0x7E, 0x7E, 0x7E, 0xFE, 0x7F, 0x00, 0x80}));
  EXPECT_EQ(cast_bytes(x, DataType::float8e4m3fn, 19, {make_attribute_int("saturate", 0)}),
            (std::vector<std::uint8_t>{0x7E, 0x7F, 0x7F, 0xFF, 0x7F, 0x00, 0x80}));
  EXPECT_EQ(cast_bytes(std::vector<float>{61440.0f, -1e6f, -0.0f}, DataType::float8e5m2, 19,
                       {make_attribute_int("saturate", 0)}),
            (std::vector<std::uint8_t>{0x7C, 0xFC, 0x80}));
  EXPECT_EQ(cast_bytes(std::vector<float>{61440.0f, -1e6f}, DataType::float8e5m2, 19),
            (std::vector<std::uint8_t>{0x7B, 0xFB}));
  // fnuz: no negative zero, one NaN (0x80).
  EXPECT_EQ(cast_bytes(std::vector<float>{-0.0f, kNaN, -1e-7f, 240.0f}, DataType::float8e4m3fnuz, 19),
            (std::vector<std::uint8_t>{0x00, 0x80, 0x00, 0x7F}));
  // 'saturate' is an opset-19 attribute: before that it does not exist and the default (saturate) applies.
  EXPECT_EQ(cast_bytes(std::vector<float>{kInf}, DataType::float8e4m3fn, 13, {make_attribute_int("saturate", 0)}),
            std::vector<std::uint8_t>{0x7E});
}

TEST(Cast, Float8DecodesExactly) {
  const std::vector<std::uint8_t> bits = {0x00, 0x01, 0x38, 0x7E, 0x7F, 0xFE, 0x80};
  Tensor f8;
  f8.dtype = DataType::float8e4m3fn;
  f8.shape = Shape{7};
  f8.bytes = bits;
  Result r = run_op("Cast", 19, {f8}, {make_attribute_int("to", static_cast<int>(DataType::float32))});
  ASSERT_TRUE(r.ok()) << r.error();
  const std::vector<float> v = values_of<float>(r.output);
  EXPECT_EQ(v[0], 0.0f);
  EXPECT_EQ(v[1], 0x1p-9f);  // smallest subnormal
  EXPECT_EQ(v[2], 1.0f);
  EXPECT_EQ(v[3], 448.0f);
  EXPECT_TRUE(std::isnan(v[4]));
  EXPECT_EQ(v[5], -448.0f);
  EXPECT_TRUE(v[6] == 0.0f && std::signbit(v[6]));
}

TEST(Cast, Float8E8M0FollowsRoundMode) {
  const std::vector<float> x = {3.0f, 2.5f, 4.0f, kInf};
  const int to = static_cast<int>(DataType::float8e8m0);
  auto run = [&](const char* mode) {
    Result r = run_op("Cast", 24, {tensor(Shape{4}, x)},
                      {make_attribute_int("to", to), make_attribute_string("round_mode", mode)});
    EXPECT_TRUE(r.ok()) << r.error();
    return r.output.bytes;
  };
  EXPECT_EQ(run("up"), (std::vector<std::uint8_t>{129, 129, 129, 0xFF}));
  EXPECT_EQ(run("down"), (std::vector<std::uint8_t>{128, 128, 129, 0xFF}));
  EXPECT_EQ(run("nearest"), (std::vector<std::uint8_t>{129, 128, 129, 0xFF}));
  Result bad = run_op("Cast", 24, {tensor(Shape{4}, x)},
                      {make_attribute_int("to", to), make_attribute_string("round_mode", "sideways")});
  EXPECT_TRUE(contains(bad.prepare, "'round_mode' is \"sideways\"")) << bad.prepare.message();
}

TEST(Cast, PackedOutputsWrapAndPadWithZeros) {
  std::vector<float> x;
  for (int v = -9; v <= 5; ++v) x.push_back(static_cast<float>(v));  // 15 values: half a byte of padding
  EXPECT_EQ(cast_bytes(x, DataType::int4), (std::vector<std::uint8_t>{135, 169, 203, 237, 15, 33, 67, 5}));
  EXPECT_EQ(cast_bytes(x, DataType::uint4), (std::vector<std::uint8_t>{135, 169, 203, 237, 15, 33, 67, 5}));
  EXPECT_EQ(cast_bytes(std::vector<float>{-3, -2, -1, 0, 1, 2, 3}, DataType::int2, 25),
            (std::vector<std::uint8_t>{57, 57}));
  EXPECT_EQ(cast_bytes(std::vector<float>{0.25f, 0.75f, 5.0f, 100.0f, -100.0f, kNaN}, DataType::float4e2m1, 23),
            (std::vector<std::uint8_t>{0x20, 0x76, 0x8F}));
}

TEST(Cast, PackedInputsSignExtend) {
  Tensor int4;
  int4.dtype = DataType::int4;
  int4.shape = Shape{3};
  int4.bytes = {0x8F, 0x07};  // -1, -8, 7
  Result r = run_op("Cast", 21, {int4}, {make_attribute_int("to", static_cast<int>(DataType::int16))});
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(values_of<std::int16_t>(r.output), (std::vector<std::int16_t>{-1, -8, 7}));
  int4.dtype = DataType::uint4;
  r = run_op("Cast", 21, {int4}, {make_attribute_int("to", static_cast<int>(DataType::int16))});
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(values_of<std::int16_t>(r.output), (std::vector<std::int16_t>{15, 8, 7}));
}

TEST(Cast, LongTensorsConvertEveryBlock) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> dist(-100.0f, 100.0f);
  std::vector<float> x(1001);  // not a multiple of the kernel's block
  for (float& v : x) v = dist(rng);
  const std::vector<std::uint8_t> packed = cast_bytes(x, DataType::int4);
  ASSERT_EQ(packed.size(), 501u);
  for (std::size_t i = 0; i < x.size(); ++i) {
    const auto truncated = static_cast<std::int64_t>(std::trunc(x[i]));
    const unsigned expected = static_cast<unsigned>(truncated) & 0xFu;
    const unsigned got = (packed[i / 2] >> (4 * (i % 2))) & 0xFu;
    ASSERT_EQ(got, expected) << "element " << i << " = " << x[i];
  }
  EXPECT_EQ(packed.back() >> 4, 0);
  const std::vector<double> wide = cast_values<double>(x, DataType::float64);
  for (std::size_t i = 0; i < x.size(); ++i) ASSERT_EQ(wide[i], static_cast<double>(x[i]));
}

TEST(Cast, SameDtypeIsACopy) {
  const std::vector<float> x = {1.5f, kNaN, -0.0f};
  Result r = cast(x, DataType::float32);
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(r.output.bytes, tensor(Shape{3}, x).bytes);
}

TEST(Cast, Opset1NamesTheDtypeAsAString) {
  const Tensor x = tensor(Shape{2}, std::vector<double>{1.75, -2.5});
  Result upper = run_op("Cast", 1, {x}, {make_attribute_string("to", "INT32")});
  ASSERT_TRUE(upper.ok()) << upper.error();
  EXPECT_EQ(values_of<std::int32_t>(upper.output), (std::vector<std::int32_t>{1, -2}));
  Result lower = run_op("Cast", 5, {x}, {make_attribute_string("to", "float")});
  ASSERT_TRUE(lower.ok()) << lower.error();
  EXPECT_EQ(values_of<float>(lower.output), (std::vector<float>{1.75f, -2.5f}));
  Result unknown = run_op("Cast", 1, {x}, {make_attribute_string("to", "FLOAT8")});
  EXPECT_EQ(unknown.prepare.code(), StatusCode::invalid_model);
  EXPECT_TRUE(contains(unknown.prepare, "attribute 'to' is \"FLOAT8\"")) << unknown.prepare.message();
  // From opset 6 'to' is an INT.
  Result string_at_6 = run_op("Cast", 6, {x}, {make_attribute_string("to", "FLOAT")});
  EXPECT_TRUE(contains(string_at_6.prepare, "has type STRING, expected INT")) << string_at_6.prepare.message();
}

TEST(Cast, UnsupportedAndInvalidTargetsAreClearErrors) {
  const std::vector<float> x = {1.0f};
  Result to_string = cast(x, DataType::string);
  EXPECT_EQ(to_string.prepare.code(), StatusCode::unsupported);
  EXPECT_TRUE(contains(to_string.prepare, "Cast from float to string: string casts are not supported yet"))
      << to_string.prepare.message();
  Tensor strings;
  strings.dtype = DataType::string;
  strings.shape = Shape{1};
  Result from_string = run_op("Cast", 13, {strings}, {make_attribute_int("to", 1)});
  EXPECT_EQ(from_string.prepare.code(), StatusCode::unsupported);
  Result to_float6 = cast(x, DataType::float6e2m3, 28);
  EXPECT_EQ(to_float6.prepare.code(), StatusCode::unsupported);
  EXPECT_TRUE(contains(to_float6.prepare, "float6e2m3")) << to_float6.prepare.message();
  Result unknown = run_op("Cast", 13, {tensor(Shape{1}, x)}, {make_attribute_int("to", 99)});
  EXPECT_TRUE(contains(unknown.prepare, "attribute 'to' is 99")) << unknown.prepare.message();
  Result missing = run_op("Cast", 13, {tensor(Shape{1}, x)});
  EXPECT_TRUE(contains(missing.prepare, "required attribute 'to'")) << missing.prepare.message();
  Result saturate = cast(x, DataType::float8e5m2, 19, {make_attribute_int("saturate", 2)});
  EXPECT_TRUE(contains(saturate.prepare, "'saturate' is 2, expected 0 or 1")) << saturate.prepare.message();
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
