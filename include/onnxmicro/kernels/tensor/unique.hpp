// SPDX-License-Identifier: MIT
// Unique: the distinct elements of X (flattened) or, with `axis`, the distinct slices along that axis, sorted
// ascending (sorted = 1, default; slices compare lexicographically) or in order of first occurrence
// (sorted = 0). Optional outputs: `indices` (first occurrence of each output entry in X), `inverse_indices`
// (the output entry of each X entry) and `counts`. NaNs compare equal to each other and above every number, as
// in numpy.unique. The output size depends on X's values, so X must be known at prepare time (Session::run(inputs)
// offers it; run-time data-dependent output shapes come with dynamic axes). run() needs 5 int64 of scratch per entry.
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstring>

#include "onnxmicro/kernels/tensor/index_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

namespace unique_detail {

/// The implementation of Unique (see the file comment).
struct UniqueImpl : KernelDefaults {
  static constexpr std::string_view kOpType = "Unique";
  static constexpr int kInput = 0;
  static constexpr int kOutputY = 0;
  static constexpr int kOutputIndices = 1;
  static constexpr int kOutputInverse = 2;
  static constexpr int kOutputCounts = 3;

  /// Compares elements a and b (flat positions) of `data`: negative, 0 or positive.
  using CompareFunction = int (*)(const void* data, std::int64_t a, std::int64_t b) noexcept;

  struct State {
    CompareFunction compare;
    std::int64_t outer;  ///< product of dims before the axis (1 without axis)
    std::int64_t n;      ///< entries to deduplicate: dim at the axis, or all elements
    std::int64_t inner;  ///< product of dims after the axis (1 without axis)
    std::int64_t unique_count;
    std::size_t element_bytes;
    bool sorted;
  };

