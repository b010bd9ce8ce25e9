// SPDX-License-Identifier: MIT
// LogSoftmax: y = x - max - log(sum(exp(x - max))) per slice, numerically stable (the max is subtracted before
// exp). Up to opset 12 the input is seen as a 2-D matrix [prod(dims[:axis]), prod(dims[axis:])] normalised per
// row; from opset 13 the normalisation runs along `axis` only. A NaN in a slice makes the slice NaN.
#pragma once
#include <cmath>
#include <limits>

#include "onnxmicro/kernels/common/axis_slices.hpp"
#include "onnxmicro/kernels/common/elementwise.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

namespace log_softmax_detail {

/// Implementation shared by the LogSoftmax versions: the input as [outer, length, inner], normalised along
/// length.
struct LogSoftmaxImpl : KernelDefaults {
  static constexpr std::string_view kOpType = "LogSoftmax";
  static constexpr int kInPlaceInput = 0;
  static constexpr int kInput = 0;
  static constexpr int kOutput = 0;

  struct State {
    AxisSlices slices;
    void (*compute)(const void* x, void* y, const AxisSlices& s) noexcept;
  };

  /// `coerce_2d`: the opset 1-12 semantics (default axis 1, axis == rank allowed, rows of prod(dims[axis:])).
  static Status prepare(PrepareContext& ctx, int since) noexcept {
    const bool coerce_2d = since < 13;
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kInput));
    ONNXMICRO_RETURN_IF_ERROR(axis_slices::require_static_shape(ctx, kInput));
    const TensorInfo& input = ctx.input(kInput);
    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
    // bfloat16: added in opset 13.
    if (input.dtype == DataType::bfloat16 && ctx.opset_version() < 13) return ctx.unsupported_input_dtype(kInput);
    const bool supported = visit_dtype(
        input.dtype, FloatTypes{}, [&](auto tag) noexcept { state->compute = &compute<typename decltype(tag)::type>; });
    if (!supported) return ctx.unsupported_input_dtype(kInput);
    std::int64_t axis_value = 0;
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("axis", axis_value, coerce_2d ? 1 : -1));
    int axis = 0;
    // negative axis: the spec allows it from opset 11, but exporters write -1 at older opsets (PyTorch at 6-10)
    // and onnxruntime accepts it, so every version does (13 defaults to -1)
    ONNXMICRO_RETURN_IF_ERROR(
        axis_slices::normalize(axis_value, input.shape, "attribute 'axis'", true, coerce_2d ? 1 : 0, axis));
    state->slices = coerce_2d ? axis_slices::coerced_2d(input.shape, axis) : axis_slices::along(input.shape, axis);
    ctx.set_output(kOutput, input.dtype, input.shape);
    return {};
  }

  static Status run(RunContext& ctx) noexcept {
    const State& state = ctx.state<State>();
    state.compute(ctx.input(kInput).data, ctx.output(kOutput).data, state.slices);
    return {};
  }

  // y may alias x: each slice is read completely (max, sum) before its elements are written, and each write
  // reads only the element it replaces.
  template <typename T>
  static void compute(const void* x, void* y, const AxisSlices& s) noexcept {
    using C = compute_t<T>;
    const T* in = static_cast<const T*>(x);
    T* out = static_cast<T*>(y);
    for (std::int64_t o = 0; o < s.outer; ++o) {
      for (std::int64_t i = 0; i < s.inner; ++i) {
        const std::int64_t start = o * s.length * s.inner + i;
        C max = -std::numeric_limits<C>::infinity();
        for (std::int64_t k = 0; k < s.length; ++k) {
          const C v = load_element(in[start + k * s.inner]);
          max = (v > max || v != v) && max == max ? v : max;
        }
        C sum = 0;
        for (std::int64_t k = 0; k < s.length; ++k) sum += std::exp(load_element(in[start + k * s.inner]) - max);
        const C offset = max + std::log(sum);
        for (std::int64_t k = 0; k < s.length; ++k) {
          const std::int64_t p = start + k * s.inner;
          out[p] = store_element<T>(load_element(in[p]) - offset);
        }
      }
    }
  }
};

}  // namespace log_softmax_detail

// Opset 1-12: the input is coerced to 2-D at `axis` (default 1; negative axis from 11) and each row is
// normalised.
using LogSoftmax_1 = VersionedKernel<log_softmax_detail::LogSoftmaxImpl, 1, 13>;
// Opset 13: normalised along `axis` only (default -1); bfloat16 added.
using LogSoftmax_13 = VersionedKernel<log_softmax_detail::LogSoftmaxImpl, 13>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
