// SPDX-License-Identifier: MIT
// HammingWindow: w[n] = alpha - beta*cos(2*pi*n/N), alpha = 25/46 (the exact form of 0.54, as the ONNX
// reference uses), beta = 1 - alpha; N = size (periodic, default) or size - 1 (symmetric).
#pragma once
#include "onnxmicro/kernels/signal/signal_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

struct HammingFormula {
  static double value(double n, double denominator) noexcept {
    constexpr double alpha = 25.0 / 46.0;
    return alpha - (1.0 - alpha) * std::cos(2.0 * signal_util::kPi * n / denominator);
  }
};

namespace hamming_window_detail {

/// The implementation of HammingWindow (see the file comment).
struct HammingWindowImpl : KernelDefaults, signal_util::WindowGenerator<HammingFormula> {
  static constexpr std::string_view kOpType = "HammingWindow";
};

}  // namespace hamming_window_detail

/// HammingWindow-17: the first version.
using HammingWindow_17 = VersionedKernel<hamming_window_detail::HammingWindowImpl, 17>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
