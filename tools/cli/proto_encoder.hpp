// SPDX-License-Identifier: MIT
// A small protobuf wire-format encoder for the CLI (writing TensorProto outputs) and its tests (building
// models). The library itself only reads protobuf; writing is a hosted-tool concern, so this lives here.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

namespace onnxmicro_cli {

/// Appends protobuf fields to a byte buffer. Fields are written in the order the caller adds them; to be
/// byte-identical with what the official protobuf library emits, add them in field-number order.
class ProtoEncoder {
 public:
  enum WireType : std::uint32_t { kVarint = 0, kFixed64 = 1, kLengthDelimited = 2, kFixed32 = 5 };

  const std::vector<unsigned char>& bytes() const noexcept { return bytes_; }
  std::vector<unsigned char> take() noexcept { return static_cast<std::vector<unsigned char>&&>(bytes_); }
  std::size_t size() const noexcept { return bytes_.size(); }

  void varint(std::uint64_t value) {
    while (value >= 0x80) {
      bytes_.push_back(static_cast<unsigned char>(value | 0x80));
      value >>= 7;
    }
    bytes_.push_back(static_cast<unsigned char>(value));
  }
  void tag(std::uint32_t field, WireType type) { varint((static_cast<std::uint64_t>(field) << 3) | type); }

  /// int32/int64/enum/bool field. Negative values take 10 bytes, as protobuf's int64 encoding requires.
  void int_field(std::uint32_t field, std::int64_t value) {
    tag(field, kVarint);
    varint(static_cast<std::uint64_t>(value));
  }
  void uint_field(std::uint32_t field, std::uint64_t value) {
    tag(field, kVarint);
    varint(value);
  }
  void float_field(std::uint32_t field, float value) {
    tag(field, kFixed32);
    std::uint32_t bits;
    std::memcpy(&bits, &value, 4);
    fixed32(bits);
  }
  void double_field(std::uint32_t field, double value) {
    tag(field, kFixed64);
    std::uint64_t bits;
    std::memcpy(&bits, &value, 8);
    for (int i = 0; i < 8; ++i) bytes_.push_back(static_cast<unsigned char>(bits >> (8 * i)));
  }
  /// string or bytes field (written even when empty, so the field is present for proto2 readers).
  void bytes_field(std::uint32_t field, const void* data, std::size_t size) {
    tag(field, kLengthDelimited);
    varint(size);
    const auto* p = static_cast<const unsigned char*>(data);
    bytes_.insert(bytes_.end(), p, p + size);
  }
  void string_field(std::uint32_t field, std::string_view text) { bytes_field(field, text.data(), text.size()); }
  /// Embedded message field.
  void message_field(std::uint32_t field, const ProtoEncoder& message) {
    bytes_field(field, message.bytes_.data(), message.bytes_.size());
  }
  /// Repeated varint field, packed (one length-delimited record).
  void packed_ints(std::uint32_t field, const std::int64_t* values, std::size_t count) {
    ProtoEncoder payload;
    for (std::size_t i = 0; i < count; ++i) payload.varint(static_cast<std::uint64_t>(values[i]));
    message_field(field, payload);
  }
  /// Repeated float field, packed.
  void packed_floats(std::uint32_t field, const float* values, std::size_t count) {
    ProtoEncoder payload;
    for (std::size_t i = 0; i < count; ++i) {
      std::uint32_t bits;
      std::memcpy(&bits, &values[i], 4);
      payload.fixed32(bits);
    }
    message_field(field, payload);
  }
  /// Appends bytes as they are (e.g. a deliberately malformed tail in tests).
  void raw(const void* data, std::size_t size) {
    const auto* p = static_cast<const unsigned char*>(data);
    bytes_.insert(bytes_.end(), p, p + size);
  }

 private:
  void fixed32(std::uint32_t bits) {
    for (int i = 0; i < 4; ++i) bytes_.push_back(static_cast<unsigned char>(bits >> (8 * i)));
  }

  std::vector<unsigned char> bytes_;
};

}  // namespace onnxmicro_cli
