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
  /// Releases everything allocated after used_bytes() returned `mark`, keeping the memory for reuse (a session
  /// re-planning for new input shapes rewinds to where its prepare began, so re-planning allocates nothing new
  /// when the new plan needs no more metadata than the last).
  virtual void rewind(std::size_t mark) noexcept = 0;

  /// Allocates `count` value-initialised T (T must be trivially destructible: nothing is ever destroyed).
  template <typename T>
  Status allocate_array(std::size_t count, Span<T>& out) noexcept {
    static_assert(std::is_trivially_destructible<T>::value, "metadata is never destroyed");
    out = Span<T>();
    if (count == 0) return {};
    void* p = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(allocate_elements(count, sizeof(T), alignof(T), p));
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
  /// The untyped part of allocate_array(), one copy for every element type (code size on microcontrollers).
  Status allocate_elements(std::size_t count, std::size_t element_bytes, std::size_t alignment, void*& out) noexcept {
    if (count > static_cast<std::size_t>(-1) / element_bytes) {
      return Status(StatusCode::limit_exceeded) << "metadata array of " << count << " elements overflows";
    }
    out = allocate(count * element_bytes, alignment);
    if (out == nullptr) {
      return Status(StatusCode::out_of_memory) << "metadata allocator exhausted: needed " << (count * element_bytes)
                                               << " more bytes after " << used_bytes() << " used";
    }
    return {};
  }

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
  void rewind(std::size_t mark) noexcept override {
    if (mark < used_) used_ = mark;
  }

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
    Chunk* chunk = take_spare(bytes + alignment);
    if (chunk == nullptr) {
      std::size_t capacity = bytes + alignment > kChunkBytes ? bytes + alignment : kChunkBytes;
      void* raw = std::malloc(sizeof(Chunk) + capacity);
      if (raw == nullptr) return nullptr;
      chunk = new (raw) Chunk{nullptr, capacity, 0, 0};
    }
    chunk->next = head_;
    chunk->used = 0;
    chunk->start_total = used_total_;
    head_ = chunk;
    return allocate(bytes, alignment);
  }
  std::size_t used_bytes() const noexcept override { return used_total_; }
  void reset() noexcept override {
    free_list(head_);
    free_list(spare_);
    used_total_ = 0;
  }
  void rewind(std::size_t mark) noexcept override {
    if (mark >= used_total_) return;
    // Chunks begun after the mark go to the spare list (reused before any new malloc).
    while (head_ != nullptr && head_->start_total >= mark && head_->next != nullptr) {
      Chunk* next = head_->next;
      head_->next = spare_;
      spare_ = head_;
      head_ = next;
    }
    if (head_ != nullptr) head_->used = mark > head_->start_total ? mark - head_->start_total : 0;
    used_total_ = mark;
  }

 private:
  static constexpr std::size_t kChunkBytes = 64 * 1024;
  struct alignas(16) Chunk {
    Chunk* next;
    std::size_t capacity;
    std::size_t used;
    std::size_t start_total;  ///< used_total_ when the chunk became the head
    unsigned char* payload() noexcept { return reinterpret_cast<unsigned char*>(this + 1); }
  };
  Chunk* take_spare(std::size_t bytes) noexcept {
    for (Chunk** link = &spare_; *link != nullptr; link = &(*link)->next) {
      if ((*link)->capacity >= bytes) {
        Chunk* found = *link;
        *link = found->next;
        return found;
      }
    }
    return nullptr;
  }
  static void free_list(Chunk*& list) noexcept {
    while (list != nullptr) {
      Chunk* next = list->next;
      std::free(list);
      list = next;
    }
  }
  Chunk* head_ = nullptr;
  Chunk* spare_ = nullptr;
  std::size_t used_total_ = 0;
};
#endif

ONNXMICRO_NAMESPACE_END
