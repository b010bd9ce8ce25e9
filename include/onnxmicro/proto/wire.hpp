// SPDX-License-Identifier: MIT
// Protobuf wire format reader: every read bounds-checked, overflow-safe, no allocation.
//
// Two layers: the `next_*` methods return a small WireError code (cheap enough to call per field while
// parsing a whole model), and the Status methods (`read_*`, `skip`) wrap them for callers that want a message.
// On failure the reader does not advance past the broken item, and remembers where it was, so the message
// names the byte offset of the item that could not be read.
#pragma once
#include <cstddef>
#include <cstdint>

#include "onnxmicro/core/span.hpp"
#include "onnxmicro/core/status.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace proto {

enum class WireType : std::uint8_t {
  varint = 0,
  fixed64 = 1,
  length_delimited = 2,
  start_group = 3,
  end_group = 4,
  fixed32 = 5
};

/// Why a wire read failed (`none` = it did not). WireReader::describe_error() turns it into text.
enum class WireError : std::uint8_t {
  none = 0,
  truncated_varint,      ///< the input ended inside a varint
  varint_too_long,       ///< an 11th varint byte (the 10th still had its continuation bit)
  varint_overflow,       ///< the 10th varint byte carries bits above bit 0 (value above 2^64-1)
  truncated_tag,         ///< the input ended inside a tag
  tag_too_long,          ///< a tag longer than 5 bytes or above 2^32-1
  field_zero,            ///< field number 0
  group_wire_type,       ///< wire type 3/4 (groups: deprecated, never used by ONNX)
  invalid_wire_type,     ///< wire type 6 or 7
  truncated_fixed32,     ///< fewer than 4 bytes left for a fixed32
  truncated_fixed64,     ///< fewer than 8 bytes left for a fixed64
  truncated_length,      ///< the input ended inside a length prefix
  length_past_end,       ///< a length prefix reaches past the end of the enclosing message
  packed_size_mismatch,  ///< a packed fixed32/fixed64 payload whose size is not a multiple of 4/8
  length_too_long,       ///< a length prefix of more than 5 bytes or above 2^31-1 (protobuf's limits)
};

/// One field as read by WireReader::next_field(): number, wire type and value.
struct WireField {
  std::uint32_t number = 0;
  WireType type = WireType::varint;
  std::uint64_t scalar = 0;  ///< value of a varint, fixed32 or fixed64 field (raw bits)
  ByteSpan payload;          ///< payload of a length-delimited field
  std::size_t offset = 0;    ///< absolute offset of the field's tag
};

/// Sequential reader over one message's bytes. Errors name the byte offset (relative to the start of
/// the buffer given at construction plus `base_offset`) so messages point at the broken byte.
class WireReader {
 public:
  WireReader() noexcept = default;
  explicit WireReader(ByteSpan bytes, std::size_t base_offset = 0) noexcept;
  bool at_end() const noexcept;
  std::size_t offset() const noexcept;  ///< absolute offset of the next byte
  /// Bytes not read yet.
  std::size_t remaining() const noexcept { return size_ - pos_; }
  /// Reads a tag. Rejects field number 0, field numbers above 2^29-1, wire types 3/4 (groups) and 6/7.
  Status read_tag(std::uint32_t& field, WireType& type) noexcept;
  /// Reads a varint of at most 10 bytes (the 10th byte may only carry bit 0).
  Status read_varint(std::uint64_t& value) noexcept;
  Status read_fixed32(std::uint32_t& value) noexcept;
  Status read_fixed64(std::uint64_t& value) noexcept;
  /// Reads a length prefix and the payload (length compared against remaining bytes without overflow). As
  /// protobuf, rejects a prefix longer than 5 bytes (a small length padded with 0x80 bytes) or above 2^31-1.
  Status read_length_delimited(ByteSpan& payload) noexcept;
  /// Skips a field's payload of the given wire type.
  Status skip(WireType type) noexcept;

  // ---- Fast API: same checks as above, a WireError instead of a Status ----

