// SPDX-License-Identifier: MIT
// Not: y = logical not of a bool tensor (opset 1, unchanged since).
#pragma once
#include "onnxmicro/kernels/common/elementwise.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

/// The function of Not, on bool.
struct NotOp {
  static constexpr std::string_view kOpType = "Not";
  using Params = NoParams;
  static bool apply(bool x, const Params&) noexcept { return !x; }
};

// Opset 1+: the first version.
using Not_1 = VersionedKernel<UnaryElementwise<NotOp, TypeList<bool>>, 1>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
