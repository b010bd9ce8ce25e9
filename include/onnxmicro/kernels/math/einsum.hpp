// SPDX-License-Identifier: MIT
// Einsum: sums of products of the operands over the labels of an Einstein-summation equation
// ("bij,bjk->bik", "ii->i", "...ii->...i", "i,i"). The equation is parsed once in prepare into a loop nest:
// one loop per distinct label (output labels first, in output order, then the summed labels), each with a
// stride per operand. A label repeated inside one term adds its strides (a diagonal); a dimension of size 1 under
// a label whose size is larger broadcasts (stride 0), as numpy does. "..." stands for the same broadcast batch
// dims in every term (right-aligned, numpy rules). Without "->" the output is the ellipsis dims followed by the
// labels used exactly once, in ASCII order (upper case first). In explicit mode, ellipsis dims left out of the
// output are summed (numpy does the same). run() walks the output in row-major order and, per output element,
// the summed labels. Integers wrap modulo 2^bits like numpy; float16/bfloat16 accumulate in float32 and round
// each output once.
#pragma once
#include <cstdint>
#include <string_view>

#include "onnxmicro/kernels/common/elementwise.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

namespace einsum_detail {

/// Operands an equation may have.
constexpr int kMaxOperands = 8;
/// Distinct labels (letters and ellipsis dims) an equation may use.
constexpr int kMaxLoops = 2 * kMaxRank;
/// Label ids: 'A'-'Z' -> 0-25, 'a'-'z' -> 26-51 (so id order is ASCII order), ellipsis dim j -> 52 + j.
constexpr int kLetterLabels = 52;
constexpr int kLabelIds = kLetterLabels + kMaxRank;
constexpr int kNoLabel = -1;

inline int letter_label(char c) noexcept {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return 26 + (c - 'a');
  return kNoLabel;
}

/// One term of the equation: its labels left to right, with the ellipsis expanded later.
struct Term {
  int letters[kMaxRank];
  int letter_count = 0;
  int ellipsis_at = -1;  ///< index into letters where "..." sits, -1 without ellipsis
};

/// Parses one term (spaces already skipped by the caller's scanner). `what` names it in errors.
inline Status parse_term(std::string_view text, std::string_view what, Term& term) noexcept {
  term = Term{};
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == ' ') continue;
    if (c == '.') {
      if (term.ellipsis_at >= 0 || detail::substring(text, i, 3) != "...") {
        return Status(StatusCode::invalid_model)
               << "attribute 'equation': " << what << " '" << text << "' has a stray '.' or more than one '...'";
      }
      term.ellipsis_at = term.letter_count;
      i += 2;
      continue;
    }
    const int label = letter_label(c);
    if (label == kNoLabel) {
      return Status(StatusCode::invalid_model)
             << "attribute 'equation': " << what << " '" << text << "' has '" << std::string_view(&text[i], 1)
             << "', expected letters, '...' and spaces";
    }
    if (term.letter_count == kMaxRank) {
      return Status(StatusCode::limit_exceeded)
             << "attribute 'equation': " << what << " '" << text << "' has more than " << kMaxRank << " labels";
    }
    term.letters[term.letter_count++] = label;
  }
  return {};
}

/// The label of each dimension of a tensor of rank `rank` written as `term`, given `ellipsis_rank` batch dims
/// in the whole equation: the term's "..." covers its last (rank - letters) of them.
inline Status expand_term(const Term& term, int rank, int ellipsis_rank, std::string_view what, int* labels) noexcept {
  const int covered = rank - term.letter_count;
  if (covered < 0 || (term.ellipsis_at < 0 && covered != 0) || covered > ellipsis_rank) {
    return Status(StatusCode::invalid_model)
           << "attribute 'equation': " << what << " has " << term.letter_count << " labels"
           << (term.ellipsis_at >= 0 ? " and '...'" : "") << ", which does not fit rank " << rank;
  }
  int d = 0;
  for (int i = 0; i <= term.letter_count; ++i) {
    if (i == term.ellipsis_at) {
      for (int j = ellipsis_rank - covered; j < ellipsis_rank; ++j) labels[d++] = kLetterLabels + j;
    }
    if (i < term.letter_count) labels[d++] = term.letters[i];
  }
  return {};
}

}  // namespace einsum_detail

namespace einsum_detail {

/// The implementation of Einsum (see the file comment).
struct EinsumImpl : KernelDefaults {
  static constexpr std::string_view kOpType = "Einsum";
  static constexpr int kOutput = 0;

  using Types = NumericTypes;

  /// The loop nest: loops [0, output_loops) walk the output in row-major order, the rest are summed.
  struct State {
    int operands;
    int loops;
    int output_loops;
    std::int64_t sizes[einsum_detail::kMaxLoops];
    std::int64_t strides[einsum_detail::kMaxOperands][einsum_detail::kMaxLoops];
    void (*compute)(const State& state, const RunContext& ctx) noexcept;
  };

