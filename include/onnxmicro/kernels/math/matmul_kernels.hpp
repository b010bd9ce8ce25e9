// SPDX-License-Identifier: MIT
// The matrix-multiply kernels of the math family (Gemm, MatMul), as one KernelSet to be merged into
// MathKernels / AllKernels.
#pragma once
#include "onnxmicro/kernels/kernel_set.hpp"
#include "onnxmicro/kernels/math/gemm.hpp"
#include "onnxmicro/kernels/math/matmul.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

using MatMulKernels = KernelSet<Gemm_1, Gemm_7, Gemm_11, MatMul_1>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
