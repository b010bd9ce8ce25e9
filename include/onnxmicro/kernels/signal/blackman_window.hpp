// SPDX-License-Identifier: MIT
// BlackmanWindow: w[n] = 0.42 - 0.5*cos(2*pi*n/N) + 0.08*cos(4*pi*n/N), N = size (periodic, default) or
// size - 1 (symmetric).
#pragma once
#include "onnxmicro/kernels/signal/signal_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

struct BlackmanFormula {
  static double value(double n, double denominator) noexcept {
    return 0.42 - 0.5 * std::cos(2.0 * signal_util::kPi * n / denominator) +
           0.08 * std::cos(4.0 * signal_util::kPi * n / denominator);
  }
};

namespace blackman_window_detail {

/// The implementation of BlackmanWindow (see the file comment).
struct BlackmanWindowImpl : KernelDefaults, signal_util::WindowGenerator<BlackmanFormula> {
  static constexpr std::string_view kOpType = "BlackmanWindow";
};

}  // namespace blackman_window_detail

/// BlackmanWindow-17: the first version.
using BlackmanWindow_17 = VersionedKernel<blackman_window_detail::BlackmanWindowImpl, 17>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
