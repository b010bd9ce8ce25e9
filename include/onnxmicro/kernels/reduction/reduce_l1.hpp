// SPDX-License-Identifier: MIT
// ReduceL1: the sum of absolute values over the given axes (all axes when none are given). Empty set: 0.
// The shared engine (axes, keepdims, noop_with_empty_axes, iteration) is in reduce_util.hpp.
#pragma once
#include "onnxmicro/kernels/reduction/reduce_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

/// How ReduceL1 reduces one slice.
struct ReduceL1Op {
  static constexpr std::string_view kOpType = "ReduceL1";
  static constexpr int kAxesInputSince = 18;  ///< axes: an attribute before, optional input 1 since
  using Types = ReduceBaseTypes;
  static bool allows(DataType dtype, std::int64_t opset) noexcept { return reduce_base_dtype_allowed(dtype, opset); }
  template <typename T>
  static T reduce(const T* base, const ReducePlan& plan) noexcept {
    reduce_util::sum_t<T> acc = 0;
    for_each_reduced(base, plan, [&](T v) noexcept {
      acc = reduce_util::add(acc, reduce_util::absolute(static_cast<reduce_util::sum_t<T>>(load_element(v))));
    });
    return store_element<T>(acc);
  }
};

// Opset 1-17: axes from the `axes` attribute (negative axes from 11, bfloat16 from 13).
using ReduceL1_1 = VersionedKernel<ReduceKernel<ReduceL1Op>, 1, 18>;

// Opset 18: axes moved to optional input 1 (must be constant), noop_with_empty_axes added.
using ReduceL1_18 = VersionedKernel<ReduceKernel<ReduceL1Op>, 18>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
