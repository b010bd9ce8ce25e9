// SPDX-License-Identifier: MIT
// Protobuf wire reader: varints, tags, fixed-width values, length-delimited payloads and their failures.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "onnxmicro/onnxmicro.hpp"
#include "support/proto_writer.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

using onnxmicro::ByteSpan;
using onnxmicro::Status;
using onnxmicro::StatusCode;
using onnxmicro::proto::WireError;
using onnxmicro::proto::WireField;
using onnxmicro::proto::WireReader;
using onnxmicro::proto::WireType;
using onnxmicro_test::ProtoWriter;
using onnxmicro_test::Wire;

ByteSpan span_of(const std::vector<unsigned char>& v) { return {v.data(), v.size()}; }

bool contains(const Status& s, const std::string& text) {
  return std::string(s.message()).find(text) != std::string::npos;
}

TEST(ProtoWire, VarintDecodesOneAndSeveralBytes) {
  const std::vector<unsigned char> bytes = {0x00, 0x7f, 0xac, 0x02, 0x80, 0x80, 0x01};
  WireReader r(span_of(bytes));
  std::uint64_t v = 99;
  ASSERT_TRUE(r.read_varint(v).ok());
  EXPECT_EQ(v, 0u);
  ASSERT_TRUE(r.read_varint(v).ok());
  EXPECT_EQ(v, 127u);
  ASSERT_TRUE(r.read_varint(v).ok());
  EXPECT_EQ(v, 300u);
  ASSERT_TRUE(r.read_varint(v).ok());
  EXPECT_EQ(v, 16384u);
  EXPECT_TRUE(r.at_end());
  EXPECT_EQ(r.offset(), bytes.size());
}

TEST(ProtoWire, VarintAcceptsTenByteMaxUint64) {
  ProtoWriter w;
  w.raw_varint(std::numeric_limits<std::uint64_t>::max());
  ASSERT_EQ(w.size(), 10u);
  EXPECT_EQ(w.bytes().back(), 0x01);
  WireReader r(w.span());
  std::uint64_t v = 0;
  ASSERT_TRUE(r.read_varint(v).ok());
  EXPECT_EQ(v, std::numeric_limits<std::uint64_t>::max());
  EXPECT_TRUE(r.at_end());
}

TEST(ProtoWire, VarintNegativeInt64IsTenBytesSignExtended) {
  ProtoWriter w;
  w.raw_varint(static_cast<std::uint64_t>(std::int64_t{-2}));
  ASSERT_EQ(w.size(), 10u);
  WireReader r(w.span());
  std::uint64_t v = 0;
  ASSERT_TRUE(r.read_varint(v).ok());
  EXPECT_EQ(static_cast<std::int64_t>(v), -2);
}

TEST(ProtoWire, VarintElevenBytesRejected) {
  std::vector<unsigned char> bytes(10, 0xff);
  bytes.push_back(0x01);
  WireReader r(span_of(bytes));
  std::uint64_t v = 0;
  Status s = r.read_varint(v);
  EXPECT_EQ(s.code(), StatusCode::invalid_model);
  EXPECT_TRUE(contains(s, "longer than 10 bytes at byte 0")) << s.message();
  EXPECT_EQ(r.offset(), 0u);  // a failed read does not advance
}

TEST(ProtoWire, VarintTenthByteMayOnlyCarryBitZero) {
  for (unsigned char last : {0x02, 0x7f}) {
    std::vector<unsigned char> bytes(9, 0xff);
    bytes.push_back(last);
    WireReader r(span_of(bytes));
    std::uint64_t v = 0;
    Status s = r.read_varint(v);
    EXPECT_EQ(s.code(), StatusCode::invalid_model) << int(last);
    EXPECT_TRUE(contains(s, "above 2^64-1")) << s.message();
  }
}

TEST(ProtoWire, VarintTruncatedNamesItsStartOffset) {
  const std::vector<unsigned char> bytes = {0x05, 0x80, 0x80};
  WireReader r(span_of(bytes), 1000);
  std::uint64_t v = 0;
  ASSERT_TRUE(r.read_varint(v).ok());
  Status s = r.read_varint(v);
  EXPECT_EQ(s.code(), StatusCode::invalid_model);
  EXPECT_STREQ(s.message(), "varint truncated at byte 1001");
  EXPECT_EQ(r.next_varint(v), WireError::truncated_varint);
}

TEST(ProtoWire, EmptyInputIsAtEndAndReadsFail) {
  WireReader r;
  EXPECT_TRUE(r.at_end());
  std::uint64_t v = 0;
  EXPECT_EQ(r.next_varint(v), WireError::truncated_varint);
  std::uint32_t field = 0;
  WireType type;
  EXPECT_EQ(r.next_tag(field, type), WireError::truncated_tag);
}

