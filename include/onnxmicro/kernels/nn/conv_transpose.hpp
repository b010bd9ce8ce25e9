// SPDX-License-Identifier: MIT
// ConvTranspose: the gradient of Conv. X (N, C, D1..Dn), W (C, M/group, k1..kn), optional B (M). Every input
// position p and kernel tap k of axis i add x * w to output coordinate p * stride + k * dilation - pad_begin.
// Output size per axis (spec): with `output_shape`, that shape, and the pads follow from
//   total = stride * (in - 1) + output_padding + (k - 1) * dilation + 1 - out
//   pad_begin = total // 2 (SAME_UPPER) or total - total // 2 (otherwise), Python floor division;
// else SAME_UPPER/SAME_LOWER give out = in * stride with the same pad formula, and NOTSET/VALID give
//   out = stride * (in - 1) + output_padding + (k - 1) * dilation + 1 - pad_begin - pad_end.
// Accumulates one image in the compute type in scratch (float for the 16-bit types), then stores.
#pragma once
#include <cstddef>
#include <cstdint>

#include "onnxmicro/kernels/common/compute_type.hpp"
#include "onnxmicro/kernels/common/scratch.hpp"
#include "onnxmicro/kernels/common/sliding_window.hpp"
#include "onnxmicro/kernels/kernel_api.hpp"
#include "onnxmicro/kernels/nn/spatial_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {
namespace conv_transpose_detail {

struct ConvTransposeImpl : kernels::KernelDefaults {
  static constexpr std::string_view kOpType = "ConvTranspose";
  using RunContext = kernels::RunContext;
  static constexpr int kX = 0;
  static constexpr int kW = 1;
  static constexpr int kB = 2;
  static constexpr int kY = 0;

  struct State {
    void (*compute)(const State&, RunContext&) noexcept;
    spatial_util::ScatterGeometry geometry;
    std::int64_t batch, in_channels, out_channels, group, group_in, group_out;
    std::int64_t in_spatial, out_spatial, kernel_size;
    bool has_bias;
    std::size_t accumulator_offset;
  };

