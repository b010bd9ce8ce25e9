// SPDX-License-Identifier: MIT
// External data of initializers (TensorProto.data_location = EXTERNAL, keys location/offset/length/checksum):
// resolved once, at Model::load, into views of bytes that live outside the model. On POSIX each distinct file
// is mapped read-only once (no copy of the weights) and unmapped with the Model; a platform without a file
// system supplies the bytes through an ExternalDataReader. A location must name a regular file inside the
// model directory: every path component is opened relative to the directory with O_NOFOLLOW, so neither a
// symbolic link nor `..` can lead out of it, and hard-linked files (which may alias a file elsewhere) are
// refused.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "onnxmicro/core/dtype.hpp"
#include "onnxmicro/core/memory.hpp"
#include "onnxmicro/core/span.hpp"
#include "onnxmicro/core/status.hpp"
#include "onnxmicro/core/tensor.hpp"
#include "onnxmicro/proto/onnx_views.hpp"

#include "onnxmicro/model/mapped_file.hpp"

ONNXMICRO_NAMESPACE_BEGIN

/// Supplies the bytes of external data when there is no file system to read them from (weights in flash, a
/// custom archive). Set LoadOptions::external_data_reader; Model::load then calls read() once per external
/// initializer, after validating the location exactly as for files (relative, no `..`, no backslash or NUL).
class ExternalDataReader {
 public:
  /// Points `out` at the `length` bytes at `offset` of the file `location` (as written in the model,
  /// relative to the model's directory). `length` is the tensor's byte size: when the model gives a length
  /// it was checked to equal it; when it gives none, the tensor is the `length` bytes at `offset`. The bytes
  /// must stay valid and unchanged while the Model (and any Session prepared from it) lives. Return an error
  /// (io_error, out_of_range, ...) when they are not available; Model::load adds the tensor's name to it.
  virtual Status read(std::string_view location, std::uint64_t offset, std::uint64_t length,
                      ByteSpan& out) noexcept = 0;

 protected:
  // Never deleted through this interface (keeps operator delete out of heap-free builds).
  ~ExternalDataReader() = default;
};

namespace detail {

/// The external_data entries of one tensor.
struct ExternalDataRef {
  std::string_view location;
  std::uint64_t offset = 0;
  bool has_length = false;
  std::uint64_t length = 0;
  std::string_view checksum;  ///< SHA-1 hex digest, empty when absent
};

/// A file mapped for external data. Owned by the Model that loaded it (Model::~Model unmaps).
struct ExternalFileMapping {
  std::string_view location;  ///< as first written in the model (points into the model bytes)
  std::uint64_t device = 0;
  std::uint64_t inode = 0;
  const unsigned char* data = nullptr;  ///< nullptr for an empty file
  std::uint64_t size = 0;
  bool digest_known = false;
  unsigned char digest[20] = {};  ///< SHA-1 of the whole file, once computed (checksum fallback)
};

/// An external initializer's resolved bytes, keyed by the TensorProto's position in the model bytes (the
/// graph builder, and subgraphs loaded later, find their tensors' data here).
struct ResolvedExternalTensor {
  const unsigned char* tensor_proto = nullptr;
  ByteSpan data;
};

/// Appends `text` with bytes outside printable ASCII as \xNN (a NUL would cut the message short).
inline Status& append_escaped(Status& s, std::string_view text) noexcept {
  static constexpr char kHex[] = "0123456789abcdef";
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (u >= 0x20 && u < 0x7f) {
      s << c;
    } else {
      const char escaped[4] = {'\\', 'x', kHex[u >> 4], kHex[u & 15]};
      s << std::string_view(escaped, 4);
    }
  }
  return s;
}

/// Starts an error about one external initializer: "initializer 'W' external data 'w.bin': ".
inline Status external_error(StatusCode code, const proto::Tensor& t, std::string_view location) noexcept {
  Status s(code);
  s << "initializer '" << t.name << "' external data '";
  append_escaped(s, location) << "': ";
  return s;
}

/// Parses a decimal offset/length value (digits only, no sign, at most 2^64 - 1).
inline bool parse_external_integer(std::string_view text, std::uint64_t& out) noexcept {
  if (text.empty()) return false;
  std::uint64_t value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
    const auto digit = static_cast<std::uint64_t>(c - '0');
    if (value > (static_cast<std::uint64_t>(-1) - digit) / 10) return false;
    value = value * 10 + digit;
  }
  out = value;
  return true;
}