  /// As read_tag(). A tag is at most 5 bytes and fits 32 bits, as in every protobuf implementation.
  WireError next_tag(std::uint32_t& field, WireType& type) noexcept;
  WireError next_varint(std::uint64_t& value) noexcept;
  WireError next_fixed32(std::uint32_t& value) noexcept;
  WireError next_fixed64(std::uint64_t& value) noexcept;
  WireError next_length_delimited(ByteSpan& payload) noexcept;
  /// Skips a value of wire type `type` (groups and wire types 6/7 are errors).
  WireError skip_value(WireType type) noexcept;
  /// Reads a tag and its value: the unit every message parser loops over. Unknown fields are skipped by
  /// simply ignoring what this returns.
  WireError next_field(WireField& field) noexcept;
  /// Consumes the rest of this reader as the payload of packed repeated field `field` whose elements have
  /// wire type `element_type` (varint, fixed32 or fixed64), checking every element; counts them.
  WireError check_packed(WireType element_type, std::uint32_t field, std::size_t& count) noexcept;

  /// Appends what the last error `error` was and where ("varint truncated at byte 12 (field 3)").
  Status& describe_error(WireError error, Status& status) const noexcept;
  /// The last error as an invalid_model Status (ok for WireError::none).
  Status error_status(WireError error) const noexcept;

 private:
  WireError fail(WireError error, std::size_t position) noexcept {
    error_offset_ = base_ + position;
    return error;
  }
  Status status_of(WireError error) const noexcept { return error == WireError::none ? Status() : error_status(error); }

  const unsigned char* data_ = nullptr;
  std::size_t size_ = 0;
  std::size_t pos_ = 0;
  std::size_t base_ = 0;
  // Details of the last error (and the field being read) for describe_error().
  std::size_t error_offset_ = 0;
  std::uint64_t error_length_ = 0;   ///< declared length, or payload size for packed_size_mismatch
  std::size_t error_available_ = 0;  ///< bytes that were left
  std::uint32_t current_field_ = 0;  ///< field of the last tag read (0: none)
  std::uint8_t error_wire_type_ = 0;
};

/// ZigZag decoding for sint32/sint64.
constexpr std::int64_t zigzag_decode(std::uint64_t v) noexcept {
  return static_cast<std::int64_t>(v >> 1) ^ -static_cast<std::int64_t>(v & 1);
}

/// ZigZag encoding (the inverse of zigzag_decode).
constexpr std::uint64_t zigzag_encode(std::int64_t v) noexcept {
  return (static_cast<std::uint64_t>(v) << 1) ^ (v < 0 ? ~std::uint64_t{0} : std::uint64_t{0});
}

// ---- Implementation ---------------------------------------------------------------------------------------

inline WireReader::WireReader(ByteSpan bytes, std::size_t base_offset) noexcept
    : data_(bytes.data()), size_(bytes.size()), base_(base_offset) {}

inline bool WireReader::at_end() const noexcept { return pos_ >= size_; }

inline std::size_t WireReader::offset() const noexcept { return base_ + pos_; }

inline WireError WireReader::next_varint(std::uint64_t& value) noexcept {
  std::uint64_t result = 0;
  std::size_t p = pos_;
  for (int i = 0; i < 10; ++i) {
    if (p >= size_) return fail(WireError::truncated_varint, pos_);
    const unsigned byte = data_[p++];
    if (i == 9) {
      // The 10th byte holds bit 63 only; anything else is an 11th byte or a value past 2^64-1.
      if (byte & 0x80u) return fail(WireError::varint_too_long, pos_);
      if (byte > 1u) return fail(WireError::varint_overflow, pos_);
      result |= static_cast<std::uint64_t>(byte) << 63;
      break;
    }
    result |= static_cast<std::uint64_t>(byte & 0x7fu) << (7 * i);
    if ((byte & 0x80u) == 0) break;
  }
  pos_ = p;
  value = result;
  return WireError::none;
}

