// SPDX-License-Identifier: MIT
// GlobalLpPool: y = (sum over all spatial axes of |x|^p)^(1/p) for (N, C, D1, ..., Dn), giving
// (N, C, 1, ..., 1). Summed in double, stored in X's dtype.
#pragma once
#include <cstdint>

#include "onnxmicro/kernels/common/compute_type.hpp"
#include "onnxmicro/kernels/kernel_api.hpp"
#include "onnxmicro/kernels/nn/spatial_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {
namespace global_lp_pool_detail {

/// GlobalLpPool's versions: GlobalPool supplies run and calls compute for X's dtype.
struct GlobalLpPoolImpl : spatial_util::GlobalPool<GlobalLpPoolImpl> {
  using Base = spatial_util::GlobalPool<GlobalLpPoolImpl>;
  static constexpr std::string_view kOpType = "GlobalLpPool";

  static Status prepare(PrepareContext& ctx, int since) noexcept {
    const bool float_p = since < 2;  // opset 1 declares p as FLOAT; later versions as INT
    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(Base::begin_prepare(ctx, state));
    ONNXMICRO_RETURN_IF_ERROR(spatial_util::read_p(ctx, float_p, state->p));
    ONNXMICRO_RETURN_IF_ERROR(spatial_util::require_spatial_input(ctx, Base::kX));
    Base::finish_prepare(ctx, *state);
    return {};
  }

 private:
  friend Base;

  template <typename T>
  static void compute(const State& s, const void* x_data, void* y_data) noexcept {
    const T* x = static_cast<const T*>(x_data);
    T* y = static_cast<T*>(y_data);
    for (std::int64_t plane = 0; plane < s.planes; ++plane) {
      const T* values = x + plane * s.plane_size;
      double sum = 0.0;
      for (std::int64_t i = 0; i < s.plane_size; ++i) {
        sum += spatial_util::abs_power(static_cast<double>(compute_type::widen(values[i])), s.p);
      }
      y[plane] = compute_type::narrow<T>(static_cast<compute_type::ComputeType<T>>(spatial_util::root(sum, s.p)));
    }
  }
};

}  // namespace global_lp_pool_detail

// GlobalLpPool-1: p is a FLOAT attribute.
using GlobalLpPool_1 = VersionedKernel<global_lp_pool_detail::GlobalLpPoolImpl, 1, 2>;
// GlobalLpPool-2: p becomes an INT attribute; 22 added bfloat16.
using GlobalLpPool_2 = VersionedKernel<global_lp_pool_detail::GlobalLpPoolImpl, 2>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
