// SPDX-License-Identifier: MIT
// Replaces the program's global operator new/delete with malloc/free that count every allocation, so a test can
// show that Session::run() allocates nothing (the library's own heap use, for arena and metadata, is in prepare()).
// Include it in exactly one translation unit of a program: the replacements are ordinary definitions.
#pragma once
#include <cstddef>
#include <cstdlib>
#include <new>

namespace onnxmicro_test {
/// operator new calls so far in this process.
inline std::size_t heap_allocations = 0;
inline std::size_t heap_allocation_count() noexcept { return heap_allocations; }
}  // namespace onnxmicro_test

// GCC 12 reports malloc/free inside a replaced operator new/delete as mismatched: that pairing is the point here.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
#endif
void* operator new(std::size_t size) {
  ++onnxmicro_test::heap_allocations;
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t size) { return operator new(size); }
// The nothrow forms too (std::stable_sort's temporary buffer uses them): the deletes below free what they return.
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
  ++onnxmicro_test::heap_allocations;
  return std::malloc(size == 0 ? 1 : size);
}
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept { return operator new(size, std::nothrow); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
