// SPDX-License-Identifier: MIT
// Scratch memory layout: a kernel reserves its sub-buffers at prepare time (ScratchLayout) and finds them in
// the scratch block handed to run() (scratch_at). Used by the conv, pool, normalisation, matrix and
// quantized kernels.
#pragma once
#include <cstddef>
#include <cstdint>

#include "onnxmicro/kernels/kernel_api.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {
namespace scratch {

/// Scratch sub-buffers are aligned to this (enough for every element type and for SIMD loads).
constexpr std::size_t kScratchAlignment = 16;

/// Builds a scratch layout at prepare time: each reserve() returns the offset of a new sub-buffer.
class ScratchLayout {
 public:
  /// Reserves `count` elements of T; returns the byte offset of the sub-buffer.
  template <typename T>
  std::size_t reserve(std::int64_t count) noexcept {
    std::size_t offset = align_up(bytes_, kScratchAlignment);
    bytes_ = offset + static_cast<std::size_t>(count > 0 ? count : 0) * sizeof(T);
    return offset;
  }
  /// Reserves `slices` sub-buffers of `count` elements of T, one per task of a split (PrepareContext::workers());
  /// returns the offset of slice 0, slice t being at offset + t * slice_stride<T>(count).
  template <typename T>
  std::size_t reserve_slices(std::int64_t count, std::size_t slices) noexcept {
    const std::size_t first = reserve<T>(count);
    for (std::size_t t = 1; t < slices; ++t) reserve<T>(count);
    return first;
  }
  /// Bytes from one slice of reserve_slices<T>(count, ...) to the next.
  template <typename T>
  static constexpr std::size_t slice_stride(std::int64_t count) noexcept {
    return align_up(static_cast<std::size_t>(count > 0 ? count : 0) * sizeof(T), kScratchAlignment);
  }
  std::size_t bytes() const noexcept { return bytes_; }

 private:
  std::size_t bytes_ = 0;
};

/// The sub-buffer at `offset` of the scratch memory handed to run().
template <typename T>
inline T* scratch_at(void* scratch, std::size_t offset) noexcept {
  return reinterpret_cast<T*>(static_cast<unsigned char*>(scratch) + offset);
}

}  // namespace scratch
}  // namespace kernels
ONNXMICRO_NAMESPACE_END
