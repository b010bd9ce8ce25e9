// SPDX-License-Identifier: MIT
// Every kernel of the tensor family, as one KernelSet. Add a new kernel here after writing its file.
#pragma once
#include "onnxmicro/kernels/kernel_set.hpp"
#include "onnxmicro/kernels/tensor/cast.hpp"
#include "onnxmicro/kernels/tensor/concat.hpp"
#include "onnxmicro/kernels/tensor/gather.hpp"
#include "onnxmicro/kernels/tensor/reshape.hpp"
#include "onnxmicro/kernels/tensor/shape.hpp"
#include "onnxmicro/kernels/tensor/squeeze.hpp"
#include "onnxmicro/kernels/tensor/transpose.hpp"
#include "onnxmicro/kernels/tensor/unsqueeze.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

using TensorKernels = KernelSet<        //
    Cast_1, Cast_6, Cast_19, Cast_24,   //
    Concat_1, Concat_4, Concat_11,      //
    Gather_1,                           //
    Reshape_1, Reshape_5, Reshape_14,   //
    Shape_1, Shape_15,                  //
    Squeeze_1, Squeeze_11, Squeeze_13,  //
    Transpose_1,                        //
    Unsqueeze_1, Unsqueeze_11, Unsqueeze_13>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
