// SPDX-License-Identifier: MIT
// Hardmax: 1 at the first position of each slice's maximum, 0 elsewhere (a NaN counts as the maximum, as in
// numpy's argmax). Up to opset 12 the input is seen as a 2-D matrix [prod(dims[:axis]), prod(dims[axis:])] with
// one 1 per row; from opset 13 the slices run along `axis` only.
#pragma once
#include "onnxmicro/kernels/common/axis_slices.hpp"
#include "onnxmicro/kernels/common/elementwise.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

namespace hardmax_detail {

/// Implementation shared by the Hardmax versions: the input as [outer, length, inner], one 1 per slice along
/// length.
struct HardmaxImpl : KernelDefaults {
  static constexpr std::string_view kOpType = "Hardmax";
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

  // y may alias x: a slice's maximum is found before any of its elements is written.
  template <typename T>
  static void compute(const void* x, void* y, const AxisSlices& s) noexcept {
    using C = compute_t<T>;
    const T* in = static_cast<const T*>(x);
    T* out = static_cast<T*>(y);
    const T one = store_element<T>(C(1));
    const T zero = store_element<T>(C(0));
    for (std::int64_t o = 0; o < s.outer; ++o) {
      for (std::int64_t i = 0; i < s.inner; ++i) {
        if (s.length == 0) continue;
        const std::int64_t start = o * s.length * s.inner + i;
        C best = load_element(in[start]);
        std::int64_t best_index = 0;
        for (std::int64_t k = 1; k < s.length && best == best; ++k) {
          const C v = load_element(in[start + k * s.inner]);
          if (v > best || v != v) {
            best = v;
            best_index = k;
          }
        }
        for (std::int64_t k = 0; k < s.length; ++k) out[start + k * s.inner] = k == best_index ? one : zero;
      }
    }
  }
};

}  // namespace hardmax_detail

// Opset 1-12: the input is coerced to 2-D at `axis` (default 1; negative axis from 11), one 1 per row.
using Hardmax_1 = VersionedKernel<hardmax_detail::HardmaxImpl, 1, 13>;
// Opset 13: one 1 per slice along `axis` only (default -1); bfloat16 added.
using Hardmax_13 = VersionedKernel<hardmax_detail::HardmaxImpl, 13>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
