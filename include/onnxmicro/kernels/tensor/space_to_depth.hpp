// SPDX-License-Identifier: MIT
// SpaceToDepth: the inverse of DepthToSpace: [N, C, H, W] -> [N, C*b*b, H/b, W/b] for blocksize b. Mode DCR
// (default; the only order before opset 28) puts the block offset in the high channel bits, CRD in the low
// ones. A reshape to 6 dims, a transpose and a reshape, as in the spec. Elements move as raw bytes.
#pragma once
#include <cstdint>

#include "onnxmicro/kernels/tensor/depth_to_space.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {
namespace space_to_depth_detail {

/// Implementation shared by the SpaceToDepth versions (with DepthToSpace's helpers).
struct SpaceToDepthImpl : KernelDefaults {
  static constexpr std::string_view kOpType = "SpaceToDepth";

  /// The `mode` attribute exists from opset 28.
  static Status prepare(PrepareContext& ctx, int since) noexcept {
    std::int64_t b = 0;
    bool crd = false;
    std::size_t element_bytes = 0;
    ONNXMICRO_RETURN_IF_ERROR(depth_to_space_detail::read_common(ctx, since >= 28, b, crd, element_bytes));
    const TensorInfo& input = ctx.input(0);
    const std::int64_t n = input.shape[0], c = input.shape[1], h = input.shape[2], w = input.shape[3];
    // The last test keeps c*b*b from overflowing when both spatial dims are 0.
    if (h % b != 0 || w % b != 0 || (b > h && b > w)) {
      return ctx.input_error(0) << " has shape " << input.shape << ": height and width must be multiples of blocksize "
                                << b;
    }
    const std::int64_t dims[6] = {n, c, h / b, b, w / b, b};
    const int dcr_perm[6] = {0, 3, 5, 1, 2, 4};
    const int crd_perm[6] = {0, 1, 3, 5, 2, 4};
    return depth_to_space_detail::prepare_permute(ctx, Shape{n, c * b * b, h / b, w / b}, dims,
                                                  crd ? crd_perm : dcr_perm, element_bytes);
  }

  static Status run(RunContext& ctx) noexcept { return depth_to_space_detail::run_permute(ctx); }
};

}  // namespace space_to_depth_detail

// Opset 1: DCR order only (13 only added bfloat16).
using SpaceToDepth_1 = VersionedKernel<space_to_depth_detail::SpaceToDepthImpl, 1, 28>;
// Opset 28: adds `mode` (DCR or CRD).
using SpaceToDepth_28 = VersionedKernel<space_to_depth_detail::SpaceToDepthImpl, 28>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
