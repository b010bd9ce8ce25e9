// SPDX-License-Identifier: MIT
// QLinearMul (com.microsoft, version 1, the only one): C = quantize(dequantize(A) * dequantize(B)) with numpy
// broadcasting, int8/uint8, per-tensor scales and optional zero points (known at prepare time). Integer only:
// the int32 product of the zero-point-shifted operands is requantised with one fixed-point multiplier
// A_scale * B_scale / C_scale (a multiply, add and shift, ties to even; onnxruntime computes in float32:
// results at most one quantum apart). A Relu/Clip fused by the QDQ pass narrows the output range.
#pragma once
#include <cstdint>

#include "onnxmicro/kernels/kernel_api.hpp"
#include "onnxmicro/kernels/quantization/qoperator_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {
namespace qlinear_mul_detail {

struct QuantizedMul {
  static constexpr std::string_view kDomain = "com.microsoft";
  static constexpr std::string_view kOpType = "QLinearMul";
  struct Params {
    std::int32_t a_zero, b_zero, c_zero;
    qoperator_util::RoundingMultiplier output;
  };
  static void init(Params& params, DataType, qoperator_util::QuantParams a, qoperator_util::QuantParams b,
                   qoperator_util::QuantParams c) noexcept {
    params.a_zero = a.zero_point;
    params.b_zero = b.zero_point;
    params.c_zero = c.zero_point;
    params.output = qoperator_util::RoundingMultiplier(
        fixed_point::to_fixed_point(static_cast<double>(a.scale) * b.scale / c.scale));
  }
  static std::int64_t apply(const Params& p, std::int32_t a, std::int32_t b) noexcept {
    return p.output.apply((a - p.a_zero) * (b - p.b_zero)) + p.c_zero;  // |product| <= 2^16
  }
  static constexpr bool kVectorRows = false;
};

}  // namespace qlinear_mul_detail

// Version 1: the only version.
using QLinearMul_1 = VersionedKernel<qoperator_util::QLinearBinaryKernel<qlinear_mul_detail::QuantizedMul>, 1>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
