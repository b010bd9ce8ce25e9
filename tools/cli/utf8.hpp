// SPDX-License-Identifier: MIT
// UTF-8 validation for text that comes from models and files (names, headers), before it is printed.
#pragma once
#include <cstddef>
#include <string_view>

namespace onnxmicro_cli {

/// Length (2-4) of the valid UTF-8 sequence starting at text[i], a byte >= 0x80; 0 when the bytes there are
/// not one (stray continuation byte, truncated sequence, overlong form, UTF-16 surrogate, past U+10FFFF).
inline std::size_t utf8_sequence_length(std::string_view text, std::size_t i) {
  auto at = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char c = at(i);
  const std::size_t length = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
  if (length == 0 || i + length > text.size()) return 0;
  for (std::size_t k = 1; k < length; ++k) {
    if ((at(i + k) & 0xc0) != 0x80) return 0;
  }
  const unsigned char second = at(i + 1);
  if ((c == 0xe0 && second < 0xa0) || (c == 0xed && second >= 0xa0) || (c == 0xf0 && second < 0x90) ||
      (c == 0xf4 && second >= 0x90)) {
    return 0;
  }
  return length;
}

}  // namespace onnxmicro_cli