/// Reads location/offset/length/checksum (other keys are ignored, as onnx does); a repeated key or a value
/// that is not a decimal number is an error.
inline Status parse_external_data(const proto::Tensor& t, ExternalDataRef& out) noexcept {
  out = ExternalDataRef();
  bool has_location = false, has_offset = false, has_checksum = false;
  for (const proto::StringStringEntry& e : t.external_data()) {
    bool* seen = nullptr;
    if (e.key == "location") {
      seen = &has_location;
      out.location = e.value;
    } else if (e.key == "offset") {
      seen = &has_offset;
      if (!parse_external_integer(e.value, out.offset)) {
        Status s = external_error(StatusCode::invalid_model, t, out.location);
        s << "offset '";
        return append_escaped(s, e.value) << "' is not a decimal number below 2^64";
      }
    } else if (e.key == "length") {
      seen = &out.has_length;
      if (!parse_external_integer(e.value, out.length)) {
        Status s = external_error(StatusCode::invalid_model, t, out.location);
        s << "length '";
        return append_escaped(s, e.value) << "' is not a decimal number below 2^64";
      }
    } else if (e.key == "checksum") {
      seen = &has_checksum;
      out.checksum = e.value;
    } else {
      continue;
    }
    if (*seen) {
      return Status(StatusCode::invalid_model)
             << "initializer '" << t.name << "' has external_data key '" << e.key << "' twice";
    }
    *seen = true;
  }
  if (!has_location) {
    return Status(StatusCode::invalid_model)
           << "initializer '" << t.name << "' has data_location EXTERNAL but no external_data 'location'";
  }
  return {};
}

/// Checks that `location` is a relative path that stays inside the model directory: not empty, not absolute,
/// no `..` component, no backslash (a Windows separator that could hide one) and no NUL byte. On error the
/// message is the reason only (the caller says which tensor).
inline Status check_external_location(std::string_view location) noexcept {
  if (location.empty()) return Status(StatusCode::invalid_model) << "the location is empty";
  if (location.find('\0') != std::string_view::npos) {
    return Status(StatusCode::invalid_model) << "the location contains a NUL byte";
  }
  if (location.find('\\') != std::string_view::npos) {
    return Status(StatusCode::invalid_model)
           << "the location contains a backslash (paths use '/', relative to the model directory)";
  }
  if (location.front() == '/') {
    return Status(StatusCode::invalid_model)
           << "the location is an absolute path (it must be relative to the model directory)";
  }
  bool names_file = false;
  std::size_t start = 0;
  while (start <= location.size()) {
    std::size_t end = location.find('/', start);
    if (end == std::string_view::npos) end = location.size();
    const std::string_view component = location.substr(start, end - start);
    if (component == "..") {
      return Status(StatusCode::invalid_model)
             << "the location has a '..' component (external data must lie inside the model directory)";
    }
    if (!component.empty() && component != ".") names_file = true;
    start = end + 1;
  }
  if (!names_file) return Status(StatusCode::invalid_model) << "the location names no file";
  return {};
}

/// SHA-1 (FIPS 180-4), for the optional external_data checksum. Not for security: it only detects a data file
/// that does not belong to the model.
class Sha1 {
 public:
  Sha1() noexcept { reset(); }
  void reset() noexcept {
    state_[0] = 0x67452301u;
    state_[1] = 0xEFCDAB89u;
    state_[2] = 0x98BADCFEu;
    state_[3] = 0x10325476u;
    state_[4] = 0xC3D2E1F0u;
    total_bytes_ = 0;
    buffered_ = 0;
  }
  void update(const unsigned char* data, std::size_t size) noexcept {
    total_bytes_ += size;
    if (buffered_ > 0) {
      const std::size_t take = size < 64 - buffered_ ? size : 64 - buffered_;
      std::memcpy(buffer_ + buffered_, data, take);
      buffered_ += take;
      data += take;
      size -= take;
      if (buffered_ < 64) return;
      block(buffer_);
      buffered_ = 0;
    }
    for (; size >= 64; data += 64, size -= 64) block(data);
    if (size > 0) std::memcpy(buffer_, data, size);
    buffered_ = size;
  }
  void finish(unsigned char digest[20]) noexcept {
    const std::uint64_t bits = total_bytes_ * 8;
    const unsigned char pad_start = 0x80;
    update(&pad_start, 1);
    const unsigned char zero = 0;
    while (buffered_ != 56) update(&zero, 1);
    unsigned char length[8];
    for (int i = 0; i < 8; ++i) length[i] = static_cast<unsigned char>(bits >> (56 - 8 * i));
    update(length, 8);
    for (int i = 0; i < 20; ++i) digest[i] = static_cast<unsigned char>(state_[i / 4] >> (24 - 8 * (i % 4)));
  }

