// SPDX-License-Identifier: MIT
// A minimal streaming JSON writer for `inspect --json`: objects and arrays are either expanded (one member
// per line, indented) or compact (on one line), chosen per container; strings are escaped and invalid
// UTF-8 is replaced by U+FFFD so the output always parses.
#pragma once
#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "utf8.hpp"

namespace onnxmicro_cli {

class JsonWriter {
 public:
  explicit JsonWriter(std::ostream& out) : out_(out) {}

  void begin_object(bool compact = false) { open('{', compact); }
  void end_object() { close('}'); }
  void begin_array(bool compact = false) { open('[', compact); }
  void end_array() { close(']'); }
  /// Writes the key of the next object member.
  void key(std::string_view name) {
    separate();
    write_string(name);
    out_ << ": ";
    after_key_ = true;
  }
  void value(std::string_view text) {
    separate();
    write_string(text);
  }
  void value(const char* text) { value(std::string_view(text)); }
  void value(std::int64_t number) {
    separate();
    out_ << number;
  }
  void value(std::uint64_t number) {
    separate();
    out_ << number;
  }
  void value(bool flag) {
    separate();
    out_ << (flag ? "true" : "false");
  }
  void null() {
    separate();
    out_ << "null";
  }
  /// Ends the document with a newline.
  void finish() { out_ << '\n'; }

  /// `text` as a JSON string literal (with quotes).
  static std::string quote(std::string_view text) {
    std::string out = "\"";
    std::size_t i = 0;
    while (i < text.size()) {
      auto c = static_cast<unsigned char>(text[i]);
      if (c < 0x80) {
        switch (c) {
          case '"': out += "\\\""; break;
          case '\\': out += "\\\\"; break;
          case '\n': out += "\\n"; break;
          case '\r': out += "\\r"; break;
          case '\t': out += "\\t"; break;
          default:
            if (c < 0x20 || c == 0x7f) {
              static const char kHex[] = "0123456789abcdef";
              out += "\\u00";
              out += kHex[c >> 4];
              out += kHex[c & 0xf];
            } else {
              out += static_cast<char>(c);
            }
        }
        ++i;
        continue;
      }
      std::size_t length = utf8_sequence_length(text, i);
      if (length == 0) {
        out += "\xef\xbf\xbd";  // U+FFFD for a byte that does not start a valid sequence
        ++i;
      } else {
        out.append(text.substr(i, length));
        i += length;
      }
    }
    return out + "\"";
  }

 private:
  struct Level {
    bool compact;
    bool empty;
  };

  void write_string(std::string_view text) { out_ << quote(text); }

  bool compact() const { return !levels_.empty() && levels_.back().compact; }

  // Emits the separator and indentation that precede a new member/element.
  void separate() {
    if (after_key_) {
      after_key_ = false;
      return;
    }
    if (levels_.empty()) return;
    Level& level = levels_.back();
    if (!level.empty) out_ << ',';
    if (level.compact) {
      if (!level.empty) out_ << ' ';
    } else {
      out_ << '\n' << std::string(2 * levels_.size(), ' ');
    }
    level.empty = false;
  }
  void open(char bracket, bool compact_request) {
    separate();
    out_ << bracket;
    levels_.push_back(Level{compact_request || compact(), true});
  }
  void close(char bracket) {
    Level level = levels_.back();
    levels_.pop_back();
    if (!level.compact && !level.empty) out_ << '\n' << std::string(2 * levels_.size(), ' ');
    out_ << bracket;
  }

  std::ostream& out_;
  std::vector<Level> levels_;
  bool after_key_ = false;
};

}  // namespace onnxmicro_cli
