// SPDX-License-Identifier: MIT
// Not: y = logical not of a bool tensor (opset 1, unchanged since).
#pragma once
#include "onnxmicro/kernels/common/elementwise.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

/// The function of Not, on bool.
struct NotOp {
  using Params = NoParams;
  static bool apply(bool x, const Params&) noexcept { return !x; }
};

// Opset 1+: the first version.
struct Not_1 : KernelDefaults, UnaryElementwise<NotOp, TypeList<bool>> {
  static constexpr std::string_view kDomain = "";
  static constexpr std::string_view kOpType = "Not";
  static constexpr int kSinceVersion = 1;
  static constexpr int kInPlaceInput = 0;
};

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
