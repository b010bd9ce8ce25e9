// SPDX-License-Identifier: MIT
// ReduceSum: the sum of the elements over the given axes (all axes when none are given). Empty set: 0.
// The shared engine (axes, keepdims, noop_with_empty_axes, iteration) is in reduce_util.hpp.
#pragma once
#include "onnxmicro/kernels/reduction/reduce_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

/// How ReduceSum reduces one slice.
struct ReduceSumOp {
  static constexpr std::string_view kOpType = "ReduceSum";
  static constexpr int kAxesInputSince = 13;  ///< axes: an attribute before, optional input 1 since
  using Types = ReduceBaseTypes;
  static bool allows(DataType dtype, std::int64_t opset) noexcept { return reduce_base_dtype_allowed(dtype, opset); }
  template <typename T>
  static T reduce(const T* base, const ReducePlan& plan) noexcept {
    return store_element<T>(reduce_util::plain_sum(base, plan));
  }
};

// Opset 1-12: axes from the `axes` attribute (negative axes from opset 11 on).
using ReduceSum_1 = VersionedKernel<ReduceKernel<ReduceSumOp>, 1, 13>;

// Opset 13: axes moved to optional input 1 (must be constant), noop_with_empty_axes added; bfloat16.
using ReduceSum_13 = VersionedKernel<ReduceKernel<ReduceSumOp>, 13>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
