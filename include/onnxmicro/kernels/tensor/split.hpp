// SPDX-License-Identifier: MIT
// Split: cuts the input along 'axis' into one piece per output, of the sizes in 'split' (an attribute before
// opset 13, a constant input from 13 on, either in opset 1), or else into equal pieces: as the ONNX reference
// does, ceil(dim / n) each with a smaller last piece when n does not divide the dim (opset 18 documents that;
// earlier versions leave it open). Opset 18 adds 'num_outputs' for the equal split. Elements move as raw bits.
#pragma once
#include <cstdint>

#include "onnxmicro/kernels/common/remap.hpp"
#include "onnxmicro/kernels/common/shape_util.hpp"
#include "onnxmicro/kernels/kernel_api.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

/// Shared implementation of every Split version; they differ in where the sizes come from.
struct SplitBase : KernelDefaults {
  static constexpr std::string_view kDomain = "";
  static constexpr std::string_view kOpType = "Split";
  static constexpr int kInput = 0;
  static constexpr int kSplitInput = 1;

  struct State {
    std::int64_t outer;         ///< product of the dims before the axis
    std::int64_t row;           ///< input elements per outer index (axis dim x inner)
    std::int64_t inner;         ///< product of the dims after the axis
    const std::int64_t* sizes;  ///< per output, its size along the axis (persistent memory)
    std::size_t element_bits;
  };

  static Status run(RunContext& ctx) noexcept {
    const State& state = ctx.state<State>();
    const ConstTensorView& in = ctx.input(kInput);
    std::int64_t offset = 0;  // start of output i's piece within an input row
    for (int i = 0; i < ctx.output_count(); ++i) {
      const std::int64_t chunk = state.sizes[i] * state.inner;
      if (ctx.has_output(i)) {
        void* dst = ctx.output(i).data;
        for (std::int64_t o = 0; o < state.outer; ++o) {
          shape_util::copy_elements(dst, o * chunk, in.data, o * state.row + offset, chunk, state.element_bits);
        }
        if (state.element_bits < 8) shape_util::clear_padding_bits(dst, state.outer * chunk, state.element_bits);
      }
      offset += chunk;
    }
    return {};
  }

 protected:
  /// Where the sizes come from.
  enum class Sizes : std::uint8_t { equal, attribute, input };

