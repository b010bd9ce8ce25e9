// SPDX-License-Identifier: MIT
// Line-buffered text output without printf: the firmware sends each line through semihosting (SYS_WRITE0),
// the host reference writes it to stdout. Both print floats the same way, so their outputs can be compared
// line by line: the exact bits in hex (what the comparison reads) and a readable decimal (for people).
#pragma once
#include <cstddef>
#include <cstdint>

namespace cortex_m {

/// Sends one NUL-terminated chunk of text to the console.
using WriteFunction = void (*)(const char* text);

class Output {
 public:
  explicit Output(WriteFunction write) noexcept : write_(write) {}
  Output& text(const char* s) noexcept;
  Output& text(const char* s, std::size_t n) noexcept;
  Output& unsigned_decimal(std::uint64_t v) noexcept;
  Output& signed_decimal(std::int64_t v) noexcept;
  /// "0x" and exactly 2 * bytes hex digits.
  Output& hex(std::uint64_t v, int bytes) noexcept;
  /// The float's bits as 0x%08x, a space, and about 9 significant digits in scientific notation
  /// (e.g. "0x3dcccccd 1.00000001e-01"). The decimal is computed in double and meant for reading only.
  Output& float_bits_and_value(float v) noexcept;
  /// Like printf("%.3e"), for tolerances and differences.
  Output& scientific(double v, int digits) noexcept;
  /// Ends the line and flushes it.
  Output& endl() noexcept;

 private:
  void put(char c) noexcept;
  void flush() noexcept;

  WriteFunction write_;
  char line_[160] = {};
  std::size_t used_ = 0;
};

}  // namespace cortex_m
