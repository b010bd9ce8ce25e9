// SPDX-License-Identifier: MIT
// The attention-family kernels: Attention, RotaryEmbedding, LinearAttention, CausalConvWithState, FlexAttention.
#pragma once
#include "onnxmicro/kernels/kernel_set.hpp"
#include "onnxmicro/kernels/nn/attention.hpp"
#include "onnxmicro/kernels/nn/causal_conv_with_state.hpp"
#include "onnxmicro/kernels/nn/flex_attention.hpp"
#include "onnxmicro/kernels/nn/linear_attention.hpp"
#include "onnxmicro/kernels/nn/rotary_embedding.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

using AttentionKernels = KernelSet<Attention_23, Attention_24, Attention_25, RotaryEmbedding_23, LinearAttention_27,
                                   CausalConvWithState_27, FlexAttention_1>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
