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
using AllKernels =
    MergeKernelSets<kernels::MathKernels, kernels::MatMulKernels, kernels::NnKernels, kernels::TensorKernels,
                    kernels::GeneratorKernels, kernels::LogicalKernels, kernels::BinaryMathKernels,
                    kernels::UnaryMathKernels, kernels::ReductionKernels, kernels::SoftmaxFamilyKernels>;

/// The AllKernels registry as a plain function, for programs whose many translation units all need every kernel:
/// AllKernels::registry() instantiates (and compiles) every kernel in each translation unit that calls it, while
/// this declaration compiles nothing. Define ONNXMICRO_DEFINE_ALL_KERNELS_REGISTRY before including onnxmicro in
/// exactly one translation unit of the program to provide the definition there.
KernelRegistry all_kernels_registry() noexcept;

#if defined(ONNXMICRO_DEFINE_ALL_KERNELS_REGISTRY)
KernelRegistry all_kernels_registry() noexcept { return AllKernels::registry(); }
#endif

ONNXMICRO_NAMESPACE_END
