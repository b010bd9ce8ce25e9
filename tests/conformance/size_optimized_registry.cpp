// SPDX-License-Identifier: MIT
// all_kernels_registry() of onnxmicro_conformance_size_optimized: the runner built with ONNXMICRO_OPTIMIZE_FOR_SIZE=1,
// over the kernels whose loops that switch changes (core/config.hpp): the matrix products (Gemm, MatMul, and Conv's
// direct window sums) and the window walks of the pooling ops. Every unit of that program is compiled with the
// switch, and only these kernels, to keep the extra compile short; the node cases of other ops are unsupported.
#include "onnxmicro/runtime/all_kernels.hpp"

static_assert(ONNXMICRO_OPTIMIZE_FOR_SIZE == 1, "this registry is for the size-optimised conformance runner");

ONNXMICRO_NAMESPACE_BEGIN
KernelRegistry all_kernels_registry() noexcept {
  return KernelSet<kernels::Conv_1, kernels::Gemm_1, kernels::Gemm_7, kernels::Gemm_11, kernels::MatMul_1,
                   kernels::MaxPool_1, kernels::MaxPool_8, kernels::MaxPool_10, kernels::AveragePool_1,
                   kernels::AveragePool_7, kernels::AveragePool_10, kernels::AveragePool_19, kernels::LpPool_1,
                   kernels::LpPool_2>::registry();
}
ONNXMICRO_NAMESPACE_END
