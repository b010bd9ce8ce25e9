// SPDX-License-Identifier: MIT
// The indexing kernels: gathers and scatters by index tensors, one-hot encoding, data-dependent selections
// (Compress, NonZero, Unique) and the depth/space and sequence rearrangements.
#pragma once
#include "onnxmicro/kernels/kernel_set.hpp"
#include "onnxmicro/kernels/tensor/compress.hpp"
#include "onnxmicro/kernels/tensor/depth_to_space.hpp"
#include "onnxmicro/kernels/tensor/gather_elements.hpp"
#include "onnxmicro/kernels/tensor/gather_nd.hpp"
#include "onnxmicro/kernels/tensor/non_zero.hpp"
#include "onnxmicro/kernels/tensor/one_hot.hpp"
#include "onnxmicro/kernels/tensor/reverse_sequence.hpp"
#include "onnxmicro/kernels/tensor/scatter.hpp"
#include "onnxmicro/kernels/tensor/scatter_elements.hpp"
#include "onnxmicro/kernels/tensor/scatter_nd.hpp"
#include "onnxmicro/kernels/tensor/space_to_depth.hpp"
#include "onnxmicro/kernels/tensor/tensor_scatter.hpp"
#include "onnxmicro/kernels/tensor/unique.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

using IndexingKernels = KernelSet<GatherElements_11, GatherND_11, GatherND_12, ScatterElements_11, ScatterElements_16,
                                  ScatterElements_18, ScatterND_11, ScatterND_16, ScatterND_18, Scatter_9,
                                  TensorScatter_24, OneHot_9, OneHot_11, Compress_9, Compress_11, NonZero_9, Unique_11,
                                  SpaceToDepth_1, SpaceToDepth_28, DepthToSpace_1, DepthToSpace_11, ReverseSequence_10>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
