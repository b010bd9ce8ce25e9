// SPDX-License-Identifier: MIT
// Helpers shared by the image-sampling kernels (Resize, GridSample, RoiAlign): a kernel type for an opset range
// of an op whose versions share one implementation that branches on the version.
#pragma once
#include <string_view>

#include "onnxmicro/kernels/kernel_api.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {
namespace sampling_util {

/// The kernel for versions [kSince, kUntil) of Impl::kOpType (ai.onnx): prepare() calls
/// Impl::prepare(ctx, kSince), so the shared implementation branches on the version where semantics changed.
template <typename Impl, int kSince, int kUntil = kOpenEnded>
struct VersionedKernel : KernelDefaults {
  static constexpr std::string_view kDomain = "";
  static constexpr std::string_view kOpType = Impl::kOpType;
  static constexpr int kSinceVersion = kSince;
  static constexpr int kUntilVersion = kUntil;
  static Status prepare(PrepareContext& ctx) noexcept { return Impl::prepare(ctx, kSince); }
  static Status run(RunContext& ctx) noexcept { return Impl::run(ctx); }
};

}  // namespace sampling_util
}  // namespace kernels
ONNXMICRO_NAMESPACE_END
