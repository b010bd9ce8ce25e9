// SPDX-License-Identifier: MIT
// Reshape: same elements, new shape. The target shape (attribute in opset 1, constant input from opset 5) may
// hold one -1 (inferred from the element count) and 0s (copy the input's dim, or a real 0 with allowzero=1 from
// opset 14). Opsets 13, 19, 21, 23, 24 and 25 only widened the dtype list; any fixed-size dtype is moved as
// bytes. Output 0 may share input 0's buffer, so run() copies only when the pointers differ.
#pragma once
#include <cstdint>

#include "onnxmicro/kernels/common/shape_util.hpp"
#include "onnxmicro/kernels/kernel_api.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

/// Shared implementation of every Reshape version.
struct ReshapeBase : KernelDefaults {
  static constexpr std::string_view kDomain = "";
  static constexpr std::string_view kOpType = "Reshape";
  static constexpr int kInPlaceInput = 0;
  static constexpr int kData = 0;
  static constexpr int kShape = 1;
  static constexpr int kOutput = 0;

  /// Computes the output shape of reshaping `input` to `requested` (`count` values, count <= kMaxRank).
  /// `allow_zero`: a 0 is a real zero-sized dim instead of "copy the input's dim".
  static Status infer_output_shape(const Shape& input, const std::int64_t* requested, std::size_t count,
                                   bool allow_zero, Shape& out) noexcept {
    ONNXMICRO_RETURN_IF_ERROR(shape_util::check_output_rank(static_cast<std::int64_t>(count)));
    std::int64_t input_count = input.element_count();
    out.resize(static_cast<int>(count));
    int inferred = -1;
    bool has_zero = false;
    bool overflow = false;
    std::int64_t known = 1;  // product of every dim but the inferred one
    for (std::size_t k = 0; k < count; ++k) {
      int i = static_cast<int>(k);
      std::int64_t v = requested[k];
      if (v == -1) {
        if (inferred >= 0) {
          Status status = bad_shape(input, requested, count);
          return status << ": more than one -1 (at " << inferred << " and " << i << ")";
        }
        inferred = i;
        continue;
      }
      if (v < -1) {
        Status status = bad_shape(input, requested, count);
        return status << ": shape[" << i << "] is " << v << "; only -1 (infer) and values >= 0 are allowed";
      }
      if (v == 0 && !allow_zero) {
        if (i >= input.rank()) {
          Status status = bad_shape(input, requested, count);
          return status << ": shape[" << i << "] is 0, which copies input dim " << i << ", but the input has rank "
                        << input.rank();
        }
        v = input[i];
      }
      if (v == 0) has_zero = true;
      out[i] = v;
      if (v != 0 && known > static_cast<std::int64_t>(ONNXMICRO_MAX_TENSOR_BYTES) / v) overflow = true;
      if (!overflow) known *= v;
    }
    if (has_zero) {
      known = 0;
      overflow = false;
    }
    if (inferred >= 0) {
      if (allow_zero && has_zero) {
        // allowzero: added in opset 14; the spec makes 0 together with -1 invalid when it is set.
        Status status = bad_shape(input, requested, count);
        return status << ": with allowzero=1 the shape may not contain both 0 and -1";
      }
      if (overflow || known == 0 || input_count % known != 0) {
        Status status = bad_shape(input, requested, count);
        status << ": " << input_count << " elements cannot be split into dims whose known part multiplies to ";
        if (overflow) return status << "more than ONNXMICRO_MAX_TENSOR_BYTES";
        return status << known;
      }
      out[inferred] = input_count / known;
      return {};
    }
    if (overflow || known != input_count) {
      Status status = bad_shape(input, requested, count);
      status << " (" << out << ", ";
      if (overflow) return status << "too many elements)";
      return status << known << " elements): element counts differ";
    }
    return {};
  }

  /// Validates the data input and sets the output for the requested shape.
  static Status prepare_with_shape(PrepareContext& ctx, const std::int64_t* requested, std::size_t count,
                                   bool allow_zero) noexcept {
    std::size_t bits = 0;
    ONNXMICRO_RETURN_IF_ERROR(shape_util::input_element_bits(ctx, kData, bits));
    Shape out;
    ONNXMICRO_RETURN_IF_ERROR(infer_output_shape(ctx.input(kData).shape, requested, count, allow_zero, out));
    ctx.set_output(kOutput, ctx.input(kData).dtype, out);
    return {};
  }

  /// Reads the constant shape input (opset 5+) and prepares.
  static Status prepare_from_shape_input(PrepareContext& ctx, bool allow_zero) noexcept {
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kData));
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kShape));
    std::int64_t requested[kMaxRank];
    std::size_t count = 0;
    ONNXMICRO_RETURN_IF_ERROR(shape_util::read_constant_ints(ctx, kShape, "target shape", requested, kMaxRank, count));
    return prepare_with_shape(ctx, requested, count, allow_zero);
  }

  static Status run(RunContext& ctx) noexcept {
    const ConstTensorView& in = ctx.input(kData);
    shape_util::copy_unless_aliased(ctx.output(kOutput).data, in.data, in.byte_size());
    return {};
  }

 private:
  static Status bad_shape(const Shape& input, const std::int64_t* requested, std::size_t count) noexcept {
    Status status(StatusCode::invalid_model);
    status << "cannot reshape input 0 of shape " << input << " (" << input.element_count() << " elements) to ";
    shape_util::append_int_list(status, requested, count);
    return status;
  }
};

/// Reshape's version rules (VersionedKernel): prepare reads what version `since` accepts; ReshapeBase holds the
/// rest.
struct ReshapeImpl : ReshapeBase {
  static Status prepare(PrepareContext& ctx, int since) noexcept {
    if (since >= 14) return prepare_v14(ctx);
    if (since >= 5) return prepare_from_shape_input(ctx, false);
    return prepare_v1(ctx);
  }

 private:
  static Status prepare_v1(PrepareContext& ctx) noexcept {
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kData));
    std::int64_t requested[kMaxRank];
    std::size_t count = 0;
    bool present = false;
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute_ints("shape", requested, kMaxRank, count, present));
    if (!present) return Status(StatusCode::invalid_model) << "attribute 'shape' (INTS) is missing";
    return prepare_with_shape(ctx, requested, count, false);
  }
  static Status prepare_v14(PrepareContext& ctx) noexcept {
    std::int64_t allow_zero = 0;
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("allowzero", allow_zero, 0));
    if (allow_zero != 0 && allow_zero != 1) {
      return Status(StatusCode::invalid_model) << "attribute 'allowzero' is " << allow_zero << ", expected 0 or 1";
    }
    return prepare_from_shape_input(ctx, allow_zero == 1);
  }
};

// Opset 1: the target shape is the 'shape' attribute (and the legacy 'consumed_inputs' is ignored).
using Reshape_1 = VersionedKernel<ReshapeImpl, 1, 5>;
// Opset 5: the target shape moves to a second input (int64), constant at prepare time for now.
using Reshape_5 = VersionedKernel<ReshapeImpl, 5, 14>;
// Opset 14: adds 'allowzero' (1: a 0 in the shape is a real zero-sized dim, not a copy of the input's dim).
using Reshape_14 = VersionedKernel<ReshapeImpl, 14>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
