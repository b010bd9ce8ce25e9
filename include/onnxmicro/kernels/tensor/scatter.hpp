// SPDX-License-Identifier: MIT
// Scatter (opset 9-10; deprecated in 11 in favour of ScatterElements): the same computation as
// ScatterElements-11 without reduction, so it reuses that kernel. See scatter_elements.hpp.
#pragma once
#include "onnxmicro/kernels/tensor/scatter_elements.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

// Opset 9 introduced it; opset 11 deprecated it (models must use ScatterElements from then on).
struct Scatter_9 : scatter_elements_detail::ScatterElementsKernel<index_util::Reduction::none> {
  static constexpr std::string_view kOpType = "Scatter";
  static constexpr int kSinceVersion = 9;
  static constexpr int kUntilVersion = 11;
};

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
