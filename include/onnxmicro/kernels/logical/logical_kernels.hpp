// SPDX-License-Identifier: MIT
// Every kernel of the comparison/logical/bitwise family, as one KernelSet. Add a new kernel here after writing
// its file.
#pragma once
#include "onnxmicro/kernels/kernel_set.hpp"
#include "onnxmicro/kernels/logical/and.hpp"
#include "onnxmicro/kernels/logical/bit_shift.hpp"
#include "onnxmicro/kernels/logical/bitwise_and.hpp"
#include "onnxmicro/kernels/logical/bitwise_or.hpp"
#include "onnxmicro/kernels/logical/bitwise_xor.hpp"
#include "onnxmicro/kernels/logical/equal.hpp"
#include "onnxmicro/kernels/logical/greater.hpp"
#include "onnxmicro/kernels/logical/greater_or_equal.hpp"
#include "onnxmicro/kernels/logical/less.hpp"
#include "onnxmicro/kernels/logical/less_or_equal.hpp"
#include "onnxmicro/kernels/logical/not.hpp"
#include "onnxmicro/kernels/logical/or.hpp"
#include "onnxmicro/kernels/logical/xor.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

using LogicalKernels = KernelSet<                   //
    Equal_1, Equal_7, Equal_19,                     //
    Greater_1, Greater_7, GreaterOrEqual_12,        //
    Less_1, Less_7, LessOrEqual_12,                 //
    And_1, And_7, Or_1, Or_7, Xor_1, Xor_7, Not_1,  //
    BitwiseAnd_18, BitwiseOr_18, BitwiseXor_18,     //
    BitShift_11, BitShift_28>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
