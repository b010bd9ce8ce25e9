// SPDX-License-Identifier: MIT
// Name → index lookup without the heap: an open-addressing hash table whose slots come from a
// MetadataAllocator, sized once (twice the number of names, a power of two).
#pragma once
#include <cstdint>
#include <string_view>

#include "onnxmicro/core/memory.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace detail {

class NameTable {
 public:
  /// Prepares room for up to `capacity` names.
  Status init(std::size_t capacity, MetadataAllocator& allocator) noexcept {
    std::size_t slots = 16;
    while (slots < capacity * 2) slots *= 2;
    ONNXMICRO_RETURN_IF_ERROR(allocator.allocate_array(slots, slots_));
    for (Slot& s : slots_) s.index = -1;
    capacity_ = capacity;
    return {};
  }
  /// Index stored for `name`, or -1.
  std::int32_t find(std::string_view name) const noexcept {
    if (slots_.empty()) return -1;
    std::size_t mask = slots_.size() - 1;
    for (std::size_t i = hash(name) & mask;; i = (i + 1) & mask) {
      const Slot& s = slots_[i];
      if (s.index < 0) return -1;
      if (s.name == name) return s.index;
    }
  }
  /// Inserts name → index; returns false (and inserts nothing) when the name is already present.
  bool insert(std::string_view name, std::int32_t index) noexcept {
    std::size_t mask = slots_.size() - 1;
    for (std::size_t i = hash(name) & mask;; i = (i + 1) & mask) {
      Slot& s = slots_[i];
      if (s.index < 0) {
        s.name = name;
        s.index = index;
        return true;
      }
      if (s.name == name) return false;
    }
  }
  /// Replaces the index of an existing name (or inserts it).
  void assign(std::string_view name, std::int32_t index) noexcept {
    std::size_t mask = slots_.size() - 1;
    for (std::size_t i = hash(name) & mask;; i = (i + 1) & mask) {
      Slot& s = slots_[i];
      if (s.index < 0 || s.name == name) {
        s.name = name;
        s.index = index;
        return;
      }
    }
  }

 private:
  struct Slot {
    std::string_view name;
    std::int32_t index = -1;
  };
  static std::size_t hash(std::string_view name) noexcept {
    std::uint64_t h = 1469598103934665603ULL;  // FNV-1a
    for (char c : name) {
      h ^= static_cast<unsigned char>(c);
      h *= 1099511628211ULL;
    }
    return static_cast<std::size_t>(h ^ (h >> 29));
  }
  Span<Slot> slots_;
  std::size_t capacity_ = 0;
};

}  // namespace detail
ONNXMICRO_NAMESPACE_END
