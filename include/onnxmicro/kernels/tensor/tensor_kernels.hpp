// SPDX-License-Identifier: MIT
// Every kernel of the tensor family, as one KernelSet. Add a new kernel here after writing its file.
#pragma once
#include "onnxmicro/kernels/kernel_set.hpp"
#include "onnxmicro/kernels/tensor/bit_cast.hpp"
#include "onnxmicro/kernels/tensor/cast.hpp"
#include "onnxmicro/kernels/tensor/cast_like.hpp"
#include "onnxmicro/kernels/tensor/center_crop_pad.hpp"
#include "onnxmicro/kernels/tensor/compress.hpp"
#include "onnxmicro/kernels/tensor/concat.hpp"
#include "onnxmicro/kernels/tensor/depth_to_space.hpp"
#include "onnxmicro/kernels/tensor/expand.hpp"
#include "onnxmicro/kernels/tensor/gather.hpp"
#include "onnxmicro/kernels/tensor/gather_elements.hpp"
#include "onnxmicro/kernels/tensor/gather_nd.hpp"
#include "onnxmicro/kernels/tensor/identity.hpp"
#include "onnxmicro/kernels/tensor/non_zero.hpp"
#include "onnxmicro/kernels/tensor/one_hot.hpp"
#include "onnxmicro/kernels/tensor/pad.hpp"
#include "onnxmicro/kernels/tensor/reshape.hpp"
#include "onnxmicro/kernels/tensor/reverse_sequence.hpp"
#include "onnxmicro/kernels/tensor/scatter.hpp"
#include "onnxmicro/kernels/tensor/scatter_elements.hpp"
#include "onnxmicro/kernels/tensor/scatter_nd.hpp"
#include "onnxmicro/kernels/tensor/shape.hpp"
#include "onnxmicro/kernels/tensor/size.hpp"
#include "onnxmicro/kernels/tensor/slice.hpp"
#include "onnxmicro/kernels/tensor/space_to_depth.hpp"
#include "onnxmicro/kernels/tensor/split.hpp"
#include "onnxmicro/kernels/tensor/squeeze.hpp"
#include "onnxmicro/kernels/tensor/tensor_scatter.hpp"
#include "onnxmicro/kernels/tensor/tile.hpp"
#include "onnxmicro/kernels/tensor/transpose.hpp"
#include "onnxmicro/kernels/tensor/trilu.hpp"
#include "onnxmicro/kernels/tensor/unique.hpp"
#include "onnxmicro/kernels/tensor/unsqueeze.hpp"
#include "onnxmicro/kernels/tensor/where.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

using TensorKernels = KernelSet<                                                          //
    Cast_1, Cast_6, Cast_19, Cast_24, CastLike_15, CastLike_19, CastLike_24, BitCast_26,  //
    Identity_1,                                                                           //
    Reshape_1, Reshape_5, Reshape_14, Shape_1, Shape_15, Size_1,                          //
    Squeeze_1, Squeeze_11, Squeeze_13, Unsqueeze_1, Unsqueeze_11, Unsqueeze_13,           //
    Expand_8, Tile_1, Tile_6, Transpose_1, Trilu_14,                                      //
    Concat_1, Concat_4, Concat_11, Split_1, Split_2, Split_11, Split_13, Split_18,        //
    Slice_1, Slice_10, Slice_11, Pad_1, Pad_2, Pad_11, Pad_18, Pad_19, CenterCropPad_18,  //
    Gather_1, GatherElements_11, GatherND_11, GatherND_12,                                //
    Scatter_9, ScatterElements_11, ScatterElements_16, ScatterElements_18,                //
    ScatterND_11, ScatterND_16, ScatterND_18, TensorScatter_24,                           //
    OneHot_9, OneHot_11, Where_9, Compress_9, Compress_11, NonZero_9, Unique_11,          //
    SpaceToDepth_1, SpaceToDepth_28, DepthToSpace_1, DepthToSpace_11, ReverseSequence_10>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
