// SPDX-License-Identifier: MIT
// TfIdfVectorizer (opset 9): counts the n-grams of the pool (pool_int64s or pool_strings, grouped by length
// through ngram_counts) in each row of a 1-D [C] or 2-D [B, C] input, with items up to max_skip_count apart,
// and writes the counts (TF), their presence times weights (IDF) or counts times weights (TFIDF) into
// ngram_indexes' columns of a float output [max(ngram_indexes) + 1] or [B, max(ngram_indexes) + 1].
// The pool becomes a trie at prepare time, as in the reference: only n-gram lengths within
// [min_gram_length, max_gram_length] are inserted (ids of the others are skipped), unigrams count once, and
// longer n-grams once per skip distance.
#pragma once
#include <cstdint>
#include <cstring>

#include "onnxmicro/kernels/kernel_api.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

namespace tfidf_vectorizer_detail {

/// The implementation of TfIdfVectorizer (see the file comment).
struct TfIdfVectorizerImpl : KernelDefaults {
  static constexpr std::string_view kOpType = "TfIdfVectorizer";
  static constexpr int kInput = 0;
  static constexpr int kOutput = 0;

  enum class Mode : std::uint8_t { tf, idf, tfidf };

  /// A trie node: the pool item it matches, the n-gram id ending here (0: none), its children as a list.
  struct TrieNode {
    std::int32_t pool_index;
    std::int32_t id;
    std::int32_t first_child;   // -1: none
    std::int32_t next_sibling;  // -1: none
  };

  struct State {
    Mode mode;
    bool strings;  // pool_strings (string input) or pool_int64s (integer input)
    bool input_int32;
    std::int64_t min_gram, max_gram, max_skip;
    std::int64_t rows, row_length, output_size;
    const std::int64_t* pool_ints;
    const StringRef* pool_strings;
    const TrieNode* trie;  // trie[0] is the root
    const std::int64_t* ngram_indexes;
    const float* weights;  // nullptr: no weights
  };

