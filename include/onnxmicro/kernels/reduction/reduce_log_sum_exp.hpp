// SPDX-License-Identifier: MIT
// ReduceLogSumExp: the log(sum(exp(x))), computed as max + log(sum(exp(x - max))) so large inputs do not overflow over
// the given axes (all axes when none are given). Empty set: -inf. The shared engine (axes, keepdims,
// noop_with_empty_axes, iteration) is in reduce_util.hpp.
#pragma once
#include "onnxmicro/kernels/reduction/reduce_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

/// How ReduceLogSumExp reduces one slice.
struct ReduceLogSumExpOp {
  static constexpr std::string_view kOpType = "ReduceLogSumExp";
  static constexpr int kAxesInputSince = 18;  ///< axes: an attribute before, optional input 1 since
  using Types = ReduceBaseTypes;
  static bool allows(DataType dtype, std::int64_t opset) noexcept {
    return reduce_base_dtype_allowed(dtype, opset) &&
           (opset < 28 || is_floating(dtype));  // opset 28: integer types dropped
  }
  template <typename T>
  static T reduce(const T* base, const ReducePlan& plan) noexcept {
    using R = reduce_util::real_t<T>;
    R max = -std::numeric_limits<R>::infinity();
    bool nan = false;
    for_each_reduced(base, plan, [&](T v) noexcept {
      const R x = static_cast<R>(load_element(v));
      if (x != x) nan = true;
      if (x > max) max = x;
    });
    if (nan) return reduce_util::store_real<T>(std::numeric_limits<R>::quiet_NaN());
    // All -inf (or the empty set): log(0) = -inf; any +inf: +inf. Both would make x - max NaN below.
    if (std::isinf(max)) return reduce_util::store_real<T>(max);
    R sum = 0;
    for_each_reduced(base, plan, [&](T v) noexcept { sum += std::exp(static_cast<R>(load_element(v)) - max); });
    return reduce_util::store_real<T>(max + std::log(sum));
  }
};

// Opset 1-17: axes from the `axes` attribute (negative axes from 11, bfloat16 from 13).
using ReduceLogSumExp_1 = VersionedKernel<ReduceKernel<ReduceLogSumExpOp>, 1, 18>;

// Opset 18: axes moved to optional input 1 (must be constant), noop_with_empty_axes added;
// opset 28 drops the integer types.
using ReduceLogSumExp_18 = VersionedKernel<ReduceKernel<ReduceLogSumExpOp>, 18>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
