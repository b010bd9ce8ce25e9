// SPDX-License-Identifier: MIT
// Helpers shared by the attention-family kernels (Attention, FlexAttention, LinearAttention, RotaryEmbedding,
// CausalConvWithState): shape checks, reading any numeric element as a number, and rounding a computed value to
// the precision of a dtype. The ONNX reference computes these ops step by step in the tensor's own dtype (numpy
// float16 arithmetic rounds after every operation), so the kernels compute in float/double and round at the same
// steps to agree with the expected outputs within one unit in the last place.
#pragma once
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "onnxmicro/kernels/common/elementwise.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {
namespace attention_util {

/// Fails unless input i is present, has one of the ranks in [min_rank, max_rank] and a static shape.
inline Status require_rank(const PrepareContext& ctx, int i, int min_rank, int max_rank) noexcept {
  ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(i));
  const TensorInfo& in = ctx.input(i);
  if (!in.shape.is_static()) {
    return ctx.input_error(i, {}, StatusCode::unsupported) << " has shape " << in.shape << "; shapes must be known";
  }
  const int rank = in.shape.rank();
  if (rank < min_rank || rank > max_rank) {
    Status s = ctx.input_error(i);
    s << ": expected rank " << min_rank;
    if (max_rank != min_rank) s << " to " << max_rank;
    return s << ", got " << in.shape;
  }
  return {};
}

/// Fails unless dim `axis` of input i equals `expected`; `what` names the expected quantity.
inline Status require_dim(const PrepareContext& ctx, int i, int axis, std::int64_t expected,
                          const char* what) noexcept {
  const TensorInfo& in = ctx.input(i);
  if (in.shape[axis] == expected) return {};
  return ctx.input_error(i) << " of shape " << in.shape << ": dim " << axis << " must be " << expected << " (" << what
                            << ")";
}

/// Fails unless input i has a floating-point dtype accepted by `Types`.
template <typename Types>
Status require_dtype(const PrepareContext& ctx, int i, Types types) noexcept {
  if (visit_dtype(ctx.input(i).dtype, types, [](auto) noexcept {})) return {};
  return ctx.unsupported_input_dtype(i);
}

/// A positive INT attribute that must be present (e.g. num_heads of a 3-D input).
inline Status positive_attribute(const PrepareContext& ctx, std::string_view name, std::int64_t& value, bool required,
                                 std::int64_t default_value = 0) noexcept {
  if (required) {
    ONNXMICRO_RETURN_IF_ERROR(ctx.required_attribute(name, value));
  } else {
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute(name, value, default_value));
  }
  if (value > 0 || (!required && value == default_value)) return {};
  return Status(StatusCode::invalid_model)
         << "attribute '" << name << "' is " << value << ", expected a positive value";
}

/// Reads element `index` of a tensor of any real dtype (and bool, read as 0/1) as a double.
using ElementLoader = double (*)(const void* data, std::int64_t index) noexcept;

template <typename T>
double load_as_double(const void* data, std::int64_t index) noexcept {
  return static_cast<double>(load_element(static_cast<const T*>(data)[index]));
}

/// The loader for `dtype`, or nullptr when the dtype is not a real number or bool.
inline ElementLoader element_loader(DataType dtype) noexcept {
  ElementLoader loader = nullptr;
  if (dtype == DataType::boolean) return &load_as_double<bool>;
  visit_dtype(dtype, NumericTypes{},
              [&](auto tag) noexcept { loader = &load_as_double<typename decltype(tag)::type>; });
  return loader;
}

/// Rounds a value computed in C (float or double) to the precision of T, as storing it in a T tensor would.
template <typename T, typename C>
inline C round_to(C value) noexcept {
  return static_cast<C>(load_element(store_element<T>(static_cast<compute_t<T>>(value))));
}

/// Rounds `value` to the precision of a floating-point dtype chosen at prepare time.
template <typename C>
inline C round_to_dtype(DataType dtype, C value) noexcept {
  switch (compiled_dtype(dtype)) {
    case DataType::float16: return round_to<float16_t>(value);
    case DataType::bfloat16: return round_to<bfloat16_t>(value);
    case DataType::float32: return round_to<float>(value);
    default: return value;  // float64 (or C's own precision)
  }
}

/// True when `dtype` is one of the four real floating-point dtypes.
inline bool is_float_dtype(DataType dtype) noexcept {
  return dtype == DataType::float32 || dtype == DataType::float64 || dtype == DataType::float16 ||
         dtype == DataType::bfloat16;
}

/// Softmax of one row of `length` scores in place, rounding every step to the precision of `dtype` as the
/// ONNX reference's numpy code does: a row whose maximum is -inf gives zeros (not NaN), a NaN anywhere gives NaNs.
/// bfloat16 sums round after every addition (ml_dtypes' reduction); the other dtypes sum in S and round once.
template <typename S>
void softmax_row(S* row, std::int64_t length, DataType dtype) noexcept {
  if (length <= 0) return;
  S max = row[0];
  for (std::int64_t j = 1; j < length; ++j) {
    if (std::isnan(row[j]) || row[j] > max) max = row[j];
    if (std::isnan(max)) break;
  }
  const S shift = (std::isinf(max) && max < 0) ? S(0) : max;
  S sum = 0;
  for (std::int64_t j = 0; j < length; ++j) {
    row[j] = round_to_dtype(dtype, static_cast<S>(std::exp(round_to_dtype(dtype, row[j] - shift))));
    sum = dtype == DataType::bfloat16 ? round_to_dtype(dtype, sum + row[j]) : sum + row[j];
  }
  sum = round_to_dtype(dtype, sum);
  if (sum == S(0)) sum = S(1);
  for (std::int64_t j = 0; j < length; ++j) row[j] = round_to_dtype(dtype, row[j] / sum);
}

/// run() of a kernel whose State holds `compute`, a `void (*)(const RunContext&, const State&) noexcept` chosen
/// in prepare() for the dtypes.
template <typename State>
Status run_state_compute(RunContext& ctx) noexcept {
  const State& st = ctx.state<State>();
  st.compute(ctx, st);
  return {};
}

/// -infinity in C.
template <typename C>
constexpr C negative_infinity() noexcept {
  return -std::numeric_limits<C>::infinity();
}

}  // namespace attention_util
}  // namespace kernels
ONNXMICRO_NAMESPACE_END
