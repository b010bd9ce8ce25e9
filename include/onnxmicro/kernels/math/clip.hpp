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

/// What Clip_1 and Clip_11 share: the loop, and bounds kept as one element of the input's dtype.
struct ClipCommon {
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

  /// Picks the loop for `dtype` among `Types`; false when unsupported.
  template <typename Types>
  static bool select(DataType dtype, State& state) noexcept {
    return visit_dtype(dtype, Types{},
                       [&](auto tag) noexcept { state.compute = &compute<typename decltype(tag)::type>; });
  }

  static const void* bound(const RunContext& ctx, BoundSource source, const unsigned char* stored, int input) noexcept {
    switch (source) {
      case BoundSource::stored: return stored;
      case BoundSource::input: return ctx.input(input).data;
      case BoundSource::none: break;
    }
    return nullptr;
  }
};

// Opset 1-10: bounds are FLOAT attributes. Opset 1: an absent bound does not clip; opset 6 made the
// defaults -FLT_MAX / FLT_MAX (which also clips double inputs beyond float range).
struct Clip_1 : KernelDefaults {
  static constexpr std::string_view kDomain = "";
  static constexpr std::string_view kOpType = "Clip";
  static constexpr int kSinceVersion = 1;
  static constexpr int kUntilVersion = 11;
  static constexpr int kInPlaceInput = 0;
  static constexpr int kInput = 0;
  static constexpr int kOutput = 0;
  using State = ClipCommon::State;

  static Status prepare(PrepareContext& ctx) noexcept {
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kInput));
    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
    const DataType dtype = ctx.input(kInput).dtype;
    if (!ClipCommon::select<FloatTypes>(dtype, *state)) return ctx.unsupported_input_dtype(kInput);
    const bool has_defaults = ctx.opset_version() >= 6;  // defaults: added in opset 6
    ONNXMICRO_RETURN_IF_ERROR(read_bound(ctx, "min", -FLT_MAX, has_defaults, dtype, state->min_source, state->min));
    ONNXMICRO_RETURN_IF_ERROR(read_bound(ctx, "max", FLT_MAX, has_defaults, dtype, state->max_source, state->max));
    ctx.set_output(kOutput, dtype, ctx.input(kInput).shape);
    return {};
  }

  static Status run(RunContext& ctx) noexcept {
    const State& state = ctx.state<State>();
    state.compute(ctx.input(kInput).data, ctx.output(kOutput).data, ctx.input(kInput).element_count(),
                  ClipCommon::bound(ctx, state.min_source, state.min, -1),
                  ClipCommon::bound(ctx, state.max_source, state.max, -1));
    return {};
  }

 private:
  static Status read_bound(const PrepareContext& ctx, std::string_view name, float default_value, bool has_default,
                           DataType dtype, ClipCommon::BoundSource& source, unsigned char* storage) noexcept {
    float value = default_value;
    if (!has_default && !ctx.has_attribute(name)) {
      source = ClipCommon::BoundSource::none;
      return {};
    }
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute(name, value, default_value));
    source = ClipCommon::BoundSource::stored;
    visit_dtype(dtype, FloatTypes{}, [&](auto tag) noexcept {
      using T = typename decltype(tag)::type;
      const T typed = store_element<T>(static_cast<compute_t<T>>(value));
      std::memcpy(storage, &typed, sizeof(T));
    });
    return {};
  }
};

// Opset 11+: bounds are optional scalar inputs 1 'min' and 2 'max' (12 added integer dtypes, 13 bfloat16;
// every numeric dtype is accepted at every version).
struct Clip_11 : KernelDefaults {
  static constexpr std::string_view kDomain = "";
  static constexpr std::string_view kOpType = "Clip";
  static constexpr int kSinceVersion = 11;
  static constexpr int kInPlaceInput = 0;
  static constexpr int kInput = 0;
  static constexpr int kMin = 1;
  static constexpr int kMax = 2;
  static constexpr int kOutput = 0;
  using State = ClipCommon::State;

  static Status prepare(PrepareContext& ctx) noexcept {
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kInput));
    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
    const DataType dtype = ctx.input(kInput).dtype;
    if (!ClipCommon::select<NumericTypes>(dtype, *state)) return ctx.unsupported_input_dtype(kInput);
    ONNXMICRO_RETURN_IF_ERROR(read_bound(ctx, kMin, state->min_source, state->min));
    ONNXMICRO_RETURN_IF_ERROR(read_bound(ctx, kMax, state->max_source, state->max));
    ctx.set_output(kOutput, dtype, ctx.input(kInput).shape);
    return {};
  }

  static Status run(RunContext& ctx) noexcept {
    const State& state = ctx.state<State>();
    state.compute(ctx.input(kInput).data, ctx.output(kOutput).data, ctx.input(kInput).element_count(),
                  ClipCommon::bound(ctx, state.min_source, state.min, kMin),
                  ClipCommon::bound(ctx, state.max_source, state.max, kMax));
    return {};
  }

 private:
  // A constant bound is copied into the state now; a computed one is read from its input at run time (it
  // affects no shape, so it need not be known at prepare time).
  static Status read_bound(const PrepareContext& ctx, int input, ClipCommon::BoundSource& source,
                           unsigned char* storage) noexcept {
    if (!ctx.has_input(input)) {
      source = ClipCommon::BoundSource::none;
      return {};
    }
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_same_dtype(kInput, input));
    const TensorInfo& info = ctx.input(input);
    if (!info.shape.is_static() || info.shape.element_count() != 1) {
      return Status(StatusCode::invalid_model) << "input " << input << " '" << info.name << "' has shape " << info.shape
                                               << ", expected a scalar (one element)";
    }
    if (info.is_constant && info.const_data != nullptr) {
      std::memcpy(storage, info.const_data, dtype_size(info.dtype));
      source = ClipCommon::BoundSource::stored;
    } else {
      source = ClipCommon::BoundSource::input;
    }
    return {};
  }
};

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