  static Status prepare(kernels::PrepareContext& ctx, int /*since: every version accepts the same*/) noexcept {
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kX));
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kW));
    const kernels::TensorInfo& x = ctx.input(kX);
    const kernels::TensorInfo& w = ctx.input(kW);
    if (!compute_type::is_loadable_floating(x.dtype)) return ctx.unsupported_input_dtype(kX);
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_same_dtype(kX, kW));
    const bool has_bias = ctx.has_input(kB);
    if (has_bias) ONNXMICRO_RETURN_IF_ERROR(ctx.require_same_dtype(kX, kB));
    ONNXMICRO_RETURN_IF_ERROR(spatial_util::require_spatial_input(ctx, kX));
    const int rank = x.shape.rank() - 2;
    if (w.shape.rank() != x.shape.rank()) {
      return ctx.input_error(kW, "W") << " has shape " << w.shape << ", expected rank " << x.shape.rank()
                                      << " (C, M/group, kernel...)";
    }
    std::int64_t group = 1;
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("group", group, 1));
    const std::int64_t channels = x.shape[1];
    if (group < 1 || channels % group != 0) {
      return Status(StatusCode::invalid_model)
             << "attribute 'group' is " << group << ", expected >= 1 and dividing the " << channels
             << " channels of input 0";
    }
    if (w.shape[0] != channels) {
      return ctx.input_error(kW, "W") << " has shape " << w.shape << ": dim 0 must equal X's channels " << channels;
    }
    const std::int64_t out_channels = w.shape[1] * group;
    if (has_bias) {
      const Shape& b = ctx.input(kB).shape;
      if (b.rank() != 1 || b[0] != out_channels) {
        return ctx.input_error(kB, "B") << " has shape " << b << ", expected [" << out_channels << "]";
      }
    }

    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
    spatial_util::ScatterGeometry& g = state->geometry;
    g.rank = rank;
    bool present = false;
    std::int64_t values[sliding_window::kAxisIntsCapacity] = {};
    ONNXMICRO_RETURN_IF_ERROR(spatial_util::read_axis_attribute(ctx, "kernel_shape", rank, 1, 1, values, present));
    for (int i = 0; i < rank; ++i) {
      if (present && values[i] != w.shape[i + 2]) {
        return Status(StatusCode::invalid_model) << "attribute 'kernel_shape'[" << i << "] is " << values[i]
                                                 << " but input 1 (W) has spatial dim " << w.shape[i + 2];
      }
      g.kernel[i] = w.shape[i + 2];
      g.input[i] = x.shape[i + 2];
    }
    ONNXMICRO_RETURN_IF_ERROR(spatial_util::read_axis_attribute(ctx, "strides", rank, 1, 1, g.stride, present));
    ONNXMICRO_RETURN_IF_ERROR(spatial_util::read_axis_attribute(ctx, "dilations", rank, 1, 1, g.dilation, present));
    std::int64_t output_padding[sliding_window::kMaxSpatialRank] = {};
    ONNXMICRO_RETURN_IF_ERROR(
        spatial_util::read_axis_attribute(ctx, "output_padding", rank, 0, 0, output_padding, present));
    std::int64_t pads[2 * sliding_window::kMaxSpatialRank] = {};
    ONNXMICRO_RETURN_IF_ERROR(spatial_util::read_axis_attribute(ctx, "pads", 2 * rank, 0, 0, pads, present));

    std::string_view auto_pad;
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("auto_pad", auto_pad, "NOTSET"));
    const bool same_upper = auto_pad == "SAME_UPPER";
    const bool same_lower = auto_pad == "SAME_LOWER";
    if (!same_upper && !same_lower && auto_pad != "NOTSET" && auto_pad != "VALID") {
      return Status(StatusCode::invalid_model)
             << "attribute 'auto_pad' is '" << auto_pad << "', expected NOTSET, VALID, SAME_UPPER or SAME_LOWER";
    }
    if (auto_pad == "VALID") {
      for (int i = 0; i < 2 * rank; ++i) pads[i] = 0;
    }

    // output_shape: the spatial dims, or (as some exporters write it) N, C and the spatial dims.
    std::int64_t output_shape[sliding_window::kMaxSpatialRank + 2] = {};
    std::size_t output_shape_count = 0;
    bool has_output_shape = false;
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute_ints("output_shape", output_shape, sliding_window::kMaxSpatialRank + 2,
                                                 output_shape_count, has_output_shape));
    if (has_output_shape && output_shape_count != static_cast<std::size_t>(rank) &&
        output_shape_count != static_cast<std::size_t>(rank + 2)) {
      return Status(StatusCode::invalid_model) << "attribute 'output_shape' has " << output_shape_count
                                               << " values, expected " << rank << " (the spatial axes of input 0)";
    }
    const std::size_t skip = has_output_shape ? output_shape_count - static_cast<std::size_t>(rank) : 0;

    for (int i = 0; i < rank; ++i) {
      const std::int64_t effective = (g.kernel[i] - 1) * g.dilation[i] + 1;
      const std::int64_t full = g.stride[i] * (g.input[i] - 1) + output_padding[i] + effective;
      if (has_output_shape || same_upper || same_lower) {
        const std::int64_t out =
            has_output_shape ? output_shape[skip + static_cast<std::size_t>(i)] : g.input[i] * g.stride[i];
        const std::int64_t total = full - out;
        g.pad_begin[i] = same_upper ? spatial_util::floor_div(total, 2) : total - spatial_util::floor_div(total, 2);
        g.output[i] = out;
      } else {
        g.pad_begin[i] = pads[i];
        g.output[i] = full - pads[i] - pads[i + rank];
      }
      if (g.output[i] < 0) {
        return Status(StatusCode::invalid_model)
               << "spatial axis " << i << " of the output would have size " << g.output[i] << " (input " << g.input[i]
               << ", pads or output_shape too large)";
      }
    }

    state->batch = x.shape[0];
    state->in_channels = channels;
    state->out_channels = out_channels;
    state->group = group;
    state->group_in = channels / group;
    state->group_out = w.shape[1];
    state->in_spatial = g.input_size();
    state->out_spatial = g.output_size();
    state->kernel_size = g.kernel_size();
    state->has_bias = has_bias;
    Shape y = x.shape;
    y[1] = out_channels;
    for (int i = 0; i < rank; ++i) y[i + 2] = g.output[i];
    std::int64_t y_count = 0;
    ONNXMICRO_RETURN_IF_ERROR(y.checked_element_count(y_count));
    ctx.set_output(kY, x.dtype, y);

    scratch::ScratchLayout layout;  // X's dtype was checked above
    spatial_util::visit_float_dtype(x.dtype, [&](auto tag) {
      using T = typename decltype(tag)::type;
      state->compute = &compute<T>;
      state->accumulator_offset = layout.reserve<compute_type::ComputeType<T>>(out_channels * state->out_spatial);
    });
    ctx.request_scratch(layout.bytes());
    return {};
  }

  static Status run(RunContext& ctx) noexcept {
    const State& state = ctx.state<State>();
    state.compute(state, ctx);
    return {};
  }

 private:
  template <typename T>
  static void compute(const State& s, RunContext& ctx) noexcept {
    using Acc = compute_type::ComputeType<T>;
    const T* x = static_cast<const T*>(ctx.input(kX).data);
    const T* w = static_cast<const T*>(ctx.input(kW).data);
    const T* bias = s.has_bias ? static_cast<const T*>(ctx.input(kB).data) : nullptr;
    T* y = static_cast<T*>(ctx.output(kY).data);
    Acc* acc = scratch::scratch_at<Acc>(ctx.scratch(), s.accumulator_offset);
    const std::int64_t image = s.out_channels * s.out_spatial;
    for (std::int64_t n = 0; n < s.batch; ++n) {
      spatial_util::fill_with_bias(bias, s.out_channels, s.out_spatial, acc);
      const T* x_image = x + n * s.in_channels * s.in_spatial;
      spatial_util::for_each_scatter(s.geometry, [&](std::int64_t p, std::int64_t tap, std::int64_t o) {
        for (std::int64_t c = 0; c < s.in_channels; ++c) {
          const Acc xv = compute_type::widen(x_image[c * s.in_spatial + p]);
          const std::int64_t grp = c / s.group_in;
          const T* w_row = w + c * s.group_out * s.kernel_size + tap;  // W[c, :, tap]
          Acc* out = acc + grp * s.group_out * s.out_spatial + o;
          for (std::int64_t m = 0; m < s.group_out; ++m) {
            out[m * s.out_spatial] += xv * compute_type::widen(w_row[m * s.kernel_size]);
          }
        }
      });
      spatial_util::store_narrowed(acc, image, y + n * image);
    }
  }
};

}  // namespace conv_transpose_detail

// ConvTranspose-1 (also 11, which only clarified output_shape/pads and auto_pad, and 22, which added
// bfloat16): the same computation in every version.
using ConvTranspose_1 = VersionedKernel<conv_transpose_detail::ConvTransposeImpl, 1>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
