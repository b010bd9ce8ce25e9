// SPDX-License-Identifier: MIT
// The signal-processing kernels (DFT, STFT, window generators, MelWeightMatrix), as one KernelSet.
#pragma once
#include "onnxmicro/kernels/kernel_set.hpp"
#include "onnxmicro/kernels/signal/blackman_window.hpp"
#include "onnxmicro/kernels/signal/dft.hpp"
#include "onnxmicro/kernels/signal/hamming_window.hpp"
#include "onnxmicro/kernels/signal/hann_window.hpp"
#include "onnxmicro/kernels/signal/mel_weight_matrix.hpp"
#include "onnxmicro/kernels/signal/stft.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

using SignalKernels =
    KernelSet<DFT_17, DFT_20, STFT_17, HannWindow_17, HammingWindow_17, BlackmanWindow_17, MelWeightMatrix_17>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
