// SPDX-License-Identifier: MIT
// QLinearAdd (com.microsoft, version 1, the only one): C = quantize(dequantize(A) + dequantize(B)) with numpy
// broadcasting, int8/uint8, per-tensor scales and optional zero points (known at prepare time). Integer only at
// run time: prepare builds one 256-entry int64 table per operand holding its contribution to C in fixed point
// (2^-24 quanta, C's zero point and the rounding half folded into A's), so an element is two lookups, an add
// and a shift, ties to even (onnxruntime computes in float32: results at most one quantum apart). A Relu/Clip
// fused by the QDQ pass narrows the output range.
#pragma once
#include <cmath>
#include <cstdint>

#include "onnxmicro/kernels/kernel_api.hpp"
#include "onnxmicro/kernels/quantization/qoperator_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {
namespace qlinear_add_detail {

struct QuantizedAdd {
  static constexpr std::string_view kDomain = "com.microsoft";
  static constexpr std::string_view kOpType = "QLinearAdd";
  /// Fraction bits of the tables: 2^-24 of an output quantum, far below the rounding granularity.
  static constexpr int kFraction = 24;
  static constexpr std::int64_t kMask = (std::int64_t{1} << kFraction) - 1;
  struct Params {
    /// a[byte(q)] = (q - a_zero) * a_scale / c_scale + c_zero + 1/2, b[byte(q)] = (q - b_zero) * b_scale /
    /// c_scale, both in units of 2^-kFraction: C = (a[A] + b[B]) >> kFraction, ties to even.
    std::int64_t a[256];
    std::int64_t b[256];
  };
  static void fill(std::int64_t* table, DataType t, qoperator_util::QuantParams p, double ratio,
                   double offset) noexcept {
    constexpr double kUnit = static_cast<double>(std::int64_t{1} << kFraction);
    constexpr double kLimit = 4611686018427387904.0;  // 2^62: two entries still add up within int64
    const qoperator_util::QuantRange r = qoperator_util::range_of(t);
    for (std::int32_t q = r.low; q <= r.high; ++q) {
      double v = std::floor((static_cast<double>(q - p.zero_point) * ratio + offset) * kUnit + 0.5);
      v = v > kLimit ? kLimit : (v < -kLimit ? -kLimit : v);  // such ratios saturate the output anyway
      table[static_cast<std::uint8_t>(q)] = static_cast<std::int64_t>(v);
    }
  }
  static void init(Params& params, DataType t, qoperator_util::QuantParams a, qoperator_util::QuantParams b,
                   qoperator_util::QuantParams c) noexcept {
    fill(params.a, t, a, static_cast<double>(a.scale) / c.scale, c.zero_point + 0.5);
    fill(params.b, t, b, static_cast<double>(b.scale) / c.scale, 0.0);
  }
  static std::int64_t apply(const Params& p, std::int32_t a, std::int32_t b) noexcept {
    return qoperator_util::RoundingMultiplier::round_shifted(
        p.a[static_cast<std::uint8_t>(a)] + p.b[static_cast<std::uint8_t>(b)], kFraction, kMask);
  }
};

}  // namespace qlinear_add_detail

// Version 1: the only version.
using QLinearAdd_1 = VersionedKernel<qoperator_util::QLinearBinaryKernel<qlinear_add_detail::QuantizedAdd>, 1>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
