// SPDX-License-Identifier: MIT
// The normalisation kernels (LayerNormalization, RMSNormalization, GroupNormalization, InstanceNormalization,
// MeanVarianceNormalization, LpNormalization, LRN), as one KernelSet.
#pragma once
#include "onnxmicro/kernels/kernel_set.hpp"
#include "onnxmicro/kernels/nn/group_normalization.hpp"
#include "onnxmicro/kernels/nn/instance_normalization.hpp"
#include "onnxmicro/kernels/nn/layer_normalization.hpp"
#include "onnxmicro/kernels/nn/lp_normalization.hpp"
#include "onnxmicro/kernels/nn/lrn.hpp"
#include "onnxmicro/kernels/nn/mean_variance_normalization.hpp"
#include "onnxmicro/kernels/nn/rms_normalization.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

using NormalizationKernels =
    KernelSet<GroupNormalization_18, GroupNormalization_21, InstanceNormalization_1, LayerNormalization_17,
              LpNormalization_1, LRN_1, MeanVarianceNormalization_9, RMSNormalization_23>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
