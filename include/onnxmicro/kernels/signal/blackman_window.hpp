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

/// BlackmanWindow-17: the first version.
struct BlackmanWindow_17 : KernelDefaults, signal_util::WindowGenerator<BlackmanFormula> {
  static constexpr std::string_view kDomain = "";
  static constexpr std::string_view kOpType = "BlackmanWindow";
  static constexpr int kSinceVersion = 17;
};

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
