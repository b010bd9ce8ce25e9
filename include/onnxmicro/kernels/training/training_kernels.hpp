// SPDX-License-Identifier: MIT
// The ai.onnx.preview.training optimizer kernels (Adagrad, Adam, Momentum), as one KernelSet to be merged into
// AllKernels.
#pragma once
#include "onnxmicro/kernels/kernel_set.hpp"
#include "onnxmicro/kernels/training/adagrad.hpp"
#include "onnxmicro/kernels/training/adam.hpp"
#include "onnxmicro/kernels/training/momentum.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

using TrainingKernels = KernelSet<Adagrad_1, Adam_1, Momentum_1>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
