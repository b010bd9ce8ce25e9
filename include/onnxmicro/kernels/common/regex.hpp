// SPDX-License-Identifier: MIT
// A small regular-expression engine for RegexFullMatch: RE2 syntax (the subset below), compiled at prepare time
// into a Thompson NFA and run as a Pike VM, so matching takes time linear in the text for every pattern (no
// backtracking blow-up on hostile patterns or input) and uses a fixed scratch buffer.
//   literals and escaped punctuation, . (any byte but \n), [...] / [^...] with ranges and escapes,
//   \d \D \w \W \s \S (ASCII, as RE2), \n \t \r \f \v, ^ $ (text start/end), \b \B,
//   groups (...) and (?:...), alternation |, quantifiers * + ? {n} {n,} {n,m} (a trailing ? = lazy, which
//   does not change a full match).
// Texts are matched as bytes: '.' and negated classes consume one byte, not one UTF-8 code point. Anything else
// (backreferences, named groups, flags, \p{...}) is rejected at prepare time with the pattern position.
#pragma once
#include <cstdint>
#include <string_view>

#include "onnxmicro/core/status.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {
namespace regex {

/// Largest {n,m} count (as RE2).
constexpr std::int32_t kMaxRepeat = 1000;
/// Largest compiled program, in instructions; patterns beyond it are rejected.
constexpr std::int32_t kMaxProgram = 8192;

struct ByteSet {
  std::uint64_t bits[4];
  void add(unsigned char c) noexcept { bits[c >> 6] |= std::uint64_t(1) << (c & 63); }
  void add_range(unsigned char lo, unsigned char hi) noexcept {
    for (unsigned c = lo; c <= hi; ++c) add(static_cast<unsigned char>(c));
  }
  bool has(unsigned char c) const noexcept { return (bits[c >> 6] >> (c & 63)) & 1u; }
  void invert() noexcept {
    for (std::uint64_t& b : bits) b = ~b;
  }
  void merge(const ByteSet& other) noexcept {
    for (int i = 0; i < 4; ++i) bits[i] |= other.bits[i];
  }
};

enum class NodeKind : std::uint8_t {
  empty,
  byte_set,
  begin_text,
  end_text,
  word_boundary,
  not_word_boundary,
  concat,
  alternate,
  repeat
};

struct Node {
  NodeKind kind;
  std::int32_t left;   ///< concat/alternate: first part; repeat: the repeated node
  std::int32_t right;  ///< concat/alternate: second part
  ByteSet set;         ///< byte_set
  std::int32_t min;    ///< repeat
  std::int32_t max;    ///< repeat; -1 = unbounded
};

enum class Op : std::uint8_t { byte_set, split, jump, match, begin_text, end_text, word_boundary, not_word_boundary };

struct Instruction {
  Op op;
  std::int32_t x;  ///< byte_set: index into Program::sets; split/jump: target
  std::int32_t y;  ///< split: second target
};

struct Program {
  Instruction* code = nullptr;
  std::int32_t size = 0;
  ByteSet* sets = nullptr;
  std::int32_t set_count = 0;

  /// Scratch bytes match() needs.
  std::size_t scratch_bytes() const noexcept {
    return static_cast<std::size_t>(size) * sizeof(std::uint32_t) * 6 + sizeof(std::uint32_t) * 2;
  }
};

/// Parses a pattern into a node array of capacity `capacity` (2 * pattern length + 2 always suffices).
class Parser {
 public:
  Parser(std::string_view pattern, Node* nodes, std::int32_t capacity) noexcept
      : pattern_(pattern), nodes_(nodes), capacity_(capacity) {}

  Status parse(std::int32_t& root) noexcept {
    ONNXMICRO_RETURN_IF_ERROR(parse_alternation(root, 0));
    if (pos_ != pattern_.size()) return error("unmatched ')'");
    return {};
  }
  std::int32_t node_count() const noexcept { return count_; }

 private:
  static constexpr int kMaxNesting = 100;

