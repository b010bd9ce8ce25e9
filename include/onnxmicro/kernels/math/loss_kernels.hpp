// SPDX-License-Identifier: MIT
// The loss kernels of the math family (NegativeLogLikelihoodLoss, SoftmaxCrossEntropyLoss), as one KernelSet to
// be merged into AllKernels.
#pragma once
#include "onnxmicro/kernels/kernel_set.hpp"
#include "onnxmicro/kernels/math/negative_log_likelihood_loss.hpp"
#include "onnxmicro/kernels/math/softmax_cross_entropy_loss.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

using LossKernels = KernelSet<NegativeLogLikelihoodLoss_12, SoftmaxCrossEntropyLoss_12>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
