// SPDX-License-Identifier: MIT
#include "tensor_io.hpp"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <ostream>
#include <string_view>

#include "cli_support.hpp"
#include "proto_encoder.hpp"

namespace onnxmicro_cli {

using onnxmicro::DataType;

namespace {

constexpr unsigned char kNpyMagic[] = {0x93, 'N', 'U', 'M', 'P', 'Y'};

bool has_npy_magic(const std::vector<unsigned char>& bytes) {
  return bytes.size() >= sizeof kNpyMagic && std::memcmp(bytes.data(), kNpyMagic, sizeof kNpyMagic) == 0;
}

// Allocates and checks the buffer for `shape` x `dtype`; the element count is already bounded by the caller.
bool size_tensor(HostTensor& out, const std::string& path, std::string& error) {
  std::size_t bytes = 0;
  onnxmicro::Status status = onnxmicro::checked_byte_size(out.dtype, out.shape, bytes);
  if (!status.ok()) {
    error = "'" + path + "': " + describe_status(status);
    return false;
  }
  out.data.assign(bytes, 0);
  return true;
}

// ---- .npy header: a Python dict literal such as {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }

class NpyHeaderParser {
 public:
  explicit NpyHeaderParser(std::string_view text) : text_(text) {}

  bool parse(std::string& descr, bool& fortran_order, std::vector<std::int64_t>& shape, std::string& error) {
    bool have_descr = false, have_order = false, have_shape = false;
    skip_space();
    if (!consume('{')) return fail("expected '{'", error);
    for (;;) {
      skip_space();
      if (consume('}')) break;
      std::string key;
      if (!parse_string(key)) return fail("expected a quoted key", error);
      skip_space();
      if (!consume(':')) return fail("expected ':' after '" + key + "'", error);
      skip_space();
      if (key == "descr") {
        if (!parse_string(descr)) return fail("'descr' must be a string (structured dtypes are not supported)", error);
        have_descr = true;
      } else if (key == "fortran_order") {
        if (!parse_bool(fortran_order)) return fail("'fortran_order' must be True or False", error);
        have_order = true;
      } else if (key == "shape") {
        if (!parse_shape(shape)) return fail("'shape' must be a tuple of non-negative integers", error);
        have_shape = true;
      } else {
        return fail("unexpected key '" + key + "'", error);
      }
      skip_space();
      if (consume(',')) continue;
      skip_space();
      if (consume('}')) break;
      return fail("expected ',' or '}'", error);
    }
    if (!have_descr || !have_order || !have_shape) {
      return fail("needs the keys 'descr', 'fortran_order' and 'shape'", error);
    }
    return true;
  }

 private:
  static bool fail(const std::string& what, std::string& error) {
    error = what;
    return false;
  }
  void skip_space() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\n')) ++pos_;
  }
  bool consume(char c) {
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  bool consume_word(std::string_view word) {
    if (text_.substr(pos_, word.size()) != word) return false;
    pos_ += word.size();
    return true;
  }
  bool parse_string(std::string& out) {
    if (pos_ >= text_.size() || (text_[pos_] != '\'' && text_[pos_] != '"')) return false;
    char quote = text_[pos_++];
    std::size_t end = text_.find(quote, pos_);
    if (end == std::string_view::npos) return false;
    out = std::string(text_.substr(pos_, end - pos_));
    pos_ = end + 1;
    return true;
  }
  bool parse_bool(bool& out) {
    if (consume_word("True")) {
      out = true;
      return true;
    }
    if (consume_word("False")) {
      out = false;
      return true;
    }
    return false;
  }
  bool parse_shape(std::vector<std::int64_t>& out) {
    out.clear();
    if (!consume('(')) return false;
    for (;;) {
      skip_space();
      if (consume(')')) return true;
      std::int64_t value = 0;
      const char* begin = text_.data() + pos_;
      auto result = std::from_chars(begin, text_.data() + text_.size(), value);
      if (result.ec != std::errc() || value < 0) return false;
      pos_ += static_cast<std::size_t>(result.ptr - begin);
      out.push_back(value);
      skip_space();
      if (consume(',')) continue;
      skip_space();
      if (consume(')')) return true;
      return false;
    }
  }

  std::string_view text_;
  std::size_t pos_ = 0;
};

bool npy_dtype(const std::string& descr, DataType& dtype) {
  struct Entry {
    const char* descr;
    DataType dtype;
  };
  // '|' (no byte order) is what NumPy writes for one-byte types; '<' is accepted for them as well.
  static const Entry kEntries[] = {
      {"<f4", DataType::float32}, {"<f8", DataType::float64}, {"<f2", DataType::float16}, {"<i8", DataType::int64},
      {"<i4", DataType::int32},   {"<i2", DataType::int16},   {"<i1", DataType::int8},    {"|i1", DataType::int8},
      {"|u1", DataType::uint8},   {"<u1", DataType::uint8},   {"|b1", DataType::boolean}, {"<u2", DataType::uint16},
      {"<u4", DataType::uint32},  {"<u8", DataType::uint64},
  };
  for (const Entry& e : kEntries) {
    if (descr == e.descr) {
      dtype = e.dtype;
      return true;
    }
  }
  return false;
}

std::string format_float(double value, bool single) {
  char buffer[64];
  std::to_chars_result result = single ? std::to_chars(buffer, buffer + sizeof buffer, static_cast<float>(value))
                                       : std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, result.ptr);
}

// A string element as printed: in double quotes, with quotes and backslashes escaped and control bytes as \xHH
// (valid UTF-8 is kept, invalid bytes become '?' as in printable()).
std::string quoted(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (byte < 0x20 || byte == 0x7f) {
      const char* hex = "0123456789abcdef";
      out += "\\x";
      out += hex[byte >> 4];
      out += hex[byte & 15];
    } else {
      out += c;
    }
  }
  return printable(out) + "\"";
}

