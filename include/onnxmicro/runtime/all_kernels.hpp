// SPDX-License-Identifier: MIT
// The preset of every kernel this build has. Narrow it with KernelSetForOpsets or pick kernels by hand.
#pragma once
#include "onnxmicro/kernels/generator/generator_kernels.hpp"
#include "onnxmicro/kernels/logical/logical_kernels.hpp"
#include "onnxmicro/kernels/math/binary_kernels.hpp"
#include "onnxmicro/kernels/math/math_kernels.hpp"
#include "onnxmicro/kernels/math/matmul_kernels.hpp"
#include "onnxmicro/kernels/math/softmax_family_kernels.hpp"
#include "onnxmicro/kernels/math/unary_kernels.hpp"
#include "onnxmicro/kernels/nn/nn_kernels.hpp"
#include "onnxmicro/kernels/reduction/reduction_kernels.hpp"
#include "onnxmicro/kernels/tensor/tensor_kernels.hpp"

ONNXMICRO_NAMESPACE_BEGIN

/// Every kernel of every family.
using AllKernels = MergeKernelSets<kernels::MathKernels, kernels::MatMulKernels, kernels::NnKernels, kernels::TensorKernels,
                                   kernels::GeneratorKernels,
                                   kernels::LogicalKernels, kernels::BinaryMathKernels,
                                   kernels::UnaryMathKernels,
                                   kernels::ReductionKernels,
                                   kernels::SoftmaxFamilyKernels>;

ONNXMICRO_NAMESPACE_END