  Status error(const char* what) const noexcept {
    return Status(StatusCode::invalid_model)
           << "attribute 'pattern' \"" << pattern_ << "\": " << what << " at position " << pos_;
  }
  Status new_node(NodeKind kind, std::int32_t& index) noexcept {
    if (count_ == capacity_) return error("pattern too complex");
    index = count_++;
    nodes_[index] = Node{};
    nodes_[index].kind = kind;
    return {};
  }
  bool at_end() const noexcept { return pos_ >= pattern_.size(); }
  char peek() const noexcept { return pattern_[pos_]; }

  Status parse_alternation(std::int32_t& out, int depth) noexcept {
    if (depth > kMaxNesting) return error("groups nested too deeply");
    ONNXMICRO_RETURN_IF_ERROR(parse_concat(out, depth));
    while (!at_end() && peek() == '|') {
      ++pos_;
      std::int32_t right = 0, node = 0;
      ONNXMICRO_RETURN_IF_ERROR(parse_concat(right, depth));
      ONNXMICRO_RETURN_IF_ERROR(new_node(NodeKind::alternate, node));
      nodes_[node].left = out;
      nodes_[node].right = right;
      out = node;
    }
    return {};
  }

  Status parse_concat(std::int32_t& out, int depth) noexcept {
    out = -1;
    while (!at_end() && peek() != '|' && peek() != ')') {
      std::int32_t part = 0;
      ONNXMICRO_RETURN_IF_ERROR(parse_repeat(part, depth));
      if (out < 0) {
        out = part;
      } else {
        std::int32_t node = 0;
        ONNXMICRO_RETURN_IF_ERROR(new_node(NodeKind::concat, node));
        nodes_[node].left = out;
        nodes_[node].right = part;
        out = node;
      }
    }
    if (out < 0) return new_node(NodeKind::empty, out);
    return {};
  }

  bool parse_number(std::int32_t& value) noexcept {
    if (at_end() || peek() < '0' || peek() > '9') return false;
    value = 0;
    while (!at_end() && peek() >= '0' && peek() <= '9') {
      if (value <= kMaxRepeat) value = value * 10 + (peek() - '0');
      ++pos_;
    }
    return true;
  }

  Status parse_repeat(std::int32_t& out, int depth) noexcept {
    ONNXMICRO_RETURN_IF_ERROR(parse_atom(out, depth));
    if (at_end()) return {};
    std::int32_t min = 0, max = -1;
    const char c = peek();
    if (c == '*') {
      ++pos_;
    } else if (c == '+') {
      min = 1;
      ++pos_;
    } else if (c == '?') {
      max = 1;
      ++pos_;
    } else if (c == '{') {
      const std::size_t open = pos_++;
      if (!parse_number(min)) {
        pos_ = open;  // RE2 reads a '{' that starts no valid count as a literal
        return {};
      }
      max = min;
      if (!at_end() && peek() == ',') {
        ++pos_;
        max = -1;
        if (!at_end() && peek() != '}' && !parse_number(max)) return error("bad repetition count");
      }
      if (at_end() || peek() != '}') return error("missing '}' in repetition count");
      ++pos_;
      if (min > kMaxRepeat || max > kMaxRepeat) return error("repetition count above 1000");
      if (max >= 0 && max < min) return error("repetition count {n,m} with m < n");
    } else {
      return {};
    }
    if (!at_end() && peek() == '?') ++pos_;  // lazy: same full-match result
    if (!at_end() && (peek() == '*' || peek() == '+' || peek() == '?' || peek() == '{')) {
      return error("bad repetition operator (double quantifier)");
    }
    std::int32_t node = 0;
    ONNXMICRO_RETURN_IF_ERROR(new_node(NodeKind::repeat, node));
    nodes_[node].left = out;
    nodes_[node].min = min;
    nodes_[node].max = max;
    out = node;
    return {};
  }

