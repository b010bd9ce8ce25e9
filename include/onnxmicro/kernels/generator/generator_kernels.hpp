// SPDX-License-Identifier: MIT
// Every kernel of the generator family, as one KernelSet. Add a new kernel here after writing its file.
#pragma once
#include "onnxmicro/kernels/generator/constant.hpp"
#include "onnxmicro/kernels/kernel_set.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

using GeneratorKernels = KernelSet<Constant_1, Constant_11, Constant_12>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
