// SPDX-License-Identifier: MIT
// Every kernel of the math family, as one KernelSet. Add a new kernel here after writing its file.
#pragma once
#include "onnxmicro/kernels/kernel_set.hpp"
#include "onnxmicro/kernels/math/abs.hpp"
#include "onnxmicro/kernels/math/acos.hpp"
#include "onnxmicro/kernels/math/acosh.hpp"
#include "onnxmicro/kernels/math/add.hpp"
#include "onnxmicro/kernels/math/asin.hpp"
#include "onnxmicro/kernels/math/asinh.hpp"
#include "onnxmicro/kernels/math/atan.hpp"
#include "onnxmicro/kernels/math/atanh.hpp"
#include "onnxmicro/kernels/math/bitwise_not.hpp"
#include "onnxmicro/kernels/math/ceil.hpp"
#include "onnxmicro/kernels/math/celu.hpp"
#include "onnxmicro/kernels/math/clip.hpp"
#include "onnxmicro/kernels/math/cos.hpp"
#include "onnxmicro/kernels/math/cosh.hpp"
#include "onnxmicro/kernels/math/cum_prod.hpp"
#include "onnxmicro/kernels/math/cum_sum.hpp"
#include "onnxmicro/kernels/math/det.hpp"
#include "onnxmicro/kernels/math/div.hpp"
#include "onnxmicro/kernels/math/einsum.hpp"
#include "onnxmicro/kernels/math/elu.hpp"
#include "onnxmicro/kernels/math/erf.hpp"
#include "onnxmicro/kernels/math/exp.hpp"
#include "onnxmicro/kernels/math/floor.hpp"
#include "onnxmicro/kernels/math/gelu.hpp"
#include "onnxmicro/kernels/math/gemm.hpp"
#include "onnxmicro/kernels/math/hard_sigmoid.hpp"
#include "onnxmicro/kernels/math/hard_swish.hpp"
#include "onnxmicro/kernels/math/hardmax.hpp"
#include "onnxmicro/kernels/math/is_inf.hpp"
#include "onnxmicro/kernels/math/is_nan.hpp"
#include "onnxmicro/kernels/math/leaky_relu.hpp"
#include "onnxmicro/kernels/math/log.hpp"
#include "onnxmicro/kernels/math/log_softmax.hpp"
#include "onnxmicro/kernels/math/matmul.hpp"
#include "onnxmicro/kernels/math/max.hpp"
#include "onnxmicro/kernels/math/mean.hpp"
#include "onnxmicro/kernels/math/min.hpp"
#include "onnxmicro/kernels/math/mish.hpp"
#include "onnxmicro/kernels/math/mod.hpp"
#include "onnxmicro/kernels/math/mul.hpp"
#include "onnxmicro/kernels/math/neg.hpp"
#include "onnxmicro/kernels/math/negative_log_likelihood_loss.hpp"
#include "onnxmicro/kernels/math/pow.hpp"
#include "onnxmicro/kernels/math/prelu.hpp"
#include "onnxmicro/kernels/math/reciprocal.hpp"
#include "onnxmicro/kernels/math/relu.hpp"
#include "onnxmicro/kernels/math/round.hpp"
#include "onnxmicro/kernels/math/selu.hpp"
#include "onnxmicro/kernels/math/shrink.hpp"
#include "onnxmicro/kernels/math/sigmoid.hpp"
#include "onnxmicro/kernels/math/sign.hpp"
#include "onnxmicro/kernels/math/sin.hpp"
#include "onnxmicro/kernels/math/sinh.hpp"
#include "onnxmicro/kernels/math/softmax.hpp"
#include "onnxmicro/kernels/math/softmax_cross_entropy_loss.hpp"
#include "onnxmicro/kernels/math/softplus.hpp"
#include "onnxmicro/kernels/math/softsign.hpp"
#include "onnxmicro/kernels/math/sqrt.hpp"
#include "onnxmicro/kernels/math/sub.hpp"
#include "onnxmicro/kernels/math/sum.hpp"
#include "onnxmicro/kernels/math/swi_glu.hpp"
#include "onnxmicro/kernels/math/swish.hpp"
#include "onnxmicro/kernels/math/tan.hpp"
#include "onnxmicro/kernels/math/tanh.hpp"
#include "onnxmicro/kernels/math/thresholded_relu.hpp"
#include "onnxmicro/kernels/math/top_k.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

using MathKernels = KernelSet<                                                               //
    Add_1, Add_7, Sub_1, Sub_7, Mul_1, Mul_7, Div_1, Div_7,                                  //
    Pow_1, Pow_7, Pow_12, Mod_10, Mod_28,                                                    //
    Max_1, Max_8, Min_1, Min_8, Sum_1, Sum_8, Mean_1, Mean_8,                                //
    Gemm_1, Gemm_7, Gemm_11, MatMul_1,                                                       //
    Einsum_12, Det_11, CumSum_11, CumProd_26, TopK_1, TopK_10, TopK_11,                      //
    Softmax_1, Softmax_13, LogSoftmax_1, LogSoftmax_13, Hardmax_1, Hardmax_13,               //
    NegativeLogLikelihoodLoss_12, SoftmaxCrossEntropyLoss_12,                                //
    Abs_1, Neg_1, Exp_1, Log_1, Sqrt_1, Reciprocal_1, Floor_1, Ceil_1, Round_11, Sign_9,     //
    Sin_7, Cos_7, Tan_7, Asin_7, Acos_7, Atan_7, Sinh_9, Cosh_9, Asinh_9, Acosh_9, Atanh_9,  //
    Erf_9, IsNaN_9, IsInf_10, BitwiseNot_18,                                                 //
    Relu_1, LeakyRelu_1, PRelu_1, PRelu_7, Sigmoid_1, Tanh_1, Clip_1, Clip_11,               //
    Elu_1, Selu_1, Celu_12, HardSigmoid_1, HardSwish_14, Softplus_1, Softsign_1, Mish_18,    //
    Gelu_20, ThresholdedRelu_10, Shrink_9, Swish_24, SwiGLU_28>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