TEST(ProtoWire, TagSplitsFieldAndWireType) {
  ProtoWriter w;
  w.tag(1, Wire::varint).tag(15, Wire::length_delimited).tag(16, Wire::fixed32).tag((1u << 29) - 1, Wire::fixed64);
  WireReader r(w.span());
  std::uint32_t field = 0;
  WireType type = WireType::varint;
  ASSERT_TRUE(r.read_tag(field, type).ok());
  EXPECT_EQ(field, 1u);
  EXPECT_EQ(type, WireType::varint);
  ASSERT_TRUE(r.read_tag(field, type).ok());
  EXPECT_EQ(field, 15u);
  EXPECT_EQ(type, WireType::length_delimited);
  ASSERT_TRUE(r.read_tag(field, type).ok());
  EXPECT_EQ(field, 16u);
  EXPECT_EQ(type, WireType::fixed32);
  ASSERT_TRUE(r.read_tag(field, type).ok());
  EXPECT_EQ(field, (1u << 29) - 1);
  EXPECT_EQ(type, WireType::fixed64);
  EXPECT_TRUE(r.at_end());
}

TEST(ProtoWire, TagFieldZeroRejected) {
  ProtoWriter w;
  w.tag(0, Wire::varint).raw_varint(1);
  WireReader r(w.span());
  std::uint32_t field = 0;
  WireType type;
  Status s = r.read_tag(field, type);
  EXPECT_EQ(s.code(), StatusCode::invalid_model);
  EXPECT_STREQ(s.message(), "field number 0 at byte 0");
}

TEST(ProtoWire, TagGroupWireTypesRejectedWithClearMessage) {
  for (Wire wire : {Wire::start_group, Wire::end_group}) {
    ProtoWriter w;
    w.tag(7, wire);
    WireReader r(w.span());
    std::uint32_t field = 0;
    WireType type;
    EXPECT_EQ(r.next_tag(field, type), WireError::group_wire_type);
    Status s = r.error_status(WireError::group_wire_type);
    EXPECT_EQ(s.code(), StatusCode::invalid_model);
    EXPECT_TRUE(contains(s, "groups are not supported")) << s.message();
    EXPECT_TRUE(contains(s, "(field 7)")) << s.message();
  }
}

TEST(ProtoWire, TagWireTypesSixAndSevenRejected) {
  for (unsigned wire : {6u, 7u}) {
    ProtoWriter w;
    w.tag(3, wire);
    WireReader r(w.span());
    std::uint32_t field = 0;
    WireType type;
    Status s = r.read_tag(field, type);
    EXPECT_EQ(s.code(), StatusCode::invalid_model);
    EXPECT_TRUE(contains(s, "invalid wire type " + std::to_string(wire) + " at byte 0")) << s.message();
  }
}

TEST(ProtoWire, TagTruncatedOverlongOrAbove32BitsRejected) {
  const std::vector<unsigned char> truncated = {0x80};
  const std::vector<unsigned char> six_bytes = {0x88, 0x80, 0x80, 0x80, 0x80, 0x00};
  ProtoWriter above;
  above.raw_varint((std::uint64_t{1} << 32) | 8);
  std::uint32_t field = 0;
  WireType type;
  WireReader a(span_of(truncated));
  EXPECT_EQ(a.next_tag(field, type), WireError::truncated_tag);
  WireReader b(span_of(six_bytes));
  EXPECT_EQ(b.next_tag(field, type), WireError::tag_too_long);
  WireReader c(above.span());
  EXPECT_EQ(c.next_tag(field, type), WireError::tag_too_long);
  EXPECT_TRUE(contains(c.error_status(WireError::tag_too_long), "at byte 0"));
}

TEST(ProtoWire, Fixed32AndFixed64AreLittleEndian) {
  ProtoWriter w;
  w.raw_fixed32(0x11223344u).raw_fixed64(0x0102030405060708ull);
  EXPECT_EQ(w.bytes()[0], 0x44);
  WireReader r(w.span());
  std::uint32_t a = 0;
  std::uint64_t b = 0;
  ASSERT_TRUE(r.read_fixed32(a).ok());
  ASSERT_TRUE(r.read_fixed64(b).ok());
  EXPECT_EQ(a, 0x11223344u);
  EXPECT_EQ(b, 0x0102030405060708ull);
  EXPECT_TRUE(r.at_end());
}

