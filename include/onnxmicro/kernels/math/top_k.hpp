// SPDX-License-Identifier: MIT
// TopK: the k largest (or, from opset 11, smallest) elements along `axis` (default -1) and their int64
// indices, sorted best first. Equal values keep the lower index first; a NaN ranks above every number (first
// for largest, last for smallest), which keeps the order total. k must be known at prepare time (it decides
// the output shape): attribute in opset 1, constant input 1 from opset 10.
#pragma once
#include <algorithm>
#include <cstring>

#include "onnxmicro/kernels/common/axis_slices.hpp"
#include "onnxmicro/kernels/common/elementwise.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

namespace top_k_detail {

/// Implementation shared by the TopK versions. Scratch holds one slice's candidate indices.
struct TopKImpl : KernelDefaults {
  static constexpr std::string_view kOpType = "TopK";
  static constexpr int kInput = 0;
  static constexpr int kKInput = 1;
  static constexpr int kValues = 0;
  static constexpr int kIndices = 1;

  using Types = TypeList<float, double, float16_t, bfloat16_t, std::int8_t, std::int16_t, std::int32_t, std::int64_t,
                         std::uint8_t, std::uint16_t, std::uint32_t, std::uint64_t>;

  struct State {
    AxisSlices slices;
    std::int64_t k;
    bool largest;
    void (*compute)(const void* x, void* values, std::int64_t* indices, const AxisSlices& s, std::int64_t k,
                    bool largest, std::int64_t* order) noexcept;
  };

  /// `k_from_input`: k is input 1 (opset 10+) rather than attribute `k`; `has_largest`: the `largest`/`sorted`
  /// attributes and the integer dtypes exist (opset 11+).
  static Status prepare(PrepareContext& ctx, int since) noexcept {
    const bool k_from_input = since >= 10;
    const bool has_largest = since >= 11;
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kInput));
    ONNXMICRO_RETURN_IF_ERROR(axis_slices::require_static_shape(ctx, kInput));
    const TensorInfo& input = ctx.input(kInput);
    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
    const DataType dtype = input.dtype;
    // Integer types: added in opset 11; bfloat16: added in opset 24.
    if (!has_largest && !(dtype == DataType::float32 || dtype == DataType::float64 || dtype == DataType::float16)) {
      return ctx.unsupported_input_dtype(kInput);
    }
    if (dtype == DataType::bfloat16 && ctx.opset_version() < 24) return ctx.unsupported_input_dtype(kInput);
    const bool supported = visit_dtype(
        dtype, Types{}, [&](auto tag) noexcept { state->compute = &compute<typename decltype(tag)::type>; });
    if (!supported) return ctx.unsupported_input_dtype(kInput);

    std::int64_t axis_value = -1, largest = 1;
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("axis", axis_value, -1));
    if (has_largest) {
      std::int64_t sorted = 1;
      ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("largest", largest, 1));
      // sorted=0 leaves the order unspecified; sorted output is a valid answer for it.
      ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("sorted", sorted, 1));
    }
    state->largest = largest != 0;
    if (input.shape.rank() == 0) {
      return ctx.input_error(kInput) << " is a scalar; expected rank >= 1";
    }
    int axis = 0;
    // The default axis is -1 in every version, so negative values are accepted throughout.
    ONNXMICRO_RETURN_IF_ERROR(axis_slices::normalize(axis_value, input.shape, "attribute 'axis'", true, 0, axis));
    state->slices = axis_slices::along(input.shape, axis);

    std::int64_t k = 0;
    const char* k_name = "attribute 'k'";
    if (k_from_input) {
      k_name = "input 1 'K'";
      ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kKInput));
      ONNXMICRO_RETURN_IF_ERROR(ctx.require_constant_input(kKInput));
      const TensorInfo& k_info = ctx.input(kKInput);
      if (k_info.dtype != DataType::int64 || k_info.shape.rank() > 1 || k_info.shape.element_count() != 1) {
        return ctx.input_error(kKInput, "K") << " has dtype " << dtype_name(k_info.dtype) << " and shape "
                                             << k_info.shape << ", expected one int64 value";
      }
      std::memcpy(&k, k_info.const_data, 8);  // constant data may be unaligned
    } else {
      ONNXMICRO_RETURN_IF_ERROR(ctx.required_attribute("k", k));
    }
    if (k < 0 || k > state->slices.length) {
      return Status(StatusCode::invalid_model)
             << k_name << " is " << k << ", expected a value in [0, " << state->slices.length << "] (the size of axis "
             << axis << " of shape " << input.shape << ")";
    }
    state->k = k;
    Shape out = input.shape;
    out[axis] = k;
    ctx.set_output(kValues, dtype, out);
    ctx.set_output(kIndices, DataType::int64, out);
    ctx.request_scratch(static_cast<std::size_t>(state->slices.length) * sizeof(std::int64_t));
    return {};
  }

  static Status run(RunContext& ctx) noexcept {
    const State& state = ctx.state<State>();
    state.compute(ctx.input(kInput).data, ctx.output(kValues).data,
                  static_cast<std::int64_t*>(ctx.output(kIndices).data), state.slices, state.k, state.largest,
                  static_cast<std::int64_t*>(ctx.scratch()));
    return {};
  }

  template <typename T>
  static void compute(const void* x, void* values, std::int64_t* indices, const AxisSlices& s, std::int64_t k,
                      bool largest, std::int64_t* order) noexcept {
    using C = compute_t<T>;
    const T* in = static_cast<const T*>(x);
    T* out = static_cast<T*>(values);
    if (k == 0) return;
    for (std::int64_t o = 0; o < s.outer; ++o) {
      for (std::int64_t i = 0; i < s.inner; ++i) {
        const T* slice = in + o * s.length * s.inner + i;
        for (std::int64_t j = 0; j < s.length; ++j) order[j] = j;
        // A strict total order: better value first (NaN above every number), then the lower index.
        auto before = [&](std::int64_t a, std::int64_t b) noexcept {
          const C va = load_element(slice[a * s.inner]);
          const C vb = load_element(slice[b * s.inner]);
          const bool nan_a = va != va, nan_b = vb != vb;
          if (nan_a != nan_b) return largest ? nan_a : nan_b;
          if (!nan_a && va != vb) return largest ? va > vb : va < vb;
          return a < b;
        };
        std::partial_sort(order, order + k, order + s.length, before);
        const std::int64_t out_base = o * k * s.inner + i;
        for (std::int64_t j = 0; j < k; ++j) {
          out[out_base + j * s.inner] = slice[order[j] * s.inner];
          indices[out_base + j * s.inner] = order[j];
        }
      }
    }
  }
};

}  // namespace top_k_detail

// Opset 1: k is an attribute; float types only.
using TopK_1 = VersionedKernel<top_k_detail::TopKImpl, 1, 10>;
// Opset 10: k moved to input 1 (a 1-element int64 tensor, must be constant).
using TopK_10 = VersionedKernel<top_k_detail::TopKImpl, 10, 11>;
// Opset 11: `largest` and `sorted` attributes and the integer types added; bfloat16 from opset 24.
using TopK_11 = VersionedKernel<top_k_detail::TopKImpl, 11>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
