// SPDX-License-Identifier: MIT
// Quoting names from a model for the pictures the CLI writes: Graphviz DOT strings (`onnxmicro graph`) and SVG
// text (`onnxmicro plan --svg`). Names are bytes: control characters and invalid UTF-8 must neither break the
// syntax nor make the file unreadable, so both become visible placeholders, as in the CLI's text output.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>

#include "utf8.hpp"

namespace onnxmicro_cli {

/// Calls `emit(piece)` for each character of `text`: a valid UTF-8 sequence or ASCII byte as it is, a tab or
/// line break as ' ', any other control character or invalid byte as '?'.
template <typename Emit>
void for_each_visible_character(std::string_view text, Emit emit) {
  std::size_t i = 0;
  while (i < text.size()) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x80) {
      const std::size_t length = utf8_sequence_length(text, i);
      emit(length == 0 ? std::string_view("?") : text.substr(i, length));
      i += length == 0 ? 1 : length;
      continue;
    }
    const bool space = c == '\n' || c == '\r' || c == '\t';
    emit(space ? std::string_view(" ") : (c < 0x20 || c == 0x7f) ? std::string_view("?") : text.substr(i, 1));
    ++i;
  }
}

/// The text of a DOT label or attribute, without the surrounding quotes: '"' and '\' escaped, so that a name
/// reads as itself (DOT would take "\n" or "\l" in it as a line break). Join lines with "\\n" afterwards.
inline std::string dot_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for_each_visible_character(text, [&](std::string_view piece) {
    if (piece == "\"" || piece == "\\") out += '\\';
    out += piece;
  });
  return out;
}

/// A DOT double-quoted string of `text` (see dot_escape).
inline std::string dot_quote(std::string_view text) { return "\"" + dot_escape(text) + "\""; }

/// SVG (XML) character data or attribute text: &, <, >, " and ' as entities.
inline std::string xml_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for_each_visible_character(text, [&](std::string_view piece) {
    if (piece == "&") {
      out += "&amp;";
    } else if (piece == "<") {
      out += "&lt;";
    } else if (piece == ">") {
      out += "&gt;";
    } else if (piece == "\"") {
      out += "&quot;";
    } else if (piece == "'") {
      out += "&apos;";
    } else {
      out += piece;
    }
  });
  return out;
}

}  // namespace onnxmicro_cli
