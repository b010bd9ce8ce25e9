// SPDX-License-Identifier: MIT
// The binary and variadic math kernels (Pow, Mod, PRelu, Max, Min, Sum, Mean), as one KernelSet. Add a new
// kernel here after writing its file.
#pragma once
#include "onnxmicro/kernels/kernel_set.hpp"
#include "onnxmicro/kernels/math/max.hpp"
#include "onnxmicro/kernels/math/mean.hpp"
#include "onnxmicro/kernels/math/min.hpp"
#include "onnxmicro/kernels/math/mod.hpp"
#include "onnxmicro/kernels/math/pow.hpp"
#include "onnxmicro/kernels/math/prelu.hpp"
#include "onnxmicro/kernels/math/sum.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

using BinaryMathKernels = KernelSet<  //
    Pow_1, Pow_7, Pow_12,             //
    Mod_10, Mod_28,                   //
    PRelu_1,                          //
    PRelu_7,                          //
    Max_1, Max_8, Min_1, Min_8,       //
    Sum_1, Sum_8, Mean_1, Mean_8>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
