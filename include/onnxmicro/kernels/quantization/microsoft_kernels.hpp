// SPDX-License-Identifier: MIT
// onnxruntime's com.microsoft QOperator kernels (the QOperator quantization format of CNNs): QLinearAdd,
// QLinearMul, QLinearConcat, QLinearAveragePool, QLinearGlobalAveragePool, QLinearLeakyRelu, QLinearSigmoid,
// QLinearSoftmax; and DynamicQuantizeLSTM, what quantize_dynamic makes of an LSTM.
#pragma once
#include "onnxmicro/kernels/kernel_set.hpp"
#include "onnxmicro/kernels/quantization/dynamic_quantize_lstm.hpp"
#include "onnxmicro/kernels/quantization/qlinear_add.hpp"
#include "onnxmicro/kernels/quantization/qlinear_average_pool.hpp"
#include "onnxmicro/kernels/quantization/qlinear_concat.hpp"
#include "onnxmicro/kernels/quantization/qlinear_global_average_pool.hpp"
#include "onnxmicro/kernels/quantization/qlinear_leaky_relu.hpp"
#include "onnxmicro/kernels/quantization/qlinear_mul.hpp"
#include "onnxmicro/kernels/quantization/qlinear_sigmoid.hpp"
#include "onnxmicro/kernels/quantization/qlinear_softmax.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

using MicrosoftQuantizationKernels =
    KernelSet<QLinearAdd_1, QLinearMul_1, QLinearConcat_1, QLinearAveragePool_1, QLinearGlobalAveragePool_1,
              QLinearLeakyRelu_1, QLinearSigmoid_1, QLinearSoftmax_1, DynamicQuantizeLSTM_1>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