inline WireError WireReader::next_tag(std::uint32_t& field, WireType& type) noexcept {
  std::uint64_t tag = 0;
  std::size_t p = pos_;
  for (int i = 0;; ++i) {
    if (p >= size_) return fail(WireError::truncated_tag, pos_);
    if (i == 5) return fail(WireError::tag_too_long, pos_);
    const unsigned byte = data_[p++];
    tag |= static_cast<std::uint64_t>(byte & 0x7fu) << (7 * i);
    if ((byte & 0x80u) == 0) break;
  }
  if (tag > 0xffffffffu) return fail(WireError::tag_too_long, pos_);
  const auto number = static_cast<std::uint32_t>(tag >> 3);
  const auto wire = static_cast<std::uint8_t>(tag & 7u);
  current_field_ = number;
  error_wire_type_ = wire;
  if (number == 0) return fail(WireError::field_zero, pos_);
  if (wire == 3 || wire == 4) return fail(WireError::group_wire_type, pos_);
  if (wire > 5) return fail(WireError::invalid_wire_type, pos_);
  pos_ = p;
  field = number;
  type = static_cast<WireType>(wire);
  return WireError::none;
}

inline WireError WireReader::next_fixed32(std::uint32_t& value) noexcept {
  if (size_ - pos_ < 4) {
    error_available_ = size_ - pos_;
    return fail(WireError::truncated_fixed32, pos_);
  }
  const unsigned char* p = data_ + pos_;
  value = static_cast<std::uint32_t>(p[0]) | (static_cast<std::uint32_t>(p[1]) << 8) |
          (static_cast<std::uint32_t>(p[2]) << 16) | (static_cast<std::uint32_t>(p[3]) << 24);
  pos_ += 4;
  return WireError::none;
}

inline WireError WireReader::next_fixed64(std::uint64_t& value) noexcept {
  if (size_ - pos_ < 8) {
    error_available_ = size_ - pos_;
    return fail(WireError::truncated_fixed64, pos_);
  }
  const unsigned char* p = data_ + pos_;
  std::uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
  value = v;
  pos_ += 8;
  return WireError::none;
}

inline WireError WireReader::next_length_delimited(ByteSpan& payload) noexcept {
  const std::size_t start = pos_;
  std::uint64_t length = 0;
  WireError e = next_varint(length);
  if (e == WireError::truncated_varint) return fail(WireError::truncated_length, start);
  if (e != WireError::none) return e;
  // Compare in 64 bits against what is left: never computes pos_ + length, which could overflow.
  const std::size_t left = size_ - pos_;
  if (length > static_cast<std::uint64_t>(left)) {
    error_length_ = length;
    error_available_ = left;
    pos_ = start;
    return fail(WireError::length_past_end, start);
  }
  // protobuf reads a size as at most 5 bytes below 2^31: accept no more than it does.
  if (pos_ - start > 5 || length > 0x7fffffffu) {
    error_length_ = pos_ - start;
    pos_ = start;
    return fail(WireError::length_too_long, start);
  }
  payload = ByteSpan(data_ + pos_, static_cast<std::size_t>(length));
  pos_ += static_cast<std::size_t>(length);
  return WireError::none;
}

inline WireError WireReader::skip_value(WireType type) noexcept {
  switch (type) {
    case WireType::varint: {
      std::uint64_t ignored;
      return next_varint(ignored);
    }
    case WireType::fixed64: {
      std::uint64_t ignored;
      return next_fixed64(ignored);
    }
    case WireType::length_delimited: {
      ByteSpan ignored;
      return next_length_delimited(ignored);
    }
    case WireType::fixed32: {
      std::uint32_t ignored;
      return next_fixed32(ignored);
    }
    case WireType::start_group:
    case WireType::end_group:
      error_wire_type_ = static_cast<std::uint8_t>(type);
      return fail(WireError::group_wire_type, pos_);
  }
  error_wire_type_ = static_cast<std::uint8_t>(type);
  return fail(WireError::invalid_wire_type, pos_);
}

inline WireError WireReader::next_field(WireField& field) noexcept {
  field.offset = offset();
  WireError e = next_tag(field.number, field.type);
  if (e != WireError::none) return e;
  switch (field.type) {
    case WireType::varint: return next_varint(field.scalar);
    case WireType::fixed64: return next_fixed64(field.scalar);
    case WireType::length_delimited: return next_length_delimited(field.payload);
    case WireType::fixed32: {
      std::uint32_t v = 0;
      e = next_fixed32(v);
      field.scalar = v;
      return e;
    }
    default: break;  // next_tag() already rejected groups and wire types 6/7
  }
  return fail(WireError::invalid_wire_type, pos_);
}

