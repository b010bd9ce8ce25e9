// SPDX-License-Identifier: MIT
// Every kernel of the quantization family, as one KernelSet: the ai.onnx ops (QuantizeLinear, DequantizeLinear,
// DynamicQuantizeLinear, QLinearMatMul, QLinearConv, ConvInteger, MatMulInteger) and onnxruntime's com.microsoft
// ones (QGemm, the QOperator QLinear* ops of CNNs, DynamicQuantizeLSTM). One list, not one per domain: each kernel
// carries its domain and lookup matches it, so a separate list buys nothing, and onnxruntime's quantizers emit
// both domains in one model (QLinearConv next to QLinearAdd; QDQ graphs next to QGemm), so neither half is
// useful alone. A build that wants fewer kernels takes `onnxmicro kernels`' per-model set. Add a new kernel here
// after writing its file.
#pragma once
#include "onnxmicro/kernels/kernel_set.hpp"
#include "onnxmicro/kernels/quantization/conv_integer.hpp"
#include "onnxmicro/kernels/quantization/dequantize_linear.hpp"
#include "onnxmicro/kernels/quantization/dynamic_quantize_linear.hpp"
#include "onnxmicro/kernels/quantization/dynamic_quantize_lstm.hpp"
#include "onnxmicro/kernels/quantization/matmul_integer.hpp"
#include "onnxmicro/kernels/quantization/qgemm.hpp"
#include "onnxmicro/kernels/quantization/qlinear_add.hpp"
#include "onnxmicro/kernels/quantization/qlinear_average_pool.hpp"
#include "onnxmicro/kernels/quantization/qlinear_concat.hpp"
#include "onnxmicro/kernels/quantization/qlinear_conv.hpp"
#include "onnxmicro/kernels/quantization/qlinear_global_average_pool.hpp"
#include "onnxmicro/kernels/quantization/qlinear_leaky_relu.hpp"
#include "onnxmicro/kernels/quantization/qlinear_matmul.hpp"
#include "onnxmicro/kernels/quantization/qlinear_mul.hpp"
#include "onnxmicro/kernels/quantization/qlinear_sigmoid.hpp"
#include "onnxmicro/kernels/quantization/qlinear_softmax.hpp"
#include "onnxmicro/kernels/quantization/quantize_linear.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

using QuantizationKernels = KernelSet<                                                                        //
    QuantizeLinear_10, QuantizeLinear_13, QuantizeLinear_19, QuantizeLinear_21, QuantizeLinear_23,            //
    DequantizeLinear_10, DequantizeLinear_13, DequantizeLinear_19, DequantizeLinear_21, DequantizeLinear_23,  //
    DynamicQuantizeLinear_11, QLinearMatMul_10, QLinearMatMul_21, QLinearConv_10,                             //
    ConvInteger_10, MatMulInteger_10,                                                                         //
    QGemm_1, QLinearAdd_1, QLinearMul_1, QLinearConcat_1, QLinearAveragePool_1,                               //
    QLinearGlobalAveragePool_1, QLinearLeakyRelu_1, QLinearSigmoid_1, QLinearSoftmax_1, DynamicQuantizeLSTM_1>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
