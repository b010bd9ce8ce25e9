// SPDX-License-Identifier: MIT
// LayerNormalization: X is split at `axis` into rows (dims before) and normalised blocks (dims from axis on);
// each block becomes (x - mean) / sqrt(var + epsilon), then Y = that * Scale + B, with Scale and B broadcast
// onto X (numpy rules). Optional outputs Mean and InvStdDev have X's leading dims and 1 for the normalised
// ones, in the dtype stash_type names (default float, as onnx's type inference). Statistics are computed in
// double and applied in float (double for double X).
#pragma once
#include <cstdint>

#include "onnxmicro/kernels/common/shape_util.hpp"
#include "onnxmicro/kernels/kernel_api.hpp"
#include "onnxmicro/kernels/nn/normalization_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

namespace layer_normalization_detail {

/// The implementation of LayerNormalization (see the file comment).
struct LayerNormalizationImpl : KernelDefaults {
  static constexpr std::string_view kOpType = "LayerNormalization";
  static constexpr int kX = 0;
  static constexpr int kScale = 1;
  static constexpr int kBias = 2;
  static constexpr int kY = 0;
  static constexpr int kMean = 1;
  static constexpr int kInvStdDev = 2;

  struct State {
    normalization_util::BlockNormalizer normalizer;
    bool write_mean, write_inv_std_dev;
  };

  static Status prepare(PrepareContext& ctx) noexcept {
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kX));
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kScale));
    const TensorInfo& x = ctx.input(kX);
    if (!normalization_util::is_normalizable(x.dtype)) return ctx.unsupported_input_dtype(kX);
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_same_dtype(kX, kScale));
    const bool has_bias = ctx.has_input(kBias);
    if (has_bias) ONNXMICRO_RETURN_IF_ERROR(ctx.require_same_dtype(kX, kBias));
    const int rank = x.shape.rank();
    if (rank < 1) {
      return ctx.input_error(kX, "X") << " is a scalar, expected rank >= 1";
    }
    std::int64_t axis_value = -1;
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("axis", axis_value, -1));
    int axis = 0;
    ONNXMICRO_RETURN_IF_ERROR(shape_util::normalize_axis(axis_value, rank, "attribute 'axis'", true, axis));
    std::int64_t stash_type = 1;
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("stash_type", stash_type, 1));
    const DataType stat_dtype = static_cast<DataType>(stash_type);
    if (!normalization_util::is_normalizable(stat_dtype) || stash_type != static_cast<std::int32_t>(stat_dtype)) {
      return Status(StatusCode::invalid_model)
             << "attribute 'stash_type' is " << stash_type
             << ", expected a float dtype number (1 float, 10 float16, 11 double, 16 bfloat16)";
    }

    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
    normalization_util::BlockNormalizer& n = state->normalizer;
    ONNXMICRO_RETURN_IF_ERROR(normalization_util::read_epsilon(ctx, 1e-5f, n.epsilon));
    const char* expectation = "a shape that broadcasts onto X's normalised dims (numpy rules)";
    ONNXMICRO_RETURN_IF_ERROR(
        normalization_util::check_param_shape(ctx, kScale, ctx.input(kScale).shape, x.shape, expectation));
    if (has_bias) {
      ONNXMICRO_RETURN_IF_ERROR(
          normalization_util::check_param_shape(ctx, kBias, ctx.input(kBias).shape, x.shape, expectation));
    }
    const std::int64_t rows = shape_util::dims_product(x.shape, 0, axis);
    const std::int64_t block = shape_util::dims_product(x.shape, axis, rank);
    scratch::ScratchLayout layout;
    ONNXMICRO_RETURN_IF_ERROR(normalization_util::plan_blocks(x.dtype, rows, block, x.shape, &ctx.input(kScale).shape,
                                                              has_bias ? &ctx.input(kBias).shape : nullptr, x.dtype,
                                                              layout, n));
    n.stat_dtype = stat_dtype;
    ctx.request_scratch(layout.bytes());

    ctx.set_output(kY, x.dtype, x.shape);
    Shape stats = x.shape;
    for (int i = axis; i < rank; ++i) stats[i] = 1;
    state->write_mean = ctx.has_output(kMean);
    state->write_inv_std_dev = ctx.has_output(kInvStdDev);
    if (state->write_mean) ctx.set_output(kMean, stat_dtype, stats);
    if (state->write_inv_std_dev) ctx.set_output(kInvStdDev, stat_dtype, stats);
    return {};
  }

  static Status run(RunContext& ctx) noexcept {
    const State& state = ctx.state<State>();
    const void* bias = ctx.has_input(kBias) ? ctx.input(kBias).data : nullptr;
    normalization_util::run_blocks(state.normalizer, ctx.input(kX).data, ctx.input(kScale).data, bias,
                                   ctx.output(kY).data, ctx.scratch());
    normalization_util::store_statistics(state.normalizer, ctx.scratch(),
                                         state.write_mean ? ctx.output(kMean).data : nullptr,
                                         state.write_inv_std_dev ? ctx.output(kInvStdDev).data : nullptr);
    return {};
  }
};

}  // namespace layer_normalization_detail

// LayerNormalization-17: the first version (before 17 it was a function of other ops).
using LayerNormalization_17 = VersionedKernel<layer_normalization_detail::LayerNormalizationImpl, 17>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
