// SPDX-License-Identifier: MIT
// Mean: y = (x0 + x1 + ...) / n elementwise over one or more inputs (summed input by input, then divided).
// Versions: 1 (with `consumed_inputs`, ignored) and 6 required equal input shapes; 8 added numpy
// broadcasting over all inputs; 13 only added bfloat16. So two kernels cover every version.
#pragma once
#include "onnxmicro/kernels/math/sum.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

// Opset 1-7: every input has the same shape.
struct Mean_1 : KernelDefaults, VariadicElementwise<SumOp, FloatTypes, false, true> {
  static constexpr std::string_view kDomain = "";
  static constexpr std::string_view kOpType = "Mean";
  static constexpr int kSinceVersion = 1;
  static constexpr int kUntilVersion = 8;
};

// Opset 8+: numpy broadcasting over all inputs.
struct Mean_8 : KernelDefaults, VariadicElementwise<SumOp, FloatTypes, true, true> {
  static constexpr std::string_view kDomain = "";
  static constexpr std::string_view kOpType = "Mean";
  static constexpr int kSinceVersion = 8;
};

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
