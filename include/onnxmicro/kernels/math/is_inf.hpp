// SPDX-License-Identifier: MIT
// IsInf: y[i] = true where x[i] is +inf (when attribute detect_positive, default 1) or -inf (when
// detect_negative, default 1); bool output, same shape. Versions 10 and 20 (float16, bfloat16 and the float8
// types added) compute the same thing: one kernel serves both.
#pragma once
#include <cstdint>
#include <utility>

#include "onnxmicro/kernels/math/is_nan.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

/// The predicate of IsInf.
struct IsInfPredicate {
  struct Params {
    bool detect_positive;
    bool detect_negative;
    static Status parse(const PrepareContext& ctx, Params& params) noexcept {
      std::int64_t positive = 1, negative = 1;
      ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("detect_positive", positive, 1));
      ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("detect_negative", negative, 1));
      for (auto [name, value] : {std::pair<const char*, std::int64_t>{"detect_positive", positive},
                                 std::pair<const char*, std::int64_t>{"detect_negative", negative}}) {
        if (value != 0 && value != 1) {
          return Status(StatusCode::invalid_model) << "attribute '" << name << "' is " << value << ", expected 0 or 1";
        }
      }
      params.detect_positive = positive != 0;
      params.detect_negative = negative != 0;
      return {};
    }
  };
  static bool apply(FloatClass c, const Params& params) noexcept {
    return (c == FloatClass::positive_infinity && params.detect_positive) ||
           (c == FloatClass::negative_infinity && params.detect_negative);
  }
};

namespace is_inf_detail {

/// The implementation of IsInf (see the file comment).
struct IsInfImpl : KernelDefaults, FloatClassKernel<IsInfPredicate> {
  static constexpr std::string_view kOpType = "IsInf";
};

}  // namespace is_inf_detail

// Opset 10+: unchanged semantics (20 added float16, bfloat16 and the float8 types).
using IsInf_10 = VersionedKernel<is_inf_detail::IsInfImpl, 10>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
