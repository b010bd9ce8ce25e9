// SPDX-License-Identifier: MIT
// Unsqueeze: inserts size-1 dims at `axes`, which index the output (all at once, so their order does not
// matter). The data is unchanged: output 0 may share input 0's buffer and run() copies only when the pointers
// differ. Opsets 21, 23, 24 and 25 only widened the dtype list.
#pragma once
#include <cstdint>

#include "onnxmicro/kernels/common/shape_util.hpp"
#include "onnxmicro/kernels/kernel_api.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

/// Shared implementation of every Unsqueeze version; they differ in where the axes come from.
struct UnsqueezeBase : KernelDefaults {
  static constexpr std::string_view kDomain = "";
  static constexpr std::string_view kOpType = "Unsqueeze";
  static constexpr int kInPlaceInput = 0;
  static constexpr int kData = 0;
  static constexpr int kAxes = 1;
  static constexpr int kOutput = 0;

  /// Sets the output for inserting 1s at `axes` (`count` values, as read from the model).
  static Status prepare_with_axes(PrepareContext& ctx, const std::int64_t* axes, std::size_t count,
                                  bool allow_negative) noexcept {
    std::size_t bits = 0;
    ONNXMICRO_RETURN_IF_ERROR(shape_util::input_element_bits(ctx, kData, bits));
    const Shape& in = ctx.input(kData).shape;
    const std::int64_t out_rank = in.rank() + static_cast<std::int64_t>(count);
    ONNXMICRO_RETURN_IF_ERROR(shape_util::check_output_rank(out_rank));
    bool inserted[kMaxRank] = {};
    for (std::size_t k = 0; k < count; ++k) {
      Status what(StatusCode::ok);
      what << "axes[" << k << "] (an axis of the output)";
      int axis = 0;
      ONNXMICRO_RETURN_IF_ERROR(
          shape_util::normalize_axis(axes[k], static_cast<int>(out_rank), what.message_view(), allow_negative, axis));
      if (inserted[axis]) {
        Status status(StatusCode::invalid_model);
        status << "axes ";
        shape_util::append_int_list(status, axes, count);
        return status << " names output axis " << axis << " more than once";
      }
      inserted[axis] = true;
    }
    Shape out;
    out.resize(static_cast<int>(out_rank));
    int next = 0;
    for (int d = 0; d < out_rank; ++d) out[d] = inserted[d] ? 1 : in[next++];
    ctx.set_output(kOutput, ctx.input(kData).dtype, out);
    return {};
  }

  static Status run(RunContext& ctx) noexcept {
    const ConstTensorView& in = ctx.input(kData);
    shape_util::copy_unless_aliased(ctx.output(kOutput).data, in.data, in.byte_size());
    return {};
  }

 protected:
  static Status prepare_from_attribute(PrepareContext& ctx, bool allow_negative) noexcept {
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kData));
    std::int64_t axes[kMaxRank];
    std::size_t count = 0;
    ONNXMICRO_RETURN_IF_ERROR(ctx.required_attribute_ints("axes", axes, kMaxRank, count));
    return prepare_with_axes(ctx, axes, count, allow_negative);
  }
};

/// Unsqueeze's version rules (VersionedKernel): prepare reads what version `since` accepts; UnsqueezeBase holds the
/// rest.
struct UnsqueezeImpl : UnsqueezeBase {
  static Status prepare(PrepareContext& ctx, int since) noexcept {
    if (since >= 13) return prepare_v13(ctx);
    if (since >= 11) return prepare_from_attribute(ctx, true);
    return prepare_from_attribute(ctx, false);
  }

 private:
  static Status prepare_v13(PrepareContext& ctx) noexcept {
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kData));
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kAxes));
    std::int64_t axes[kMaxRank];
    std::size_t count = 0;
    ONNXMICRO_RETURN_IF_ERROR(shape_util::read_constant_ints(ctx, kAxes, "axes", axes, kMaxRank, count));
    return prepare_with_axes(ctx, axes, count, true);
  }
};

// Opset 1: 'axes' attribute, non-negative.
using Unsqueeze_1 = VersionedKernel<UnsqueezeImpl, 1, 11>;
// Opset 11: negative axes count from the back of the output.
using Unsqueeze_11 = VersionedKernel<UnsqueezeImpl, 11, 13>;
// Opset 13: 'axes' moves to a second input (int64), constant at prepare time for now.
using Unsqueeze_13 = VersionedKernel<UnsqueezeImpl, 13>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
