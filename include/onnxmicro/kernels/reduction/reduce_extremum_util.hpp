// SPDX-License-Identifier: MIT
// What ReduceMax and ReduceMin share: their dtype lists per opset and the max/min slice loop.
#pragma once
#include <cmath>
#include <limits>
#include <type_traits>

#include "onnxmicro/kernels/reduction/reduce_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

/// ReduceMax/ReduceMin dtypes: the common list, int8/uint8 from opset 12, bool from opset 20.
inline bool reduce_extremum_dtype_allowed(DataType dtype, std::int64_t opset) noexcept {
  if (dtype == DataType::int8 || dtype == DataType::uint8) return opset >= 12;  // int8/uint8: added in opset 12
  if (dtype == DataType::boolean) return opset >= 20;                           // bool: added in opset 20
  return reduce_base_dtype_allowed(dtype, opset);
}

namespace reduce_util {

/// Largest (kMax) or smallest element of a slice. A NaN makes the result NaN (numpy's max/min); bool is
/// any/all. The empty set gives the identity: -inf/+inf for floats, the lowest/highest integer, false/true.
template <typename T, bool kMax>
inline T extremum(const T* base, const ReducePlan& plan) noexcept {
  using C = compute_t<T>;
  C acc;
  if constexpr (std::is_same_v<C, bool>) {
    acc = !kMax;
  } else if constexpr (std::is_floating_point_v<C>) {
    acc = kMax ? -std::numeric_limits<C>::infinity() : std::numeric_limits<C>::infinity();
  } else {
    acc = kMax ? std::numeric_limits<C>::lowest() : std::numeric_limits<C>::max();
  }
  for_each_reduced(base, plan, [&](T v) noexcept {
    const C x = load_element(v);
    if constexpr (std::is_floating_point_v<C>) {
      if (x != x || (kMax ? x > acc : x < acc)) acc = x;  // once acc is NaN no comparison replaces it
    } else {
      if (kMax ? x > acc : x < acc) acc = x;
    }
  });
  return store_element<T>(acc);
}

}  // namespace reduce_util
}  // namespace kernels
ONNXMICRO_NAMESPACE_END
