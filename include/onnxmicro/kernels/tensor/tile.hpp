// SPDX-License-Identifier: MIT
// Tile: repeats the input along each axis (output dim = dim x repeats; output index i reads i mod dim). The repeat
// counts decide the output shape, so they must be known at prepare time. Elements move as raw bits through the
// per-axis remap of kernels/common/remap.hpp.
#pragma once
#include <cstdint>

#include "onnxmicro/kernels/common/remap.hpp"
#include "onnxmicro/kernels/common/shape_util.hpp"
#include "onnxmicro/kernels/kernel_api.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

/// Shared implementation of both Tile versions; they differ in how the repeat counts are given.
struct TileBase : KernelDefaults {
  static constexpr std::string_view kDomain = "";
  static constexpr std::string_view kOpType = "Tile";
  static constexpr int kInput = 0;

  static Status run(RunContext& ctx) noexcept { return remap::run_state(ctx); }

 protected:
  /// `repeats[d]` for every axis d of input 0.
  static Status prepare_repeats(PrepareContext& ctx, const std::int64_t* repeats) noexcept {
    std::size_t bits = 0;
    ONNXMICRO_RETURN_IF_ERROR(remap::check_source(ctx, kInput, bits));
    remap::Plan plan;
    remap::start_identity(plan, ctx.input(kInput).shape);
    for (int d = 0; d < plan.rank; ++d) {
      if (repeats[d] < 0) {
        return Status(StatusCode::invalid_model)
               << "repeat count " << repeats[d] << " for axis " << d << " is negative";
      }
      plan.axes[d].kind = remap::AxisKind::modulo;
      if (__builtin_mul_overflow(plan.axes[d].source_dim, repeats[d], &plan.axes[d].output_dim)) {
        return Status(StatusCode::limit_exceeded) << "repeat count " << repeats[d] << " for axis " << d << " of size "
                                                  << plan.axes[d].source_dim << " overflows a 64-bit size";
      }
    }
    remap::finish(plan, bits);
    return remap::set_output_and_state(ctx, plan);
  }
};

/// Tile's version rules (VersionedKernel): prepare reads what version `since` accepts; TileBase holds the
/// rest.
struct TileImpl : TileBase {
  static Status prepare(PrepareContext& ctx, int since) noexcept {
    if (since >= 6) return prepare_v6(ctx);
    return prepare_v1(ctx);
  }

 private:
  static Status prepare_v1(PrepareContext& ctx) noexcept {
    std::int64_t tiles[1];
    std::int64_t axis_value[1];
    std::size_t count = 0;
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(1));
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(2));
    ONNXMICRO_RETURN_IF_ERROR(shape_util::read_constant_ints(ctx, 1, "tiles", tiles, 1, count));
    if (count != 1) return ctx.input_error(1, "tiles") << " must hold one value";
    ONNXMICRO_RETURN_IF_ERROR(shape_util::read_constant_ints(ctx, 2, "axis", axis_value, 1, count));
    if (count != 1) return ctx.input_error(2, "axis") << " must hold one value";
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kInput));
    const int rank = ctx.input(kInput).shape.rank();
    int axis = 0;
    ONNXMICRO_RETURN_IF_ERROR(shape_util::normalize_axis(axis_value[0], rank, "input 2 'axis'", false, axis));
    std::int64_t repeats[kMaxRank];
    for (int d = 0; d < rank; ++d) repeats[d] = d == axis ? tiles[0] : 1;
    return prepare_repeats(ctx, repeats);
  }
  static Status prepare_v6(PrepareContext& ctx) noexcept {
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kInput));
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(1));
    std::int64_t repeats[kMaxRank];
    std::size_t count = 0;
    ONNXMICRO_RETURN_IF_ERROR(shape_util::read_constant_ints(ctx, 1, "repeats", repeats, kMaxRank, count));
    const int rank = ctx.input(kInput).shape.rank();
    if (count != static_cast<std::size_t>(rank)) {
      return ctx.input_error(1, "repeats") << " has " << count << " values, expected one per axis of input 0 '"
                                           << ctx.input(kInput).name << "' " << ctx.input(kInput).shape;
    }
    return prepare_repeats(ctx, repeats);
  }
};

// Opset 1: scalar inputs 'tiles' (the count) and 'axis' (the one repeated axis).
using Tile_1 = VersionedKernel<TileImpl, 1, 6>;
// Opset 6: input 'repeats' gives one count per axis (opset 13 only adds bfloat16).
using Tile_6 = VersionedKernel<TileImpl, 6>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
