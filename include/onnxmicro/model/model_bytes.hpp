// SPDX-License-Identifier: MIT
// The bytes of a model: borrowed (a const array in flash, a buffer the caller keeps), copied, or mapped from
// a file (mmap on POSIX, so weights are never copied). Move-only; views into it die with it.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "onnxmicro/core/span.hpp"
#include "onnxmicro/core/status.hpp"

#if ONNXMICRO_HAS_HEAP
#include <cstdlib>
#endif
#include "onnxmicro/model/mapped_file.hpp"

ONNXMICRO_NAMESPACE_BEGIN

class ModelBytes {
 public:
  ModelBytes() noexcept = default;
  ModelBytes(ModelBytes&& other) noexcept;
  ModelBytes& operator=(ModelBytes&& other) noexcept;
  ModelBytes(const ModelBytes&) = delete;
  ModelBytes& operator=(const ModelBytes&) = delete;
  ~ModelBytes();

  /// Views `size` bytes the caller keeps alive (no copy).
  static ModelBytes borrow(const void* data, std::size_t size) noexcept;
#if ONNXMICRO_HAS_HEAP
  /// Copies `size` bytes into heap memory owned by the result.
  static Status copy(const void* data, std::size_t size, ModelBytes& out) noexcept;
#endif
#if ONNXMICRO_HAS_FILESYSTEM
  /// Maps the file read-only (falls back to reading it when mmap fails). Errors name the path and errno text.
  /// The file's directory is remembered for resolving external data. An empty file gives empty bytes.
  static Status from_file(const char* path, ModelBytes& out) noexcept;
#endif

  ByteSpan bytes() const noexcept { return {data_, size_}; }
  /// Directory of the file this came from ("" when not from a file), without trailing slash: "." for a
  /// path without one, "/" for a file in the root directory.
  std::string_view directory() const noexcept;
  /// True when the bytes are a read-only mapping of the file (false: borrowed, copied or read).
  bool is_mapped() const noexcept { return ownership_ == Ownership::mapped; }

 private:
  void release() noexcept;
  void take(ModelBytes& other) noexcept;
#if ONNXMICRO_HAS_FILESYSTEM
  Status set_directory(const char* path) noexcept;
#if ONNXMICRO_HAS_HEAP
  Status read_all(int fd, const char* path, std::size_t size_hint) noexcept;
#endif
#endif

  const unsigned char* data_ = nullptr;
  std::size_t size_ = 0;
  enum class Ownership { borrowed, heap, mapped } ownership_ = Ownership::borrowed;
  char directory_[512] = {};
};

// ---- Implementation ---------------------------------------------------------------------------------------

inline ModelBytes::ModelBytes(ModelBytes&& other) noexcept { take(other); }

inline ModelBytes& ModelBytes::operator=(ModelBytes&& other) noexcept {
  if (this != &other) {
    release();
    take(other);
  }
  return *this;
}

inline ModelBytes::~ModelBytes() { release(); }

inline void ModelBytes::release() noexcept {
  switch (ownership_) {
    case Ownership::borrowed: break;
    case Ownership::heap:
#if ONNXMICRO_HAS_HEAP
      std::free(const_cast<unsigned char*>(data_));
#endif
      break;
    case Ownership::mapped:
#if ONNXMICRO_HAS_FILESYSTEM
      detail::unmap_read_only(data_, size_);
#endif
      break;
  }
  data_ = nullptr;
  size_ = 0;
  ownership_ = Ownership::borrowed;
  directory_[0] = '\0';
}

// Leaves `other` empty and borrowed, so only one object ever frees or unmaps the bytes.
inline void ModelBytes::take(ModelBytes& other) noexcept {
  data_ = other.data_;
  size_ = other.size_;
  ownership_ = other.ownership_;
  std::memcpy(directory_, other.directory_, sizeof directory_);
  other.data_ = nullptr;
  other.size_ = 0;
  other.ownership_ = Ownership::borrowed;
  other.directory_[0] = '\0';
}

inline ModelBytes ModelBytes::borrow(const void* data, std::size_t size) noexcept {
  ModelBytes result;
  result.data_ = static_cast<const unsigned char*>(data);
  result.size_ = data == nullptr ? 0 : size;
  return result;
}

inline std::string_view ModelBytes::directory() const noexcept { return std::string_view(directory_); }

#if ONNXMICRO_HAS_HEAP
inline Status ModelBytes::copy(const void* data, std::size_t size, ModelBytes& out) noexcept {
  if (size == 0) {
    out = ModelBytes();
    return {};
  }
  if (data == nullptr) {
    return Status(StatusCode::invalid_argument) << "ModelBytes::copy: data is null but size is " << size;
  }
  void* buffer = std::malloc(size);
  if (buffer == nullptr) {
    return Status(StatusCode::out_of_memory) << "cannot allocate " << size << " bytes to copy the model";
  }
  std::memcpy(buffer, data, size);
  ModelBytes result;
  result.data_ = static_cast<const unsigned char*>(buffer);
  result.size_ = size;
  result.ownership_ = Ownership::heap;
  out = static_cast<ModelBytes&&>(result);
  return {};
}
#endif