  static Status prepare(PrepareContext& ctx) noexcept {
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kInput));
    const TensorInfo& x = ctx.input(kInput);
    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));

    std::string_view mode;
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("mode", mode, ""));
    if (mode == "TF") {
      state->mode = Mode::tf;
    } else if (mode == "IDF") {
      state->mode = Mode::idf;
    } else if (mode == "TFIDF") {
      state->mode = Mode::tfidf;
    } else {
      return Status(StatusCode::invalid_model) << "attribute 'mode' is \"" << mode << "\", expected TF, IDF or TFIDF";
    }
    ONNXMICRO_RETURN_IF_ERROR(ctx.required_attribute("min_gram_length", state->min_gram));
    ONNXMICRO_RETURN_IF_ERROR(ctx.required_attribute("max_gram_length", state->max_gram));
    ONNXMICRO_RETURN_IF_ERROR(ctx.required_attribute("max_skip_count", state->max_skip));
    if (state->min_gram < 1 || state->max_gram < state->min_gram || state->max_skip < 0) {
      return Status(StatusCode::invalid_model)
             << "attributes min_gram_length " << state->min_gram << ", max_gram_length " << state->max_gram
             << ", max_skip_count " << state->max_skip
             << ": expected 1 <= min_gram_length <= max_gram_length and max_skip_count >= 0";
    }

    // Input: string rows need pool_strings, integer rows pool_int64s.
    if (x.dtype == DataType::string) {
      state->strings = true;
    } else if (x.dtype == DataType::int64 || x.dtype == DataType::int32) {
      state->input_int32 = x.dtype == DataType::int32;
    } else {
      return ctx.unsupported_input_dtype(kInput);
    }
    const int rank = x.shape.rank();
    if (rank > 2 || (rank == 2 && x.shape[0] < 1)) {
      return ctx.input_error(kInput) << " must have shape [C] or [B, C] with B > 0";
    }
    state->rows = rank == 2 ? x.shape[0] : 1;
    state->row_length = rank == 0 ? 1 : x.shape[rank - 1];

    // Pool.
    proto::Attribute pool;
    const char* pool_name = state->strings ? "pool_strings" : "pool_int64s";
    if (!ctx.find_attribute(pool_name, pool)) {
      return Status(StatusCode::invalid_model)
             << "attribute '" << pool_name << "' is required for " << dtype_name(x.dtype) << " input";
    }
    std::size_t pool_size = 0;
    if (state->strings) {
      ONNXMICRO_RETURN_IF_ERROR(PrepareContext::expect_type(pool, proto::AttributeType::strings));
      pool_size = pool.strings().size();
      Span<StringRef> items;
      ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_persistent(pool_size + 1, items));
      std::size_t i = 0;
      for (std::string_view s : pool.strings()) items[i++] = StringRef::of(s);
      state->pool_strings = items.data();
    } else {
      ONNXMICRO_RETURN_IF_ERROR(PrepareContext::expect_type(pool, proto::AttributeType::ints));
      pool_size = pool.ints().size();
      Span<std::int64_t> items;
      ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_persistent(pool_size + 1, items));
      std::size_t i = 0;
      for (std::int64_t v : pool.ints()) items[i++] = v;
      state->pool_ints = items.data();
    }

    // ngram_counts / ngram_indexes / weights.
    Span<std::int64_t> counts, indexes;
    std::size_t count_size = 0, index_size = 0;
    ONNXMICRO_RETURN_IF_ERROR(read_ints(ctx, "ngram_counts", counts, count_size));
    ONNXMICRO_RETURN_IF_ERROR(read_ints(ctx, "ngram_indexes", indexes, index_size));
    state->ngram_indexes = indexes.data();
    std::int64_t max_index = -1;
    for (std::size_t i = 0; i < index_size; ++i) {
      if (indexes[i] < 0) {
        return Status(StatusCode::invalid_model) << "attribute 'ngram_indexes' has a negative entry";
      }
      if (indexes[i] > max_index) max_index = indexes[i];
    }
    state->output_size = max_index + 1;
    proto::Attribute weights;
    if (ctx.find_attribute("weights", weights)) {
      ONNXMICRO_RETURN_IF_ERROR(PrepareContext::expect_type(weights, proto::AttributeType::floats));
      const std::size_t n = weights.floats().size();
      if (n != 0) {
        if (n < static_cast<std::size_t>(state->output_size)) {
          return Status(StatusCode::invalid_model) << "attribute 'weights' has " << n << " entries, expected "
                                                   << state->output_size << " (one per output column)";
        }
        Span<float> values;
        ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_persistent(n, values));
        std::size_t i = 0;
        for (float v : weights.floats()) values[i++] = v;
        state->weights = values.data();
      }
    }

    // Trie: at most one node per pool item, plus the root.
    Span<TrieNode> trie;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_persistent(pool_size + 1, trie));
    trie[0] = TrieNode{-1, 0, -1, -1};
    std::int32_t node_count = 1;
    std::int64_t ngram_id = 1;  // 0 means "no n-gram ends here"
    for (std::size_t i = 0; i < count_size; ++i) {
      const std::int64_t start = counts[i];
      const std::int64_t end = i + 1 < count_size ? counts[i + 1] : static_cast<std::int64_t>(pool_size);
      const std::int64_t size = static_cast<std::int64_t>(i) + 1;
      if (start < 0 || end > static_cast<std::int64_t>(pool_size) || start > end) {
        return Status(StatusCode::invalid_model)
               << "attribute 'ngram_counts' is not an increasing list of pool offsets";
      }
      const std::int64_t ngrams = (end - start) / size;
      if (ngrams == 0) continue;
      if (size < state->min_gram || size > state->max_gram) {
        ngram_id += ngrams;
        continue;
      }
      for (std::int64_t g = 0; g < ngrams; ++g) {
        std::int32_t parent = 0;
        for (std::int64_t k = 0; k < size; ++k) {
          const auto item = static_cast<std::int32_t>(start + g * size + k);
          std::int32_t child = find_child(*state, trie.data(), parent, item);
          if (child < 0) {
            child = node_count++;
            trie[static_cast<std::size_t>(child)] =
                TrieNode{item, 0, -1, trie[static_cast<std::size_t>(parent)].first_child};
            trie[static_cast<std::size_t>(parent)].first_child = child;
          }
          parent = child;
        }
        if (ngram_id - 1 >= static_cast<std::int64_t>(index_size)) {
          return Status(StatusCode::invalid_model)
                 << "attribute 'ngram_indexes' has " << index_size << " entries, fewer than the pool's n-grams";
        }
        trie[static_cast<std::size_t>(parent)].id = static_cast<std::int32_t>(ngram_id++);
      }
    }
    state->trie = trie.data();

    Shape output = rank == 2 ? Shape{state->rows, state->output_size} : Shape{state->output_size};
    ctx.set_output(kOutput, DataType::float32, output);
    return {};
  }

  static Status run(RunContext& ctx) noexcept {
    const State& state = ctx.state<State>();
    float* y = ctx.output(kOutput).data_as<float>();
    const std::int64_t total = state.rows * state.output_size;
    for (std::int64_t i = 0; i < total; ++i) y[i] = 0.0f;
    if (ctx.input(kInput).element_count() != 0) {
      for (std::int64_t r = 0; r < state.rows; ++r)
        count_row(state, ctx.input(kInput).data, r, y + r * state.output_size);
    }
    for (std::int64_t r = 0; r < state.rows; ++r) {
      float* row = y + r * state.output_size;
      for (std::int64_t i = 0; i < state.output_size; ++i) {
        const float w = state.weights != nullptr ? state.weights[i] : 1.0f;
        if (state.mode == Mode::idf) {
          row[i] = row[i] > 0.0f ? w : 0.0f;
        } else if (state.mode == Mode::tfidf) {
          row[i] *= w;
        }
      }
    }
    return {};
  }

 private:
  static Status read_ints(PrepareContext& ctx, std::string_view name, Span<std::int64_t>& out,
                          std::size_t& size) noexcept {
    proto::Attribute a;
    if (!ctx.find_attribute(name, a)) {
      return Status(StatusCode::invalid_model) << "required attribute '" << name << "' (INTS) is missing";
    }
    ONNXMICRO_RETURN_IF_ERROR(PrepareContext::expect_type(a, proto::AttributeType::ints));
    size = a.ints().size();
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_persistent(size + 1, out));
    std::size_t i = 0;
    for (std::int64_t v : a.ints()) out[i++] = v;
    return {};
  }

  static bool same_item(const State& state, std::int32_t a, std::int32_t b) noexcept {
    return state.strings ? state.pool_strings[a] == state.pool_strings[b] : state.pool_ints[a] == state.pool_ints[b];
  }
  static std::int32_t find_child(const State& state, const TrieNode* trie, std::int32_t parent,
                                 std::int32_t item) noexcept {
    for (std::int32_t c = trie[parent].first_child; c >= 0; c = trie[c].next_sibling) {
      if (same_item(state, trie[c].pool_index, item)) return c;
    }
    return -1;
  }
  static std::int32_t match_child(const State& state, std::int32_t parent, const void* x, std::int64_t at) noexcept {
    const TrieNode* trie = state.trie;
    for (std::int32_t c = trie[parent].first_child; c >= 0; c = trie[c].next_sibling) {
      const std::int32_t p = trie[c].pool_index;
      bool equal = false;
      if (state.strings) {
        equal = static_cast<const StringRef*>(x)[at] == state.pool_strings[p];
      } else if (state.input_int32) {
        equal = static_cast<const std::int32_t*>(x)[at] == state.pool_ints[p];
      } else {
        equal = static_cast<const std::int64_t*>(x)[at] == state.pool_ints[p];
      }
      if (equal) return c;
    }
    return -1;
  }

  static void count_row(const State& state, const void* x, std::int64_t row, float* out) noexcept {
    const std::int64_t begin = row * state.row_length;
    const std::int64_t end = begin + state.row_length;
    std::int64_t start_size = state.min_gram;
    for (std::int64_t skip = 1; skip <= state.max_skip + 1; ++skip) {
      for (std::int64_t start = begin; start < end; ++start) {
        if (start + skip * (start_size - 1) >= end) break;  // no n-gram of a counted size fits any more
        std::int32_t node = 0;
        std::int64_t item = start;
        for (std::int64_t size = 1; state.trie[node].first_child >= 0 && size <= state.max_gram && item < end;
             ++size, item += skip) {
          node = match_child(state, node, x, item);
          if (node < 0) break;
          const std::int32_t id = state.trie[node].id;
          if (size >= start_size && id != 0) out[state.ngram_indexes[id - 1]] += 1.0f;
        }
      }
      // Unigrams do not depend on the skip distance: count them once.
      if (start_size == 1) {
        ++start_size;
        if (start_size > state.max_gram) break;
      }
    }
  }
};

}  // namespace tfidf_vectorizer_detail

// Opset 9: the only version.
using TfIdfVectorizer_9 = VersionedKernel<tfidf_vectorizer_detail::TfIdfVectorizerImpl, 9>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
