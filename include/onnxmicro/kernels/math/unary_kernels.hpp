// SPDX-License-Identifier: MIT
// The unary math and activation kernels: elementwise functions of one tensor (Abs ... Atanh, Erf, IsNaN, IsInf,
// Not, BitwiseNot, Elu ... Shrink).
#pragma once
#include "onnxmicro/kernels/kernel_set.hpp"
#include "onnxmicro/kernels/logical/not.hpp"
#include "onnxmicro/kernels/math/abs.hpp"
#include "onnxmicro/kernels/math/acos.hpp"
#include "onnxmicro/kernels/math/acosh.hpp"
#include "onnxmicro/kernels/math/asin.hpp"
#include "onnxmicro/kernels/math/asinh.hpp"
#include "onnxmicro/kernels/math/atan.hpp"
#include "onnxmicro/kernels/math/atanh.hpp"
#include "onnxmicro/kernels/math/bitwise_not.hpp"
#include "onnxmicro/kernels/math/ceil.hpp"
#include "onnxmicro/kernels/math/celu.hpp"
#include "onnxmicro/kernels/math/cos.hpp"
#include "onnxmicro/kernels/math/cosh.hpp"
#include "onnxmicro/kernels/math/elu.hpp"
#include "onnxmicro/kernels/math/erf.hpp"
#include "onnxmicro/kernels/math/exp.hpp"
#include "onnxmicro/kernels/math/floor.hpp"
#include "onnxmicro/kernels/math/gelu.hpp"
#include "onnxmicro/kernels/math/hard_sigmoid.hpp"
#include "onnxmicro/kernels/math/hard_swish.hpp"
#include "onnxmicro/kernels/math/is_inf.hpp"
#include "onnxmicro/kernels/math/is_nan.hpp"
#include "onnxmicro/kernels/math/log.hpp"
#include "onnxmicro/kernels/math/mish.hpp"
#include "onnxmicro/kernels/math/neg.hpp"
#include "onnxmicro/kernels/math/reciprocal.hpp"
#include "onnxmicro/kernels/math/round.hpp"
#include "onnxmicro/kernels/math/selu.hpp"
#include "onnxmicro/kernels/math/shrink.hpp"
#include "onnxmicro/kernels/math/sign.hpp"
#include "onnxmicro/kernels/math/sin.hpp"
#include "onnxmicro/kernels/math/sinh.hpp"
#include "onnxmicro/kernels/math/softplus.hpp"
#include "onnxmicro/kernels/math/softsign.hpp"
#include "onnxmicro/kernels/math/sqrt.hpp"
#include "onnxmicro/kernels/math/tan.hpp"
#include "onnxmicro/kernels/math/thresholded_relu.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

/// Unary math functions, their logical/bitwise counterparts, and the activations beyond MathKernels'.
using UnaryMathKernels =
    KernelSet<Abs_1, Neg_1, Exp_1, Log_1, Sqrt_1, Reciprocal_1, Floor_1, Ceil_1, Round_11, Sign_9, Sin_7, Cos_7, Tan_7,
              Asin_7, Acos_7, Atan_7, Sinh_9, Cosh_9, Asinh_9, Acosh_9, Atanh_9, Erf_9, IsNaN_9, IsInf_10, Not_1,
              BitwiseNot_18, Elu_1, Selu_1, Celu_12, HardSigmoid_1, HardSwish_14, Softplus_1, Softsign_1, Mish_18,
              Gelu_20, ThresholdedRelu_10, Shrink_9>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
