// SPDX-License-Identifier: MIT
// ReduceMax: the largest element (NaN propagates; bool: any) over the given axes (all axes when none are given). Empty
// set: -inf, the lowest integer, or false. The shared engine (axes, keepdims, noop_with_empty_axes, iteration) is in
// reduce_util.hpp.
#pragma once
#include "onnxmicro/kernels/reduction/reduce_extremum_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

/// How ReduceMax reduces one slice.
struct ReduceMaxOp {
  static constexpr std::string_view kOpType = "ReduceMax";
  static constexpr int kAxesInputSince = 18;  ///< axes: an attribute before, optional input 1 since
  using Types = TypeList<float, double, float16_t, bfloat16_t, std::int8_t, std::int32_t, std::int64_t, std::uint8_t,
                         std::uint32_t, std::uint64_t, bool>;
  static bool allows(DataType dtype, std::int64_t opset) noexcept {
    return reduce_extremum_dtype_allowed(dtype, opset);
  }
  template <typename T>
  static T reduce(const T* base, const ReducePlan& plan) noexcept {
    return reduce_util::extremum<T, true>(base, plan);
  }
};

// Opset 1-17: axes from the `axes` attribute (negative axes from 11, bfloat16 from 13, int8/uint8 from 12).
using ReduceMax_1 = VersionedKernel<ReduceKernel<ReduceMaxOp>, 1, 18>;

// Opset 18: axes moved to optional input 1 (must be constant), noop_with_empty_axes added; bool from 20.
using ReduceMax_18 = VersionedKernel<ReduceKernel<ReduceMaxOp>, 18>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