template <typename T>
T load(const void* data, std::size_t index) {
  T value;
  std::memcpy(&value, static_cast<const unsigned char*>(data) + index * sizeof(T), sizeof(T));
  return value;
}

bool printable_dtype(DataType dtype) {
  switch (dtype) {
    case DataType::float32:
    case DataType::float64:
    case DataType::float16:
    case DataType::bfloat16:
    case DataType::int8:
    case DataType::uint8:
    case DataType::int16:
    case DataType::uint16:
    case DataType::int32:
    case DataType::uint32:
    case DataType::int64:
    case DataType::uint64:
    case DataType::boolean:
    case DataType::int4:
    case DataType::uint4:
    case DataType::string: return true;
    default: return false;
  }
}

// A string TensorProto's elements, copied out of the file's bytes (decode_to checks them against the dims).
bool decode_strings(const onnxmicro::proto::Tensor& tensor, const std::string& path, HostTensor& out,
                    std::string& error) {
  const std::size_t count = static_cast<std::size_t>(out.shape.element_count());
  std::vector<onnxmicro::StringRef> refs(count);
  const onnxmicro::Status status =
      count == 0 ? onnxmicro::Status() : tensor.decode_to(refs.data(), count * sizeof(onnxmicro::StringRef));
  if (!status.ok()) {
    error = "'" + path + "': " + describe_status(status);
    return false;
  }
  out.strings.clear();
  for (const onnxmicro::StringRef& ref : refs) out.strings.emplace_back(ref.view());
  return true;
}

