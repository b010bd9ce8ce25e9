// SPDX-License-Identifier: MIT
// ReduceL2: the square root of the sum of squares over the given axes (all axes when none are given). Empty set: 0.
// The shared engine (axes, keepdims, noop_with_empty_axes, iteration) is in reduce_util.hpp.
#pragma once
#include "onnxmicro/kernels/reduction/reduce_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

/// How ReduceL2 reduces one slice.
struct ReduceL2Op {
  static constexpr std::string_view kOpType = "ReduceL2";
  static constexpr int kAxesInputSince = 18;  ///< axes: an attribute before, optional input 1 since
  using Types = ReduceBaseTypes;
  static bool allows(DataType dtype, std::int64_t opset) noexcept { return reduce_base_dtype_allowed(dtype, opset); }
  template <typename T>
  static T reduce(const T* base, const ReducePlan& plan) noexcept {
    using R = reduce_util::real_t<T>;
    R acc = 0;
    for_each_reduced(base, plan, [&](T v) noexcept {
      const R x = static_cast<R>(load_element(v));
      acc += x * x;
    });
    return reduce_util::store_real<T>(std::sqrt(acc));
  }
};

// Opset 1-17: axes from the `axes` attribute (negative axes from 11, bfloat16 from 13).
using ReduceL2_1 = VersionedKernel<ReduceKernel<ReduceL2Op>, 1, 18>;

// Opset 18: axes moved to optional input 1 (must be constant), noop_with_empty_axes added.
using ReduceL2_18 = VersionedKernel<ReduceKernel<ReduceL2Op>, 18>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