  /// `equal_parts`: the number of pieces for an equal split (the output count, or 'num_outputs').
  static Status prepare_with(PrepareContext& ctx, std::int64_t axis_value, bool allow_negative, Sizes source,
                             std::int64_t equal_parts) noexcept {
    std::size_t bits = 0;
    ONNXMICRO_RETURN_IF_ERROR(remap::check_source(ctx, kInput, bits));
    const TensorInfo& in = ctx.input(kInput);
    const int rank = in.shape.rank();
    if (rank == 0) return ctx.input_error(kInput) << " is a scalar";
    int axis = 0;
    ONNXMICRO_RETURN_IF_ERROR(shape_util::normalize_axis(axis_value, rank, "attribute 'axis'", allow_negative, axis));
    const int outputs = ctx.output_count();
    if (outputs < 1) return Status(StatusCode::invalid_model) << "Split needs at least one output";
    Span<std::int64_t> sizes;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_persistent(static_cast<std::size_t>(outputs), sizes));
    const std::int64_t dim = in.shape[axis];
    std::int64_t total = 0;
    bool sum_overflowed = false;  // sizes whose sum overflows int64 cannot add up to the dim
    std::int64_t given = 0;
    if (source == Sizes::attribute) {
      proto::Attribute attribute;
      ctx.find_attribute("split", attribute);
      ONNXMICRO_RETURN_IF_ERROR(PrepareContext::expect_type(attribute, proto::AttributeType::ints));
      for (std::int64_t v : attribute.ints()) {
        if (given < outputs) sizes[static_cast<std::size_t>(given)] = v;
        sum_overflowed = __builtin_add_overflow(total, v, &total) || sum_overflowed;
        ++given;
      }
    } else if (source == Sizes::input) {
      ONNXMICRO_RETURN_IF_ERROR(ctx.require_constant_input(kSplitInput));
      const TensorInfo& split = ctx.input(kSplitInput);
      if ((split.dtype != DataType::int64 && split.dtype != DataType::int32) || split.shape.rank() > 1) {
        return ctx.input_error(kSplitInput, "split") << " has dtype " << dtype_name(split.dtype) << " and shape "
                                                     << split.shape << ", expected a 1-D int64 tensor";
      }
      given = split.shape.element_count();
      for (std::int64_t i = 0; i < given; ++i) {
        const std::int64_t v = remap::constant_int(split, i);
        if (i < outputs) sizes[static_cast<std::size_t>(i)] = v;
        sum_overflowed = __builtin_add_overflow(total, v, &total) || sum_overflowed;
      }
    } else {
      if (equal_parts != outputs) {
        return Status(StatusCode::invalid_model)
               << "attribute 'num_outputs' is " << equal_parts << ", but the node has " << outputs << " outputs";
      }
      // The reference's rule: ceil(dim / n) per piece; the last one takes what is left.
      const std::int64_t piece = dim / outputs + (dim % outputs != 0 ? 1 : 0);
      for (int i = 0; i < outputs; ++i) sizes[static_cast<std::size_t>(i)] = piece;
      sizes[static_cast<std::size_t>(outputs - 1)] = dim - piece * (outputs - 1);
      given = outputs;
      total = dim;
    }
    if (given != outputs) {
      return Status(StatusCode::invalid_model)
             << "'split' has " << given << " values, but the node has " << outputs << " outputs";
    }
    bool negative = false;
    for (int i = 0; i < outputs; ++i) negative = negative || sizes[static_cast<std::size_t>(i)] < 0;
    if (negative || sum_overflowed || total != dim) {
      Status status(StatusCode::invalid_model);
      status << "split sizes ";
      shape_util::append_int_list(status, sizes.data(), static_cast<std::size_t>(outputs));
      return status << " must be >= 0 and add up to dim " << axis << " of input 0 '" << in.name << "' " << in.shape;
    }
    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
    state->outer = shape_util::dims_product(in.shape, 0, axis);
    state->inner = shape_util::dims_product(in.shape, axis + 1, rank);
    state->row = dim * state->inner;
    state->sizes = sizes.data();
    state->element_bits = bits;
    for (int i = 0; i < outputs; ++i) {
      Shape out = in.shape;
      out[axis] = sizes[static_cast<std::size_t>(i)];
      ctx.set_output(i, in.dtype, out);
    }
    return {};
  }

  /// Reads 'axis' (default 0) and takes the sizes from input 1 or attribute 'split' where the version has them
  /// and the node gives them, else splits equally into `equal_parts` (default: the output count).
  static Status prepare_version(PrepareContext& ctx, bool allow_negative, bool sizes_attribute, bool sizes_input,
                                std::int64_t equal_parts = -1) noexcept {
    std::int64_t axis = 0;
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("axis", axis, 0));
    Sizes source = Sizes::equal;
    if (sizes_input && ctx.has_input(kSplitInput)) {
      source = Sizes::input;
    } else if (sizes_attribute && ctx.has_attribute("split")) {
      source = Sizes::attribute;
    }
    return prepare_with(ctx, axis, allow_negative, source, equal_parts < 0 ? ctx.output_count() : equal_parts);
  }
};

/// Split's version rules (VersionedKernel): prepare reads what version `since` accepts; SplitBase holds the
/// rest.
struct SplitImpl : SplitBase {
  static Status prepare(PrepareContext& ctx, int since) noexcept {
    if (since >= 18) return prepare_v18(ctx);
    if (since >= 13) return prepare_version(ctx, true, false, true);
    if (since >= 2) return prepare_version(ctx, true, true, false);
    return prepare_version(ctx, false, true, true);
  }

 private:
  static Status prepare_v18(PrepareContext& ctx) noexcept {
    std::int64_t num_outputs = 0;
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("num_outputs", num_outputs, ctx.output_count()));
    if (ctx.has_attribute("num_outputs") && ctx.has_input(kSplitInput)) {
      return ctx.input_error(kSplitInput, "split") << " and attribute 'num_outputs' are mutually exclusive";
    }
    if (num_outputs < 1) {
      return Status(StatusCode::invalid_model) << "attribute 'num_outputs' is " << num_outputs << ", expected >= 1";
    }
    return prepare_version(ctx, true, false, true, num_outputs);
  }
};

// Opset 1: sizes from input 1 or the 'split' attribute; 'axis' has no default in the schema (0 here).
using Split_1 = VersionedKernel<SplitImpl, 1, 2>;
// Opset 2: sizes only from the 'split' attribute; 'axis' defaults to 0. The schema says nothing of negative
// axes before opset 11, but PyTorch exports axis=-1 at opset 6-10 (GLU, chunk) and onnxruntime counts it from the
// back, so this does too.
using Split_2 = VersionedKernel<SplitImpl, 2, 11>;
// Opset 11: negative 'axis' counts from the back.
using Split_11 = VersionedKernel<SplitImpl, 11, 13>;
// Opset 13: 'split' becomes optional input 1 (which decides the output shapes, so it must be constant).
using Split_13 = VersionedKernel<SplitImpl, 13, 18>;
// Opset 18: adds 'num_outputs' for an equal split (exclusive with input 'split').
using Split_18 = VersionedKernel<SplitImpl, 18>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
