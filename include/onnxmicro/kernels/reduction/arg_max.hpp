// SPDX-License-Identifier: MIT
// ArgMax: int64 index of the largest element along `axis` (default 0), keepdims (default 1). The shared body
// is in arg_extremum_util.hpp.
#pragma once
#include "onnxmicro/kernels/reduction/arg_extremum_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

/// Which extreme ArgMax finds.
struct ArgMaxOp {
  static constexpr std::string_view kOpType = "ArgMax";
  static constexpr bool kMax = true;
};

// Opset 1-11: ties give the first index (negative axis from opset 11).
using ArgMax_1 = VersionedKernel<ArgExtremumKernel<ArgMaxOp>, 1, 12>;

// Opset 12: select_last_index added (ties may give the last index); bfloat16 from opset 13.
using ArgMax_12 = VersionedKernel<ArgExtremumKernel<ArgMaxOp>, 12>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
