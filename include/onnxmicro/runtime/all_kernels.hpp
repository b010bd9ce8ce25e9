// SPDX-License-Identifier: MIT
// The preset of every kernel this build has. Narrow it with KernelSetForOpsets or pick kernels by hand.
#pragma once
#include "onnxmicro/kernels/generator/generator_kernels.hpp"
#include "onnxmicro/kernels/math/math_kernels.hpp"
#include "onnxmicro/kernels/math/matmul_kernels.hpp"
#include "onnxmicro/kernels/nn/nn_kernels.hpp"
#include "onnxmicro/kernels/tensor/tensor_kernels.hpp"

ONNXMICRO_NAMESPACE_BEGIN

/// Every kernel of every family.
using AllKernels = MergeKernelSets<kernels::MathKernels, kernels::MatMulKernels, kernels::NnKernels, kernels::TensorKernels,
                                   kernels::GeneratorKernels>;

ONNXMICRO_NAMESPACE_END
