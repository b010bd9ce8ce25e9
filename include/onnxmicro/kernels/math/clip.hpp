// SPDX-License-Identifier: MIT
// Clip: y = min(max(x, min), max), so max wins when min > max; NaN stays NaN. Bounds come from attributes
// up to opset 10 and from optional scalar inputs from opset 11 on, when they can also change at run time.
#pragma once
#include <cfloat>
#include <cstring>
#include <limits>

#include "onnxmicro/kernels/common/elementwise.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

namespace clip_detail {

/// Implementation shared by the Clip versions: the loop, and bounds kept as one element of the input's dtype.
/// Opset 1-10 reads the bounds from FLOAT attributes, opset 11+ from optional scalar inputs.
struct ClipImpl : KernelDefaults {
  static constexpr std::string_view kOpType = "Clip";
  static constexpr int kInPlaceInput = 0;
  static constexpr int kInput = 0;
  static constexpr int kMin = 1;
  static constexpr int kMax = 2;
  static constexpr int kOutput = 0;

  /// Clips `count` elements of x into y (which may alias x). `min`/`max` point to one element of the same
  /// dtype, or are nullptr for no bound.
  using Function = void (*)(const void* x, void* y, std::int64_t count, const void* min, const void* max) noexcept;

  /// Where a bound comes from at run time.
  enum class BoundSource : std::uint8_t { none, stored, input };

  struct State {
    Function compute;
    BoundSource min_source;
    BoundSource max_source;
    alignas(8) unsigned char min[8];  ///< the bound as one element of the input dtype (BoundSource::stored)
    alignas(8) unsigned char max[8];
  };

  static Status prepare(PrepareContext& ctx, int since) noexcept {
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kInput));
    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
    const DataType dtype = ctx.input(kInput).dtype;
    // Opset 1-10: float dtypes only.
    const bool supported =
        (since >= 11 || is_floating(dtype)) && visit_dtype(dtype, NumericTypes{}, [&](auto tag) noexcept {
          state->compute = &compute<typename decltype(tag)::type>;
        });
    if (!supported) return ctx.unsupported_input_dtype(kInput);
    if (since < 11) {
      const bool has_defaults = ctx.opset_version() >= 6;  // defaults: added in opset 6
      ONNXMICRO_RETURN_IF_ERROR(read_bound(ctx, "min", -FLT_MAX, has_defaults, dtype, state->min_source, state->min));
      ONNXMICRO_RETURN_IF_ERROR(read_bound(ctx, "max", FLT_MAX, has_defaults, dtype, state->max_source, state->max));
    } else {
      ONNXMICRO_RETURN_IF_ERROR(read_bound(ctx, kMin, state->min_source, state->min));
      ONNXMICRO_RETURN_IF_ERROR(read_bound(ctx, kMax, state->max_source, state->max));
    }
    ctx.set_output(kOutput, dtype, ctx.input(kInput).shape);
    return {};
  }

  static Status run(RunContext& ctx) noexcept {
    const State& state = ctx.state<State>();
    state.compute(ctx.input(kInput).data, ctx.output(kOutput).data, ctx.input(kInput).element_count(),
                  bound(ctx, state.min_source, state.min, kMin), bound(ctx, state.max_source, state.max, kMax));
    return {};
  }

  template <typename T>
  static void compute(const void* x, void* y, std::int64_t count, const void* min, const void* max) noexcept {
    using C = compute_t<T>;
    const C lo = min != nullptr ? load_element(*static_cast<const T*>(min)) : lowest<C>();
    const C hi = max != nullptr ? load_element(*static_cast<const T*>(max)) : highest<C>();
    const T* in = static_cast<const T*>(x);
    T* out = static_cast<T*>(y);
    for (std::int64_t i = 0; i < count; ++i) {
      C v = load_element(in[i]);
      v = v < lo ? lo : v;
      v = v > hi ? hi : v;
      out[i] = store_element<T>(v);
    }
  }

  template <typename C>
  static constexpr C lowest() noexcept {
    if constexpr (std::numeric_limits<C>::has_infinity) return -std::numeric_limits<C>::infinity();
    return std::numeric_limits<C>::lowest();
  }
  template <typename C>
  static constexpr C highest() noexcept {
    if constexpr (std::numeric_limits<C>::has_infinity) return std::numeric_limits<C>::infinity();
    return std::numeric_limits<C>::max();
  }

  static const void* bound(const RunContext& ctx, BoundSource source, const unsigned char* stored, int input) noexcept {
    switch (source) {
      case BoundSource::stored: return stored;
      case BoundSource::input: return ctx.input(input).data;
      case BoundSource::none: break;
    }
    return nullptr;
  }

 private:
  // Opset 1-10: a FLOAT attribute, stored as one element of the input dtype. Opset 1: an absent bound does
  // not clip; opset 6 made the defaults -FLT_MAX / FLT_MAX (which also clips double inputs beyond float range).
  static Status read_bound(const PrepareContext& ctx, std::string_view name, float default_value, bool has_default,
                           DataType dtype, BoundSource& source, unsigned char* storage) noexcept {
    float value = default_value;
    if (!has_default && !ctx.has_attribute(name)) {
      source = BoundSource::none;
      return {};
    }
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute(name, value, default_value));
    source = BoundSource::stored;
    visit_dtype(dtype, FloatTypes{}, [&](auto tag) noexcept {
      using T = typename decltype(tag)::type;
      const T typed = store_element<T>(static_cast<compute_t<T>>(value));
      std::memcpy(storage, &typed, sizeof(T));
    });
    return {};
  }

  // Opset 11+: a constant bound is copied into the state now; a computed one is read from its input at run time
  // (it affects no shape, so it need not be known at prepare time).
  static Status read_bound(const PrepareContext& ctx, int input, BoundSource& source, unsigned char* storage) noexcept {
    if (!ctx.has_input(input)) {
      source = BoundSource::none;
      return {};
    }
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_same_dtype(kInput, input));
    const TensorInfo& info = ctx.input(input);
    if (!info.shape.is_static() || info.shape.element_count() != 1) {
      return ctx.input_error(input) << " has shape " << info.shape << ", expected a scalar (one element)";
    }
    if (info.is_constant && info.const_data != nullptr) {
      std::memcpy(storage, info.const_data, dtype_size(info.dtype));
      source = BoundSource::stored;
    } else {
      source = BoundSource::input;
    }
    return {};
  }
};

}  // namespace clip_detail

// Opset 1-10: bounds are FLOAT attributes. Opset 1: an absent bound does not clip; opset 6 made the
// defaults -FLT_MAX / FLT_MAX (which also clips double inputs beyond float range).
using Clip_1 = VersionedKernel<clip_detail::ClipImpl, 1, 11>;
// Opset 11+: bounds are optional scalar inputs 1 'min' and 2 'max' (12 added integer dtypes, 13 bfloat16;
// every numeric dtype is accepted at every version).
using Clip_11 = VersionedKernel<clip_detail::ClipImpl, 11>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
