// SPDX-License-Identifier: MIT
// The one place onnxmicro maps files (POSIX open/fstat/mmap): ModelBytes::from_file maps a model file and the
// external-data resolver maps weight files, each with its own policy (what may be opened, what an error says)
// on top of these primitives. Compiled only with ONNXMICRO_HAS_FILESYSTEM.
#pragma once
#include "onnxmicro/core/config.hpp"
#include "onnxmicro/core/version.hpp"

#if ONNXMICRO_HAS_FILESYSTEM
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstring>

ONNXMICRO_NAMESPACE_BEGIN
namespace detail {

/// openat() retried while interrupted (AT_FDCWD opens a path as open() does); -1 with errno set on failure.
inline int open_retrying(int directory_fd, const char* path, int flags) noexcept {
  int fd = -1;
  do {
    fd = ::openat(directory_fd, path, flags);
  } while (fd < 0 && errno == EINTR);
  return fd;
}

/// The size of the file `info` describes as a size_t; false when it is negative or does not fit in this process's
/// address space.
inline bool file_size_fits(const struct ::stat& info, std::size_t& size) noexcept {
  if (info.st_size < 0) return false;
  const auto bytes = static_cast<std::uint64_t>(info.st_size);
  if (bytes > static_cast<std::uint64_t>(static_cast<std::size_t>(-1))) return false;
  size = static_cast<std::size_t>(bytes);
  return true;
}

/// Maps `size` bytes of `fd` read-only and private; the mapping keeps the file alive after `fd` is closed. Returns
/// nullptr for size 0 (mmap rejects length 0: an empty file maps to no bytes) and, with errno set, when mmap
/// fails.
inline const unsigned char* map_read_only(int fd, std::size_t size) noexcept {
  if (size == 0) return nullptr;
  void* mapped = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
  return mapped == MAP_FAILED ? nullptr : static_cast<const unsigned char*>(mapped);
}

/// Undoes map_read_only (nothing for nullptr).
inline void unmap_read_only(const unsigned char* data, std::size_t size) noexcept {
  if (data != nullptr) ::munmap(const_cast<unsigned char*>(data), size);
}

}  // namespace detail
ONNXMICRO_NAMESPACE_END
#endif  // ONNXMICRO_HAS_FILESYSTEM
