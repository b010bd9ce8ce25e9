// SPDX-License-Identifier: MIT
// StringSplit (opset 20): splits every string of X at `delimiter` (at most `maxsplit` times), as Python's
// str.split: with a delimiter, consecutive delimiters give empty substrings; without one (absent or ""), runs of
// whitespace separate and leading/trailing whitespace is dropped. Y has X's shape plus one axis as long as the
// most substrings of any element (shorter rows padded with ""); Z counts each element's substrings.
// Y's last dim depends on X's values, so X must be known at prepare time (Session::run(inputs) offers it; run-time
// data-dependent shapes). The substrings are views into X's characters, which then live as long as the session.
#pragma once
#include "onnxmicro/kernels/kernel_api.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

namespace string_split_detail {

/// The implementation of StringSplit (see the file comment).
struct StringSplitImpl : KernelDefaults {
  static constexpr std::string_view kOpType = "StringSplit";
  static constexpr int kInput = 0;
  static constexpr int kSubstrings = 0;
  static constexpr int kCounts = 1;

  struct State {
    std::string_view delimiter;  ///< empty: split at whitespace runs
    std::int64_t maxsplit;       ///< < 0: unlimited
    std::int64_t width;          ///< Y's last dim
  };

  /// Calls `emit(substring)` for each piece of `text`; returns the number of pieces.
  template <typename Emit>
  static std::int64_t split(std::string_view text, const State& state, Emit&& emit) noexcept {
    std::int64_t pieces = 0;
    std::int64_t splits_left = state.maxsplit;
    if (!state.delimiter.empty()) {
      std::size_t start = 0;
      for (;;) {
        const std::size_t at = splits_left == 0 ? std::string_view::npos : text.find(state.delimiter, start);
        if (at == std::string_view::npos) break;
        emit(detail::substring(text, start, at - start));
        ++pieces;
        --splits_left;
        start = at + state.delimiter.size();
      }
      emit(detail::substring(text, start));
      return pieces + 1;
    }
    std::size_t i = 0;
    for (;;) {
      while (i < text.size() && is_space(text[i])) ++i;
      if (i == text.size()) return pieces;
      if (splits_left == 0) {
        // The rest, with its trailing whitespace removed (as Python does).
        std::size_t end = text.size();
        while (end > i && is_space(text[end - 1])) --end;
        emit(detail::substring(text, i, end - i));
        return pieces + 1;
      }
      const std::size_t start = i;
      while (i < text.size() && !is_space(text[i])) ++i;
      emit(detail::substring(text, start, i - start));
      ++pieces;
      --splits_left;
    }
  }

  static Status prepare(PrepareContext& ctx) noexcept {
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kInput));
    if (ctx.input(kInput).dtype != DataType::string) return ctx.unsupported_input_dtype(kInput);
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_constant_input(kInput));
    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("delimiter", state->delimiter, std::string_view()));
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("maxsplit", state->maxsplit, -1));
    if (ctx.has_attribute("maxsplit") && state->maxsplit <= 0) {
      return Status(StatusCode::invalid_model) << "attribute 'maxsplit' must be positive, got " << state->maxsplit;
    }
    const TensorInfo& x = ctx.input(kInput);
    const auto* strings = static_cast<const StringRef*>(x.const_data);
    state->width = 0;
    for (std::int64_t i = 0; i < x.shape.element_count(); ++i) {
      const std::int64_t pieces = split(strings[i].view(), *state, [](std::string_view) {});
      if (pieces > state->width) state->width = pieces;
    }
    Shape y = x.shape;
    if (y.rank() == kMaxRank) {
      return ctx.input_error(kInput, {}, StatusCode::limit_exceeded)
             << " has rank " << y.rank() << "; Y needs one more than ONNXMICRO_MAX_RANK";
    }
    y.resize(x.shape.rank() + 1);
    y[x.shape.rank()] = state->width;
    ctx.set_output(kSubstrings, DataType::string, y);
    ctx.set_output(kCounts, DataType::int64, x.shape);
    return {};
  }

  static Status run(RunContext& ctx) noexcept {
    const State& state = ctx.state<State>();
    const auto* x = ctx.input(kInput).data_as<StringRef>();
    auto* y = ctx.output(kSubstrings).data_as<StringRef>();
    auto* counts = ctx.has_output(kCounts) ? ctx.output(kCounts).data_as<std::int64_t>() : nullptr;
    const std::int64_t n = ctx.input(kInput).element_count();
    for (std::int64_t i = 0; i < n; ++i) {
      StringRef* row = y + i * state.width;
      std::int64_t k = 0;
      const std::int64_t pieces =
          split(x[i].view(), state, [&](std::string_view piece) { row[k++] = StringRef::of(piece); });
      for (; k < state.width; ++k) row[k] = StringRef{"", 0};
      if (counts != nullptr) counts[i] = pieces;
    }
    return {};
  }

 private:
  // Python's str.split() whitespace (ASCII).
  static bool is_space(char c) noexcept {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f' || c == '\x1c' || c == '\x1d' ||
           c == '\x1e' || c == '\x1f';
  }
};

}  // namespace string_split_detail

using StringSplit_20 = VersionedKernel<string_split_detail::StringSplitImpl, 20>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