// Appends code point `c` to `out` as UTF-8; false for surrogates and values past U+10FFFF.
bool append_utf8(std::uint32_t c, std::string& out) {
  if (c < 0x80) {
    out += static_cast<char>(c);
  } else if (c < 0x800) {
    out += static_cast<char>(0xC0 | (c >> 6));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    if (c >= 0xD800 && c <= 0xDFFF) return false;
    out += static_cast<char>(0xE0 | (c >> 12));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else if (c <= 0x10FFFF) {
    out += static_cast<char>(0xF0 | (c >> 18));
    out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else {
    return false;
  }
  return true;
}

// NumPy's fixed-width string dtypes: '<Un' (n UTF-32 code points) and '|Sn' (n bytes), NUL-padded.
bool npy_string_width(const std::string& descr, bool& unicode, std::size_t& width) {
  if (descr.size() < 3 || (descr.compare(0, 2, "<U") != 0 && descr.compare(0, 2, "|S") != 0)) return false;
  unicode = descr[1] == 'U';
  const char* end = descr.data() + descr.size();
  const auto parsed = std::from_chars(descr.data() + 2, end, width);
  return parsed.ec == std::errc() && parsed.ptr == end && width > 0 && width <= (1u << 20);
}

// The elements of a '<Un' or '|Sn' array, trailing NULs removed, as UTF-8.
bool decode_npy_strings(const unsigned char* data, std::size_t count, bool unicode, std::size_t width,
                        const std::string& path, HostTensor& out, std::string& error) {
  const std::size_t unit = unicode ? 4 : 1;
  out.strings.assign(count, std::string());
  for (std::size_t i = 0; i < count; ++i) {
    const unsigned char* element = data + i * width * unit;
    std::size_t length = width;
    while (length > 0 && std::all_of(element + (length - 1) * unit, element + length * unit,
                                     [](unsigned char b) { return b == 0; })) {
      --length;
    }
    std::string& text = out.strings[i];
    for (std::size_t k = 0; k < length; ++k) {
      if (!unicode) {
        text += static_cast<char>(element[k]);
        continue;
      }
      std::uint32_t code = 0;
      std::memcpy(&code, element + 4 * k, 4);
      if (!append_utf8(code, text)) {
        error = "'" + path + "': element " + std::to_string(i) + " holds " + std::to_string(code) +
                ", which is not a Unicode code point";
        return false;
      }
    }
  }
  return true;
}

}  // namespace

onnxmicro::ConstTensorView HostTensor::view() const {
  if (dtype == DataType::string) {
    string_refs_.resize(strings.size());
    for (std::size_t i = 0; i < strings.size(); ++i) string_refs_[i] = onnxmicro::StringRef::of(strings[i]);
    return onnxmicro::ConstTensorView(dtype, shape, string_refs_.empty() ? nullptr : string_refs_.data());
  }
  if (onnxmicro::is_value_container(dtype)) {
    value_refs_.resize(elements.size());
    for (std::size_t i = 0; i < elements.size(); ++i) value_refs_[i] = onnxmicro::value_ref_of(elements[i].view());
    return onnxmicro::ConstTensorView(dtype, shape, value_refs_.empty() ? nullptr : value_refs_.data());
  }
  return onnxmicro::ConstTensorView(dtype, shape, data.empty() ? nullptr : data.data());
}

bool read_tensor_file(const std::string& path, HostTensor& out, std::string& error) {
  std::vector<unsigned char> bytes;
  if (!read_file(path, bytes, error)) return false;
  if (has_npy_magic(bytes)) return parse_npy(bytes, path, out, error);
  return parse_tensor_proto(bytes, path, out, error);
}

bool parse_tensor_proto(const std::vector<unsigned char>& bytes, const std::string& path, HostTensor& out,
                        std::string& error) {
  namespace proto = onnxmicro::proto;
  proto::Tensor tensor;
  onnxmicro::Status status = proto::Tensor::parse(onnxmicro::ByteSpan(bytes.data(), bytes.size()), 0, tensor);
  if (!status.ok()) {
    error = "'" + path + "' is not a valid onnx TensorProto: " + describe_status(status);
    return false;
  }
  if (tensor.data_location == proto::DataLocation::external) {
    error = "'" + path + "': tensor data stored in an external file is not supported in input files";
    return false;
  }
  if (!onnxmicro::is_known_dtype(tensor.data_type)) {
    error = "'" + path + "': unknown TensorProto data_type " + std::to_string(tensor.data_type);
    return false;
  }
  out.dtype = static_cast<DataType>(tensor.data_type);
  out.name = std::string(tensor.name);
  status = out.shape.assign(tensor.dims, static_cast<std::size_t>(tensor.rank));
  std::int64_t count = 0;
  if (status.ok()) status = out.shape.checked_element_count(count);
  if (!status.ok()) {
    error = "'" + path + "': " + describe_status(status);
    return false;
  }
  // Every stored element takes at least half a byte of the file (sub-byte raw data), so a larger count is
  // a lie about the data; refuse it before allocating.
  const std::size_t stored = tensor.stored_element_count();
  if (tensor.has_raw_data && stored == static_cast<std::size_t>(-1)) {
    error = "'" + path + "': raw_data has " + std::to_string(tensor.raw_data.size()) +
            " bytes, not a whole number of " + onnxmicro::dtype_name(out.dtype) + " elements";
    return false;
  }
  if (static_cast<std::uint64_t>(count) > 2 * static_cast<std::uint64_t>(bytes.size()) ||
      stored != static_cast<std::size_t>(count)) {
    error = "'" + path + "': dims " + format_shape(out.shape) + " describe " + std::to_string(count) +
            " elements but the tensor stores " + std::to_string(stored);
    return false;
  }
  if (out.dtype == DataType::string) return decode_strings(tensor, path, out, error);
  if (!size_tensor(out, path, error)) return false;
  if (out.data.empty()) return true;
  status = tensor.decode_to(out.data.data(), out.data.size());
  if (!status.ok()) {
    error = "'" + path + "': " + describe_status(status);
    return false;
  }
  return true;
}

bool parse_npy(const std::vector<unsigned char>& bytes, const std::string& path, HostTensor& out, std::string& error) {
  const std::string prefix = "'" + path + "' is not a valid .npy file: ";
  if (bytes.size() < 10) {
    error = prefix + "truncated header";
    return false;
  }
  unsigned major = bytes[6];
  std::size_t header_length = 0;
  std::size_t header_start = 0;
  if (major == 1) {
    header_length = static_cast<std::size_t>(bytes[8]) | static_cast<std::size_t>(bytes[9]) << 8;
    header_start = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12) {
      error = prefix + "truncated header";
      return false;
    }
    header_length = static_cast<std::size_t>(bytes[8]) | static_cast<std::size_t>(bytes[9]) << 8 |
                    static_cast<std::size_t>(bytes[10]) << 16 | static_cast<std::size_t>(bytes[11]) << 24;
    header_start = 12;
  } else {
    error = prefix + "format version " + std::to_string(major) + " is not supported (1, 2 or 3)";
    return false;
  }
  if (header_length > bytes.size() - header_start) {
    error = prefix + "header length " + std::to_string(header_length) + " runs past the end of the file";
    return false;
  }
  std::string_view header(reinterpret_cast<const char*>(bytes.data()) + header_start, header_length);
  std::string descr;
  bool fortran_order = false;
  std::vector<std::int64_t> dims;
  std::string header_error;
  if (!NpyHeaderParser(header).parse(descr, fortran_order, dims, header_error)) {
    error = prefix + "header " + header_error;
    return false;
  }
  bool unicode = false;
  std::size_t string_width = 0;
  const bool strings = npy_string_width(descr, unicode, string_width);
  if (strings) {
    out.dtype = DataType::string;
  } else if (!npy_dtype(descr, out.dtype)) {
    error = "'" + path + "': .npy dtype '" + printable(descr) +
            "' is not supported (<f4 <f8 <f2 <i8 <i4 <i2 <i1 |u1 <u2 <u4 <u8 |b1 <Un |Sn, little-endian; "
            "object arrays need pickle: save strings as numpy.str_)";
    return false;
  }
  if (fortran_order) {
    error = "'" + path + "': .npy arrays in Fortran order are not supported (save a C-ordered array)";
    return false;
  }
  out.name.clear();
  onnxmicro::Status status = out.shape.assign(dims.data(), dims.size());
  std::int64_t count = 0;
  if (status.ok()) status = out.shape.checked_element_count(count);
  if (!status.ok()) {
    error = "'" + path + "': " + describe_status(status);
    return false;
  }
  std::size_t data_bytes = bytes.size() - header_start - header_length;
  const std::uint64_t element_bytes = strings ? string_width * (unicode ? 4 : 1) : onnxmicro::dtype_size(out.dtype);
  // Compare counts before allocating: the shape must describe exactly the bytes the file holds.
  if (static_cast<std::uint64_t>(count) > data_bytes ||
      static_cast<std::uint64_t>(count) * element_bytes != data_bytes) {
    error = "'" + path + "': shape " + format_shape(out.shape) + " of " + descr + " needs " +
            std::to_string(static_cast<std::uint64_t>(count) * element_bytes) + " data bytes, the file has " +
            std::to_string(data_bytes);
    return false;
  }
  const unsigned char* payload = bytes.data() + header_start + header_length;
  if (strings) {
    return decode_npy_strings(payload, static_cast<std::size_t>(count), unicode, string_width, path, out, error);
  }
  if (!size_tensor(out, path, error)) return false;
  if (!out.data.empty()) std::memcpy(out.data.data(), payload, data_bytes);
  return true;
}