 private:
  static std::uint32_t rotl(std::uint32_t v, int n) noexcept { return (v << n) | (v >> (32 - n)); }
  void block(const unsigned char* p) noexcept {
    std::uint32_t w[80];
    for (int i = 0; i < 16; ++i) {
      w[i] = (static_cast<std::uint32_t>(p[4 * i]) << 24) | (static_cast<std::uint32_t>(p[4 * i + 1]) << 16) |
             (static_cast<std::uint32_t>(p[4 * i + 2]) << 8) | static_cast<std::uint32_t>(p[4 * i + 3]);
    }
    for (int i = 16; i < 80; ++i) w[i] = rotl(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1);
    std::uint32_t a = state_[0], b = state_[1], c = state_[2], d = state_[3], e = state_[4];
    for (int i = 0; i < 80; ++i) {
      std::uint32_t f, k;
      if (i < 20) {
        f = (b & c) | (~b & d);
        k = 0x5A827999u;
      } else if (i < 40) {
        f = b ^ c ^ d;
        k = 0x6ED9EBA1u;
      } else if (i < 60) {
        f = (b & c) | (b & d) | (c & d);
        k = 0x8F1BBCDCu;
      } else {
        f = b ^ c ^ d;
        k = 0xCA62C1D6u;
      }
      const std::uint32_t next = rotl(a, 5) + f + e + k + w[i];
      e = d;
      d = c;
      c = rotl(b, 30);
      b = a;
      a = next;
    }
    state_[0] += a;
    state_[1] += b;
    state_[2] += c;
    state_[3] += d;
    state_[4] += e;
  }

  std::uint32_t state_[5];
  std::uint64_t total_bytes_;
  unsigned char buffer_[64];
  std::size_t buffered_;
};

inline void sha1_of(ByteSpan bytes, unsigned char digest[20]) noexcept {
  Sha1 sha;
  if (!bytes.empty()) sha.update(bytes.data(), bytes.size());
  sha.finish(digest);
}

/// Parses a 40-digit hex SHA-1 digest (either case).
inline bool parse_sha1_hex(std::string_view hex, unsigned char digest[20]) noexcept {
  if (hex.size() != 40) return false;
  for (std::size_t i = 0; i < 40; ++i) {
    const char c = hex[i];
    int v = 0;
    if (c >= '0' && c <= '9') {
      v = c - '0';
    } else if (c >= 'a' && c <= 'f') {
      v = c - 'a' + 10;
    } else if (c >= 'A' && c <= 'F') {
      v = c - 'A' + 10;
    } else {
      return false;
    }
    if (i % 2 == 0) {
      digest[i / 2] = static_cast<unsigned char>(v << 4);
    } else {
      digest[i / 2] = static_cast<unsigned char>(digest[i / 2] | v);
    }
  }
  return true;
}

inline Status& append_hex(Status& s, const unsigned char digest[20]) noexcept {
  static constexpr char kHex[] = "0123456789abcdef";
  char text[40];
  for (int i = 0; i < 20; ++i) {
    text[2 * i] = kHex[digest[i] >> 4];
    text[2 * i + 1] = kHex[digest[i] & 15];
  }
  return s << std::string_view(text, 40);
}

/// Unmaps the first `count` mappings of `files`.
inline void release_external_files(Span<ExternalFileMapping> files, std::size_t count) noexcept {
  for (std::size_t i = 0; i < count && i < files.size(); ++i) {
#if ONNXMICRO_HAS_FILESYSTEM
    detail::unmap_read_only(files[i].data, static_cast<std::size_t>(files[i].size));
#endif
    files[i] = ExternalFileMapping();
  }
}

