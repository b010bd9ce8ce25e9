// SPDX-License-Identifier: MIT
#include "output.hpp"

#include <cstring>

namespace cortex_m {

void Output::put(char c) noexcept {
  if (used_ + 1 >= sizeof(line_)) flush();
  line_[used_++] = c;
}

void Output::flush() noexcept {
  if (used_ == 0) return;
  line_[used_] = '\0';
  write_(line_);
  used_ = 0;
}

Output& Output::text(const char* s) noexcept {
  while (*s) put(*s++);
  return *this;
}

Output& Output::text(const char* s, std::size_t n) noexcept {
  for (std::size_t i = 0; i < n; ++i) put(s[i]);
  return *this;
}

Output& Output::unsigned_decimal(std::uint64_t v) noexcept {
  char digits[20];
  int n = 0;
  do {
    digits[n++] = static_cast<char>('0' + v % 10);
    v /= 10;
  } while (v != 0);
  while (n > 0) put(digits[--n]);
  return *this;
}

Output& Output::signed_decimal(std::int64_t v) noexcept {
  if (v < 0) {
    put('-');
    return unsigned_decimal(0 - static_cast<std::uint64_t>(v));
  }
  return unsigned_decimal(static_cast<std::uint64_t>(v));
}

Output& Output::hex(std::uint64_t v, int bytes) noexcept {
  static const char kDigits[] = "0123456789abcdef";
  text("0x");
  for (int shift = bytes * 8 - 4; shift >= 0; shift -= 4) put(kDigits[(v >> shift) & 0xF]);
  return *this;
}

Output& Output::scientific(double v, int digits) noexcept {
  if (v != v) return text("nan");
  if (v < 0) {
    put('-');
    v = -v;
  }
  if (v > 1.7976931348623157e308) return text("inf");
  int exponent = 0;
  if (v != 0) {
    while (v >= 10) {
      v /= 10;
      ++exponent;
    }
    while (v < 1) {
      v *= 10;
      --exponent;
    }
  }
  // Round to `digits` fraction digits as an integer, carrying into the exponent when it rounds up to 10.
  std::uint64_t scale = 1;
  for (int i = 0; i < digits; ++i) scale *= 10;
  std::uint64_t mantissa = static_cast<std::uint64_t>(v * static_cast<double>(scale) + 0.5);
  if (mantissa >= 10 * scale) {
    mantissa /= 10;
    ++exponent;
  }
  unsigned_decimal(mantissa / scale);
  if (digits > 0) {
    put('.');
    std::uint64_t fraction = mantissa % scale;
    for (std::uint64_t div = scale / 10; div > 0; div /= 10) put(static_cast<char>('0' + (fraction / div) % 10));
  }
  put('e');
  put(exponent < 0 ? '-' : '+');
  if (exponent < 0) exponent = -exponent;
  if (exponent < 10) put('0');
  return unsigned_decimal(static_cast<std::uint64_t>(exponent));
}

Output& Output::float_bits_and_value(float v) noexcept {
  std::uint32_t bits = 0;
  std::memcpy(&bits, &v, sizeof(bits));
  hex(bits, 4);
  put(' ');
  return scientific(static_cast<double>(v), 8);
}

Output& Output::endl() noexcept {
  put('\n');
  flush();
  return *this;
}

}  // namespace cortex_m
