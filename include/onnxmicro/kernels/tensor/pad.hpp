// SPDX-License-Identifier: MIT
// Pad: adds pads[i] elements before and pads[i + n] after each (listed) axis; negative pads remove elements.
// Modes: 'constant' (the fill value), 'edge' (repeat the border element), 'reflect' (mirror without repeating the
// border, bouncing again for pads longer than the axis, as numpy), and 'wrap' (opset 19: periodic). Pads are an
// attribute before opset 11 and a constant input from 11 on (they decide the output shape); the fill value is the
// FLOAT attribute 'value' before 11 and the optional input 'constant_value' (read at run time) from 11 on.
// Elements move as raw bits through the per-axis remap of kernels/common/remap.hpp.
#pragma once
#include <cstdint>
#include <string_view>

#include "onnxmicro/kernels/common/dtype_convert.hpp"
#include "onnxmicro/kernels/common/remap.hpp"
#include "onnxmicro/kernels/common/shape_util.hpp"
#include "onnxmicro/kernels/kernel_api.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

/// Shared implementation of every Pad version.
struct PadBase : KernelDefaults {
  static constexpr std::string_view kDomain = "";
  static constexpr std::string_view kOpType = "Pad";
  static constexpr int kData = 0;
  static constexpr int kPads = 1;
  static constexpr int kConstantValue = 2;
  static constexpr int kAxes = 3;
  static constexpr std::size_t kMaxFillBytes = 16;  // complex128

  struct State {
    remap::Plan plan;
    bool fill_from_input;                           ///< the fill value is input 2's first element (opset 11+)
    alignas(16) unsigned char fill[kMaxFillBytes];  ///< one element of the data dtype, stored as that type
  };

  static Status run(RunContext& ctx) noexcept {
    const State& state = ctx.state<State>();
    const void* fill = state.fill;
    if (state.fill_from_input)
      fill = ctx.input(kConstantValue).element_count() > 0 ? ctx.input(kConstantValue).data : nullptr;
    remap::copy(state.plan, ctx.input(kData).data, ctx.output(0).data, fill);
    return {};
  }

