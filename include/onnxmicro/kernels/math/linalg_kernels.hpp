// SPDX-License-Identifier: MIT
// Linear-algebra and gated-activation kernels of the math family (Einsum, Det, CumProd, Swish, SwiGLU), as one
// KernelSet to be merged into AllKernels.
#pragma once
#include "onnxmicro/kernels/kernel_set.hpp"
#include "onnxmicro/kernels/math/cum_prod.hpp"
#include "onnxmicro/kernels/math/det.hpp"
#include "onnxmicro/kernels/math/einsum.hpp"
#include "onnxmicro/kernels/math/swi_glu.hpp"
#include "onnxmicro/kernels/math/swish.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

using LinalgKernels = KernelSet<CumProd_26, Det_11, Einsum_12, SwiGLU_28, Swish_24>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
