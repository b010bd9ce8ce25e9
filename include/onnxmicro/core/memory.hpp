// SPDX-License-Identifier: MIT
// Where the runtime's metadata (graph tables, kernel state, packed weights, folded constants) lives.
// Everything is bump-allocated at load/prepare time and released all at once; nothing is freed singly,
// and run() never allocates. On a microcontroller the caller hands in the buffer (BufferAllocator); on a
// hosted build the default grows in heap chunks (ChunkAllocator).
#pragma once
#include <cstddef>
#include <cstdint>
#include <new>
#include <type_traits>

#include "onnxmicro/core/config.hpp"
#include "onnxmicro/core/span.hpp"
#include "onnxmicro/core/status.hpp"

#if ONNXMICRO_HAS_HEAP
#include <cstdlib>
#endif

ONNXMICRO_NAMESPACE_BEGIN

/// Rounds `value` up to a multiple of `alignment` (a power of two).
constexpr std::size_t align_up(std::size_t value, std::size_t alignment) noexcept {
  return (value + alignment - 1) & ~(alignment - 1);
}

/// A bump allocator interface. allocate() returns nullptr when exhausted; callers turn that into a
/// Status naming the bytes wanted (see allocate_array()). Allocations are never freed individually.
class MetadataAllocator {
 public:
  virtual void* allocate(std::size_t bytes, std::size_t alignment) noexcept = 0;
  /// Bytes handed out so far (including alignment padding).
  virtual std::size_t used_bytes() const noexcept = 0;
  /// Releases everything allocated so far.
  virtual void reset() noexcept = 0;

  /// Allocates `count` value-initialised T (T must be trivially destructible: nothing is ever destroyed).
  template <typename T>
  Status allocate_array(std::size_t count, Span<T>& out) noexcept {
    static_assert(std::is_trivially_destructible<T>::value, "metadata is never destroyed");
    if (count == 0) {
      out = Span<T>();
      return {};
    }
    if (count > static_cast<std::size_t>(-1) / sizeof(T)) {
      return Status(StatusCode::limit_exceeded)
             << "metadata array of " << static_cast<unsigned long long>(count) << " elements overflows";
    }
    void* p = allocate(count * sizeof(T), alignof(T));
    if (p == nullptr) {
      return Status(StatusCode::out_of_memory)
             << "metadata allocator exhausted: needed " << static_cast<unsigned long long>(count * sizeof(T))
             << " more bytes after " << static_cast<unsigned long long>(used_bytes()) << " used";
    }
    T* typed = static_cast<T*>(p);
    for (std::size_t i = 0; i < count; ++i) new (typed + i) T();
    out = Span<T>(typed, count);
    return {};
  }
  /// Allocates one value-initialised T.
  template <typename T>
  Status allocate_object(T*& out) noexcept {
    Span<T> one;
    ONNXMICRO_RETURN_IF_ERROR(allocate_array<T>(1, one));
    out = one.data();
    return {};
  }

 protected:
  // Not virtual and not public: allocators are never deleted through this interface, and a virtual
  // destructor would make every build emit operator delete (and so pull free/malloc into heap-free firmware).
  ~MetadataAllocator() = default;
};

/// Bump allocator over a caller-provided buffer (no heap at all).
class BufferAllocator final : public MetadataAllocator {
 public:
  BufferAllocator() noexcept = default;
  BufferAllocator(void* buffer, std::size_t bytes) noexcept
      : begin_(static_cast<unsigned char*>(buffer)), capacity_(bytes) {}
  void* allocate(std::size_t bytes, std::size_t alignment) noexcept override {
    std::uintptr_t base = reinterpret_cast<std::uintptr_t>(begin_);
    std::size_t start = align_up(base + used_, alignment) - base;
    if (start > capacity_ || bytes > capacity_ - start) {
      wanted_ = start + bytes;
      return nullptr;
    }
    used_ = start + bytes;
    return begin_ + start;
  }
  std::size_t used_bytes() const noexcept override { return used_; }
  std::size_t capacity() const noexcept { return capacity_; }
  void reset() noexcept override { used_ = 0; }

 private:
  unsigned char* begin_ = nullptr;
  std::size_t capacity_ = 0;
  std::size_t used_ = 0;
  std::size_t wanted_ = 0;
};

#if ONNXMICRO_HAS_HEAP
/// Bump allocator that grows in heap chunks (hosted default). Still never frees singly.
class ChunkAllocator final : public MetadataAllocator {
 public:
  ChunkAllocator() noexcept = default;
  ChunkAllocator(const ChunkAllocator&) = delete;
  ChunkAllocator& operator=(const ChunkAllocator&) = delete;
  ~ChunkAllocator() { reset(); }

  void* allocate(std::size_t bytes, std::size_t alignment) noexcept override {
    if (head_ != nullptr) {
      std::uintptr_t base = reinterpret_cast<std::uintptr_t>(head_->payload());
      std::size_t start = align_up(base + head_->used, alignment) - base;
      if (start <= head_->capacity && bytes <= head_->capacity - start) {
        used_total_ += start - head_->used + bytes;
        head_->used = start + bytes;
        return head_->payload() + start;
      }
    }
    std::size_t capacity = bytes + alignment > kChunkBytes ? bytes + alignment : kChunkBytes;
    void* raw = std::malloc(sizeof(Chunk) + capacity);
    if (raw == nullptr) return nullptr;
    Chunk* chunk = new (raw) Chunk{head_, capacity, 0};
    head_ = chunk;
    return allocate(bytes, alignment);
  }
  std::size_t used_bytes() const noexcept override { return used_total_; }
  void reset() noexcept override {
    while (head_ != nullptr) {
      Chunk* next = head_->next;
      std::free(head_);
      head_ = next;
    }
    used_total_ = 0;
  }

 private:
  static constexpr std::size_t kChunkBytes = 64 * 1024;
  struct alignas(16) Chunk {
    Chunk* next;
    std::size_t capacity;
    std::size_t used;
    unsigned char* payload() noexcept { return reinterpret_cast<unsigned char*>(this + 1); }
  };
  Chunk* head_ = nullptr;
  std::size_t used_total_ = 0;
};
#endif

ONNXMICRO_NAMESPACE_END
