// SPDX-License-Identifier: MIT
// The softmax-like and scan/selection math ops: LogSoftmax, Hardmax, CumSum, TopK.
#pragma once
#include "onnxmicro/kernels/kernel_set.hpp"
#include "onnxmicro/kernels/math/cum_sum.hpp"
#include "onnxmicro/kernels/math/hardmax.hpp"
#include "onnxmicro/kernels/math/log_softmax.hpp"
#include "onnxmicro/kernels/math/top_k.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

using SoftmaxFamilyKernels =
    KernelSet<LogSoftmax_1, LogSoftmax_13, Hardmax_1, Hardmax_13, CumSum_11, TopK_1, TopK_10, TopK_11>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
