// SPDX-License-Identifier: MIT
// Squeeze: removes the size-1 dims at `axes` (each must be 1), or every size-1 dim when no axes are given. The
// data is unchanged: output 0 may share input 0's buffer and run() copies only when the pointers differ.
// Opsets 21, 23, 24 and 25 only widened the dtype list.
#pragma once
#include <cstdint>

#include "onnxmicro/kernels/common/shape_util.hpp"
#include "onnxmicro/kernels/kernel_api.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

/// Shared implementation of every Squeeze version; they differ in where the axes come from.
struct SqueezeBase : KernelDefaults {
  static constexpr std::string_view kDomain = "";
  static constexpr std::string_view kOpType = "Squeeze";
  static constexpr int kInPlaceInput = 0;
  static constexpr int kData = 0;
  static constexpr int kAxes = 1;
  static constexpr int kOutput = 0;

  /// Sets the output for removing `axes` (`count` values); count == 0 removes every size-1 dim.
  static Status prepare_with_axes(PrepareContext& ctx, const std::int64_t* axes, std::size_t count,
                                  bool allow_negative) noexcept {
    std::size_t bits = 0;
    ONNXMICRO_RETURN_IF_ERROR(shape_util::input_element_bits(ctx, kData, bits));
    const TensorInfo& data = ctx.input(kData);
    const Shape& in = data.shape;
    bool removed[kMaxRank] = {};
    if (count == 0) {
      for (int d = 0; d < in.rank(); ++d) removed[d] = in[d] == 1;
    }
    for (std::size_t k = 0; k < count; ++k) {
      Status what(StatusCode::ok);
      what << "axes[" << k << "]";
      int axis = 0;
      ONNXMICRO_RETURN_IF_ERROR(
          shape_util::normalize_axis(axes[k], in.rank(), what.message_view(), allow_negative, axis));
      if (removed[axis]) {
        Status status(StatusCode::invalid_model);
        status << "axes ";
        shape_util::append_int_list(status, axes, count);
        return status << " names axis " << axis << " more than once";
      }
      if (in[axis] != 1) {
        Status status(StatusCode::invalid_model);
        status << "cannot squeeze axis " << axis << " of input 0 '" << data.name << "' (shape " << in
               << "): its size is " << in[axis] << ", expected 1";
        return status;
      }
      removed[axis] = true;
    }
    Shape out;
    int rank = 0;
    for (int d = 0; d < in.rank(); ++d)
      if (!removed[d]) ++rank;
    out.resize(rank);
    int next = 0;
    for (int d = 0; d < in.rank(); ++d)
      if (!removed[d]) out[next++] = in[d];
    ctx.set_output(kOutput, data.dtype, out);
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
    bool present = false;
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute_ints("axes", axes, kMaxRank, count, present));
    return prepare_with_axes(ctx, axes, count, allow_negative);
  }
};

/// Squeeze's version rules (VersionedKernel): prepare reads what version `since` accepts; SqueezeBase holds the
/// rest.
struct SqueezeImpl : SqueezeBase {
  static Status prepare(PrepareContext& ctx, int since) noexcept {
    if (since >= 13) return prepare_v13(ctx);
    if (since >= 11) return prepare_from_attribute(ctx, true);
    return prepare_from_attribute(ctx, false);
  }

 private:
  static Status prepare_v13(PrepareContext& ctx) noexcept {
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kData));
    std::int64_t axes[kMaxRank];
    std::size_t count = 0;
    if (ctx.has_input(kAxes)) {
      ONNXMICRO_RETURN_IF_ERROR(shape_util::read_constant_ints(ctx, kAxes, "axes", axes, kMaxRank, count));
    }
    return prepare_with_axes(ctx, axes, count, true);
  }
};

// Opset 1: optional 'axes' attribute, non-negative.
using Squeeze_1 = VersionedKernel<SqueezeImpl, 1, 11>;
// Opset 11: negative axes count from the back.
using Squeeze_11 = VersionedKernel<SqueezeImpl, 11, 13>;
// Opset 13: 'axes' moves to an optional second input (int64), constant at prepare time for now. Like
// onnxruntime, an empty axes tensor is treated as absent (every size-1 dim is removed).
using Squeeze_13 = VersionedKernel<SqueezeImpl, 13>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
