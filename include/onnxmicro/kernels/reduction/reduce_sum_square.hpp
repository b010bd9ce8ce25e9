// SPDX-License-Identifier: MIT
// ReduceSumSquare: the sum of squares over the given axes (all axes when none are given). Empty set: 0.
// The shared engine (axes, keepdims, noop_with_empty_axes, iteration) is in reduce_util.hpp.
#pragma once
#include "onnxmicro/kernels/reduction/reduce_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

/// How ReduceSumSquare reduces one slice.
struct ReduceSumSquareOp {
  static constexpr std::string_view kOpType = "ReduceSumSquare";
  static constexpr int kAxesInputSince = 18;  ///< axes: an attribute before, optional input 1 since
  using Types = ReduceBaseTypes;
  static bool allows(DataType dtype, std::int64_t opset) noexcept { return reduce_base_dtype_allowed(dtype, opset); }
  template <typename T>
  static T reduce(const T* base, const ReducePlan& plan) noexcept {
    using A = reduce_util::sum_t<T>;
    A acc = 0;
    for_each_reduced(base, plan, [&](T v) noexcept {
      const A x = static_cast<A>(load_element(v));
      acc = reduce_util::add(acc, reduce_util::mul(x, x));
    });
    return store_element<T>(acc);
  }
};

// Opset 1-17: axes from the `axes` attribute (negative axes from 11, bfloat16 from 13).
using ReduceSumSquare_1 = VersionedKernel<ReduceKernel<ReduceSumSquareOp>, 1, 18>;

// Opset 18: axes moved to optional input 1 (must be constant), noop_with_empty_axes added.
using ReduceSumSquare_18 = VersionedKernel<ReduceKernel<ReduceSumSquareOp>, 18>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
