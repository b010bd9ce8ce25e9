// SPDX-License-Identifier: MIT
// ArgMin: int64 index of the smallest element along `axis` (default 0), keepdims (default 1). The shared body
// is in arg_extremum_util.hpp.
#pragma once
#include "onnxmicro/kernels/reduction/arg_extremum_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

/// Which extreme ArgMin finds.
struct ArgMinOp {
  static constexpr std::string_view kOpType = "ArgMin";
  static constexpr bool kMax = false;
};

// Opset 1-11: ties give the first index (negative axis from opset 11).
using ArgMin_1 = VersionedKernel<ArgExtremumKernel<ArgMinOp>, 1, 12>;

// Opset 12: select_last_index added (ties may give the last index); bfloat16 from opset 13.
using ArgMin_12 = VersionedKernel<ArgExtremumKernel<ArgMinOp>, 12>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
