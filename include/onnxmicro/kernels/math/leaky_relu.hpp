// SPDX-License-Identifier: MIT
// LeakyRelu: y = x for x >= 0, alpha * x otherwise (attribute alpha, default 0.01). Versions 1 (with the
// ignored legacy `consumed_inputs`), 6 and 16 (bfloat16 added) compute the same thing: one kernel serves all.
#pragma once
#include <cstring>
#include <type_traits>

#include "onnxmicro/kernels/common/elementwise.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

/// The function of LeakyRelu, on compute types (float for float16/bfloat16).
struct LeakyReluOp {
  static constexpr std::string_view kOpType = "LeakyRelu";
  struct Params {
    float alpha;
    static Status parse(const PrepareContext& ctx, Params& params) noexcept {
      return ctx.attribute("alpha", params.alpha, 0.01f);
    }
  };
  template <typename C>
  static C apply(C x, const Params& params) noexcept {
    return select_by_sign(x, static_cast<C>(params.alpha) * x);
  }

  /// `x < 0 ? negative : x`, computed from the sign bit: GCC does not if-convert a float compare-and-select
  /// under -ftrapping-math (its default), so the plain ternary would keep the loop scalar. The result is the
  /// same for -0 (alpha * -0 = -0) and NaN (alpha * NaN is NaN).
  template <typename C>
  static C select_by_sign(C x, C negative) noexcept {
    using Bits = std::conditional_t<sizeof(C) == 4, std::uint32_t, std::uint64_t>;
    Bits xb, nb;
    std::memcpy(&xb, &x, sizeof(C));
    std::memcpy(&nb, &negative, sizeof(C));
    const Bits mask = Bits(0) - (xb >> (sizeof(C) * 8 - 1));  // all ones when the sign bit is set
    const Bits rb = (nb & mask) | (xb & ~mask);
    C r;
    std::memcpy(&r, &rb, sizeof(C));
    return r;
  }
};

// Opset 1+: unchanged semantics (6 dropped consumed_inputs, 16 added bfloat16).
using LeakyRelu_1 = VersionedKernel<UnaryElementwise<LeakyReluOp, FloatTypes>, 1>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
