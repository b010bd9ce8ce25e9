// SPDX-License-Identifier: MIT
// Static arena planner. Every non-constant tensor (and each node's scratch) is a buffer with a size and a
// lifetime [first_use, last_use] in execution steps. plan_arena() assigns offsets in one arena so that no two
// buffers whose lifetimes overlap share bytes:
//   - buffers are taken largest first (ties: earlier first_use), as in TFLite Micro's greedy planner;
//   - each goes to the lowest aligned offset where it fits between the buffers already placed that are live at
//     the same time (a sweep over those buffers sorted by offset);
//   - in-place reuse is decided before planning by the session: an output that may overwrite an input that dies
//     at that node simply shares the input's buffer, whose lifetime is extended.
// The plan reports the arena size and a lower bound: the largest total size of simultaneously-live buffers.
#pragma once
#include <cstddef>
#include <cstdint>

#include "onnxmicro/core/memory.hpp"

ONNXMICRO_NAMESPACE_BEGIN

/// One buffer to place: live from the start of step first_use through the end of step last_use.
struct PlannedBuffer {
  std::size_t size = 0;
  std::int32_t first_use = 0;
  std::int32_t last_use = 0;
  std::size_t offset = 0;  ///< assigned by plan_arena()

  constexpr bool overlaps_in_time(const PlannedBuffer& other) const noexcept {
    return first_use <= other.last_use && other.first_use <= last_use;
  }
  constexpr bool overlaps_in_space(const PlannedBuffer& other) const noexcept {
    return size != 0 && other.size != 0 && offset < other.offset + other.size && other.offset < offset + size;
  }
};

/// The result of planning: every buffer's offset and the arena size.
struct MemoryPlan {
  Span<PlannedBuffer> buffers;
  std::size_t arena_bytes = 0;
  /// Largest sum of sizes of buffers live at one step (no plan can use less; alignment aside).
  std::size_t lower_bound_bytes = 0;

  /// True when no two buffers that are live at the same time overlap in the arena and all fit in it
  /// (used by tests; O(n^2)).
  bool is_valid() const noexcept {
    for (std::size_t i = 0; i < buffers.size(); ++i) {
      if (buffers[i].offset + buffers[i].size > arena_bytes) return false;
      for (std::size_t j = i + 1; j < buffers.size(); ++j) {
        if (buffers[i].overlaps_in_time(buffers[j]) && buffers[i].overlaps_in_space(buffers[j])) return false;
      }
    }
    return true;
  }
};

/// Assigns offsets (multiples of `alignment`, a power of two) to `buffers` and fills `plan`. `order` is scratch
/// space of buffers.size() entries (from the caller's allocator: the planner itself never allocates).
inline void plan_arena(Span<PlannedBuffer> buffers, Span<std::int32_t> order, std::size_t alignment,
                       MemoryPlan& plan) noexcept {
  const std::size_t n = buffers.size();
  for (std::size_t i = 0; i < n; ++i) order[i] = static_cast<std::int32_t>(i);
  // Insertion sort by (size desc, first_use asc): stable and allocation-free; n is the tensor count.
  for (std::size_t i = 1; i < n; ++i) {
    std::int32_t key = order[i];
    std::size_t j = i;
    while (j > 0) {
      const PlannedBuffer& a = buffers[order[j - 1]];
      const PlannedBuffer& b = buffers[key];
      bool before = a.size > b.size || (a.size == b.size && a.first_use <= b.first_use);
      if (before) break;
      order[j] = order[j - 1];
      --j;
    }
    order[j] = key;
  }
  std::size_t arena = 0;
  for (std::size_t k = 0; k < n; ++k) {
    PlannedBuffer& current = buffers[order[k]];
    if (current.size == 0) {
      current.offset = 0;
      continue;
    }
    // Candidate offsets: 0 and the aligned end of every placed buffer live at the same time. The lowest
    // candidate that collides with none of them wins (a gap or the top).
    std::size_t best = static_cast<std::size_t>(-1);
    for (std::size_t c = 0; c <= k; ++c) {
      std::size_t candidate = 0;
      if (c < k) {
        const PlannedBuffer& placed = buffers[order[c]];
        if (placed.size == 0 || !placed.overlaps_in_time(current)) continue;
        candidate = align_up(placed.offset + placed.size, alignment);
      }
      if (candidate >= best) continue;
      bool fits = true;
      for (std::size_t p = 0; p < k && fits; ++p) {
        const PlannedBuffer& placed = buffers[order[p]];
        if (placed.size == 0 || !placed.overlaps_in_time(current)) continue;
        if (candidate < placed.offset + placed.size && placed.offset < candidate + current.size) fits = false;
      }
      if (fits) best = candidate;
    }
    current.offset = best;
    if (best + current.size > arena) arena = best + current.size;
  }
  plan.buffers = buffers;
  plan.arena_bytes = align_up(arena, alignment);
  // Lower bound: live bytes at each step's start (a buffer starting at step s counts from s).
  std::size_t lower = 0;
  for (std::size_t i = 0; i < n; ++i) {
    std::int32_t step = buffers[i].first_use;
    std::size_t live = 0;
    for (std::size_t j = 0; j < n; ++j)
      if (buffers[j].first_use <= step && step <= buffers[j].last_use) live += buffers[j].size;
    if (live > lower) lower = live;
  }
  plan.lower_bound_bytes = lower;
}

ONNXMICRO_NAMESPACE_END
