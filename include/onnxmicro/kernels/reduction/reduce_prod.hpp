// SPDX-License-Identifier: MIT
// ReduceProd: the product of the elements over the given axes (all axes when none are given). Empty set: 1.
// The shared engine (axes, keepdims, noop_with_empty_axes, iteration) is in reduce_util.hpp.
#pragma once
#include "onnxmicro/kernels/reduction/reduce_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

/// How ReduceProd reduces one slice.
struct ReduceProdOp {
  static constexpr std::string_view kOpType = "ReduceProd";
  static constexpr int kAxesInputSince = 18;  ///< axes: an attribute before, optional input 1 since
  using Types = ReduceBaseTypes;
  static bool allows(DataType dtype, std::int64_t opset) noexcept { return reduce_base_dtype_allowed(dtype, opset); }
  template <typename T>
  static T reduce(const T* base, const ReducePlan& plan) noexcept {
    reduce_util::sum_t<T> acc = 1;
    for_each_reduced(base, plan, [&](T v) noexcept {
      acc = reduce_util::mul(acc, static_cast<reduce_util::sum_t<T>>(load_element(v)));
    });
    return store_element<T>(acc);
  }
};

// Opset 1-17: axes from the `axes` attribute (negative axes from 11, bfloat16 from 13).
using ReduceProd_1 = VersionedKernel<ReduceKernel<ReduceProdOp>, 1, 18>;

// Opset 18: axes moved to optional input 1 (must be constant), noop_with_empty_axes added.
using ReduceProd_18 = VersionedKernel<ReduceKernel<ReduceProdOp>, 18>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