  // Class escapes shared by atoms and bracket expressions; false when `c` is not one.
  static bool class_escape(char c, ByteSet& set) noexcept {
    set = ByteSet{};
    switch (c) {
      case 'd':
      case 'D': set.add_range('0', '9'); break;
      case 'w':
      case 'W':
        set.add_range('0', '9');
        set.add_range('A', 'Z');
        set.add_range('a', 'z');
        set.add('_');
        break;
      case 's':
      case 'S':
        set.add(' ');
        set.add('\t');
        set.add('\n');
        set.add('\f');
        set.add('\r');
        set.add('\v');  // RE2's \s excludes \v; Perl's includes it. TODO(#3): follow RE2 exactly if it matters.
        break;
      default: return false;
    }
    if (c == 'D' || c == 'W' || c == 'S') set.invert();
    return true;
  }
  // A single-byte escape (\n, \., \\ ...); false when not one.
  static bool literal_escape(char c, unsigned char& byte) noexcept {
    switch (c) {
      case 'n': byte = '\n'; return true;
      case 't': byte = '\t'; return true;
      case 'r': byte = '\r'; return true;
      case 'f': byte = '\f'; return true;
      case 'v': byte = '\v'; return true;
      case 'a': byte = '\a'; return true;
      default: break;
    }
    const bool punctuation =
        (c >= '!' && c <= '/') || (c >= ':' && c <= '@') || (c >= '[' && c <= '`') || (c >= '{' && c <= '~');
    if (!punctuation) return false;
    byte = static_cast<unsigned char>(c);
    return true;
  }

  Status parse_atom(std::int32_t& out, int depth) noexcept {
    const char c = peek();
    switch (c) {
      case '(': {
        ++pos_;
        if (!at_end() && peek() == '?') {
          if (pos_ + 1 < pattern_.size() && pattern_[pos_ + 1] == ':') {
            pos_ += 2;
          } else {
            return error("unsupported group syntax (only (...) and (?:...))");
          }
        }
        ONNXMICRO_RETURN_IF_ERROR(parse_alternation(out, depth + 1));
        if (at_end() || peek() != ')') return error("missing ')'");
        ++pos_;
        return {};
      }
      case '*':
      case '+':
      case '?': return error("missing argument to repetition operator");
      case '^': ++pos_; return new_node(NodeKind::begin_text, out);
      case '$': ++pos_; return new_node(NodeKind::end_text, out);
      case '.': {
        ++pos_;
        ONNXMICRO_RETURN_IF_ERROR(new_node(NodeKind::byte_set, out));
        nodes_[out].set.invert();
        nodes_[out].set.bits[0] &= ~(std::uint64_t(1) << '\n');
        return {};
      }
      case '[': return parse_class(out);
      case '\\': {
        ++pos_;
        if (at_end()) return error("trailing backslash");
        const char e = peek();
        ++pos_;
        if (e == 'b') return new_node(NodeKind::word_boundary, out);
        if (e == 'B') return new_node(NodeKind::not_word_boundary, out);
        ByteSet set;
        unsigned char byte = 0;
        if (class_escape(e, set)) {
          ONNXMICRO_RETURN_IF_ERROR(new_node(NodeKind::byte_set, out));
          nodes_[out].set = set;
          return {};
        }
        if (!literal_escape(e, byte)) {
          --pos_;
          return error("unsupported escape");
        }
        ONNXMICRO_RETURN_IF_ERROR(new_node(NodeKind::byte_set, out));
        nodes_[out].set.add(byte);
        return {};
      }
      default:
        ++pos_;
        ONNXMICRO_RETURN_IF_ERROR(new_node(NodeKind::byte_set, out));
        nodes_[out].set.add(static_cast<unsigned char>(c));
        return {};
    }
  }

  Status parse_class(std::int32_t& out) noexcept {
    ++pos_;  // '['
    ByteSet set{};
    bool negate = false;
    if (!at_end() && peek() == '^') {
      negate = true;
      ++pos_;
    }
    bool first = true;
    while (!at_end() && (peek() != ']' || first)) {
      first = false;
      unsigned char lo = 0;
      bool is_range_start = true;
      if (peek() == '\\') {
        ++pos_;
        if (at_end()) return error("trailing backslash in class");
        ByteSet escaped;
        if (class_escape(peek(), escaped)) {
          ++pos_;
          set.merge(escaped);
          continue;
        }
        if (!literal_escape(peek(), lo)) return error("unsupported escape in class");
        ++pos_;
      } else if (peek() == '[' && pos_ + 1 < pattern_.size() && pattern_[pos_ + 1] == ':') {
        return error("POSIX classes [:name:] are not supported");
      } else {
        lo = static_cast<unsigned char>(peek());
        ++pos_;
      }
      unsigned char hi = lo;
      if (is_range_start && pos_ + 1 < pattern_.size() && peek() == '-' && pattern_[pos_ + 1] != ']') {
        ++pos_;
        if (peek() == '\\') {
          ++pos_;
          if (at_end() || !literal_escape(peek(), hi)) return error("bad range end in class");
        } else {
          hi = static_cast<unsigned char>(peek());
        }
        ++pos_;
        if (hi < lo) return error("bad character class range");
      }
      set.add_range(lo, hi);
    }
    if (at_end()) return error("missing ']'");
    ++pos_;
    if (negate) set.invert();
    ONNXMICRO_RETURN_IF_ERROR(new_node(NodeKind::byte_set, out));
    nodes_[out].set = set;
    return {};
  }

