// SPDX-License-Identifier: MIT
// ReduceMean: the arithmetic mean of the elements over the given axes (all axes when none are given). Empty set: NaN (0
// for integers). The shared engine (axes, keepdims, noop_with_empty_axes, iteration) is in reduce_util.hpp.
#pragma once
#include "onnxmicro/kernels/reduction/reduce_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

/// How ReduceMean reduces one slice.
struct ReduceMeanOp {
  static constexpr std::string_view kOpType = "ReduceMean";
  static constexpr int kAxesInputSince = 18;  ///< axes: an attribute before, optional input 1 since
  using Types = ReduceBaseTypes;
  static bool allows(DataType dtype, std::int64_t opset) noexcept { return reduce_base_dtype_allowed(dtype, opset); }
  template <typename T>
  static T reduce(const T* base, const ReducePlan& plan) noexcept {
    using R = reduce_util::real_t<T>;
    R acc = 0;
    for_each_reduced(base, plan, [&](T v) noexcept { acc += static_cast<R>(load_element(v)); });
    // Integers: computed in double and truncated, as numpy's mean(...).astype(dtype).
    if (plan.reduced_count == 0) return reduce_util::store_real<T>(std::numeric_limits<R>::quiet_NaN());
    return reduce_util::store_real<T>(acc / static_cast<R>(plan.reduced_count));
  }
};

// Opset 1-17: axes from the `axes` attribute (negative axes from 11, bfloat16 from 13).
using ReduceMean_1 = VersionedKernel<ReduceKernel<ReduceMeanOp>, 1, 18>;

// Opset 18: axes moved to optional input 1 (must be constant), noop_with_empty_axes added.
using ReduceMean_18 = VersionedKernel<ReduceKernel<ReduceMeanOp>, 18>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
