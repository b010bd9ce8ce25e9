// SPDX-License-Identifier: MIT
// The shape-manipulation and generator kernels of issue #3 (CastLike, Expand, ConstantOfShape, Slice, Range,
// Size, Split, Pad, Trilu, Tile, EyeLike, CenterCropPad, BitCast), as one KernelSet.
#pragma once
#include "onnxmicro/kernels/generator/constant_of_shape.hpp"
#include "onnxmicro/kernels/generator/eye_like.hpp"
#include "onnxmicro/kernels/generator/range.hpp"
#include "onnxmicro/kernels/kernel_set.hpp"
#include "onnxmicro/kernels/tensor/bit_cast.hpp"
#include "onnxmicro/kernels/tensor/cast_like.hpp"
#include "onnxmicro/kernels/tensor/center_crop_pad.hpp"
#include "onnxmicro/kernels/tensor/expand.hpp"
#include "onnxmicro/kernels/tensor/pad.hpp"
#include "onnxmicro/kernels/tensor/size.hpp"
#include "onnxmicro/kernels/tensor/slice.hpp"
#include "onnxmicro/kernels/tensor/split.hpp"
#include "onnxmicro/kernels/tensor/tile.hpp"
#include "onnxmicro/kernels/tensor/trilu.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

using ShapeOpsKernels = KernelSet<                   //
    BitCast_26,                                      //
    CastLike_15, CastLike_19, CastLike_24,           //
    CenterCropPad_18,                                //
    ConstantOfShape_9,                               //
    Expand_8,                                        //
    EyeLike_9,                                       //
    Pad_1, Pad_2, Pad_11, Pad_18, Pad_19,            //
    Range_11, Range_27,                              //
    Size_1,                                          //
    Slice_1, Slice_10, Slice_11,                     //
    Split_1, Split_2, Split_11, Split_13, Split_18,  //
    Tile_1, Tile_6,                                  //
    Trilu_14>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