  static Status prepare(PrepareContext& ctx) noexcept {
    using namespace einsum_detail;
    std::string_view equation;
    ONNXMICRO_RETURN_IF_ERROR(ctx.required_attribute("equation", equation));
    const int operands = ctx.input_count();
    if (operands < 1 || operands > kMaxOperands) {
      return Status(StatusCode::limit_exceeded)
             << "Einsum has " << operands << " inputs, expected 1 to " << kMaxOperands;
    }
    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
    state->operands = operands;
    const DataType dtype = ctx.input(0).dtype;
    for (int i = 0; i < operands; ++i) {
      ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(i));
      ONNXMICRO_RETURN_IF_ERROR(ctx.require_same_dtype(0, i));
      if (!ctx.input(i).shape.is_static()) {
        return ctx.input_error(i, {}, StatusCode::unsupported)
               << " has shape " << ctx.input(i).shape << "; it must be known at prepare time";
      }
    }
    // bfloat16: added in opset 28.
    if (dtype == DataType::bfloat16 && ctx.opset_version() < 28) return ctx.unsupported_input_dtype(0);
    const bool supported = visit_dtype(
        dtype, Types{}, [&](auto tag) noexcept { state->compute = &compute<typename decltype(tag)::type>; });
    if (!supported) return ctx.unsupported_input_dtype(0);

    // ---- split and parse the terms ----
    const std::size_t arrow = equation.find("->");
    const std::string_view lhs = detail::substring(equation, 0, arrow);
    Term terms[kMaxOperands];
    int term_count = 0;
    for (std::size_t start = 0;;) {
      const std::size_t comma = lhs.find(',', start);
      if (term_count == operands) {
        return Status(StatusCode::invalid_model)
               << "attribute 'equation' '" << equation << "' has more terms than the " << operands << " inputs";
      }
      ONNXMICRO_RETURN_IF_ERROR(
          parse_term(detail::substring(lhs, start, comma - start), "input term", terms[term_count++]));
      if (comma == std::string_view::npos) break;
      start = comma + 1;
    }
    if (term_count != operands) {
      return Status(StatusCode::invalid_model) << "attribute 'equation' '" << equation << "' has " << term_count
                                               << " input terms, expected one per input (" << operands << ")";
    }
    int ellipsis_rank = 0;
    for (int i = 0; i < operands; ++i) {
      const int covered = ctx.input(i).shape.rank() - terms[i].letter_count;
      if (terms[i].ellipsis_at >= 0 && covered > ellipsis_rank) ellipsis_rank = covered;
    }

    // ---- label sizes (numpy broadcasting of size-1 dims) and use counts ----
    std::int64_t label_size[kLabelIds];
    int label_uses[kLabelIds] = {};
    for (std::int64_t& s : label_size) s = -1;
    int dim_labels[kMaxOperands][kMaxRank];
    for (int i = 0; i < operands; ++i) {
      const Shape& shape = ctx.input(i).shape;
      ONNXMICRO_RETURN_IF_ERROR(expand_term(terms[i], shape.rank(), ellipsis_rank, "input term", dim_labels[i]));
      for (int d = 0; d < shape.rank(); ++d) {
        const int label = dim_labels[i][d];
        ++label_uses[label];
        std::int64_t& size = label_size[label];
        if (size < 0 || size == 1) {
          size = shape[d];
        } else if (shape[d] != size && shape[d] != 1) {
          return ctx.input_error(i) << " has shape " << shape << ": dimension " << d << " is " << shape[d]
                                    << " but its label has size " << size << " elsewhere in attribute 'equation' '"
                                    << equation << "'";
        }
      }
    }

    // ---- output labels ----
    int output_labels[kMaxLoops];
    int output_rank = 0;
    bool in_output[kLabelIds] = {};
    auto add_output = [&](int label) noexcept -> Status {
      if (output_rank == kMaxRank) {
        return Status(StatusCode::limit_exceeded)
               << "attribute 'equation' '" << equation << "' gives an output of rank above " << kMaxRank;
      }
      if (in_output[label]) {
        return Status(StatusCode::invalid_model)
               << "attribute 'equation' '" << equation << "' repeats a label in the output";
      }
      if (label_size[label] < 0) {
        return Status(StatusCode::invalid_model)
               << "attribute 'equation' '" << equation << "' has an output label that no input uses";
      }
      in_output[label] = true;
      output_labels[output_rank++] = label;
      return {};
    };
    if (arrow != std::string_view::npos) {
      Term output;
      ONNXMICRO_RETURN_IF_ERROR(parse_term(detail::substring(equation, arrow + 2), "output term", output));
      int labels[kMaxRank + kMaxRank];
      const int rank = output.letter_count + (output.ellipsis_at >= 0 ? ellipsis_rank : 0);
      if (rank > kMaxRank) return shape_rank_error(equation);
      ONNXMICRO_RETURN_IF_ERROR(expand_term(output, rank, ellipsis_rank, "output term", labels));
      for (int d = 0; d < rank; ++d) ONNXMICRO_RETURN_IF_ERROR(add_output(labels[d]));
    } else {
      // Implicit: the ellipsis dims, then the labels used once, in ASCII order.
      for (int j = 0; j < ellipsis_rank; ++j) ONNXMICRO_RETURN_IF_ERROR(add_output(kLetterLabels + j));
      for (int label = 0; label < kLetterLabels; ++label) {
        if (label_uses[label] == 1) ONNXMICRO_RETURN_IF_ERROR(add_output(label));
      }
    }

