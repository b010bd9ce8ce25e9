// SPDX-License-Identifier: MIT
// HannWindow: w[n] = sin^2(pi*n/N), N = size (periodic, default) or size - 1 (symmetric).
#pragma once
#include "onnxmicro/kernels/signal/signal_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

struct HannFormula {
  static double value(double n, double denominator) noexcept {
    const double s = std::sin(signal_util::kPi * n / denominator);
    return s * s;
  }
};

/// HannWindow-17: the first version.
struct HannWindow_17 : KernelDefaults, signal_util::WindowGenerator<HannFormula> {
  static constexpr std::string_view kDomain = "";
  static constexpr std::string_view kOpType = "HannWindow";
  static constexpr int kSinceVersion = 17;
};

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