bool encode_tensor_proto(const std::string& name, const onnxmicro::ConstTensorView& value,
                         std::vector<unsigned char>& out, std::string& error) {
  if (onnxmicro::is_value_container(value.dtype) ||
      (onnxmicro::dtype_size(value.dtype) == 0 && !onnxmicro::is_sub_byte(value.dtype))) {
    error = "output '" + printable(name) + "' has dtype " + onnxmicro::dtype_name(value.dtype) +
            ", which a TensorProto cannot hold";
    return false;
  }
  ProtoEncoder encoder;
  for (int i = 0; i < value.shape.rank(); ++i) encoder.int_field(1, value.shape[i]);  // dims, unpacked (proto2)
  encoder.int_field(2, static_cast<std::int64_t>(value.dtype));                       // data_type
  if (value.dtype == DataType::string) {
    const auto* strings = static_cast<const onnxmicro::StringRef*>(value.data);
    const std::int64_t count = value.shape.element_count();
    for (std::int64_t i = 0; i < count; ++i) encoder.string_field(6, strings[i].view());  // string_data
    encoder.string_field(8, name);                                                        // name
    out = encoder.take();
    return true;
  }
  encoder.string_field(8, name);                                                      // name
  encoder.bytes_field(9, value.data, value.data == nullptr ? 0 : value.byte_size());  // raw_data
  out = encoder.take();
  return true;
}

