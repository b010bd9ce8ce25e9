// SPDX-License-Identifier: MIT
// GlobalAveragePool: the mean over all spatial axes of (N, C, D1, ..., Dn), giving (N, C, 1, ..., 1). Version
// 22 only added bfloat16, so one kernel serves every version. float16/bfloat16 are averaged in float32.
#pragma once
#include <cstddef>
#include <cstdint>

#include "onnxmicro/kernels/common/compute_type.hpp"
#include "onnxmicro/kernels/kernel_api.hpp"
#include "onnxmicro/kernels/nn/spatial_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

/// GlobalAveragePool's one implementation: GlobalPool supplies run and calls compute for X's dtype.
struct GlobalAveragePoolImpl : spatial_util::GlobalPool<GlobalAveragePoolImpl> {
  static constexpr std::string_view kOpType = "GlobalAveragePool";

  static Status prepare(PrepareContext& ctx, int /*since: every version accepts the same*/) noexcept {
    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(begin_prepare(ctx, state));
    const TensorInfo& x = ctx.input(kX);
    if (x.shape.rank() < 3) {
      return ctx.input_error(kX) << " has shape " << x.shape
                                 << ", expected rank >= 3 (N, C, and at least one spatial axis)";
    }
    finish_prepare(ctx, *state);
    return {};
  }

 private:
  friend struct spatial_util::GlobalPool<GlobalAveragePoolImpl>;

  template <typename T>
  static void compute(const State& s, const void* x_data, void* y_data) noexcept {
    const std::int64_t planes = s.planes, plane_size = s.plane_size;
    using C = compute_type::ComputeType<T>;
    const T* x = static_cast<const T*>(x_data);
    T* y = static_cast<T*>(y_data);
    // The same value as static_cast<C>(plane_size), converted from size_t: a 32-bit target then needs no software
    // int64 conversion (a plane's element count fits in size_t, since the tensor's bytes do).
    const C divisor = static_cast<C>(static_cast<std::size_t>(plane_size));
    for (std::int64_t p = 0; p < planes; ++p) {
      const T* plane = x + p * plane_size;
      // Four partial sums: shorter dependency chains, and less rounding drift on large planes.
      C s0 = C(0), s1 = C(0), s2 = C(0), s3 = C(0);
      std::int64_t i = 0;
      for (; i + 4 <= plane_size; i += 4) {
        s0 += compute_type::widen(plane[i]);
        s1 += compute_type::widen(plane[i + 1]);
        s2 += compute_type::widen(plane[i + 2]);
        s3 += compute_type::widen(plane[i + 3]);
      }
      for (; i < plane_size; ++i) s0 += compute_type::widen(plane[i]);
      y[p] = compute_type::narrow<T>(((s0 + s1) + (s2 + s3)) / divisor);
    }
  }
};

// GlobalAveragePool-1 (also 22, which added bfloat16).
using GlobalAveragePool_1 = VersionedKernel<GlobalAveragePoolImpl, 1>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
