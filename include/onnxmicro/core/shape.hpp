// SPDX-License-Identifier: MIT
// Shape: a fixed-capacity list of dimensions (no heap), with overflow-checked element counts.
#pragma once
#include <cstddef>
#include <cstdint>

#include "onnxmicro/core/config.hpp"
#include "onnxmicro/core/span.hpp"
#include "onnxmicro/core/status.hpp"

ONNXMICRO_NAMESPACE_BEGIN

/// Maximum rank, from ONNXMICRO_MAX_RANK.
constexpr int kMaxRank = ONNXMICRO_MAX_RANK;

/// Dimensions of a tensor. Rank 0 is a scalar (one element). Dims are >= 0 once bound; during shape
/// inference a dim of kUnknownDim means "not known yet" (symbolic or data-dependent).
class Shape {
 public:
  static constexpr std::int64_t kUnknownDim = -1;

  constexpr Shape() noexcept : rank_(0), dims_{} {}
  /// Shape from a list, e.g. Shape{1, 3, 224, 224}. Ranks above kMaxRank are cut (use assign() to check).
  constexpr Shape(std::initializer_list<std::int64_t> dims) noexcept : rank_(0), dims_{} {
    for (std::int64_t d : dims) {
      if (rank_ == kMaxRank) break;
      dims_[rank_++] = d;
    }
  }

  /// Sets the dims from an array; fails (limit_exceeded) when `rank` > kMaxRank.
  Status assign(const std::int64_t* dims, std::size_t rank) noexcept {
    if (rank > static_cast<std::size_t>(kMaxRank)) {
      return Status(StatusCode::limit_exceeded)
             << "rank " << rank << " exceeds ONNXMICRO_MAX_RANK (" << kMaxRank << ")";
    }
    rank_ = static_cast<int>(rank);
    for (std::size_t i = 0; i < rank; ++i) dims_[i] = dims[i];
    return {};
  }
  /// Sets the rank; new dims are 1. Callers check rank <= kMaxRank.
  constexpr void resize(int rank) noexcept {
    for (int i = rank_; i < rank; ++i) dims_[i] = 1;
    rank_ = rank;
  }

  constexpr int rank() const noexcept { return rank_; }
  constexpr std::int64_t operator[](int i) const noexcept { return dims_[i]; }
  constexpr std::int64_t& operator[](int i) noexcept { return dims_[i]; }
  constexpr const std::int64_t* data() const noexcept { return dims_; }
  constexpr std::int64_t* data() noexcept { return dims_; }
  constexpr Span<const std::int64_t> dims() const noexcept { return {dims_, static_cast<std::size_t>(rank_)}; }

  /// True when every dim is known (>= 0).
  constexpr bool is_static() const noexcept {
    for (int i = 0; i < rank_; ++i)
      if (dims_[i] < 0) return false;
    return true;
  }
  /// Number of elements; 0 when any dim is 0. Only meaningful for static shapes (see checked_element_count).
  constexpr std::int64_t element_count() const noexcept {
    std::int64_t n = 1;
    for (int i = 0; i < rank_; ++i) n *= dims_[i];
    return n;
  }
  /// Element count with overflow and negativity checks; at most ONNXMICRO_MAX_TENSOR_BYTES elements.
  Status checked_element_count(std::int64_t& count) const noexcept;

  friend constexpr bool operator==(const Shape& a, const Shape& b) noexcept {
    if (a.rank_ != b.rank_) return false;
    for (int i = 0; i < a.rank_; ++i)
      if (a.dims_[i] != b.dims_[i]) return false;
    return true;
  }
  friend constexpr bool operator!=(const Shape& a, const Shape& b) noexcept { return !(a == b); }

 private:
  int rank_;
  std::int64_t dims_[kMaxRank];
};

/// Appends a shape as "[1,3,224,224]" (unknown dims as "?") to an error message.
inline Status& operator<<(Status& status, const Shape& shape) noexcept {
  status << "[";
  for (int i = 0; i < shape.rank(); ++i) {
    if (i) status << ",";
    if (shape[i] < 0)
      status << "?";
    else
      status << shape[i];
  }
  return status << "]";
}
inline Status&& operator<<(Status&& status, const Shape& shape) noexcept {
  status << shape;
  return static_cast<Status&&>(status);
}

inline Status Shape::checked_element_count(std::int64_t& count) const noexcept {
  const std::uint64_t limit = static_cast<std::uint64_t>(ONNXMICRO_MAX_TENSOR_BYTES);
  bool has_zero = false;
  for (int i = 0; i < rank_; ++i) {
    if (dims_[i] < 0) {
      return Status(StatusCode::invalid_model) << "shape " << *this << ": dimension " << i << " is negative";
    }
    if (dims_[i] == 0) has_zero = true;
  }
  if (has_zero) {
    count = 0;
    return {};
  }
  std::uint64_t n = 1;
  for (int i = 0; i < rank_; ++i) {
    std::uint64_t d = static_cast<std::uint64_t>(dims_[i]);
    if (n > limit / d) {
      return Status(StatusCode::limit_exceeded) << "shape " << *this << " has more than " << limit << " elements";
    }
    n *= d;
  }
  count = static_cast<std::int64_t>(n);
  return {};
}

ONNXMICRO_NAMESPACE_END
