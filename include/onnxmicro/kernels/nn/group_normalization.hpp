// SPDX-License-Identifier: MIT
// GroupNormalization: the C channels of X (N, C, D1, ..., Dn) are split into num_groups groups; each (n, group)
// block of C / num_groups * D1 * ... * Dn elements is normalised to zero mean and unit variance (with epsilon),
// then scaled and shifted. Version 18 takes scale and bias per group; 21 per channel (18 was deprecated for
// contradicting the paper) and adds stash_type. Statistics are accumulated in double and applied in float
// (double for double X), which satisfies every stash_type.
#pragma once
#include <cstdint>

#include "onnxmicro/kernels/kernel_api.hpp"
#include "onnxmicro/kernels/nn/normalization_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {
namespace group_normalization_detail {

struct GroupNormalizationImpl : kernels::KernelDefaults {
  static constexpr std::string_view kOpType = "GroupNormalization";
  static constexpr int kX = 0;
  static constexpr int kScale = 1;
  static constexpr int kBias = 2;
  static constexpr int kY = 0;

  struct State {
    normalization_util::BlockNormalizer normalizer;
  };

  /// `per_channel`: scale/bias have C values (21+) rather than num_groups (18).
  static Status prepare(kernels::PrepareContext& ctx, int since) noexcept {
    const bool per_channel = since >= 21;
    for (int i = kX; i <= kBias; ++i) ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(i));
    const kernels::TensorInfo& x = ctx.input(kX);
    if (!normalization_util::is_normalizable(x.dtype)) return ctx.unsupported_input_dtype(kX);
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_same_dtype(kX, kScale));
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_same_dtype(kX, kBias));
    if (x.shape.rank() < 2) {
      return ctx.input_error(kX, "X") << " has shape " << x.shape << ", expected rank >= 2 (N, C, D1, ..., Dn)";
    }
    std::int64_t groups = 0;
    ONNXMICRO_RETURN_IF_ERROR(ctx.required_attribute("num_groups", groups));
    const std::int64_t channels = x.shape[1];
    if (groups < 1 || channels % groups != 0) {
      return Status(StatusCode::invalid_model) << "attribute 'num_groups' is " << groups
                                               << ", expected >= 1 and dividing the " << channels << " channels of X";
    }
    if (per_channel) {
      std::int64_t stash_type = 1;
      ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("stash_type", stash_type, 1));
      if (!normalization_util::is_normalizable(static_cast<DataType>(stash_type)) || stash_type < 0 ||
          stash_type > 16) {
        return Status(StatusCode::invalid_model)
               << "attribute 'stash_type' is " << stash_type
               << ", expected a float dtype number (1 float, 10 float16, 11 double, 16 bfloat16)";
      }
    }
    const std::int64_t params = per_channel ? channels : groups;
    for (int i = kScale; i <= kBias; ++i) {
      const Shape& p = ctx.input(i).shape;
      if (p.rank() != 1 || p[0] != params) {
        return ctx.input_error(i) << " has shape " << p << ", expected [" << params << "] (one value per "
                                  << (per_channel ? "channel" : "group") << ")";
      }
    }
    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
    normalization_util::BlockNormalizer& n = state->normalizer;
    ONNXMICRO_RETURN_IF_ERROR(normalization_util::read_epsilon(ctx, 1e-5f, n.epsilon));
    std::int64_t spatial = 1;
    for (int i = 2; i < x.shape.rank(); ++i) spatial *= x.shape[i];
    const std::int64_t batch = x.shape[0];
    // Parameter view: [N, C, spatial] with [C, 1] parameters, or [N, G, C/G * spatial] with [G, 1].
    const Shape view =
        per_channel ? Shape{batch, channels, spatial} : Shape{batch, groups, channels / groups * spatial};
    const Shape param{params, 1};
    scratch::ScratchLayout layout;
    ONNXMICRO_RETURN_IF_ERROR(normalization_util::plan_blocks(x.dtype, batch * groups, channels / groups * spatial,
                                                              view, &param, &param, x.dtype, layout, n));
    ctx.request_scratch(layout.bytes());
    ctx.set_output(kY, x.dtype, x.shape);
    return {};
  }

  static Status run(kernels::RunContext& ctx) noexcept {
    const State& state = ctx.state<State>();
    normalization_util::run_blocks(state.normalizer, ctx.input(kX).data, ctx.input(kScale).data, ctx.input(kBias).data,
                                   ctx.output(kY).data, ctx.scratch());
    return {};
  }
};

}  // namespace group_normalization_detail

// GroupNormalization-18: scale and bias have one value per group.
using GroupNormalization_18 = VersionedKernel<group_normalization_detail::GroupNormalizationImpl, 18, 21>;
// GroupNormalization-21: scale and bias have one value per channel; adds stash_type.
using GroupNormalization_21 = VersionedKernel<group_normalization_detail::GroupNormalizationImpl, 21>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
