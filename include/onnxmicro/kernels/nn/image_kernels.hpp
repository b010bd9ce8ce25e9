// SPDX-License-Identifier: MIT
// The image-sampling kernels of the nn family (Resize, Upsample, GridSample, AffineGrid, RoiAlign, MaxRoiPool,
// NonMaxSuppression), as one KernelSet.
#pragma once
#include "onnxmicro/kernels/kernel_set.hpp"
#include "onnxmicro/kernels/nn/affine_grid.hpp"
#include "onnxmicro/kernels/nn/grid_sample.hpp"
#include "onnxmicro/kernels/nn/max_roi_pool.hpp"
#include "onnxmicro/kernels/nn/non_max_suppression.hpp"
#include "onnxmicro/kernels/nn/resize.hpp"
#include "onnxmicro/kernels/nn/roi_align.hpp"
#include "onnxmicro/kernels/nn/upsample.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

using ImageKernels = KernelSet<Resize_10, Resize_11, Resize_13, Resize_18, Resize_19,  //
                               GridSample_16, GridSample_20, GridSample_22,            //
                               NonMaxSuppression_10, AffineGrid_20,                    //
                               RoiAlign_10, RoiAlign_16, RoiAlign_22,                  //
                               Upsample_1, Upsample_7, Upsample_9, MaxRoiPool_1>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
