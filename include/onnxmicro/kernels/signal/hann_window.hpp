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

namespace hann_window_detail {

/// The implementation of HannWindow (see the file comment).
struct HannWindowImpl : KernelDefaults, signal_util::WindowGenerator<HannFormula> {
  static constexpr std::string_view kOpType = "HannWindow";
};

}  // namespace hann_window_detail

/// HannWindow-17: the first version.
using HannWindow_17 = VersionedKernel<hann_window_detail::HannWindowImpl, 17>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