    // ---- the loop nest: output labels, then the summed ones ----
    int loop_labels[kMaxLoops];
    int loops = 0;
    for (int d = 0; d < output_rank; ++d) loop_labels[loops++] = output_labels[d];
    for (int label = 0; label < kLabelIds; ++label) {
      if (label_size[label] < 0 || in_output[label]) continue;
      if (loops == kMaxLoops) {
        return Status(StatusCode::limit_exceeded)
               << "attribute 'equation' '" << equation << "' uses more than " << kMaxLoops << " distinct labels";
      }
      loop_labels[loops++] = label;
    }
    state->loops = loops;
    state->output_loops = output_rank;
    Shape output_shape;
    output_shape.resize(output_rank);
    for (int l = 0; l < loops; ++l) {
      state->sizes[l] = label_size[loop_labels[l]];
      if (l < output_rank) output_shape[l] = state->sizes[l];
    }
    for (int i = 0; i < operands; ++i) {
      const Shape& shape = ctx.input(i).shape;
      std::int64_t stride = 1;
      for (int d = shape.rank() - 1; d >= 0; --d) {
        for (int l = 0; l < loops; ++l) {
          // A size-1 dim under a larger label broadcasts: its stride stays 0.
          if (loop_labels[l] == dim_labels[i][d] && shape[d] == state->sizes[l]) state->strides[i][l] += stride;
        }
        stride *= shape[d];
      }
    }
    ctx.set_output(kOutput, dtype, output_shape);
    return {};
  }

  static Status run(RunContext& ctx) noexcept {
    const State& state = ctx.state<State>();
    state.compute(state, ctx);
    return {};
  }

 private:
  static Status shape_rank_error(std::string_view equation) noexcept {
    return Status(StatusCode::limit_exceeded)
           << "attribute 'equation' '" << equation << "' gives an output of rank above " << kMaxRank;
  }

  /// Advances the counters of loops [begin, end) like an odometer (last loop fastest), moving every operand's
  /// offset along; false once all of them wrapped around.
  static bool advance(const State& state, int begin, int end, std::int64_t* counters, std::int64_t* offsets) noexcept {
    for (int l = end - 1; l >= begin; --l) {
      if (++counters[l] < state.sizes[l]) {
        for (int i = 0; i < state.operands; ++i) offsets[i] += state.strides[i][l];
        return true;
      }
      counters[l] = 0;
      for (int i = 0; i < state.operands; ++i) offsets[i] -= state.strides[i][l] * (state.sizes[l] - 1);
    }
    return false;
  }

  template <typename T>
  static void compute(const State& state, const RunContext& ctx) noexcept {
    using C = compute_t<T>;
    const T* inputs[einsum_detail::kMaxOperands];
    for (int i = 0; i < state.operands; ++i) inputs[i] = static_cast<const T*>(ctx.input(i).data);
    T* out = static_cast<T*>(ctx.output(kOutput).data);
    std::int64_t output_count = 1;
    std::int64_t summed_count = 1;
    for (int l = 0; l < state.loops; ++l) (l < state.output_loops ? output_count : summed_count) *= state.sizes[l];
    if (output_count == 0) return;
    std::int64_t counters[einsum_detail::kMaxLoops] = {};
    std::int64_t offsets[einsum_detail::kMaxOperands] = {};
    for (std::int64_t o = 0; o < output_count; ++o) {
      C sum = 0;
      if (summed_count != 0) {
        do {
          C product = load_element(inputs[0][offsets[0]]);
          for (int i = 1; i < state.operands; ++i) {
            const C v = load_element(inputs[i][offsets[i]]);
            if constexpr (std::is_integral_v<C>) {
              product = wrapping_mul(product, v);
            } else {
              product *= v;
            }
          }
          if constexpr (std::is_integral_v<C>) {
            sum = wrapping_add(sum, product);
          } else {
            sum += product;
          }
        } while (advance(state, state.output_loops, state.loops, counters, offsets));
      }
      out[o] = store_element<T>(sum);
      advance(state, 0, state.output_loops, counters, offsets);
    }
  }
};

}  // namespace einsum_detail

// Opset 12: first version; opset 28 adds bfloat16 and nothing else, so this one kernel serves both.
using Einsum_12 = VersionedKernel<einsum_detail::EinsumImpl, 12>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
