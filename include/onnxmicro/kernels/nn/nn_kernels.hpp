// SPDX-License-Identifier: MIT
// Every kernel of the nn family, as one KernelSet. Add a new kernel here after writing its file.
#pragma once
#include "onnxmicro/kernels/kernel_set.hpp"
#include "onnxmicro/kernels/nn/affine_grid.hpp"
#include "onnxmicro/kernels/nn/attention.hpp"
#include "onnxmicro/kernels/nn/average_pool.hpp"
#include "onnxmicro/kernels/nn/batch_normalization.hpp"
#include "onnxmicro/kernels/nn/causal_conv_with_state.hpp"
#include "onnxmicro/kernels/nn/col2im.hpp"
#include "onnxmicro/kernels/nn/conv.hpp"
#include "onnxmicro/kernels/nn/conv_transpose.hpp"
#include "onnxmicro/kernels/nn/deform_conv.hpp"
#include "onnxmicro/kernels/nn/dropout.hpp"
#include "onnxmicro/kernels/nn/flatten.hpp"
#include "onnxmicro/kernels/nn/flex_attention.hpp"
#include "onnxmicro/kernels/nn/global_average_pool.hpp"
#include "onnxmicro/kernels/nn/global_lp_pool.hpp"
#include "onnxmicro/kernels/nn/global_max_pool.hpp"
#include "onnxmicro/kernels/nn/grid_sample.hpp"
#include "onnxmicro/kernels/nn/group_normalization.hpp"
#include "onnxmicro/kernels/nn/gru.hpp"
#include "onnxmicro/kernels/nn/instance_normalization.hpp"
#include "onnxmicro/kernels/nn/layer_normalization.hpp"
#include "onnxmicro/kernels/nn/linear_attention.hpp"
#include "onnxmicro/kernels/nn/lp_normalization.hpp"
#include "onnxmicro/kernels/nn/lp_pool.hpp"
#include "onnxmicro/kernels/nn/lrn.hpp"
#include "onnxmicro/kernels/nn/lstm.hpp"
#include "onnxmicro/kernels/nn/max_pool.hpp"
#include "onnxmicro/kernels/nn/max_roi_pool.hpp"
#include "onnxmicro/kernels/nn/max_unpool.hpp"
#include "onnxmicro/kernels/nn/mean_variance_normalization.hpp"
#include "onnxmicro/kernels/nn/non_max_suppression.hpp"
#include "onnxmicro/kernels/nn/resize.hpp"
#include "onnxmicro/kernels/nn/rms_normalization.hpp"
#include "onnxmicro/kernels/nn/rnn.hpp"
#include "onnxmicro/kernels/nn/roi_align.hpp"
#include "onnxmicro/kernels/nn/rotary_embedding.hpp"
#include "onnxmicro/kernels/nn/upsample.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

using NnKernels = KernelSet<                                                                         //
    Conv_1, ConvTranspose_1, DeformConv_19, Col2Im_18,                                               //
    MaxPool_1, MaxPool_8, MaxPool_10, AveragePool_1, AveragePool_7, AveragePool_10, AveragePool_19,  //
    LpPool_1, LpPool_2, MaxUnpool_9, MaxRoiPool_1,                                                   //
    GlobalAveragePool_1, GlobalMaxPool_1, GlobalLpPool_1, GlobalLpPool_2,                            //
    BatchNormalization_1, BatchNormalization_9, BatchNormalization_14, BatchNormalization_15,        //
    InstanceNormalization_1, LayerNormalization_17, GroupNormalization_18, GroupNormalization_21,    //
    RMSNormalization_23, MeanVarianceNormalization_9, LpNormalization_1, LRN_1,                      //
    Flatten_1, Flatten_11, Dropout_1, Dropout_10, Dropout_12,                                        //
    Resize_10, Resize_11, Resize_13, Resize_18, Resize_19, Upsample_1, Upsample_7, Upsample_9,       //
    GridSample_16, GridSample_20, GridSample_22, AffineGrid_20,                                      //
    RoiAlign_10, RoiAlign_16, RoiAlign_22, NonMaxSuppression_10,                                     //
    RNN_1, RNN_7, RNN_14, RNN_22, GRU_1, GRU_3, GRU_7, GRU_14, GRU_22,                               //
    LSTM_1, LSTM_7, LSTM_14, LSTM_22,                                                                //
    Attention_23, Attention_24, Attention_25, RotaryEmbedding_23, LinearAttention_27,                //
    CausalConvWithState_27, FlexAttention_1>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
