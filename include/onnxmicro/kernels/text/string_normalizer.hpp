// SPDX-License-Identifier: MIT
// StringNormalizer (opset 10): drops the elements of a [C] or [1, C] string tensor that equal a stopword
// (byte-exact, or ASCII case-insensitive when is_case_sensitive = 0), then lower-/upper-cases the rest
// (case_change_action LOWER/UPPER/NONE). When every element is dropped the output is one empty string ([1] or
// [1, 1]). Case changes and case-insensitive matching cover ASCII letters only; other bytes (UTF-8) pass
// unchanged, and the `locale` attribute is accepted but not consulted.
// How many elements remain depends on X's values, so X must be known at prepare time (Session::run(inputs) offers it;
// run-time data-dependent shapes).
#pragma once
#include <cstring>

#include "onnxmicro/kernels/kernel_api.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

namespace string_normalizer_detail {

/// The implementation of StringNormalizer (see the file comment).
struct StringNormalizerImpl : KernelDefaults {
  static constexpr std::string_view kOpType = "StringNormalizer";
  static constexpr int kInput = 0;
  static constexpr int kOutput = 0;

  enum class CaseChange : std::uint8_t { none, lower, upper };

  struct State {
    CaseChange case_change;
    bool case_sensitive;
    proto::Attribute stopwords;  ///< STRINGS attribute (views into the model bytes); type undefined when absent
  };

  static Status prepare(PrepareContext& ctx) noexcept {
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kInput));
    const TensorInfo& x = ctx.input(kInput);
    if (x.dtype != DataType::string) return ctx.unsupported_input_dtype(kInput);
    const bool row = x.shape.rank() == 2;
    if (!(x.shape.rank() == 1 || (row && x.shape[0] == 1))) {
      return ctx.input_error(kInput) << " must have shape [C] or [1, C], got " << x.shape;
    }
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_constant_input(kInput));
    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
    std::string_view action;
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("case_change_action", action, "NONE"));
    if (action == "NONE") {
      state->case_change = CaseChange::none;
    } else if (action == "LOWER") {
      state->case_change = CaseChange::lower;
    } else if (action == "UPPER") {
      state->case_change = CaseChange::upper;
    } else {
      return Status(StatusCode::invalid_model)
             << "attribute 'case_change_action' is '" << action << "', expected LOWER, UPPER or NONE";
    }
    std::int64_t case_sensitive = 0;
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("is_case_sensitive", case_sensitive, 0));
    state->case_sensitive = case_sensitive != 0;
    if (ctx.find_attribute("stopwords", state->stopwords)) {
      ONNXMICRO_RETURN_IF_ERROR(PrepareContext::expect_type(state->stopwords, proto::AttributeType::strings));
    }
    const auto* strings = static_cast<const StringRef*>(x.const_data);
    std::int64_t kept = 0;
    for (std::int64_t i = 0; i < x.shape.element_count(); ++i)
      if (!is_stopword(*state, strings[i].view())) ++kept;
    const std::int64_t width = kept == 0 ? 1 : kept;
    ctx.set_output(kOutput, DataType::string, row ? Shape{1, width} : Shape{width});
    return {};
  }

  static Status run(RunContext& ctx) noexcept {
    const State& state = ctx.state<State>();
    const auto* x = ctx.input(kInput).data_as<StringRef>();
    auto* y = ctx.output(kOutput).data_as<StringRef>();
    std::int64_t out = 0;
    for (std::int64_t i = 0; i < ctx.input(kInput).element_count(); ++i) {
      const std::string_view text = x[i].view();
      if (is_stopword(state, text)) continue;
      if (state.case_change == CaseChange::none) {
        y[out++] = x[i];
        continue;
      }
      char* chars = nullptr;
      ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_string(text.size(), chars));
      for (std::size_t k = 0; k < text.size(); ++k)
        chars[k] = state.case_change == CaseChange::lower ? to_lower(text[k]) : to_upper(text[k]);
      y[out++] = StringRef{chars, text.size()};
    }
    if (out == 0) y[0] = StringRef{"", 0};
    return {};
  }

 private:
  static char to_lower(char c) noexcept { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }
  static char to_upper(char c) noexcept { return c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c; }
  static bool same_ignoring_case(std::string_view a, std::string_view b) noexcept {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
      if (to_lower(a[i]) != to_lower(b[i])) return false;
    return true;
  }
  static bool is_stopword(const State& state, std::string_view text) noexcept {
    if (state.stopwords.type != proto::AttributeType::strings) return false;
    for (std::string_view stop : state.stopwords.strings()) {
      if (state.case_sensitive ? stop == text : same_ignoring_case(stop, text)) return true;
    }
    return false;
  }
};

}  // namespace string_normalizer_detail

using StringNormalizer_10 = VersionedKernel<string_normalizer_detail::StringNormalizerImpl, 10>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
