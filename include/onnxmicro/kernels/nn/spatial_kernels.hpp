// SPDX-License-Identifier: MIT
// The spatial kernels (ConvTranspose, LpPool, GlobalMaxPool, GlobalLpPool, MaxUnpool, Col2Im, DeformConv) and
// Dropout, as one KernelSet.
#pragma once
#include "onnxmicro/kernels/kernel_set.hpp"
#include "onnxmicro/kernels/nn/col2im.hpp"
#include "onnxmicro/kernels/nn/conv_transpose.hpp"
#include "onnxmicro/kernels/nn/deform_conv.hpp"
#include "onnxmicro/kernels/nn/dropout.hpp"
#include "onnxmicro/kernels/nn/global_lp_pool.hpp"
#include "onnxmicro/kernels/nn/global_max_pool.hpp"
#include "onnxmicro/kernels/nn/lp_pool.hpp"
#include "onnxmicro/kernels/nn/max_unpool.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

using SpatialKernels = KernelSet<Col2Im_18, ConvTranspose_1, DeformConv_19, Dropout_1, Dropout_10, Dropout_12,
                                 GlobalLpPool_1, GlobalLpPool_2, GlobalMaxPool_1, LpPool_1, LpPool_2, MaxUnpool_9>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
