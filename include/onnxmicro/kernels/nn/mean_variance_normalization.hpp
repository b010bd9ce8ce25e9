// SPDX-License-Identifier: MIT
// MeanVarianceNormalization: y = (x - E[x]) / (sqrt(E[x^2] - E[x]^2) + 1e-9), the expectations taken over
// `axes` (default [0, 2, 3]), exactly as the op's ONNX function body computes it. Sums are accumulated in
// double per slot of the kept (non-reduced) axes, in scratch.
#pragma once
#include <cmath>
#include <cstdint>

#include "onnxmicro/kernels/common/compute_type.hpp"
#include "onnxmicro/kernels/common/scratch.hpp"
#include "onnxmicro/kernels/common/shape_util.hpp"
#include "onnxmicro/kernels/kernel_api.hpp"
#include "onnxmicro/kernels/nn/spatial_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {
namespace mean_variance_normalization_detail {

struct MeanVarianceNormalizationImpl : kernels::KernelDefaults {
  static constexpr std::string_view kOpType = "MeanVarianceNormalization";
  static constexpr int kInPlaceInput = 0;  // each element is read before it is written
  static constexpr int kX = 0;
  static constexpr int kY = 0;
  /// The function body adds this to the standard deviation.
  static constexpr double kEpsilon = 1e-9;

  struct State {
    void (*compute)(const State&, const void* x, void* y, void* scratch) noexcept;
    int rank;
    std::int64_t dims[kMaxRank];
    std::int64_t kept_stride[kMaxRank];  ///< stride of each axis in the kept-slot array (0 for reduced axes)
    std::int64_t slots, count, per_slot;
    std::size_t sum_offset, square_offset;
  };

  static Status prepare(kernels::PrepareContext& ctx, int /*since: every version accepts the same*/) noexcept {
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kX));
    const kernels::TensorInfo& x = ctx.input(kX);
    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
    const bool is_float = spatial_util::visit_float_dtype(
        x.dtype, [&](auto tag) { state->compute = &compute<typename decltype(tag)::type>; });
    if (!is_float) return ctx.unsupported_input_dtype(kX);
    const int rank = x.shape.rank();
    std::int64_t axes[kMaxRank + 1] = {};
    std::size_t count = 0;
    bool present = false;
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute_ints("axes", axes, kMaxRank + 1, count, present));
    if (!present) {
      axes[0] = 0;
      axes[1] = 2;
      axes[2] = 3;
      count = 3;
    }
    bool reduced[kMaxRank] = {};
    for (std::size_t i = 0; i < count; ++i) {
      int axis = 0;
      ONNXMICRO_RETURN_IF_ERROR(kernels::shape_util::normalize_axis(axes[i], rank, "attribute 'axes'", true, axis));
      if (reduced[axis]) {
        return Status(StatusCode::invalid_model)
               << "attribute 'axes' names axis " << axis << " twice (input 0 has shape " << x.shape << ")";
      }
      reduced[axis] = true;
    }
    state->rank = rank;
    std::int64_t stride = 1;
    state->per_slot = 1;
    for (int d = rank - 1; d >= 0; --d) {
      state->dims[d] = x.shape[d];
      if (reduced[d]) {
        state->kept_stride[d] = 0;
        state->per_slot *= x.shape[d];
      } else {
        state->kept_stride[d] = stride;
        stride *= x.shape[d];
      }
    }
    state->slots = stride;
    state->count = x.shape.element_count();
    scratch::ScratchLayout layout;
    state->sum_offset = layout.reserve<double>(state->slots);
    state->square_offset = layout.reserve<double>(state->slots);
    ctx.request_scratch(layout.bytes());
    ctx.set_output(kY, x.dtype, x.shape);
    return {};
  }

  static Status run(kernels::RunContext& ctx) noexcept {
    const State& s = ctx.state<State>();
    s.compute(s, ctx.input(kX).data, ctx.output(kY).data, ctx.scratch());
    return {};
  }

 private:
  /// Calls f(element, slot) for every element of X in row-major order.
  template <typename F>
  static void for_each_element(const State& s, F&& f) noexcept {
    std::int64_t index[kMaxRank] = {};
    std::int64_t slot = 0;
    for (std::int64_t e = 0; e < s.count; ++e) {
      f(e, slot);
      for (int d = s.rank - 1; d >= 0; --d) {
        slot += s.kept_stride[d];
        if (++index[d] < s.dims[d]) break;
        slot -= s.kept_stride[d] * s.dims[d];
        index[d] = 0;
      }
    }
  }

  template <typename T>
  static void compute(const State& s, const void* x_data, void* y_data, void* scratch) noexcept {
    using C = compute_type::ComputeType<T>;
    const T* x = static_cast<const T*>(x_data);
    T* y = static_cast<T*>(y_data);
    double* sum = scratch::scratch_at<double>(scratch, s.sum_offset);
    double* square = scratch::scratch_at<double>(scratch, s.square_offset);
    for (std::int64_t i = 0; i < s.slots; ++i) sum[i] = square[i] = 0.0;
    for_each_element(s, [&](std::int64_t e, std::int64_t slot) {
      const double v = static_cast<double>(compute_type::widen(x[e]));
      sum[slot] += v;
      square[slot] += v * v;
    });
    const double n = static_cast<double>(s.per_slot);
    for (std::int64_t i = 0; i < s.slots; ++i) {
      const double mean = sum[i] / n;
      const double variance = square[i] / n - mean * mean;
      sum[i] = mean;
      square[i] = 1.0 / (std::sqrt(variance > 0.0 ? variance : 0.0) + kEpsilon);  // now 1 / (std + eps)
    }
    for_each_element(s, [&](std::int64_t e, std::int64_t slot) {
      const double v = static_cast<double>(compute_type::widen(x[e]));
      y[e] = compute_type::narrow<T>(static_cast<C>((v - sum[slot]) * square[slot]));
    });
  }
};

}  // namespace mean_variance_normalization_detail

// MeanVarianceNormalization-9 (also 13, which added bfloat16).
using MeanVarianceNormalization_9 =
    VersionedKernel<mean_variance_normalization_detail::MeanVarianceNormalizationImpl, 9>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