TEST(ProtoWire, FixedTruncatedRejected) {
  const std::vector<unsigned char> three = {1, 2, 3};
  const std::vector<unsigned char> seven = {1, 2, 3, 4, 5, 6, 7};
  WireReader a(span_of(three));
  std::uint32_t v32 = 0;
  Status s = a.read_fixed32(v32);
  EXPECT_EQ(s.code(), StatusCode::invalid_model);
  EXPECT_STREQ(s.message(), "fixed32 truncated at byte 0 (4 bytes needed, 3 left)");
  WireReader b(span_of(seven));
  std::uint64_t v64 = 0;
  s = b.read_fixed64(v64);
  EXPECT_STREQ(s.message(), "fixed64 truncated at byte 0 (8 bytes needed, 7 left)");
}

TEST(ProtoWire, LengthDelimitedReturnsPayload) {
  ProtoWriter w;
  w.raw_varint(3).raw_bytes({'a', 'b', 'c'}).raw_varint(0);
  WireReader r(w.span());
  ByteSpan payload;
  ASSERT_TRUE(r.read_length_delimited(payload).ok());
  ASSERT_EQ(payload.size(), 3u);
  EXPECT_EQ(payload[0], 'a');
  EXPECT_EQ(payload[2], 'c');
  ASSERT_TRUE(r.read_length_delimited(payload).ok());
  EXPECT_EQ(payload.size(), 0u);
  EXPECT_TRUE(r.at_end());
}

TEST(ProtoWire, LengthPrefixPaddedPastFiveBytesRejectedLikeProtobuf) {
  // Length 1 written as 0x81 0x80 0x80 0x80 0x00 (5 bytes, accepted) and with one more 0x80 (6 bytes, refused).
  ProtoWriter five;
  five.raw_bytes({0x81, 0x80, 0x80, 0x80, 0x00, 'p'});
  WireReader r5(five.span());
  ByteSpan payload;
  Status s = r5.read_length_delimited(payload);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(payload.size(), 1u);
  ProtoWriter six;
  six.raw_bytes({0x81, 0x80, 0x80, 0x80, 0x80, 0x00, 'p'});
  WireReader r6(six.span());
  s = r6.read_length_delimited(payload);
  EXPECT_EQ(s.code(), StatusCode::invalid_model);
  EXPECT_TRUE(contains(s, "length")) << s.message();
}

TEST(ProtoWire, LengthPastEndRejected) {
  ProtoWriter w;
  w.raw_varint(5).raw_bytes({1, 2, 3});
  WireReader r(w.span(), 40);
  ByteSpan payload;
  Status s = r.read_length_delimited(payload);
  EXPECT_EQ(s.code(), StatusCode::invalid_model);
  EXPECT_STREQ(s.message(), "length 5 at byte 40 runs past the end (3 bytes left in the enclosing message)");
  EXPECT_EQ(r.offset(), 40u);
}

TEST(ProtoWire, LengthOneByteTooLongRejected) {
  ProtoWriter w;
  w.raw_varint(4).raw_bytes({1, 2, 3});
  // An exact-size heap copy, so that reading one byte too far would also trip AddressSanitizer.
  const std::vector<unsigned char> exact(w.bytes().begin(), w.bytes().end());
  WireReader r(span_of(exact));
  ByteSpan payload;
  EXPECT_EQ(r.next_length_delimited(payload), WireError::length_past_end);
  std::vector<unsigned char> fits = {3, 1, 2, 3};
  WireReader r2(span_of(fits));
  ASSERT_EQ(r2.next_length_delimited(payload), WireError::none);
  EXPECT_EQ(payload.size(), 3u);
}

TEST(ProtoWire, HugeLengthNearSizeMaxRejectedWithoutOverflow) {
  for (std::uint64_t length :
       {std::numeric_limits<std::uint64_t>::max(), std::numeric_limits<std::uint64_t>::max() - 1,
        static_cast<std::uint64_t>(std::numeric_limits<std::size_t>::max()), std::uint64_t{1} << 63}) {
    ProtoWriter w;
    w.raw_varint(length).raw_bytes({1, 2, 3, 4});
    WireReader r(w.span());
    ByteSpan payload;
    EXPECT_EQ(r.next_length_delimited(payload), WireError::length_past_end) << length;
  }
}

TEST(ProtoWire, LengthPrefixTruncatedRejected) {
  const std::vector<unsigned char> bytes = {0xff};
  WireReader r(span_of(bytes));
  ByteSpan payload;
  Status s = r.read_length_delimited(payload);
  EXPECT_STREQ(s.message(), "length prefix truncated at byte 0");
}

TEST(ProtoWire, SkipEveryWireType) {
  ProtoWriter w;
  w.raw_varint(1234567).raw_fixed64(1).raw_varint(2).raw_bytes({9, 9}).raw_fixed32(7).raw_varint(42);
  WireReader r(w.span());
  ASSERT_TRUE(r.skip(WireType::varint).ok());
  ASSERT_TRUE(r.skip(WireType::fixed64).ok());
  ASSERT_TRUE(r.skip(WireType::length_delimited).ok());
  ASSERT_TRUE(r.skip(WireType::fixed32).ok());
  std::uint64_t v = 0;
  ASSERT_TRUE(r.read_varint(v).ok());
  EXPECT_EQ(v, 42u);
  EXPECT_EQ(r.skip(WireType::start_group).code(), StatusCode::invalid_model);
  EXPECT_EQ(r.skip(WireType::end_group).code(), StatusCode::invalid_model);
}

