// SPDX-License-Identifier: MIT
// Who owns the memory run() works in: the arena (every planned tensor and scratch) and the string pool (the
// characters of strings kernels build at run time). Each is the caller's (SessionOptions::arena, ::string_pool)
// or, in builds with a heap, the session's own: allocated at prepare, kept across re-plans, grown only when a plan
// needs more, freed with the session. Never touched by run().
#pragma once
#include <cstddef>
#include <cstdint>

#include "onnxmicro/kernels/kernel_api.hpp"
#include "onnxmicro/runtime/session_options.hpp"

#if ONNXMICRO_HAS_HEAP
#include <cstdlib>
#endif

ONNXMICRO_NAMESPACE_BEGIN
namespace detail {

/// The arena of a session: the caller's buffer, or one it allocates.
class ArenaStorage {
 public:
  ArenaStorage() noexcept = default;
  ArenaStorage(const ArenaStorage&) = delete;
  ArenaStorage& operator=(const ArenaStorage&) = delete;
  ~ArenaStorage() { release(); }

  /// Makes at least `required` bytes available: the caller's arena when `options` has one (checked for alignment
  /// and size), else an owned one of max(required, reserve) bytes, reallocated only when the current one is smaller.
  ONNXMICRO_DETAIL_ALWAYS_INLINE Status provide(const SessionOptions& options, std::size_t required,
                                                std::size_t reserve) noexcept {
    if (options.arena != nullptr) return adopt(options, required);
    if (required <= capacity_) return {};
#if ONNXMICRO_HAS_HEAP
    release();
    const std::size_t bytes = required > reserve ? required : reserve;
    allocation_ = std::malloc(bytes + ONNXMICRO_TENSOR_ALIGNMENT);
    if (allocation_ == nullptr) {
      return Status(StatusCode::out_of_memory) << "could not allocate an arena of " << bytes << " bytes";
    }
    data_ = reinterpret_cast<unsigned char*>(
        align_up(reinterpret_cast<std::uintptr_t>(allocation_), ONNXMICRO_TENSOR_ALIGNMENT));
    capacity_ = bytes;
    return {};
#else
    (void)reserve;
    return Status(StatusCode::invalid_argument)
           << "SessionOptions::arena is required in a build without heap: this model needs " << required << " bytes";
#endif
  }

  /// Frees an owned arena and forgets a caller's.
  void release() noexcept {
#if ONNXMICRO_HAS_HEAP
    std::free(allocation_);
#endif
    allocation_ = nullptr;
    data_ = nullptr;
    capacity_ = 0;
  }

  /// Points at another buffer of the caller's (Session::rebase_arena), keeping the capacity.
  void rebase(unsigned char* data) noexcept { data_ = data; }

  unsigned char* data() const noexcept { return data_; }
  std::size_t capacity() const noexcept { return capacity_; }

 private:
  ONNXMICRO_DETAIL_ALWAYS_INLINE Status adopt(const SessionOptions& options, std::size_t required) noexcept {
    if (reinterpret_cast<std::uintptr_t>(options.arena) % ONNXMICRO_TENSOR_ALIGNMENT != 0) {
      return Status(StatusCode::invalid_argument)
             << "SessionOptions::arena must be aligned to " << ONNXMICRO_TENSOR_ALIGNMENT << " bytes";
    }
    if (options.arena_bytes < required) {
      Status s(StatusCode::out_of_memory);
      s << "the arena is too small: this model needs " << required << " bytes";
      if (!options.input_shapes.empty()) {
        s << " at input shapes";
        for (const InputShape& bound : options.input_shapes) s << " '" << bound.name << "' " << bound.shape;
      }
      return s << ", SessionOptions::arena_bytes is " << options.arena_bytes;
    }
    release();
    data_ = static_cast<unsigned char*>(options.arena);
    capacity_ = options.arena_bytes;
    return {};
  }

  unsigned char* data_ = nullptr;
  std::size_t capacity_ = 0;
  void* allocation_ = nullptr;  ///< non-null when the arena is owned
};

/// The string pool of a session: the caller's buffer, or one it allocates when the model builds strings at run time.
class StringPoolStorage {
 public:
  StringPoolStorage() noexcept = default;
  StringPoolStorage(const StringPoolStorage&) = delete;
  StringPoolStorage& operator=(const StringPoolStorage&) = delete;
  ~StringPoolStorage() { release(); }

  /// Uses the caller's pool when `options` has one; else, when `needed`, allocates one once
  /// (string_pool_bytes, or ONNXMICRO_DEFAULT_STRING_POOL_BYTES when 0). A build without heap and without a
  /// caller's pool gets an empty pool: the first string a run builds fails with out_of_memory naming the node.
  ONNXMICRO_DETAIL_ALWAYS_INLINE Status provide(const SessionOptions& options, bool needed) noexcept {
    if (options.string_pool != nullptr) {
      pool_ = kernels::StringPool(options.string_pool, options.string_pool_bytes);
      return {};
    }
    if (!needed || allocation_ != nullptr) return {};
#if ONNXMICRO_HAS_HEAP
    const std::size_t bytes =
        options.string_pool_bytes != 0 ? options.string_pool_bytes : ONNXMICRO_DEFAULT_STRING_POOL_BYTES;
    allocation_ = std::malloc(bytes);
    if (allocation_ == nullptr) {
      return Status(StatusCode::out_of_memory) << "could not allocate a string pool of " << bytes << " bytes";
    }
    pool_ = kernels::StringPool(static_cast<char*>(allocation_), bytes);
#endif
    return {};
  }

  void release() noexcept {
#if ONNXMICRO_HAS_HEAP
    std::free(allocation_);
#endif
    allocation_ = nullptr;
    pool_ = kernels::StringPool();
  }

  kernels::StringPool& pool() noexcept { return pool_; }
  const kernels::StringPool& pool() const noexcept { return pool_; }

 private:
  kernels::StringPool pool_;
  void* allocation_ = nullptr;  ///< non-null when the pool is owned
};

}  // namespace detail
ONNXMICRO_NAMESPACE_END
