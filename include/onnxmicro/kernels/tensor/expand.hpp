// SPDX-License-Identifier: MIT
// Expand: broadcasts the input to the numpy broadcast of its shape and input 1 ('shape'), so a 1 in 'shape'
// keeps the input's dim and 'shape' may have fewer dims than the input. 'shape' decides the output shape, so it
// must be known at prepare time. Elements move as raw bits (any dtype; string elements are views, copied as such).
#pragma once
#include <cstdint>

#include "onnxmicro/kernels/common/broadcast.hpp"
#include "onnxmicro/kernels/common/remap.hpp"
#include "onnxmicro/kernels/common/shape_util.hpp"
#include "onnxmicro/kernels/kernel_api.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

namespace expand_detail {

/// The implementation of Expand (see the file comment).
struct ExpandImpl : KernelDefaults {
  static constexpr std::string_view kOpType = "Expand";
  static constexpr int kInput = 0;
  static constexpr int kShape = 1;

  static Status prepare(PrepareContext& ctx) noexcept {
    std::size_t bits = 0;
    ONNXMICRO_RETURN_IF_ERROR(remap::check_source(ctx, kInput, bits));
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kShape));
    std::int64_t dims[kMaxRank];
    std::size_t count = 0;
    ONNXMICRO_RETURN_IF_ERROR(shape_util::read_constant_ints(ctx, kShape, "shape", dims, kMaxRank, count));
    Shape requested;
    ONNXMICRO_RETURN_IF_ERROR(requested.assign(dims, count));
    for (int d = 0; d < requested.rank(); ++d) {
      if (requested[d] < 0) {
        return ctx.input_error(kShape, "shape") << " is " << requested << "; dims must be >= 0";
      }
    }
    const Shape& in = ctx.input(kInput).shape;
    const BroadcastOperand operands[] = {{&in, "input", kInput, ctx.input(kInput).name},
                                         {&requested, "value of input", kShape, ctx.input(kShape).name}};
    Shape out;
    ONNXMICRO_RETURN_IF_ERROR(broadcast_shapes(Span<const BroadcastOperand>(operands, 2), out));
    // Missing leading input dims are size-1 source axes; size-1 axes repeat their one element (step 0).
    remap::Plan plan;
    plan.rank = out.rank();
    const int offset = out.rank() - in.rank();
    for (int d = 0; d < plan.rank; ++d) {
      remap::Axis& axis = plan.axes[d];
      axis.source_dim = d < offset ? 1 : in[d - offset];
      axis.output_dim = out[d];
      axis.step = axis.source_dim == 1 ? 0 : 1;
    }
    remap::finish(plan, bits);
    return remap::set_output_and_state(ctx, plan);
  }

  static Status run(RunContext& ctx) noexcept { return remap::run_state(ctx); }
};

}  // namespace expand_detail

// Opset 8: the first version (opset 13 only adds bfloat16).
using Expand_8 = VersionedKernel<expand_detail::ExpandImpl, 8>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
