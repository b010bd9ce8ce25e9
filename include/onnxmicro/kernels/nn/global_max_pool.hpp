// SPDX-License-Identifier: MIT
// GlobalMaxPool: the maximum over all spatial axes of (N, C, D1, ..., Dn), giving (N, C, 1, ..., 1). NaN
// propagates (as numpy's max in onnx's reference). Version 22 only added bfloat16, so one kernel serves all.
#pragma once
#include <cstdint>

#include "onnxmicro/kernels/common/compute_type.hpp"
#include "onnxmicro/kernels/kernel_api.hpp"
#include "onnxmicro/kernels/nn/spatial_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

/// GlobalMaxPool's one implementation: GlobalPool supplies run and calls compute for X's dtype.
struct GlobalMaxPoolImpl : spatial_util::GlobalPool<GlobalMaxPoolImpl> {
  static constexpr std::string_view kOpType = "GlobalMaxPool";

  static Status prepare(PrepareContext& ctx, int /*since: every version accepts the same*/) noexcept {
    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(begin_prepare(ctx, state));
    ONNXMICRO_RETURN_IF_ERROR(spatial_util::require_spatial_input(ctx, kX));
    const TensorInfo& x = ctx.input(kX);
    std::int64_t plane_size = 0;
    const Shape y = spatial_util::global_pool_shape(x.shape, plane_size);
    if (plane_size == 0 && x.shape.element_count() == 0 && y.element_count() != 0) {
      return ctx.input_error(kX) << " has shape " << x.shape << ": the maximum of an empty plane is undefined";
    }
    finish_prepare(ctx, *state);
    return {};
  }

 private:
  friend struct spatial_util::GlobalPool<GlobalMaxPoolImpl>;

  template <typename T>
  static void compute(const State& s, const void* x_data, void* y_data) noexcept {
    const std::int64_t planes = s.planes, plane_size = s.plane_size;
    using C = compute_type::ComputeType<T>;
    const T* x = static_cast<const T*>(x_data);
    T* y = static_cast<T*>(y_data);
    for (std::int64_t p = 0; p < planes; ++p) {
      const T* plane = x + p * plane_size;
      C best = compute_type::widen(plane[0]);
      for (std::int64_t i = 1; i < plane_size && best == best; ++i) {
        const C v = compute_type::widen(plane[i]);
        if (!(v <= best)) best = v;  // larger, or NaN (which then stays)
      }
      y[p] = compute_type::narrow<T>(best);
    }
  }
};

// GlobalMaxPool-1 (also 22, which added bfloat16).
using GlobalMaxPool_1 = VersionedKernel<GlobalMaxPoolImpl, 1>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