  std::string_view pattern_;
  Node* nodes_;
  std::int32_t capacity_;
  std::int32_t count_ = 0;
  std::size_t pos_ = 0;
};

/// Instructions node `n` compiles to (saturating at kMaxProgram + 1).
inline std::int64_t program_size(const Node* nodes, std::int32_t n) noexcept {
  const Node& node = nodes[n];
  std::int64_t size = 0;
  switch (node.kind) {
    case NodeKind::empty: size = 0; break;
    case NodeKind::concat: size = program_size(nodes, node.left) + program_size(nodes, node.right); break;
    case NodeKind::alternate: size = program_size(nodes, node.left) + program_size(nodes, node.right) + 2; break;
    case NodeKind::repeat: {
      const std::int64_t body = program_size(nodes, node.left);
      size = node.min * body + (node.max < 0 ? body + 2 : (node.max - node.min) * (body + 1));
      break;
    }
    default: size = 1; break;
  }
  return size > kMaxProgram ? kMaxProgram + 1 : size;
}

/// Emits node `n` at program.code[pc...]; byte sets are stored once per node.
inline void emit(const Node* nodes, std::int32_t n, Program& program, std::int32_t& pc) noexcept {
  const Node& node = nodes[n];
  Instruction* code = program.code;
  switch (node.kind) {
    case NodeKind::empty: return;
    case NodeKind::byte_set:
      program.sets[program.set_count] = node.set;
      code[pc++] = Instruction{Op::byte_set, program.set_count++, 0};
      return;
    case NodeKind::begin_text: code[pc++] = Instruction{Op::begin_text, 0, 0}; return;
    case NodeKind::end_text: code[pc++] = Instruction{Op::end_text, 0, 0}; return;
    case NodeKind::word_boundary: code[pc++] = Instruction{Op::word_boundary, 0, 0}; return;
    case NodeKind::not_word_boundary: code[pc++] = Instruction{Op::not_word_boundary, 0, 0}; return;
    case NodeKind::concat:
      emit(nodes, node.left, program, pc);
      emit(nodes, node.right, program, pc);
      return;
    case NodeKind::alternate: {
      const std::int32_t split = pc++;
      emit(nodes, node.left, program, pc);
      const std::int32_t jump = pc++;
      const std::int32_t second = pc;
      emit(nodes, node.right, program, pc);
      code[split] = Instruction{Op::split, split + 1, second};
      code[jump] = Instruction{Op::jump, pc, 0};
      return;
    }
    case NodeKind::repeat: {
      for (std::int32_t i = 0; i < node.min; ++i) emit(nodes, node.left, program, pc);
      if (node.max < 0) {
        const std::int32_t loop = pc++;
        emit(nodes, node.left, program, pc);
        code[pc] = Instruction{Op::jump, loop, 0};
        ++pc;
        code[loop] = Instruction{Op::split, loop + 1, pc};
        return;
      }
      // Optional copies: each may be skipped to the end.
      const std::int32_t optional = node.max - node.min;
      const std::int32_t body_size = static_cast<std::int32_t>(program_size(nodes, node.left));
      const std::int32_t first_split = pc;
      for (std::int32_t i = 0; i < optional; ++i) {
        const std::int32_t split = pc++;
        emit(nodes, node.left, program, pc);
        code[split] = Instruction{Op::split, split + 1, -1};  // patched below
      }
      // Patch every split's skip target to the end (walk the chain: each split is followed by its body).
      for (std::int32_t i = 0, at = first_split; i < optional; ++i) {
        code[at].y = pc;
        at += 1 + body_size;
      }
      return;
    }
  }
}

/// Byte sets node `n` needs.
inline std::int64_t set_count(const Node* nodes, std::int32_t n) noexcept {
  const Node& node = nodes[n];
  switch (node.kind) {
    case NodeKind::byte_set: return 1;
    case NodeKind::concat:
    case NodeKind::alternate: return set_count(nodes, node.left) + set_count(nodes, node.right);
    case NodeKind::repeat: {
      const std::int64_t body = set_count(nodes, node.left);
      return body * (node.max < 0 ? node.min + 1 : node.max);
    }
    default: return 0;
  }
}

inline bool is_word_byte(unsigned char c) noexcept {
  return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
}

/// True when the whole of `text` matches. `scratch` holds Program::scratch_bytes() bytes (4-byte aligned).
inline bool full_match(const Program& program, std::string_view text, void* scratch) noexcept {
  const std::int32_t size = program.size;
  auto* words = static_cast<std::uint32_t*>(scratch);
  std::uint32_t* marks = words;           // generation that last added each pc
  std::uint32_t* current = marks + size;  // thread lists: pcs
  std::uint32_t* next = current + size;
  std::uint32_t* stack = next + size;  // closure work list (each pc pushed at most twice + 1)
  for (std::int32_t i = 0; i < size; ++i) marks[i] = 0;
  std::uint32_t generation = 0;
  std::int32_t current_count = 0, next_count = 0;
  const auto* bytes = reinterpret_cast<const unsigned char*>(text.data());
  const std::size_t n = text.size();

  // Adds the threads reachable from `start` by empty moves at text position `pos` to `list`.
  auto add = [&](std::uint32_t* list, std::int32_t& count, std::int32_t start, std::size_t pos) {
    std::int32_t top = 0;
    stack[top++] = static_cast<std::uint32_t>(start);
    const bool word_before = pos > 0 && is_word_byte(bytes[pos - 1]);
    const bool word_after = pos < n && is_word_byte(bytes[pos]);
    while (top > 0) {
      const std::int32_t pc = static_cast<std::int32_t>(stack[--top]);
      if (marks[pc] == generation) continue;
      marks[pc] = generation;
      const Instruction& ins = program.code[pc];
      switch (ins.op) {
        case Op::jump: stack[top++] = static_cast<std::uint32_t>(ins.x); break;
        case Op::split:
          stack[top++] = static_cast<std::uint32_t>(ins.y);
          stack[top++] = static_cast<std::uint32_t>(ins.x);
          break;
        case Op::begin_text:
          if (pos == 0) stack[top++] = static_cast<std::uint32_t>(pc + 1);
          break;
        case Op::end_text:
          if (pos == n) stack[top++] = static_cast<std::uint32_t>(pc + 1);
          break;
        case Op::word_boundary:
          if (word_before != word_after) stack[top++] = static_cast<std::uint32_t>(pc + 1);
          break;
        case Op::not_word_boundary:
          if (word_before == word_after) stack[top++] = static_cast<std::uint32_t>(pc + 1);
          break;
        case Op::byte_set:
        case Op::match: list[count++] = static_cast<std::uint32_t>(pc); break;
      }
    }
  };

  ++generation;
  add(current, current_count, 0, 0);
  for (std::size_t pos = 0; pos < n && current_count > 0; ++pos) {
    ++generation;
    next_count = 0;
    for (std::int32_t t = 0; t < current_count; ++t) {
      const Instruction& ins = program.code[current[t]];
      if (ins.op == Op::byte_set && program.sets[ins.x].has(bytes[pos])) {
        add(next, next_count, static_cast<std::int32_t>(current[t]) + 1, pos + 1);
      }
    }
    std::uint32_t* swap = current;
    current = next;
    next = swap;
    current_count = next_count;
    if (current_count == 0) return false;
  }
  for (std::int32_t t = 0; t < current_count; ++t)
    if (program.code[current[t]].op == Op::match) return true;
  return false;
}

}  // namespace regex
}  // namespace kernels
ONNXMICRO_NAMESPACE_END
