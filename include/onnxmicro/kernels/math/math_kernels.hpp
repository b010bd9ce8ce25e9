// SPDX-License-Identifier: MIT
// Every kernel of the math family, as one KernelSet. Add a new kernel here after writing its file.
#pragma once
#include "onnxmicro/kernels/kernel_set.hpp"
#include "onnxmicro/kernels/math/add.hpp"
#include "onnxmicro/kernels/math/clip.hpp"
#include "onnxmicro/kernels/math/div.hpp"
#include "onnxmicro/kernels/math/leaky_relu.hpp"
#include "onnxmicro/kernels/math/mul.hpp"
#include "onnxmicro/kernels/math/relu.hpp"
#include "onnxmicro/kernels/math/sigmoid.hpp"
#include "onnxmicro/kernels/math/softmax.hpp"
#include "onnxmicro/kernels/math/sub.hpp"
#include "onnxmicro/kernels/math/tanh.hpp"
// Identity belongs to the tensor family in ONNX; it is listed here because the math kernels' owner
// maintains it (tensor_kernels.hpp has another owner).
#include "onnxmicro/kernels/tensor/identity.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

using MathKernels = KernelSet<Add_1, Add_7, Sub_1, Sub_7, Mul_1, Mul_7, Div_1, Div_7, Relu_1, LeakyRelu_1, Sigmoid_1,
                              Tanh_1, Clip_1, Clip_11, Softmax_1, Softmax_13,
                              Identity_1>;  // Identity: tensor family, see the include above

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