inline WireError WireReader::check_packed(WireType element_type, std::uint32_t field, std::size_t& count) noexcept {
  current_field_ = field;
  count = 0;
  if (element_type == WireType::fixed32 || element_type == WireType::fixed64) {
    const std::size_t width = element_type == WireType::fixed32 ? 4 : 8;
    const std::size_t left = size_ - pos_;
    if (left % width != 0) {
      error_length_ = left;
      error_wire_type_ = static_cast<std::uint8_t>(element_type);
      return fail(WireError::packed_size_mismatch, pos_);
    }
    count = left / width;
    pos_ = size_;
    return WireError::none;
  }
  while (!at_end()) {
    std::uint64_t ignored;
    WireError e = next_varint(ignored);
    if (e != WireError::none) return e;
    ++count;
  }
  return WireError::none;
}

inline Status& WireReader::describe_error(WireError error, Status& s) const noexcept {
  const auto at = static_cast<unsigned long long>(error_offset_);
  switch (error) {
    case WireError::none: return s;
    case WireError::truncated_varint: s << "varint truncated at byte " << at; break;
    case WireError::varint_too_long: s << "varint longer than 10 bytes at byte " << at; break;
    case WireError::varint_overflow: s << "varint above 2^64-1 (10th byte > 1) at byte " << at; break;
    case WireError::truncated_tag: s << "tag truncated at byte " << at; break;
    case WireError::tag_too_long: s << "tag longer than 5 bytes or above 2^32-1 at byte " << at; break;
    case WireError::field_zero: s << "field number 0 at byte " << at; break;
    case WireError::group_wire_type:
      s << "wire type " << static_cast<unsigned>(error_wire_type_)
        << (error_wire_type_ == 3 ? " (start group)" : " (end group)") << " at byte " << at
        << "; groups are not supported (ONNX never uses them)";
      break;
    case WireError::invalid_wire_type:
      s << "invalid wire type " << static_cast<unsigned>(error_wire_type_) << " at byte " << at;
      break;
    case WireError::truncated_fixed32:
      s << "fixed32 truncated at byte " << at << " (4 bytes needed, " << error_available_ << " left)";
      break;
    case WireError::truncated_fixed64:
      s << "fixed64 truncated at byte " << at << " (8 bytes needed, " << error_available_ << " left)";
      break;
    case WireError::truncated_length: s << "length prefix truncated at byte " << at; break;
    case WireError::length_past_end:
      s << "length " << error_length_ << " at byte " << at << " runs past the end (" << error_available_
        << " bytes left in the enclosing message)";
      break;
    case WireError::length_too_long:
      s << "length prefix of " << error_length_ << " bytes at byte " << at
        << " exceeds protobuf's limits (at most 5 bytes, length below 2^31)";
      break;
    case WireError::packed_size_mismatch:
      s << "packed " << (error_wire_type_ == 5 ? "fixed32" : "fixed64") << " payload of " << error_length_
        << " bytes at byte " << at << " is not a multiple of " << (error_wire_type_ == 5 ? 4 : 8);
      break;
  }
  if (current_field_ != 0 && error != WireError::field_zero) s << " (field " << current_field_ << ")";
  return s;
}

inline Status WireReader::error_status(WireError error) const noexcept {
  if (error == WireError::none) return Status();
  Status s(StatusCode::invalid_model);
  describe_error(error, s);
  return s;
}

inline Status WireReader::read_tag(std::uint32_t& field, WireType& type) noexcept {
  return status_of(next_tag(field, type));
}
inline Status WireReader::read_varint(std::uint64_t& value) noexcept { return status_of(next_varint(value)); }
inline Status WireReader::read_fixed32(std::uint32_t& value) noexcept { return status_of(next_fixed32(value)); }
inline Status WireReader::read_fixed64(std::uint64_t& value) noexcept { return status_of(next_fixed64(value)); }
inline Status WireReader::read_length_delimited(ByteSpan& payload) noexcept {
  return status_of(next_length_delimited(payload));
}
inline Status WireReader::skip(WireType type) noexcept { return status_of(skip_value(type)); }

}  // namespace proto
ONNXMICRO_NAMESPACE_END
