// SPDX-License-Identifier: MIT
// InstanceNormalization: each (n, c) plane of X (N, C, D1, ..., Dn) is normalised to zero mean and unit
// variance (with epsilon), then y = that * scale[c] + B[c]. Statistics are accumulated in double and applied
// in float (double for double X).
#pragma once
#include <cstdint>

#include "onnxmicro/kernels/kernel_api.hpp"
#include "onnxmicro/kernels/nn/normalization_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

namespace instance_normalization_detail {

/// The implementation of InstanceNormalization (see the file comment).
struct InstanceNormalizationImpl : KernelDefaults {
  static constexpr std::string_view kOpType = "InstanceNormalization";
  static constexpr int kX = 0;
  static constexpr int kScale = 1;
  static constexpr int kBias = 2;
  static constexpr int kY = 0;

  struct State {
    normalization_util::BlockNormalizer normalizer;
  };

  static Status prepare(PrepareContext& ctx) noexcept {
    for (int i = kX; i <= kBias; ++i) ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(i));
    const TensorInfo& x = ctx.input(kX);
    if (!normalization_util::is_normalizable(x.dtype)) return ctx.unsupported_input_dtype(kX);
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_same_dtype(kX, kScale));
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_same_dtype(kX, kBias));
    if (x.shape.rank() < 3) {
      return ctx.input_error(kX) << " has shape " << x.shape << ", expected rank >= 3 (N, C, D1, ..., Dn)";
    }
    const std::int64_t channels = x.shape[1];
    for (int i = kScale; i <= kBias; ++i) {
      const Shape& p = ctx.input(i).shape;
      if (p.rank() != 1 || p[0] != channels) {
        return ctx.input_error(i) << " has shape " << p << ", expected [" << channels << "] (one value per channel)";
      }
    }
    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
    normalization_util::BlockNormalizer& n = state->normalizer;
    ONNXMICRO_RETURN_IF_ERROR(normalization_util::read_epsilon(ctx, 1e-5f, n.epsilon));
    std::int64_t spatial = 1;
    for (int i = 2; i < x.shape.rank(); ++i) spatial *= x.shape[i];
    const Shape view{x.shape[0], channels, spatial};
    const Shape param{channels, 1};
    scratch::ScratchLayout layout;
    ONNXMICRO_RETURN_IF_ERROR(normalization_util::plan_blocks(x.dtype, x.shape[0] * channels, spatial, view, &param,
                                                              &param, x.dtype, layout, n));
    ctx.request_scratch(layout.bytes());
    ctx.set_output(kY, x.dtype, x.shape);
    return {};
  }

  static Status run(RunContext& ctx) noexcept {
    const State& state = ctx.state<State>();
    normalization_util::run_blocks(state.normalizer, ctx.input(kX).data, ctx.input(kScale).data, ctx.input(kBias).data,
                                   ctx.output(kY).data, ctx.scratch());
    return {};
  }
};

}  // namespace instance_normalization_detail

// InstanceNormalization-1 (also 6, which dropped the legacy consumed_inputs, and 22, which added bfloat16).
using InstanceNormalization_1 = VersionedKernel<instance_normalization_detail::InstanceNormalizationImpl, 1>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
