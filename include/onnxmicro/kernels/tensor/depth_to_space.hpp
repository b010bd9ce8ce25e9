// SPDX-License-Identifier: MIT
// DepthToSpace: moves blocks of channels of an NCHW tensor into space: [N, C, H, W] -> [N, C/(b*b), H*b, W*b]
// for blocksize b. Mode DCR (default) takes the block offset from the high channel bits (depth-column-row), CRD
// from the low ones. Implemented, as the spec defines it, as a reshape to 6 dims, a transpose and a reshape.
// Elements move as raw bytes (any fixed-size dtype; strings as views).
#pragma once
#include <cstdint>

#include "onnxmicro/kernels/tensor/index_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {
namespace depth_to_space_detail {

/// State shared by DepthToSpace and SpaceToDepth: the 6-D view of the input and the transpose.
struct PermuteState {
  std::int64_t dims[6];
  int perm[6];
  std::size_t element_bytes;
};

/// Reads `blocksize` (required, >= 1) and, when `has_mode`, `mode` (DCR/CRD, default DCR); checks for a 4-D
/// input of a fixed-size dtype.
inline Status read_common(PrepareContext& ctx, bool has_mode, std::int64_t& blocksize, bool& crd,
                          std::size_t& element_bytes) noexcept {
  ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(0));
  ONNXMICRO_RETURN_IF_ERROR(index_util::input_element_bytes(ctx, 0, element_bytes));
  const TensorInfo& input = ctx.input(0);
  if (input.shape.rank() != 4) {
    return ctx.input_error(0) << " has shape " << input.shape << ", expected rank 4 (N, C, H, W)";
  }
  ONNXMICRO_RETURN_IF_ERROR(ctx.required_attribute("blocksize", blocksize));
  if (blocksize < 1) {
    return Status(StatusCode::invalid_model) << "attribute 'blocksize' is " << blocksize << ", expected >= 1";
  }
  crd = false;
  if (has_mode) {
    std::string_view mode;
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("mode", mode, "DCR"));
    if (mode != "DCR" && mode != "CRD") {
      return Status(StatusCode::invalid_model) << "attribute 'mode' is '" << mode << "', expected DCR or CRD";
    }
    crd = mode == "CRD";
  }
  return {};
}

/// Declares output 0 of shape `out` and stores the 6-D view `dims` of the input and its transpose `perm`.
inline Status prepare_permute(PrepareContext& ctx, const Shape& out, const std::int64_t* dims, const int* perm,
                              std::size_t element_bytes) noexcept {
  std::size_t bytes = 0;
  ONNXMICRO_RETURN_IF_ERROR(checked_byte_size(ctx.input(0).dtype, out, bytes));
  PermuteState* state = nullptr;
  ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
  state->element_bytes = element_bytes;
  for (int i = 0; i < 6; ++i) {
    state->dims[i] = dims[i];
    state->perm[i] = perm[i];
  }
  ctx.set_output(0, ctx.input(0).dtype, out);
  return {};
}

inline Status run_permute(RunContext& ctx) noexcept {
  const PermuteState& s = ctx.state<PermuteState>();
  index_util::permute6(ctx.input(0).data, ctx.output(0).data, s.dims, s.perm, s.element_bytes);
  return {};
}

/// Implementation shared by the DepthToSpace versions.
struct DepthToSpaceImpl : KernelDefaults {
  static constexpr std::string_view kOpType = "DepthToSpace";

  /// The `mode` attribute exists from opset 11.
  static Status prepare(PrepareContext& ctx, int since) noexcept {
    std::int64_t b = 0;
    bool crd = false;
    std::size_t element_bytes = 0;
    ONNXMICRO_RETURN_IF_ERROR(read_common(ctx, since >= 11, b, crd, element_bytes));
    const TensorInfo& input = ctx.input(0);
    const std::int64_t n = input.shape[0], c = input.shape[1], h = input.shape[2], w = input.shape[3];
    if (c % b != 0 || (c / b) % b != 0) {  // c % (b*b), without overflowing b*b
      return ctx.input_error(0) << " has " << c << " channels, not a multiple of blocksize^2 = " << (b * b);
    }
    const std::int64_t dcr_dims[6] = {n, b, b, c / (b * b), h, w};
    const std::int64_t crd_dims[6] = {n, c / (b * b), b, b, h, w};
    const int dcr_perm[6] = {0, 3, 4, 1, 5, 2};
    const int crd_perm[6] = {0, 1, 4, 2, 5, 3};
    return prepare_permute(ctx, Shape{n, c / (b * b), h * b, w * b}, crd ? crd_dims : dcr_dims,
                           crd ? crd_perm : dcr_perm, element_bytes);
  }

  static Status run(RunContext& ctx) noexcept { return run_permute(ctx); }
};

}  // namespace depth_to_space_detail

// Opset 1: DCR order only.
using DepthToSpace_1 = VersionedKernel<depth_to_space_detail::DepthToSpaceImpl, 1, 11>;
// Opset 11: adds `mode` (DCR or CRD); 13 only added bfloat16 and 28 changed nothing computed.
using DepthToSpace_11 = VersionedKernel<depth_to_space_detail::DepthToSpaceImpl, 11>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