 protected:
  /// Reads 'mode' into the axis kind used for padded axes.
  static Status read_mode(PrepareContext& ctx, bool allow_wrap, remap::AxisKind& kind) noexcept {
    std::string_view mode;
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("mode", mode, "constant"));
    if (mode == "constant") {
      kind = remap::AxisKind::constant_pad;
    } else if (mode == "edge") {
      kind = remap::AxisKind::edge_pad;
    } else if (mode == "reflect") {
      kind = remap::AxisKind::reflect_pad;
    } else if (mode == "wrap" && allow_wrap) {
      kind = remap::AxisKind::wrap_pad;
    } else {
      return Status(StatusCode::invalid_model)
             << "attribute 'mode' is \"" << mode << "\", expected \"constant\", "
             << (allow_wrap ? "\"edge\", \"reflect\" or \"wrap\"" : "\"edge\" or \"reflect\"") << " at opset "
             << ctx.opset_version();
    }
    return {};
  }

  /// Builds the plan for `pads` (begin values for each of `axes`, then end values); `axes` nullptr: all axes.
  static Status prepare_pads(PrepareContext& ctx, const std::int64_t* pads, std::size_t pad_count,
                             const std::int64_t* axes, std::size_t axis_count, remap::AxisKind kind,
                             State*& state) noexcept {
    std::size_t bits = 0;
    ONNXMICRO_RETURN_IF_ERROR(remap::check_source(ctx, kData, bits));
    const TensorInfo& in = ctx.input(kData);
    const int rank = in.shape.rank();
    if (axes == nullptr) axis_count = static_cast<std::size_t>(rank);
    if (pad_count != 2 * axis_count) {
      Status status(StatusCode::invalid_model);
      status << "pads ";
      shape_util::append_int_list(status, pads, pad_count);
      return status << " has " << pad_count << " values, expected " << (2 * axis_count)
                    << " (begin and end for each of " << axis_count << " axes of input 0 '" << in.name << "' "
                    << in.shape << ")";
    }
    remap::Plan plan;
    remap::start_identity(plan, in.shape);
    for (std::size_t i = 0; i < axis_count; ++i) {
      int axis = static_cast<int>(i);
      if (axes != nullptr)
        ONNXMICRO_RETURN_IF_ERROR(shape_util::normalize_axis(axes[i], rank, "axes value", true, axis));
      remap::Axis& a = plan.axes[axis];
      const std::int64_t before = pads[i];
      const std::int64_t after = pads[i + axis_count];
      a.kind = kind;
      std::int64_t padded = 0;
      if (__builtin_sub_overflow(std::int64_t{0}, before, &a.start) ||
          __builtin_add_overflow(a.source_dim, before, &padded) ||
          __builtin_add_overflow(padded, after, &a.output_dim)) {
        return Status(StatusCode::limit_exceeded) << "pads " << before << " and " << after << " on axis " << axis
                                                  << " of size " << a.source_dim << " overflow a 64-bit size";
      }
      if (a.output_dim < 0) {
        return Status(StatusCode::invalid_model) << "pads " << before << " and " << after << " on axis " << axis
                                                 << " of size " << a.source_dim << " give a negative size";
      }
      if (a.source_dim == 0 && a.output_dim > 0 && kind != remap::AxisKind::constant_pad) {
        return Status(StatusCode::invalid_model) << "axis " << axis << " of input 0 '" << in.name << "' " << in.shape
                                                 << " is empty, so it cannot be padded in mode edge, "
                                                 << "reflect or wrap";
      }
    }
    remap::finish(plan, bits);
    ONNXMICRO_RETURN_IF_ERROR(remap::set_output(ctx, plan));
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
    state->plan = plan;
    return {};
  }

  /// Pad 1 and 2: pads in attribute `pads_name`, fill from the FLOAT attribute 'value'.
  static Status prepare_attributes(PrepareContext& ctx, std::string_view pads_name) noexcept {
    std::int64_t pads[2 * kMaxRank];
    std::size_t count = 0;
    ONNXMICRO_RETURN_IF_ERROR(ctx.required_attribute_ints(pads_name, pads, 2 * kMaxRank, count));
    remap::AxisKind kind = remap::AxisKind::constant_pad;
    ONNXMICRO_RETURN_IF_ERROR(read_mode(ctx, false, kind));
    float value = 0;
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("value", value, 0.0f));
    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(prepare_pads(ctx, pads, count, nullptr, 0, kind, state));
    // The value is a float whatever the data dtype: convert it as Cast would.
    dtype_convert::Wide wide;
    wide.f = static_cast<double>(value);
    const dtype_convert::StoreBlock store =
        dtype_convert::storer_for<dtype_convert::SourceKind::floating>(ctx.input(kData).dtype);
    if (store == nullptr) return ctx.unsupported_input_dtype(kData);
    store(&wide, state->fill, 0, 1, dtype_convert::Options());
    return {};
  }

  /// Pad 11+: pads (and axes, 18+) from constant inputs, fill from input 2.
  static Status prepare_inputs(PrepareContext& ctx, bool allow_wrap, bool allow_axes) noexcept {
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kPads));
    std::int64_t pads[2 * kMaxRank];
    std::size_t count = 0;
    ONNXMICRO_RETURN_IF_ERROR(shape_util::read_constant_ints(ctx, kPads, "pads", pads, 2 * kMaxRank, count));
    std::int64_t axes[kMaxRank];
    std::size_t axis_count = 0;
    const bool has_axes = allow_axes && ctx.has_input(kAxes);
    if (has_axes) {
      ONNXMICRO_RETURN_IF_ERROR(shape_util::read_constant_ints(ctx, kAxes, "axes", axes, kMaxRank, axis_count));
    }
    remap::AxisKind kind = remap::AxisKind::constant_pad;
    ONNXMICRO_RETURN_IF_ERROR(read_mode(ctx, allow_wrap, kind));
    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(prepare_pads(ctx, pads, count, has_axes ? axes : nullptr, axis_count, kind, state));
    if (ctx.has_input(kConstantValue)) {
      ONNXMICRO_RETURN_IF_ERROR(ctx.require_same_dtype(kData, kConstantValue));
      if (ctx.input(kConstantValue).shape.element_count() > 1) {
        return ctx.input_error(kConstantValue, "constant_value")
               << " must be a scalar or have one element, got shape " << ctx.input(kConstantValue).shape;
      }
      state->fill_from_input = true;
    }
    return {};
  }
};

/// Pad's version rules (VersionedKernel): prepare reads what version `since` accepts; PadBase holds the
/// rest.
struct PadImpl : PadBase {
  static Status prepare(PrepareContext& ctx, int since) noexcept {
    if (since >= 19) return prepare_inputs(ctx, true, true);
    if (since >= 18) return prepare_inputs(ctx, false, true);
    if (since >= 11) return prepare_inputs(ctx, false, false);
    if (since >= 2) return prepare_attributes(ctx, "pads");
    return prepare_attributes(ctx, "paddings");
  }
};

// Opset 1: pads in the attribute 'paddings', fill value in 'value' (float types only).
using Pad_1 = VersionedKernel<PadImpl, 1, 2>;
// Opset 2: the attribute is renamed 'pads'.
using Pad_2 = VersionedKernel<PadImpl, 2, 11>;
// Opset 11: pads and constant_value become inputs and every numeric dtype is allowed (13 adds bool, bfloat16).
using Pad_11 = VersionedKernel<PadImpl, 11, 18>;
// Opset 18: optional input 'axes' lists the padded axes (pads then has 2 values per listed axis).
using Pad_18 = VersionedKernel<PadImpl, 18, 19>;
// Opset 19: adds mode 'wrap'. Opsets 21, 23, 24 and 25 only add dtypes.
using Pad_19 = VersionedKernel<PadImpl, 19>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
