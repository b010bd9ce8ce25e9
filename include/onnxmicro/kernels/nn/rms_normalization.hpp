// SPDX-License-Identifier: MIT
// RMSNormalization: X is split at `axis` into rows and normalised blocks; Y = x / sqrt(mean(x^2) + epsilon)
// * scale, with scale broadcast onto X (numpy rules). scale (and Y) may have another float dtype than X (V);
// the sum of squares is accumulated in double and applied in float (double for double X).
#pragma once
#include <cstdint>

#include "onnxmicro/kernels/common/shape_util.hpp"
#include "onnxmicro/kernels/kernel_api.hpp"
#include "onnxmicro/kernels/nn/normalization_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {
namespace rms_normalization_detail {

/// Shared by every RMSNormalization version. When Y's dtype (V, scale's) differs from X's (T), Y is first
/// computed in T into scratch and then converted (so e.g. float16 X with float scale is rounded to float16 once).
struct RmsNormalizationImpl : kernels::KernelDefaults {
  static constexpr std::string_view kOpType = "RMSNormalization";
  static constexpr int kX = 0;
  static constexpr int kScale = 1;
  static constexpr int kY = 0;

  struct State {
    normalization_util::BlockNormalizer normalizer;
    bool convert;                  ///< Y's dtype (V) differs from X's (T): normalise into scratch, then convert
    std::size_t converted_offset;  ///< scratch for Y in X's dtype when `convert`
    DataType y_dtype;
  };

  static Status prepare(kernels::PrepareContext& ctx, int /*since: every version accepts the same*/) noexcept {
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kX));
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kScale));
    const kernels::TensorInfo& x = ctx.input(kX);
    const kernels::TensorInfo& scale = ctx.input(kScale);
    if (!normalization_util::is_normalizable(x.dtype)) return ctx.unsupported_input_dtype(kX);
    if (!normalization_util::is_normalizable(scale.dtype)) return ctx.unsupported_input_dtype(kScale);
    const int rank = x.shape.rank();
    if (rank < 1) {
      return ctx.input_error(kX, "X") << " is a scalar, expected rank >= 1";
    }
    std::int64_t axis_value = -1;
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("axis", axis_value, -1));
    int axis = 0;
    ONNXMICRO_RETURN_IF_ERROR(kernels::shape_util::normalize_axis(axis_value, rank, "attribute 'axis'", true, axis));
    std::int64_t stash_type = 1;
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("stash_type", stash_type, 1));
    if (!normalization_util::is_normalizable(static_cast<DataType>(stash_type)) || stash_type < 0 || stash_type > 16) {
      return Status(StatusCode::invalid_model)
             << "attribute 'stash_type' is " << stash_type
             << ", expected a float dtype number (1 float, 10 float16, 11 double, 16 bfloat16)";
    }

    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
    normalization_util::BlockNormalizer& n = state->normalizer;
    n.subtract_mean = false;
    ONNXMICRO_RETURN_IF_ERROR(normalization_util::read_epsilon(ctx, 1e-5f, n.epsilon));
    ONNXMICRO_RETURN_IF_ERROR(normalization_util::check_param_shape(
        ctx, kScale, scale.shape, x.shape, "a shape that broadcasts onto X's normalised dims (numpy rules)"));
    const std::int64_t rows = kernels::shape_util::dims_product(x.shape, 0, axis);
    const std::int64_t block = kernels::shape_util::dims_product(x.shape, axis, rank);
    scratch::ScratchLayout layout;
    ONNXMICRO_RETURN_IF_ERROR(
        normalization_util::plan_blocks(x.dtype, rows, block, x.shape, &scale.shape, nullptr, scale.dtype, layout, n));
    state->y_dtype = scale.dtype;
    state->convert = scale.dtype != x.dtype;
    if (state->convert) state->converted_offset = layout.reserve<double>(x.shape.element_count());
    ctx.request_scratch(layout.bytes());
    ctx.set_output(kY, scale.dtype, x.shape);
    return {};
  }

  static Status run(kernels::RunContext& ctx) noexcept {
    const State& state = ctx.state<State>();
    const std::int64_t count = ctx.input(kX).element_count();
    if (!state.convert) {
      normalization_util::run_blocks(state.normalizer, ctx.input(kX).data, ctx.input(kScale).data, nullptr,
                                     ctx.output(kY).data, ctx.scratch());
      return {};
    }
    // Y in X's dtype first (scratch sized for double, enough for any float dtype), then converted to V.
    void* staged = scratch::scratch_at<unsigned char>(ctx.scratch(), state.converted_offset);
    normalization_util::run_blocks(state.normalizer, ctx.input(kX).data, ctx.input(kScale).data, nullptr, staged,
                                   ctx.scratch());
    double* wide = static_cast<double*>(staged);
    // Widen in place from the back so no element is overwritten before it is read.
    const DataType t = ctx.input(kX).dtype;
    for (std::int64_t i = count - 1; i >= 0; --i) {
      double v = 0.0;
      compute_type::load_floating(
          t, static_cast<const unsigned char*>(staged) + i * static_cast<std::int64_t>(dtype_size(t)), &v, 1);
      wide[i] = v;
    }
    compute_type::store_floating(state.y_dtype, wide, ctx.output(kY).data, count);
    return {};
  }
};

}  // namespace rms_normalization_detail

// RMSNormalization-23: the first version.
using RMSNormalization_23 = VersionedKernel<rms_normalization_detail::RmsNormalizationImpl, 23>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
