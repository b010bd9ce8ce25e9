// SPDX-License-Identifier: MIT
// Scatter (opset 9-10; deprecated in 11 in favour of ScatterElements): the same computation as
// ScatterElements-11 without reduction, so it reuses that kernel. See scatter_elements.hpp.
#pragma once
#include "onnxmicro/kernels/tensor/scatter_elements.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

namespace scatter_detail {

/// The implementation of Scatter (see the file comment): its versions, below 11, have no `reduction`.
struct ScatterImpl : scatter_elements_detail::ScatterElementsImpl {
  static constexpr std::string_view kOpType = "Scatter";
};

}  // namespace scatter_detail

// Opset 9 introduced it; opset 11 deprecated it (models must use ScatterElements from then on).
using Scatter_9 = VersionedKernel<scatter_detail::ScatterImpl, 9, 11>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
