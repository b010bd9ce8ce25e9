// SPDX-License-Identifier: MIT
// Every kernel of the nn family, as one KernelSet. Add a new kernel here after writing its file.
#pragma once
#include "onnxmicro/kernels/kernel_set.hpp"
#include "onnxmicro/kernels/nn/average_pool.hpp"
#include "onnxmicro/kernels/nn/batch_normalization.hpp"
#include "onnxmicro/kernels/nn/conv.hpp"
#include "onnxmicro/kernels/nn/flatten.hpp"
#include "onnxmicro/kernels/nn/global_average_pool.hpp"
#include "onnxmicro/kernels/nn/max_pool.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

using NnKernels = KernelSet<Conv_1,                                                             //
                            MaxPool_1, MaxPool_8, MaxPool_10,                                   //
                            AveragePool_1, AveragePool_7, AveragePool_10, AveragePool_19,       //
                            GlobalAveragePool_1,                                                //
                            BatchNormalization_1, BatchNormalization_9, BatchNormalization_14,  //
                            BatchNormalization_15,                                              //
                            Flatten_1, Flatten_11>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