#if ONNXMICRO_HAS_FILESYSTEM
inline Status ModelBytes::set_directory(const char* path) noexcept {
  const std::string_view p(path);
  const std::size_t slash = p.rfind('/');
  std::string_view dir;
  if (slash == std::string_view::npos) {
    dir = ".";
  } else {
    std::size_t end = slash;
    while (end > 0 && p[end - 1] == '/') --end;  // "a//b.onnx" -> "a"
    dir = end == 0 ? std::string_view("/") : p.substr(0, end);
  }
  if (dir.size() >= sizeof directory_) {
    return Status(StatusCode::limit_exceeded)
           << "model file directory longer than " << (sizeof directory_ - 1) << " bytes: '" << path << "'";
  }
  std::memcpy(directory_, dir.data(), dir.size());
  directory_[dir.size()] = '\0';
  return {};
}

#if ONNXMICRO_HAS_HEAP
// Reads until end of file into a growing heap buffer (files that cannot be mapped: pipes, some file systems).
inline Status ModelBytes::read_all(int fd, const char* path, std::size_t size_hint) noexcept {
  // One byte past the expected size, so reaching end of file needs no second buffer.
  std::size_t capacity = (size_hint > 0 && size_hint < static_cast<std::size_t>(-1)) ? size_hint + 1 : 65536;
  auto* buffer = static_cast<unsigned char*>(std::malloc(capacity));
  if (buffer == nullptr) {
    return Status(StatusCode::out_of_memory) << "cannot allocate " << capacity << " bytes to read '" << path << "'";
  }
  std::size_t used = 0;
  while (true) {
    if (used == capacity) {
      const std::size_t grown = capacity * 2;
      void* bigger = grown > capacity ? std::realloc(buffer, grown) : nullptr;
      if (bigger == nullptr) {
        std::free(buffer);
        return Status(StatusCode::out_of_memory)
               << "cannot grow the buffer reading '" << path << "' past " << capacity << " bytes";
      }
      buffer = static_cast<unsigned char*>(bigger);
      capacity = grown;
    }
    const ssize_t n = ::read(fd, buffer + used, capacity - used);
    if (n < 0) {
      if (errno == EINTR) continue;
      const int error = errno;
      std::free(buffer);
      return Status(StatusCode::io_error) << "cannot read '" << path << "': " << std::strerror(error);
    }
    if (n == 0) break;
    used += static_cast<std::size_t>(n);
  }
  if (used == 0) {
    std::free(buffer);
    return {};
  }
  data_ = buffer;
  size_ = used;
  ownership_ = Ownership::heap;
  return {};
}
#endif

inline Status ModelBytes::from_file(const char* path, ModelBytes& out) noexcept {
  if (path == nullptr) return Status(StatusCode::invalid_argument) << "ModelBytes::from_file: path is null";
  ModelBytes result;
  ONNXMICRO_RETURN_IF_ERROR(result.set_directory(path));
  const int fd = detail::open_retrying(AT_FDCWD, path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    return Status(StatusCode::io_error) << "cannot open '" << path << "': " << std::strerror(errno);
  }
  struct ::stat info;
  if (::fstat(fd, &info) != 0) {
    const int error = errno;
    ::close(fd);
    return Status(StatusCode::io_error) << "cannot stat '" << path << "': " << std::strerror(error);
  }
  if (S_ISDIR(info.st_mode)) {
    ::close(fd);
    return Status(StatusCode::io_error) << "cannot load '" << path << "': " << std::strerror(EISDIR);
  }
  std::size_t size_hint = 0;
  if (S_ISREG(info.st_mode)) {
    std::size_t size = 0;
    if (!detail::file_size_fits(info, size)) {
      ::close(fd);
      return Status(StatusCode::limit_exceeded)
             << "'" << path << "' is too large to map (" << info.st_size << " bytes)";
    }
    if (size == 0) {  // an empty file is simply empty bytes
      ::close(fd);
      out = static_cast<ModelBytes&&>(result);
      return {};
    }
    const unsigned char* mapped = detail::map_read_only(fd, size);
    if (mapped != nullptr) {
      ::close(fd);  // the mapping keeps the file alive
      result.data_ = mapped;
      result.size_ = size;
      result.ownership_ = Ownership::mapped;
      out = static_cast<ModelBytes&&>(result);
      return {};
    }
    size_hint = size;
  }
#if ONNXMICRO_HAS_HEAP
  Status read_status = result.read_all(fd, path, size_hint);
  ::close(fd);
  if (!read_status.ok()) return read_status;
  out = static_cast<ModelBytes&&>(result);
  return {};
#else
  const int error = errno;
  ::close(fd);
  (void)size_hint;
  return Status(StatusCode::io_error) << "cannot map '" << path << "': " << std::strerror(error)
                                      << " (reading it instead needs ONNXMICRO_HAS_HEAP)";
#endif
}
#endif

ONNXMICRO_NAMESPACE_END
