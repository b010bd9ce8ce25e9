// SPDX-License-Identifier: MIT
// ReduceLogSum: the natural log of the sum over the given axes (all axes when none are given). Empty set: log(0) =
// -inf. The shared engine (axes, keepdims, noop_with_empty_axes, iteration) is in reduce_util.hpp.
#pragma once
#include "onnxmicro/kernels/reduction/reduce_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

/// How ReduceLogSum reduces one slice.
struct ReduceLogSumOp {
  static constexpr std::string_view kOpType = "ReduceLogSum";
  static constexpr int kAxesInputSince = 18;  ///< axes: an attribute before, optional input 1 since
  using Types = ReduceBaseTypes;
  static bool allows(DataType dtype, std::int64_t opset) noexcept {
    return reduce_base_dtype_allowed(dtype, opset) &&
           (opset < 28 || is_floating(dtype));  // opset 28: integer types dropped
  }
  template <typename T>
  static T reduce(const T* base, const ReducePlan& plan) noexcept {
    using R = reduce_util::real_t<T>;
    R acc = 0;
    for_each_reduced(base, plan, [&](T v) noexcept { acc += static_cast<R>(load_element(v)); });
    return reduce_util::store_real<T>(std::log(acc));
  }
};

// Opset 1-17: axes from the `axes` attribute (negative axes from 11, bfloat16 from 13).
using ReduceLogSum_1 = VersionedKernel<ReduceKernel<ReduceLogSumOp>, 1, 18>;

// Opset 18: axes moved to optional input 1 (must be constant), noop_with_empty_axes added;
// opset 28 drops the integer types.
using ReduceLogSum_18 = VersionedKernel<ReduceKernel<ReduceLogSumOp>, 18>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