TEST(ProtoWire, NextFieldReadsTagAndValue) {
  ProtoWriter w;
  w.varint_field(1, 150).fixed64_field(2, 0xabcdefull).string_field(3, "hi").fixed32_field(4, 0xdeadbeefu);
  WireReader r(w.span());
  WireField f;
  ASSERT_EQ(r.next_field(f), WireError::none);
  EXPECT_EQ(f.number, 1u);
  EXPECT_EQ(f.type, WireType::varint);
  EXPECT_EQ(f.scalar, 150u);
  EXPECT_EQ(f.offset, 0u);
  ASSERT_EQ(r.next_field(f), WireError::none);
  EXPECT_EQ(f.type, WireType::fixed64);
  EXPECT_EQ(f.scalar, 0xabcdefull);
  ASSERT_EQ(r.next_field(f), WireError::none);
  EXPECT_EQ(f.type, WireType::length_delimited);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(f.payload.data()), f.payload.size()), "hi");
  ASSERT_EQ(r.next_field(f), WireError::none);
  EXPECT_EQ(f.number, 4u);
  EXPECT_EQ(f.scalar, 0xdeadbeefu);
  EXPECT_TRUE(r.at_end());
}

TEST(ProtoWire, NextFieldValueErrorNamesTheField) {
  ProtoWriter w;
  w.varint_field(1, 1).tag(9, Wire::varint).raw_bytes({0x80});
  WireReader r(w.span());
  WireField f;
  ASSERT_EQ(r.next_field(f), WireError::none);
  const WireError e = r.next_field(f);
  ASSERT_EQ(e, WireError::truncated_varint);
  EXPECT_STREQ(r.error_status(e).message(), "varint truncated at byte 3 (field 9)");
}

TEST(ProtoWire, CheckPackedCountsAndValidates) {
  ProtoWriter varints;
  varints.raw_varint(1).raw_varint(300).raw_varint(static_cast<std::uint64_t>(std::int64_t{-1}));
  WireReader a(varints.span());
  std::size_t count = 0;
  EXPECT_EQ(a.check_packed(WireType::varint, 5, count), WireError::none);
  EXPECT_EQ(count, 3u);

  ProtoWriter broken;
  broken.raw_varint(1).raw_bytes({0x80});
  WireReader b(broken.span());
  EXPECT_EQ(b.check_packed(WireType::varint, 5, count), WireError::truncated_varint);

  const std::vector<unsigned char> five(5, 0);
  WireReader c(span_of(five), 10);
  const WireError e = c.check_packed(WireType::fixed32, 4, count);
  ASSERT_EQ(e, WireError::packed_size_mismatch);
  EXPECT_STREQ(c.error_status(e).message(),
               "packed fixed32 payload of 5 bytes at byte 10 is not a multiple of 4 (field 4)");

  const std::vector<unsigned char> sixteen(16, 0);
  WireReader d(span_of(sixteen));
  EXPECT_EQ(d.check_packed(WireType::fixed64, 10, count), WireError::none);
  EXPECT_EQ(count, 2u);
}

TEST(ProtoWire, ZigZagRoundTrips) {
  using onnxmicro::proto::zigzag_decode;
  using onnxmicro::proto::zigzag_encode;
  EXPECT_EQ(zigzag_decode(0), 0);
  EXPECT_EQ(zigzag_decode(1), -1);
  EXPECT_EQ(zigzag_decode(2), 1);
  EXPECT_EQ(zigzag_decode(3), -2);
  EXPECT_EQ(zigzag_decode(std::numeric_limits<std::uint64_t>::max()), std::numeric_limits<std::int64_t>::min());
  EXPECT_EQ(zigzag_decode(std::numeric_limits<std::uint64_t>::max() - 1), std::numeric_limits<std::int64_t>::max());
  for (std::int64_t v : {std::int64_t{0}, std::int64_t{-1}, std::int64_t{12345}, std::int64_t{-98765},
                         std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max()}) {
    EXPECT_EQ(zigzag_decode(zigzag_encode(v)), v);
  }
  ProtoWriter w;
  w.sint_field(1, -3);
  WireReader r(w.span());
  WireField f;
  ASSERT_EQ(r.next_field(f), WireError::none);
  EXPECT_EQ(f.scalar, 5u);
  EXPECT_EQ(zigzag_decode(f.scalar), -3);
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
