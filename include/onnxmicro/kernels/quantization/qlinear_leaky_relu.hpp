// SPDX-License-Identifier: MIT
// QLinearLeakyRelu (com.microsoft, version 1, the only one): y = quantize(leaky_relu(dequantize(x), alpha)) for
// int8/uint8 x, alpha default 0.01. As onnxruntime, a 256-entry table computed in float32 at prepare time.
#pragma once
#include "onnxmicro/kernels/kernel_api.hpp"
#include "onnxmicro/kernels/quantization/qoperator_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

namespace qlinear_leaky_relu_detail {

/// The implementation of QLinearLeakyRelu (see the file comment).
struct QLinearLeakyReluImpl : KernelDefaults {
  static constexpr std::string_view kDomain = "com.microsoft";
  static constexpr std::string_view kOpType = "QLinearLeakyRelu";
  static constexpr int kInPlaceInput = 0;

  static Status prepare(PrepareContext& ctx) noexcept {
    float alpha = 0.01f;
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("alpha", alpha, 0.01f));
    return qoperator_util::LookupTableKernel::prepare(ctx, [alpha](float v) { return v >= 0.0f ? v : v * alpha; });
  }
  static Status run(RunContext& ctx) noexcept { return qoperator_util::LookupTableKernel::run(ctx); }
};

}  // namespace qlinear_leaky_relu_detail

// Version 1: the only version.
using QLinearLeakyRelu_1 = VersionedKernel<qlinear_leaky_relu_detail::QLinearLeakyReluImpl, 1>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