/// Resolves the external initializers of one model load: through the reader when there is one, else from
/// files under the base directory, mapped into `files` (whose first `file_count` entries the caller owns and
/// unmaps, also after an error).
class ExternalDataResolver {
 public:
  ExternalDataResolver(std::string_view base_directory, ExternalDataReader* reader, Span<ExternalFileMapping> files,
                       std::size_t& file_count) noexcept
      : base_directory_(base_directory), reader_(reader), files_(files), file_count_(file_count) {}
  ExternalDataResolver(const ExternalDataResolver&) = delete;
  ExternalDataResolver& operator=(const ExternalDataResolver&) = delete;
  ~ExternalDataResolver() {
#if ONNXMICRO_HAS_FILESYSTEM
    if (directory_fd_ >= 0) ::close(directory_fd_);
#endif
  }

  /// Number of files mapped so far (at most the capacity of the table given to the constructor).
  std::size_t mapped_file_count() const noexcept { return files_.empty() ? 0 : file_count_; }

  /// Validates `t`'s external data and points `out` at its bytes (exactly the tensor's byte size).
  Status resolve(const proto::Tensor& t, ByteSpan& out) noexcept {
    ExternalDataRef ref;
    ONNXMICRO_RETURN_IF_ERROR(parse_external_data(t, ref));
    Status location_status = check_external_location(ref.location);
    if (!location_status.ok()) {
      return external_error(location_status.code(), t, ref.location) << location_status.message_view();
    }
    if (!is_known_dtype(t.data_type) || static_cast<DataType>(t.data_type) == DataType::string) {
      Status s = external_error(StatusCode::invalid_model, t, ref.location);
      return s << "data_type " << t.data_type << " cannot be stored externally (a fixed-size type is needed)";
    }
    if (t.has_raw_data || t.typed_data_field != 0) {
      Status s = external_error(StatusCode::invalid_model, t, ref.location);
      return s << "the tensor also holds data in the model (" << (t.has_raw_data ? "raw_data" : "a typed data field")
               << ")";
    }
    std::int64_t count = 0;
    Status count_status = t.element_count(count);
    if (!count_status.ok()) {
      return external_error(count_status.code(), t, ref.location) << count_status.message_view();
    }
    const std::uint64_t need = byte_size_of(static_cast<DataType>(t.data_type), count);
    if (ref.has_length && ref.length != need) {
      Status s = external_error(StatusCode::invalid_model, t, ref.location);
      s << "length is " << ref.length << " bytes but ";
      return detail::describe_tensor(s, t) << " needs " << need;
    }
    if (reader_ != nullptr) {
      ONNXMICRO_RETURN_IF_ERROR(read_through_reader(t, ref, need, out));
    } else {
#if ONNXMICRO_HAS_FILESYSTEM
      ONNXMICRO_RETURN_IF_ERROR(read_from_file(t, ref, need, out));
#else
      return external_error(StatusCode::unsupported, t, ref.location)
             << "this build has no file system (ONNXMICRO_HAS_FILESYSTEM is 0): set LoadOptions::external_data_reader";
#endif
    }
    if (!ref.checksum.empty()) ONNXMICRO_RETURN_IF_ERROR(verify_checksum(t, ref, out));
    return {};
  }

 private:
  Status read_through_reader(const proto::Tensor& t, const ExternalDataRef& ref, std::uint64_t need,
                             ByteSpan& out) noexcept {
    out = ByteSpan();
    Status st = reader_->read(ref.location, ref.offset, need, out);
    if (!st.ok()) {
      Status s = external_error(st.code(), t, ref.location);
      return s << "the external data reader failed at offset " << ref.offset << ": " << st.message_view();
    }
    if (out.size() != need || (need != 0 && out.data() == nullptr)) {
      Status s = external_error(StatusCode::io_error, t, ref.location);
      return s << "the external data reader returned " << out.size() << " bytes"
               << (out.data() == nullptr ? " (null)" : "") << " at offset " << ref.offset << ", the tensor needs "
               << need;
    }
    return {};
  }