  static Status prepare(PrepareContext& ctx) noexcept {
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kInput));
    const TensorInfo& x = ctx.input(kInput);
    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
    ONNXMICRO_RETURN_IF_ERROR(compare_function(ctx, state->compare));
    ONNXMICRO_RETURN_IF_ERROR(index_util::input_element_bytes(ctx, kInput, state->element_bytes));
    std::int64_t sorted = 1;
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("sorted", sorted, 1));
    if (sorted != 0 && sorted != 1) {
      return Status(StatusCode::invalid_model) << "attribute 'sorted' is " << sorted << ", expected 0 or 1";
    }
    state->sorted = sorted == 1;
    index_util::AxisSplit split;
    ONNXMICRO_RETURN_IF_ERROR(index_util::split_at_optional_axis(ctx, x.shape, true, split));
    state->outer = split.outer;
    state->n = split.n;
    state->inner = split.inner;
    const int axis = split.axis;
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_constant_input(kInput));
    // Counting needs a sorted permutation; it lives in metadata (prepare time), run() uses scratch.
    Span<std::int64_t> perm;
    if (state->n > 0) ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_persistent(static_cast<std::size_t>(state->n), perm));
    state->unique_count = sort_and_count(*state, x.const_data, perm.data());
    const std::int64_t u = state->unique_count;
    if (axis < 0) {
      ctx.set_output(kOutputY, x.dtype, Shape{u});
    } else {
      Shape y = x.shape;
      y[axis] = u;
      ctx.set_output(kOutputY, x.dtype, y);
    }
    if (ctx.has_output(kOutputIndices)) ctx.set_output(kOutputIndices, DataType::int64, Shape{u});
    if (ctx.has_output(kOutputInverse)) ctx.set_output(kOutputInverse, DataType::int64, Shape{state->n});
    if (ctx.has_output(kOutputCounts)) ctx.set_output(kOutputCounts, DataType::int64, Shape{u});
    ctx.request_scratch(static_cast<std::size_t>(state->n) * 5 * sizeof(std::int64_t));
    return {};
  }

  static Status run(RunContext& ctx) noexcept {
    const State& s = ctx.state<State>();
    const std::int64_t n = s.n;
    const void* data = ctx.input(kInput).data;
    std::int64_t* perm = static_cast<std::int64_t*>(ctx.scratch());
    std::int64_t* group_of = perm + n;         // group (in sorted order) of each entry
    std::int64_t* group_first = perm + 2 * n;  // first occurrence of each group
    std::int64_t* group_count = perm + 3 * n;
    std::int64_t* position = perm + 4 * n;  // output slot of each group
    if (sort_and_count(s, data, perm) != s.unique_count) {
      return Status(StatusCode::invalid_argument)
             << "input 0 has a different number of unique entries than when prepared (" << s.unique_count << ")";
    }
    std::int64_t g = -1;
    for (std::int64_t r = 0; r < n; ++r) {
      if (r == 0 || compare_entries(s, data, perm[r - 1], perm[r]) != 0) {
        ++g;
        group_first[g] = perm[r];  // ties are sorted by position, so this is the first occurrence
        group_count[g] = 0;
      }
      group_of[perm[r]] = g;
      ++group_count[g];
    }
    const std::int64_t u = s.unique_count;
    if (s.sorted) {
      for (std::int64_t i = 0; i < u; ++i) position[i] = i;
    } else {
      for (std::int64_t i = 0; i < u; ++i) position[i] = -1;
      std::int64_t next = 0;
      for (std::int64_t j = 0; j < n; ++j) {
        if (position[group_of[j]] < 0) position[group_of[j]] = next++;
      }
    }
    // Y: slot p of every outer row takes the group's first slice.
    const std::size_t slice_bytes = static_cast<std::size_t>(s.inner) * s.element_bytes;
    const unsigned char* src = static_cast<const unsigned char*>(data);
    unsigned char* y = static_cast<unsigned char*>(ctx.output(kOutputY).data);
    if (slice_bytes != 0) {
      for (std::int64_t o = 0; o < s.outer; ++o) {
        for (std::int64_t i = 0; i < u; ++i) {
          std::memcpy(y + static_cast<std::size_t>(o * u + position[i]) * slice_bytes,
                      src + static_cast<std::size_t>(o * n + group_first[i]) * slice_bytes, slice_bytes);
        }
      }
    }
    if (ctx.has_output(kOutputIndices)) {
      std::int64_t* out = static_cast<std::int64_t*>(ctx.output(kOutputIndices).data);
      for (std::int64_t i = 0; i < u; ++i) out[position[i]] = group_first[i];
    }
    if (ctx.has_output(kOutputInverse)) {
      std::int64_t* out = static_cast<std::int64_t*>(ctx.output(kOutputInverse).data);
      for (std::int64_t j = 0; j < n; ++j) out[j] = position[group_of[j]];
    }
    if (ctx.has_output(kOutputCounts)) {
      std::int64_t* out = static_cast<std::int64_t*>(ctx.output(kOutputCounts).data);
      for (std::int64_t i = 0; i < u; ++i) out[position[i]] = group_count[i];
    }
    return {};
  }

 private:
  // Lexicographic comparison of entries a and b (slices along the axis, or single elements).
  static int compare_entries(const State& s, const void* data, std::int64_t a, std::int64_t b) noexcept {
    for (std::int64_t o = 0; o < s.outer; ++o) {
      const std::int64_t row = o * s.n;
      for (std::int64_t i = 0; i < s.inner; ++i) {
        const int c = s.compare(data, (row + a) * s.inner + i, (row + b) * s.inner + i);
        if (c != 0) return c;
      }
    }
    return 0;
  }

  // Fills perm with the entries sorted (ties by position) and returns the number of distinct entries.
  static std::int64_t sort_and_count(const State& s, const void* data, std::int64_t* perm) noexcept {
    for (std::int64_t j = 0; j < s.n; ++j) perm[j] = j;
    std::sort(perm, perm + s.n, [&](std::int64_t a, std::int64_t b) noexcept {
      const int c = compare_entries(s, data, a, b);
      return c < 0 || (c == 0 && a < b);
    });
    std::int64_t count = 0;
    for (std::int64_t r = 0; r < s.n; ++r) {
      if (r == 0 || compare_entries(s, data, perm[r - 1], perm[r]) != 0) ++count;
    }
    return count;
  }

  template <typename T>
  static int compare_values(T a, T b) noexcept {
    const bool a_nan = a != a;  // NaN: equal to NaN, above every number
    const bool b_nan = b != b;
    if (a_nan || b_nan) return static_cast<int>(a_nan) - static_cast<int>(b_nan);
    return a < b ? -1 : (b < a ? 1 : 0);
  }
  // Element of `Parts` values of T (complex: real, then imaginary); float16/bfloat16 compare as float.
  template <typename T, int Parts = 1>
  static int compare(const void* data, std::int64_t a, std::int64_t b) noexcept {
    T va[Parts];
    T vb[Parts];
    const unsigned char* bytes = static_cast<const unsigned char*>(data);
    std::memcpy(va, bytes + a * static_cast<std::int64_t>(sizeof(va)), sizeof(va));
    std::memcpy(vb, bytes + b * static_cast<std::int64_t>(sizeof(vb)), sizeof(vb));
    for (int p = 0; p < Parts; ++p) {
      int c = 0;
      if constexpr (std::is_same<T, float16_t>::value || std::is_same<T, bfloat16_t>::value) {
        c = compare_values(va[p].to_float(), vb[p].to_float());
      } else {
        c = compare_values(va[p], vb[p]);
      }
      if (c != 0) return c;
    }
    return 0;
  }

  // Strings compare by their bytes, as numpy does for UTF-8 of ASCII.
  static int compare_strings(const void* data, std::int64_t a, std::int64_t b) noexcept {
    const StringRef* strings = static_cast<const StringRef*>(data);
    const int c = strings[a].view().compare(strings[b].view());
    return c < 0 ? -1 : (c > 0 ? 1 : 0);
  }

  static Status compare_function(const PrepareContext& ctx, CompareFunction& out) noexcept {
    switch (compiled_dtype(ctx.input(kInput).dtype)) {
      case DataType::float32: out = &compare<float>; break;
      case DataType::float64: out = &compare<double>; break;
      case DataType::float16: out = &compare<float16_t>; break;
      case DataType::bfloat16: out = &compare<bfloat16_t>; break;
      case DataType::complex64: out = &compare<float, 2>; break;
      case DataType::complex128: out = &compare<double, 2>; break;
      case DataType::int8: out = &compare<std::int8_t>; break;
      case DataType::int16: out = &compare<std::int16_t>; break;
      case DataType::int32: out = &compare<std::int32_t>; break;
      case DataType::int64: out = &compare<std::int64_t>; break;
      case DataType::boolean:
      case DataType::uint8: out = &compare<std::uint8_t>; break;
      case DataType::uint16: out = &compare<std::uint16_t>; break;
      case DataType::uint32: out = &compare<std::uint32_t>; break;
      case DataType::uint64: out = &compare<std::uint64_t>; break;
      case DataType::string: out = &compare_strings; break;
      default: return ctx.unsupported_input_dtype(kInput);
    }
    return {};
  }
};

}  // namespace unique_detail

// Opset 11 introduced it; 28 only added bfloat16, so one kernel serves every version.
using Unique_11 = VersionedKernel<unique_detail::UniqueImpl, 11>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
