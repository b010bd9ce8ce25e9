// SPDX-License-Identifier: MIT
// The quantization family: QuantizeLinear, DequantizeLinear, DynamicQuantizeLinear, QLinearMatMul, QLinearConv,
// ConvInteger, MatMulInteger, and com.microsoft QGemm.
#pragma once
#include "onnxmicro/kernels/kernel_set.hpp"
#include "onnxmicro/kernels/quantization/conv_integer.hpp"
#include "onnxmicro/kernels/quantization/dequantize_linear.hpp"
#include "onnxmicro/kernels/quantization/dynamic_quantize_linear.hpp"
#include "onnxmicro/kernels/quantization/matmul_integer.hpp"
#include "onnxmicro/kernels/quantization/qgemm.hpp"
#include "onnxmicro/kernels/quantization/qlinear_conv.hpp"
#include "onnxmicro/kernels/quantization/qlinear_matmul.hpp"
#include "onnxmicro/kernels/quantization/quantize_linear.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

using QuantizationKernels =
    KernelSet<QuantizeLinear_10, QuantizeLinear_13, QuantizeLinear_19, QuantizeLinear_21, QuantizeLinear_23,
              DequantizeLinear_10, DequantizeLinear_13, DequantizeLinear_19, DequantizeLinear_21, DequantizeLinear_23,
              DynamicQuantizeLinear_11, QLinearMatMul_10, QLinearMatMul_21, QLinearConv_10, ConvInteger_10,
              MatMulInteger_10, QGemm_1>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