std::string format_element(DataType dtype, const void* data, std::size_t index) {
  switch (dtype) {
    case DataType::float32: return format_float(load<float>(data, index), true);
    case DataType::float64: return format_float(load<double>(data, index), false);
    case DataType::float16:
      return format_float(onnxmicro::float16_t::from_bits(load<std::uint16_t>(data, index)).to_float(), true);
    case DataType::bfloat16:
      return format_float(onnxmicro::bfloat16_t::from_bits(load<std::uint16_t>(data, index)).to_float(), true);
    case DataType::int8: return std::to_string(load<std::int8_t>(data, index));
    case DataType::uint8: return std::to_string(load<std::uint8_t>(data, index));
    case DataType::int16: return std::to_string(load<std::int16_t>(data, index));
    case DataType::uint16: return std::to_string(load<std::uint16_t>(data, index));
    case DataType::int32: return std::to_string(load<std::int32_t>(data, index));
    case DataType::uint32: return std::to_string(load<std::uint32_t>(data, index));
    case DataType::int64: return std::to_string(load<std::int64_t>(data, index));
    case DataType::uint64: return std::to_string(load<std::uint64_t>(data, index));
    case DataType::boolean: return load<std::uint8_t>(data, index) != 0 ? "true" : "false";
    case DataType::string: return quoted(load<onnxmicro::StringRef>(data, index).view());
    case DataType::int4:
    case DataType::uint4: {
      // Two elements per byte, low nibble first.
      unsigned byte = load<std::uint8_t>(data, index / 2);
      int nibble = static_cast<int>((index % 2 == 0) ? (byte & 0x0f) : (byte >> 4));
      if (dtype == DataType::int4 && nibble >= 8) nibble -= 16;
      return std::to_string(nibble);
    }
    default: return "?";
  }
}

void print_tensor(std::ostream& out, const std::string& name, const onnxmicro::ConstTensorView& value,
                  std::size_t max_values) {
  out << printable(name) << ": " << onnxmicro::dtype_name(value.dtype) << ' ' << format_shape(value.shape) << '\n';
  std::int64_t signed_count = value.shape.is_static() ? value.element_count() : 0;
  std::size_t count = signed_count > 0 ? static_cast<std::size_t>(signed_count) : 0;
  if (onnxmicro::is_value_container(value.dtype)) {  // each element on its own, named NAME[k]
    const auto* refs = static_cast<const onnxmicro::ValueRef*>(value.data);
    for (std::size_t k = 0; k < count; ++k) {
      print_tensor(out, name + "[" + std::to_string(k) + "]", onnxmicro::view_of(refs[k]), max_values);
    }
    return;
  }
  if (!printable_dtype(value.dtype)) {
    out << "(values of dtype " << onnxmicro::dtype_name(value.dtype) << " are not printed)\n";
    return;
  }
  std::size_t shown = (max_values != 0 && count > max_values) ? max_values : count;
  out << '[';
  for (std::size_t i = 0; i < shown; ++i) {
    if (i) out << ", ";
    out << format_element(value.dtype, value.data, i);
  }
  if (shown < count) out << (shown ? ", ..." : "...");
  out << "]\n";
}

}  // namespace onnxmicro_cli