  // The spec calls the checksum the SHA-1 of the file; writers that store one tensor per file make the two
  // the same. Accept the digest of the tensor's bytes, or else of the whole file it sits in.
  Status verify_checksum(const proto::Tensor& t, const ExternalDataRef& ref, ByteSpan data) noexcept {
    unsigned char expected[20], actual[20];
    if (!parse_sha1_hex(ref.checksum, expected)) {
      Status s = external_error(StatusCode::invalid_model, t, ref.location);
      s << "checksum '";
      return append_escaped(s, ref.checksum) << "' is not a 40-digit SHA-1 hex digest";
    }
    sha1_of(data, actual);
    if (std::memcmp(expected, actual, 20) == 0) return {};
    if (last_file_ != nullptr && (ref.offset != 0 || data.size() != last_file_->size)) {
      if (!last_file_->digest_known) {
        sha1_of(ByteSpan(last_file_->data, static_cast<std::size_t>(last_file_->size)), last_file_->digest);
        last_file_->digest_known = true;
      }
      if (std::memcmp(expected, last_file_->digest, 20) == 0) return {};
    }
    Status s = external_error(StatusCode::invalid_model, t, ref.location);
    s << "checksum mismatch: the model says SHA-1 ";
    append_hex(s, expected) << ", the " << data.size() << " bytes at offset " << ref.offset << " hash to ";
    return append_hex(s, actual);
  }

#if ONNXMICRO_HAS_FILESYSTEM
  // Appends "'<base>/<location>'" (the path as the user would look for it).
  Status& append_path(Status& s, std::string_view location) const noexcept {
    s << "'" << base_directory_ << (base_directory_.empty() || base_directory_.back() == '/' ? "" : "/");
    return append_escaped(s, location) << "'";
  }

