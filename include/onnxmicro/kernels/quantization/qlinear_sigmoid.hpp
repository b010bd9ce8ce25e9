// SPDX-License-Identifier: MIT
// QLinearSigmoid (com.microsoft, version 1, the only one): y = quantize(1 / (1 + exp(-dequantize(x)))) for
// int8/uint8 x. As onnxruntime, a 256-entry table computed in float32 at prepare time.
#pragma once
#include <cmath>

#include "onnxmicro/kernels/kernel_api.hpp"
#include "onnxmicro/kernels/quantization/qoperator_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

namespace qlinear_sigmoid_detail {

/// The implementation of QLinearSigmoid (see the file comment).
struct QLinearSigmoidImpl : KernelDefaults {
  static constexpr std::string_view kDomain = "com.microsoft";
  static constexpr std::string_view kOpType = "QLinearSigmoid";
  static constexpr int kInPlaceInput = 0;

  static Status prepare(PrepareContext& ctx) noexcept {
    return qoperator_util::LookupTableKernel::prepare(ctx, [](float v) { return 1.0f / (1.0f + std::exp(-v)); });
  }
  static Status run(RunContext& ctx) noexcept { return qoperator_util::LookupTableKernel::run(ctx); }
};

}  // namespace qlinear_sigmoid_detail

// Version 1: the only version.
using QLinearSigmoid_1 = VersionedKernel<qlinear_sigmoid_detail::QLinearSigmoidImpl, 1>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
