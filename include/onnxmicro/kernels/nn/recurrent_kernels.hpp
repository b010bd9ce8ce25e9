// SPDX-License-Identifier: MIT
// The recurrent kernels (RNN, GRU, LSTM), as one KernelSet.
#pragma once
#include "onnxmicro/kernels/kernel_set.hpp"
#include "onnxmicro/kernels/nn/gru.hpp"
#include "onnxmicro/kernels/nn/lstm.hpp"
#include "onnxmicro/kernels/nn/rnn.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

using RecurrentKernels = KernelSet<RNN_1, RNN_7, RNN_14, RNN_22,         //
                                   GRU_1, GRU_3, GRU_7, GRU_14, GRU_22,  //
                                   LSTM_1, LSTM_7, LSTM_14, LSTM_22>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