  Status open_directory(const proto::Tensor& t, std::string_view location) noexcept {
    if (directory_fd_ >= 0) return {};
    if (base_directory_.empty()) {
      return external_error(StatusCode::invalid_argument, t, location)
             << "no directory to resolve it against: set LoadOptions::base_directory (ModelBytes::directory() of "
                "the model file) or LoadOptions::external_data_reader";
    }
    char path[4096];
    if (base_directory_.size() >= sizeof path || base_directory_.find('\0') != std::string_view::npos) {
      return external_error(StatusCode::invalid_argument, t, location)
             << "LoadOptions::base_directory is longer than 4095 bytes or contains a NUL byte";
    }
    std::memcpy(path, base_directory_.data(), base_directory_.size());
    path[base_directory_.size()] = '\0';
    directory_fd_ = detail::open_retrying(AT_FDCWD, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (directory_fd_ < 0) {
      const int error = errno;
      return external_error(StatusCode::io_error, t, location)
             << "cannot open the model directory '" << base_directory_ << "': " << std::strerror(error);
    }
    return {};
  }

  // Why openat() of `name` in `dir_fd` failed: a symbolic link gets its own message.
  Status open_failure(const proto::Tensor& t, std::string_view location, int dir_fd, const char* name,
                      int error) const noexcept {
    struct ::stat info;
    if (::fstatat(dir_fd, name, &info, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(info.st_mode)) {
      Status s = external_error(StatusCode::invalid_model, t, location);
      s << "'" << name << "' in ";
      return append_path(s, location) << " is a symbolic link, which is not followed (external data must be a "
                                         "regular file inside the model directory)";
    }
    Status s = external_error(StatusCode::io_error, t, location);
    s << "cannot open ";
    return append_path(s, location) << ": " << std::strerror(error);
  }

  // Opens the file `location` names, one component at a time below the model directory, following no link.
  Status open_file(const proto::Tensor& t, std::string_view location, int& fd) noexcept {
    fd = -1;
    ONNXMICRO_RETURN_IF_ERROR(open_directory(t, location));
    int current = directory_fd_;
    std::size_t start = 0;
    Status result;
    while (start < location.size()) {
      std::size_t end = location.find('/', start);
      if (end == std::string_view::npos) end = location.size();
      const std::string_view component = location.substr(start, end - start);
      start = end + 1;
      if (component.empty() || component == ".") continue;
      char name[256];
      if (component.size() >= sizeof name) {
        result = external_error(StatusCode::invalid_model, t, location) << "a path component is longer than 255 bytes";
        break;
      }
      std::memcpy(name, component.data(), component.size());
      name[component.size()] = '\0';
      // The last component that names something is the file; a location ending in "/" or "/." opens a
      // directory there, which the regular-file check then refuses.
      bool last = true;
      for (std::size_t k = start; k < location.size();) {
        std::size_t e = location.find('/', k);
        if (e == std::string_view::npos) e = location.size();
        const std::string_view rest = location.substr(k, e - k);
        if (!rest.empty() && rest != ".") {
          last = false;
          break;
        }
        k = e + 1;
      }
      // O_NONBLOCK: opening a FIFO must not wait for a writer (it is refused right after, by fstat).
      const int flags = last ? (O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
                             : (O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      const int next = detail::open_retrying(current, name, flags);
      if (next < 0) result = open_failure(t, location, current, name, errno);
      if (current != directory_fd_) ::close(current);
      current = next;
      if (next < 0) break;
      if (last) break;
    }
    if (!result.ok()) return result;
    if (current == directory_fd_) {  // cannot happen after check_external_location; kept for safety
      return external_error(StatusCode::invalid_model, t, location) << "the location names no file";
    }
    fd = current;
    return {};
  }

  // The mapping of the file `location` names (mapped now unless this load mapped it already).
  Status map_file(const proto::Tensor& t, std::string_view location, ExternalFileMapping*& out) noexcept {
    for (std::size_t i = 0; i < file_count_; ++i) {
      if (files_[i].location == location) {
        out = &files_[i];
        return {};
      }
    }
    int fd = -1;
    ONNXMICRO_RETURN_IF_ERROR(open_file(t, location, fd));
    struct ::stat info;
    if (::fstat(fd, &info) != 0) {
      const int error = errno;
      ::close(fd);
      Status s = external_error(StatusCode::io_error, t, location);
      s << "cannot stat ";
      return append_path(s, location) << ": " << std::strerror(error);
    }
    if (!S_ISREG(info.st_mode)) {
      ::close(fd);
      Status s = external_error(StatusCode::invalid_model, t, location);
      append_path(s, location) << " is not a regular file (";
      return s << (S_ISDIR(info.st_mode)    ? "a directory"
                   : S_ISFIFO(info.st_mode) ? "a FIFO"
                   : S_ISCHR(info.st_mode)  ? "a character device"
                   : S_ISBLK(info.st_mode)  ? "a block device"
                   : S_ISSOCK(info.st_mode) ? "a socket"
                                            : "not a file")
               << ")";
    }
    if (info.st_nlink > 1) {
      ::close(fd);
      Status s = external_error(StatusCode::invalid_model, t, location);
      append_path(s, location) << " has " << info.st_nlink
                               << " hard links; a hard link may alias a file outside the model directory, so "
                                  "external data files must have exactly one";
      return s;
    }
    for (std::size_t i = 0; i < file_count_; ++i) {
      if (files_[i].device == static_cast<std::uint64_t>(info.st_dev) &&
          files_[i].inode == static_cast<std::uint64_t>(info.st_ino)) {
        ::close(fd);  // the same file under another spelling ("./w.bin"): one mapping
        out = &files_[i];
        return {};
      }
    }
    if (file_count_ >= files_.size()) {
      ::close(fd);
      return external_error(StatusCode::internal, t, location) << "more external data files than tensors";
    }
    std::size_t size = 0;
    if (!detail::file_size_fits(info, size)) {
      ::close(fd);
      Status s = external_error(StatusCode::limit_exceeded, t, location);
      append_path(s, location) << " (" << info.st_size << " bytes) does not fit in this process's address space";
      return s;
    }
    // An empty file maps to no bytes and serves only empty tensors.
    const unsigned char* data = detail::map_read_only(fd, size);
    if (data == nullptr && size > 0) {
      const int error = errno;
      ::close(fd);
      Status s = external_error(StatusCode::io_error, t, location);
      s << "cannot map ";
      return append_path(s, location) << " (" << size << " bytes): " << std::strerror(error);
    }
    ::close(fd);  // the mapping keeps the file alive
    ExternalFileMapping& m = files_[file_count_++];
    m = ExternalFileMapping();
    m.location = location;
    m.device = static_cast<std::uint64_t>(info.st_dev);
    m.inode = static_cast<std::uint64_t>(info.st_ino);
    m.data = data;
    m.size = size;
    out = &m;
    return {};
  }

  Status read_from_file(const proto::Tensor& t, const ExternalDataRef& ref, std::uint64_t need,
                        ByteSpan& out) noexcept {
    ExternalFileMapping* file = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(map_file(t, ref.location, file));
    last_file_ = file;
    // Overflow-safe: offset <= size is checked before size - offset is formed.
    if (ref.offset > file->size) {
      Status s = external_error(StatusCode::invalid_model, t, ref.location);
      s << "offset " << ref.offset << " is past the end of ";
      return append_path(s, ref.location) << " (" << file->size << " bytes)";
    }
    const std::uint64_t available = file->size - ref.offset;
    if (ref.has_length && ref.length > available) {
      Status s = external_error(StatusCode::invalid_model, t, ref.location);
      s << "offset " << ref.offset << " + length " << ref.length << " is past the end of ";
      return append_path(s, ref.location) << " (" << file->size << " bytes)";
    }
    if (!ref.has_length && available != need) {
      Status s = external_error(StatusCode::invalid_model, t, ref.location);
      s << "without a length the tensor is the " << available << " bytes from offset " << ref.offset
        << " to the end of ";
      append_path(s, ref.location) << ", but ";
      return detail::describe_tensor(s, t) << " needs " << need;
    }
    out = need == 0 ? ByteSpan(file->data, 0)
                    : ByteSpan(file->data + static_cast<std::size_t>(ref.offset), static_cast<std::size_t>(need));
    return {};
  }

  int directory_fd_ = -1;
#endif

  std::string_view base_directory_;
  ExternalDataReader* reader_ = nullptr;
  Span<ExternalFileMapping> files_;
  std::size_t& file_count_;
  ExternalFileMapping* last_file_ = nullptr;  ///< file of the tensor being resolved (nullptr: from the reader)
};

/// Calls `visit(tensor)` for every initializer with data_location EXTERNAL in `graph` and in its subgraphs
/// (GRAPH/GRAPHS attributes, nested up to ONNXMICRO_MAX_SUBGRAPH_DEPTH).
template <typename Visit>
Status for_each_external_initializer(const proto::Graph& graph, int depth, Visit& visit) noexcept {
  if (depth > ONNXMICRO_MAX_SUBGRAPH_DEPTH) {
    return Status(StatusCode::limit_exceeded) << "subgraphs are nested more than ONNXMICRO_MAX_SUBGRAPH_DEPTH ("
                                              << ONNXMICRO_MAX_SUBGRAPH_DEPTH << ") levels deep";
  }
  for (const proto::Tensor& t : graph.initializers()) {
    if (t.data_location == proto::DataLocation::external) ONNXMICRO_RETURN_IF_ERROR(visit(t));
  }
#if ONNXMICRO_ENABLE_SUBGRAPHS  // else the graph builder refuses every GRAPH attribute: no subgraph is read
  for (const proto::Node& n : graph.nodes()) {
    for (const proto::Attribute& a : n.attributes()) {
      if (a.type == proto::AttributeType::graph) {
        ONNXMICRO_RETURN_IF_ERROR(for_each_external_initializer(proto::Graph::unchecked(a.g), depth + 1, visit));
      } else if (a.type == proto::AttributeType::graphs) {
        for (ByteSpan g : a.graphs())
          ONNXMICRO_RETURN_IF_ERROR(for_each_external_initializer(proto::Graph::unchecked(g), depth + 1, visit));
      }
    }
  }
#endif
  return {};
}

/// The resolved bytes of the external tensor whose TensorProto starts at `tensor_proto`; `hint` is where the
/// search starts (tensors are looked up in the order they were resolved) and moves past the match.
inline const ResolvedExternalTensor* find_resolved_external(Span<const ResolvedExternalTensor> table,
                                                            const unsigned char* tensor_proto,
                                                            std::size_t& hint) noexcept {
  for (std::size_t k = 0; k < table.size(); ++k) {
    const std::size_t i = (hint + k) % table.size();
    if (table[i].tensor_proto == tensor_proto) {
      hint = i + 1;
      return &table[i];
    }
  }
  return nullptr;
}

}  // namespace detail
ONNXMICRO_NAMESPACE_END
