// SPDX-License-Identifier: MIT
// IsNaN: y[i] = true where x[i] is NaN (bool output, same shape). Versions 9, 13 (bfloat16 added) and 20 (the
// float8 types added) compute the same thing: one kernel serves all. Also defines FloatClassKernel, the body
// shared with IsInf.
#pragma once
#include <cmath>
#include <cstdint>

#include "onnxmicro/kernels/common/elementwise.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

/// What kind of value a floating-point element is; all IsNaN and IsInf need to know.
enum class FloatClass : std::uint8_t { finite, nan, positive_infinity, negative_infinity };

/// Classifies a float or double.
template <typename C>
inline FloatClass classify_float(C x) noexcept {
  if (std::isnan(x)) return FloatClass::nan;
  if (std::isinf(x)) return x > C(0) ? FloatClass::positive_infinity : FloatClass::negative_infinity;
  return FloatClass::finite;
}

/// Classifies one float8 element from its bits. e4m3fn has NaN (S.1111.111) but no infinity; the *fnuz types
/// have a single NaN (0x80, "negative zero") and no infinity; e5m2 follows IEEE (exponent all ones).
template <DataType kFloat8>
inline FloatClass classify_float8(std::uint8_t bits) noexcept {
  const std::uint8_t magnitude = bits & 0x7fu;
  if constexpr (kFloat8 == DataType::float8e4m3fn) {
    return magnitude == 0x7fu ? FloatClass::nan : FloatClass::finite;
  } else if constexpr (kFloat8 == DataType::float8e5m2) {
    if (magnitude > 0x7cu) return FloatClass::nan;
    if (magnitude == 0x7cu) return (bits & 0x80u) ? FloatClass::negative_infinity : FloatClass::positive_infinity;
    return FloatClass::finite;
  } else {  // float8e4m3fnuz, float8e5m2fnuz
    return bits == 0x80u ? FloatClass::nan : FloatClass::finite;
  }
}

/// Body of a kernel mapping each floating-point element of input 0 to a bool (output 0, same shape) through
/// Pred, a struct with `using Params = ...` (as UnaryElementwise's Op::Params) and
/// `static bool apply(FloatClass c, const Params&) noexcept`. Accepts float, double, float16, bfloat16 and the
/// four float8 types. No in-place run: the output's element size differs from the input's.
template <typename Pred>
struct FloatClassKernel {
  static constexpr int kInput = 0;
  static constexpr int kOutput = 0;
  using Params = typename Pred::Params;

  struct State {
    Params params;
    void (*compute)(const void* x, bool* y, std::int64_t count, const Params& params) noexcept;
  };

  static Status prepare(PrepareContext& ctx) noexcept {
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kInput));
    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
    ONNXMICRO_RETURN_IF_ERROR(Params::parse(ctx, state->params));
    const DataType dtype = ctx.input(kInput).dtype;
    switch (dtype) {
      case DataType::float8e4m3fn: state->compute = &compute_float8<DataType::float8e4m3fn>; break;
      case DataType::float8e4m3fnuz: state->compute = &compute_float8<DataType::float8e4m3fnuz>; break;
      case DataType::float8e5m2: state->compute = &compute_float8<DataType::float8e5m2>; break;
      case DataType::float8e5m2fnuz: state->compute = &compute_float8<DataType::float8e5m2fnuz>; break;
      default:
        if (!visit_dtype(dtype, FloatTypes{},
                         [&](auto tag) noexcept { state->compute = &compute<typename decltype(tag)::type>; })) {
          return ctx.unsupported_input_dtype(kInput);
        }
    }
    ctx.set_output(kOutput, DataType::boolean, ctx.input(kInput).shape);
    return {};
  }

  static Status run(RunContext& ctx) noexcept {
    const State& state = ctx.state<State>();
    state.compute(ctx.input(kInput).data, static_cast<bool*>(ctx.output(kOutput).data),
                  ctx.input(kInput).element_count(), state.params);
    return {};
  }

  template <typename T>
  static void compute(const void* x, bool* y, std::int64_t count, const Params& params) noexcept {
    const T* in = static_cast<const T*>(x);
    const Params local = params;
    for (std::int64_t i = 0; i < count; ++i) y[i] = Pred::apply(classify_float(load_element(in[i])), local);
  }
  template <DataType kFloat8>
  static void compute_float8(const void* x, bool* y, std::int64_t count, const Params& params) noexcept {
    const std::uint8_t* in = static_cast<const std::uint8_t*>(x);
    const Params local = params;
    for (std::int64_t i = 0; i < count; ++i) y[i] = Pred::apply(classify_float8<kFloat8>(in[i]), local);
  }
};

/// The predicate of IsNaN.
struct IsNaNPredicate {
  using Params = NoParams;
  static bool apply(FloatClass c, const Params&) noexcept { return c == FloatClass::nan; }
};

namespace is_nan_detail {

/// The implementation of IsNaN (see the file comment).
struct IsNaNImpl : KernelDefaults, FloatClassKernel<IsNaNPredicate> {
  static constexpr std::string_view kOpType = "IsNaN";
};

}  // namespace is_nan_detail

// Opset 9+: unchanged semantics (13 added bfloat16, 20 the float8 types).
using IsNaN_9 = VersionedKernel<is_nan_detail::IsNaNImpl, 9>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
