// SPDX-License-Identifier: MIT
// Softmax: y = exp(x - max) / sum(exp(x - max)), numerically stable (the max is subtracted first). Up to
// opset 12 the input is seen as a 2-D matrix [prod(dims[:axis]), prod(dims[axis:])] normalised per row;
// from opset 13 the normalisation runs along `axis` only. A NaN anywhere in a slice makes the slice NaN.
#pragma once
#include <cmath>

#include "onnxmicro/kernels/common/elementwise.hpp"
#include "onnxmicro/kernels/common/vector_math.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

namespace softmax_detail {

/// Implementation shared by the Softmax versions: the input viewed as [outer, length, inner], normalised along
/// length.
struct SoftmaxImpl : KernelDefaults {
  static constexpr std::string_view kOpType = "Softmax";
  static constexpr int kInPlaceInput = 0;
  static constexpr int kInput = 0;
  static constexpr int kOutput = 0;

  using Function = void (*)(const void* x, void* y, std::int64_t outer, std::int64_t length, std::int64_t inner,
                            void* scratch) noexcept;
  struct State {
    Function compute;
    std::int64_t outer;
    std::int64_t length;
    std::int64_t inner;
  };

  /// Validates the input, reads `axis` (default `default_axis`, accepted range [-rank, max_axis]), and
  /// returns the axis normalised to >= 0.
  static Status prepare_axis(PrepareContext& ctx, std::int64_t default_axis, int max_axis_offset, int& axis) noexcept {
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kInput));
    const int rank = ctx.input(kInput).shape.rank();
    if (!ctx.input(kInput).shape.is_static()) {
      return ctx.input_error(kInput, {}, StatusCode::unsupported)
             << " has shape " << ctx.input(kInput).shape << "; shapes must be known";
    }
    std::int64_t requested = 0;
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("axis", requested, default_axis));
    const std::int64_t normalised = requested < 0 ? requested + rank : requested;
    const int max_axis = rank - 1 + max_axis_offset;
    if (normalised < 0 || normalised > max_axis) {
      return Status(StatusCode::invalid_model)
             << "attribute 'axis' is " << requested << ", expected a value in [" << -rank << ", " << max_axis
             << "] for input 0 '" << ctx.input(kInput).name << "' of shape " << ctx.input(kInput).shape;
    }
    axis = static_cast<int>(normalised);
    return {};
  }

  /// Opset 1-12 (`since` < 13): the input is coerced to 2-D at `axis` (default 1, axis == rank allowed: rows of
  /// one element) and each row of prod(dims[axis:]) elements is normalised. Opset 13+: normalised along `axis`
  /// only (default -1).
  static Status prepare(PrepareContext& ctx, int since) noexcept {
    const bool coerce_2d = since < 13;
    int axis = 0;
    ONNXMICRO_RETURN_IF_ERROR(prepare_axis(ctx, coerce_2d ? 1 : -1, coerce_2d ? 1 : 0, axis));
    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
    const Shape& shape = ctx.input(kInput).shape;
    state->outer = product(shape, 0, axis);
    if (coerce_2d) {
      state->length = product(shape, axis, shape.rank());
      state->inner = 1;
    } else {
      state->length = shape[axis];
      state->inner = product(shape, axis + 1, shape.rank());
    }
    return finish_prepare(ctx, *state);
  }

  /// Picks the loop for the input dtype, asks for scratch, sets the output; `outer/length/inner` in state.
  static Status finish_prepare(PrepareContext& ctx, State& state) noexcept {
    std::size_t scratch = 0;
    const bool supported = visit_dtype(ctx.input(kInput).dtype, FloatTypes{}, [&](auto tag) noexcept {
      using T = typename decltype(tag)::type;
      state.compute = &compute<T>;
      // Per-position running max and sum when the softmax axis is not the innermost one.
      if (state.inner > 1) scratch = 2 * static_cast<std::size_t>(state.inner) * sizeof(compute_t<T>);
    });
    if (!supported) return ctx.unsupported_input_dtype(kInput);
#if ONNXMICRO_ENABLE_ISA_DISPATCH
    // float32 along the innermost axis (attention scores): exp on the session's instruction set.
    if (ctx.input(kInput).dtype == DataType::float32 && state.inner == 1 && ctx.isa() != Isa::baseline) {
      state.compute = ctx.isa() == Isa::avx512 ? &compute_rows<Isa::avx512> : &compute_rows<Isa::avx2>;
    }
#endif
    if (scratch > 0) ctx.request_scratch(scratch);
    ctx.set_output(kOutput, ctx.input(kInput).dtype, ctx.input(kInput).shape);
    return {};
  }

  static Status run(RunContext& ctx) noexcept {
    const State& state = ctx.state<State>();
    state.compute(ctx.input(kInput).data, ctx.output(kOutput).data, state.outer, state.length, state.inner,
                  ctx.scratch());
    return {};
  }

  static std::int64_t product(const Shape& shape, int begin, int end) noexcept {
    std::int64_t n = 1;
    for (int i = begin; i < end; ++i) n *= shape[i];
    return n;
  }

  /// float32 rows (inner == 1) with exp vectorised on kIsa (vector_math). y may alias x.
  template <Isa kIsa>
  static void compute_rows(const void* x, void* y, std::int64_t outer, std::int64_t length, std::int64_t,
                           void*) noexcept {
    const float* in = static_cast<const float*>(x);
    float* out = static_cast<float*>(y);
    for (std::int64_t o = 0; o < outer && length > 0; ++o) {
      const float* xb = in + o * length;
      float* yb = out + o * length;
      float max = xb[0];
      for (std::int64_t k = 1; k < length; ++k) max = xb[k] > max ? xb[k] : max;
      for (std::int64_t k = 0; k < length; ++k) yb[k] = xb[k] - max;
      vector_math::exp(kIsa, yb, yb, length);
      float sum = 0;
      for (std::int64_t k = 0; k < length; ++k) sum += yb[k];
      const float scale = 1.0f / sum;
      for (std::int64_t k = 0; k < length; ++k) yb[k] *= scale;
    }
  }

  // y may alias x: every x element is read before the y element at the same position is written, and
  // nothing at another position is read after that.
  template <typename T>
  static void compute(const void* x, void* y, std::int64_t outer, std::int64_t length, std::int64_t inner,
                      void* scratch) noexcept {
    using C = compute_t<T>;
    // float/double keep exp(x - max) in y and rescale it; 16-bit floats recompute it so that the division
    // sees the unrounded value.
    constexpr bool kKeepExp = std::is_same_v<C, T>;
    if (outer == 0 || length == 0 || inner == 0) return;
    const T* in = static_cast<const T*>(x);
    T* out = static_cast<T*>(y);
    const std::int64_t block = length * inner;
    for (std::int64_t o = 0; o < outer; ++o) {
      const T* xb = in + o * block;
      T* yb = out + o * block;
      if (inner == 1) {
        C max = load_element(xb[0]);
        for (std::int64_t k = 1; k < length; ++k) {
          const C v = load_element(xb[k]);
          max = v > max ? v : max;  // a NaN makes the sum, hence the slice, NaN
        }
        C sum = 0;
        for (std::int64_t k = 0; k < length; ++k) {
          const C e = std::exp(load_element(xb[k]) - max);
          if constexpr (kKeepExp) yb[k] = e;
          sum += e;
        }
        const C scale = C(1) / sum;
        for (std::int64_t k = 0; k < length; ++k) {
          if constexpr (kKeepExp) {
            yb[k] *= scale;
          } else {
            yb[k] = store_element<T>(std::exp(load_element(xb[k]) - max) * scale);
          }
        }
        continue;
      }
      C* max = static_cast<C*>(scratch);
      C* sum = max + inner;
      for (std::int64_t i = 0; i < inner; ++i) {
        max[i] = load_element(xb[i]);
        sum[i] = 0;
      }
      for (std::int64_t k = 1; k < length; ++k) {
        const T* row = xb + k * inner;
        for (std::int64_t i = 0; i < inner; ++i) {
          const C v = load_element(row[i]);
          max[i] = v > max[i] ? v : max[i];
        }
      }
      for (std::int64_t k = 0; k < length; ++k) {
        const T* row = xb + k * inner;
        T* out_row = yb + k * inner;
        for (std::int64_t i = 0; i < inner; ++i) {
          const C e = std::exp(load_element(row[i]) - max[i]);
          if constexpr (kKeepExp) out_row[i] = e;
          sum[i] += e;
        }
      }
      for (std::int64_t i = 0; i < inner; ++i) sum[i] = C(1) / sum[i];
      for (std::int64_t k = 0; k < length; ++k) {
        const T* row = xb + k * inner;
        T* out_row = yb + k * inner;
        for (std::int64_t i = 0; i < inner; ++i) {
          if constexpr (kKeepExp) {
            out_row[i] *= sum[i];
          } else {
            out_row[i] = store_element<T>(std::exp(load_element(row[i]) - max[i]) * sum[i]);
          }
        }
      }
    }
  }
};

}  // namespace softmax_detail

// Opset 1-12: the input is coerced to 2-D at `axis` (default 1; opset 11 allowed negative axes, accepted
// here for every version) and each row of prod(dims[axis:]) elements is normalised.
using Softmax_1 = VersionedKernel<softmax_detail::SoftmaxImpl, 1, 13>;
// Opset 13+: normalised along `axis` only (default -1); the other dimensions are independent slices.
using Softmax_13 = VersionedKernel<softmax_detail::SoftmaxImpl, 13>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
