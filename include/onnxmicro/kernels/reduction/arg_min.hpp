// SPDX-License-Identifier: MIT
// ArgMin: int64 index of the smallest element along `axis` (default 0), keepdims (default 1). The shared body
// is in arg_extremum_util.hpp.
#pragma once
#include "onnxmicro/kernels/reduction/arg_extremum_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

// Opset 1-11: ties give the first index (negative axis from opset 11).
struct ArgMin_1 : KernelDefaults, ArgExtremumKernel<false> {
  static constexpr std::string_view kDomain = "";
  static constexpr std::string_view kOpType = "ArgMin";
  static constexpr int kSinceVersion = 1;
  static constexpr int kUntilVersion = 12;
};

// Opset 12: select_last_index added (ties may give the last index); bfloat16 from opset 13.
struct ArgMin_12 : KernelDefaults, ArgExtremumKernel<false> {
  static constexpr std::string_view kDomain = "";
  static constexpr std::string_view kOpType = "ArgMin";
  static constexpr int kSinceVersion = 12;
};

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
