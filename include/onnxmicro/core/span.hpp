// SPDX-License-Identifier: MIT
// Span: a pointer and a length (C++17 has no std::span). Used for every array the runtime hands out.
#pragma once
#include <cstddef>

#include "onnxmicro/core/version.hpp"

ONNXMICRO_NAMESPACE_BEGIN

/// A non-owning view of `size` contiguous T. Bounds are the caller's contract; at() is checked by assert-free
/// callers before use (the runtime validates indices where they come from untrusted data).
template <typename T>
class Span {
 public:
  constexpr Span() noexcept = default;
  constexpr Span(T* data, std::size_t size) noexcept : data_(data), size_(size) {}
  template <std::size_t N>
  constexpr Span(T (&array)[N]) noexcept : data_(array), size_(N) {}  // NOLINT: implicit by design
  template <typename U, typename = decltype(static_cast<T*>(static_cast<U*>(nullptr)))>
  constexpr Span(const Span<U>& other) noexcept : data_(other.data()), size_(other.size()) {}  // NOLINT

  constexpr T* data() const noexcept { return data_; }
  constexpr std::size_t size() const noexcept { return size_; }
  constexpr bool empty() const noexcept { return size_ == 0; }
  constexpr T& operator[](std::size_t i) const noexcept { return data_[i]; }
  constexpr T* begin() const noexcept { return data_; }
  constexpr T* end() const noexcept { return data_ + size_; }
  constexpr Span subspan(std::size_t offset, std::size_t count) const noexcept { return {data_ + offset, count}; }

 private:
  T* data_ = nullptr;
  std::size_t size_ = 0;
};

/// Raw bytes, read-only.
using ByteSpan = Span<const unsigned char>;

ONNXMICRO_NAMESPACE_END
