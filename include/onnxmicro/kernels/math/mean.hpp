// SPDX-License-Identifier: MIT
// Mean: y = (x0 + x1 + ...) / n elementwise over one or more inputs (summed input by input, then divided).
// Versions: 1 (with `consumed_inputs`, ignored) and 6 required equal input shapes; 8 added numpy
// broadcasting over all inputs; 13 only added bfloat16. So two kernels cover every version.
#pragma once
#include "onnxmicro/kernels/math/sum.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

/// Mean sums as Sum does, then divides by the input count.
struct MeanOp : SumOp {
  static constexpr std::string_view kOpType = "Mean";
  static constexpr bool kMean = true;
};

// Opset 1-7: every input has the same shape.
using Mean_1 = VersionedKernel<VariadicElementwise<MeanOp, FloatTypes>, 1, 8>;

// Opset 8+: numpy broadcasting over all inputs.
using Mean_8 = VersionedKernel<VariadicElementwise<MeanOp, FloatTypes>, 8>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
