// SPDX-License-Identifier: MIT
// DeformConv: a Conv whose kernel taps sample X at learned fractional offsets. X (N, C, D1..Dn), W (M, C/group,
// k1..kn), offset (N, offset_group * prod(k) * n, O1..On) holding, per offset group, tap and axis, the shift of
// that tap at each output position; optional B (M) and mask (N, offset_group * prod(k), O1..On) scaling each
// sampled value. Tap t of output position o samples axis i at
//   o_i * stride_i - pad_begin_i + t_i * dilation_i + offset
// with n-linear interpolation between the 2^n surrounding pixels, pixels outside X counting as 0 (GridSample
// bilinear, zeros padding, align_corners = 1, as onnx's reference). Output dims are Conv's:
// (D + pads - (k - 1) * dilation - 1) / stride + 1, and must equal offset's spatial dims.
#pragma once
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "onnxmicro/kernels/common/compute_type.hpp"
#include "onnxmicro/kernels/common/scratch.hpp"
#include "onnxmicro/kernels/common/sliding_window.hpp"
#include "onnxmicro/kernels/kernel_api.hpp"
#include "onnxmicro/kernels/nn/spatial_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {
namespace deform_conv_detail {

struct DeformConvImpl : kernels::KernelDefaults {
  static constexpr std::string_view kOpType = "DeformConv";
  using RunContext = kernels::RunContext;
  static constexpr int kX = 0;
  static constexpr int kW = 1;
  static constexpr int kOffset = 2;
  static constexpr int kB = 3;
  static constexpr int kMask = 4;
  static constexpr int kY = 0;
  static constexpr int kMaxCorners = 1 << sliding_window::kMaxSpatialRank;

  struct State {
    void (*compute)(const State&, RunContext&) noexcept;
    int rank;
    std::int64_t input[sliding_window::kMaxSpatialRank], output[sliding_window::kMaxSpatialRank];
    std::int64_t kernel[sliding_window::kMaxSpatialRank], stride[sliding_window::kMaxSpatialRank];
    std::int64_t dilation[sliding_window::kMaxSpatialRank], pad_begin[sliding_window::kMaxSpatialRank];
    std::int64_t batch, in_channels, out_channels, group_in, group_out, offset_groups, group_channels;
    std::int64_t in_spatial, out_spatial, kernel_size;
    bool has_bias, has_mask;
    std::size_t accumulator_offset;
  };

  static Status prepare(kernels::PrepareContext& ctx, int /*since: every version accepts the same*/) noexcept {
    for (int i = kX; i <= kOffset; ++i) ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(i));
    const kernels::TensorInfo& x = ctx.input(kX);
    const kernels::TensorInfo& w = ctx.input(kW);
    const kernels::TensorInfo& offset = ctx.input(kOffset);
    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
    const bool is_float = spatial_util::visit_float_dtype(
        x.dtype, [&](auto tag) { state->compute = &compute<typename decltype(tag)::type>; });
    if (!is_float) return ctx.unsupported_input_dtype(kX);
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_same_dtype(kX, kW));
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_same_dtype(kX, kOffset));
    state->has_bias = ctx.has_input(kB);
    state->has_mask = ctx.has_input(kMask);
    if (state->has_bias) ONNXMICRO_RETURN_IF_ERROR(ctx.require_same_dtype(kX, kB));
    if (state->has_mask) ONNXMICRO_RETURN_IF_ERROR(ctx.require_same_dtype(kX, kMask));
    ONNXMICRO_RETURN_IF_ERROR(spatial_util::require_spatial_input(ctx, kX));
    const int rank = x.shape.rank() - 2;
    state->rank = rank;
    if (w.shape.rank() != x.shape.rank()) {
      return ctx.input_error(kW, "W") << " has shape " << w.shape << ", expected rank " << x.shape.rank()
                                      << " (M, C/group, kernel...)";
    }
    std::int64_t group = 1, offset_groups = 1;
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("group", group, 1));
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("offset_group", offset_groups, 1));
    const std::int64_t channels = x.shape[1], out_channels = w.shape[0];
    if (group < 1 || channels % group != 0 || out_channels % group != 0 || w.shape[1] * group != channels) {
      return Status(StatusCode::invalid_model)
             << "attribute 'group' is " << group << ": X has " << channels << " channels and W has shape " << w.shape
             << ", expected C and M divisible by group and W dim 1 = C / group";
    }
    if (offset_groups < 1 || channels % offset_groups != 0) {
      return Status(StatusCode::invalid_model) << "attribute 'offset_group' is " << offset_groups
                                               << ", expected >= 1 and dividing the " << channels << " channels of X";
    }
    bool present = false;
    std::int64_t values[sliding_window::kAxisIntsCapacity] = {};
    ONNXMICRO_RETURN_IF_ERROR(spatial_util::read_axis_attribute(ctx, "kernel_shape", rank, 1, 1, values, present));
    std::int64_t pads[2 * sliding_window::kMaxSpatialRank] = {};
    ONNXMICRO_RETURN_IF_ERROR(spatial_util::read_axis_attribute(ctx, "strides", rank, 1, 1, state->stride, present));
    ONNXMICRO_RETURN_IF_ERROR(
        spatial_util::read_axis_attribute(ctx, "dilations", rank, 1, 1, state->dilation, present));
    ONNXMICRO_RETURN_IF_ERROR(spatial_util::read_axis_attribute(ctx, "pads", 2 * rank, 0, 0, pads, present));
    state->kernel_size = 1;
    state->in_spatial = 1;
    state->out_spatial = 1;
    Shape y = x.shape;
    y[1] = out_channels;
    for (int i = 0; i < rank; ++i) {
      state->kernel[i] = w.shape[i + 2];
      state->input[i] = x.shape[i + 2];
      state->pad_begin[i] = pads[i];
      const std::int64_t span =
          x.shape[i + 2] + pads[i] + pads[i + rank] - (state->kernel[i] - 1) * state->dilation[i] - 1;
      if (span < 0) {
        return Status(StatusCode::invalid_model)
               << "spatial axis " << i << ": the dilated kernel is larger than the padded input";
      }
      state->output[i] = span / state->stride[i] + 1;
      y[i + 2] = state->output[i];
      state->kernel_size *= state->kernel[i];
      state->in_spatial *= state->input[i];
      state->out_spatial *= state->output[i];
    }
    Shape expected_offset = y;
    expected_offset[1] = offset_groups * state->kernel_size * rank;
    if (offset.shape != expected_offset) {
      return ctx.input_error(kOffset, "offset") << " has shape " << offset.shape << ", expected " << expected_offset
                                                << " (N, offset_group * prod(kernel) * spatial rank, output dims)";
    }
    if (state->has_bias) {
      const Shape& b = ctx.input(kB).shape;
      if (b.rank() != 1 || b[0] != out_channels) {
        return ctx.input_error(kB, "B") << " has shape " << b << ", expected [" << out_channels << "]";
      }
    }
    if (state->has_mask) {
      Shape expected_mask = y;
      expected_mask[1] = offset_groups * state->kernel_size;
      if (ctx.input(kMask).shape != expected_mask) {
        return ctx.input_error(kMask, "mask")
               << " has shape " << ctx.input(kMask).shape << ", expected " << expected_mask;
      }
    }
    state->batch = x.shape[0];
    state->in_channels = channels;
    state->out_channels = out_channels;
    state->group_in = channels / group;
    state->group_out = out_channels / group;
    state->offset_groups = offset_groups;
    state->group_channels = channels / offset_groups;
    std::int64_t y_count = 0;
    ONNXMICRO_RETURN_IF_ERROR(y.checked_element_count(y_count));
    scratch::ScratchLayout layout;
    spatial_util::visit_float_dtype(x.dtype, [&](auto tag) {
      using Acc = compute_type::ComputeType<typename decltype(tag)::type>;
      state->accumulator_offset = layout.reserve<Acc>(out_channels * state->out_spatial);
    });
    ctx.request_scratch(layout.bytes());
    ctx.set_output(kY, x.dtype, y);
    return {};
  }

  static Status run(RunContext& ctx) noexcept {
    const State& state = ctx.state<State>();
    state.compute(state, ctx);
    return {};
  }

 private:
  /// The pixels around a fractional sampling point and their n-linear weights (0 for pixels outside X).
  template <typename Acc>
  struct Corners {
    int count = 0;
    std::int64_t offset[kMaxCorners];
    Acc weight[kMaxCorners];
  };

  template <typename Acc>
  static void locate(const State& s, const Acc* position, Corners<Acc>& corners) noexcept {
    std::int64_t low[sliding_window::kMaxSpatialRank];
    Acc fraction[sliding_window::kMaxSpatialRank];
    for (int d = 0; d < s.rank; ++d) {
      const Acc f = std::floor(position[d]);
      low[d] = static_cast<std::int64_t>(f);
      fraction[d] = position[d] - f;
    }
    corners.count = 0;
    for (int corner = 0; corner < (1 << s.rank); ++corner) {
      Acc weight = Acc(1);
      std::int64_t offset = 0;
      bool inside = true;
      for (int d = 0; d < s.rank; ++d) {
        const bool high = ((corner >> (s.rank - 1 - d)) & 1) != 0;
        const std::int64_t coordinate = low[d] + (high ? 1 : 0);
        weight *= high ? fraction[d] : Acc(1) - fraction[d];
        inside = inside && coordinate >= 0 && coordinate < s.input[d];
        offset = offset * s.input[d] + coordinate;
      }
      if (!inside || weight == Acc(0)) continue;
      corners.offset[corners.count] = offset;
      corners.weight[corners.count] = weight;
      ++corners.count;
    }
  }

  template <typename T>
  static void compute(const State& s, RunContext& ctx) noexcept {
    using Acc = compute_type::ComputeType<T>;
    const T* x = static_cast<const T*>(ctx.input(kX).data);
    const T* w = static_cast<const T*>(ctx.input(kW).data);
    const T* offsets = static_cast<const T*>(ctx.input(kOffset).data);
    const T* bias = s.has_bias ? static_cast<const T*>(ctx.input(kB).data) : nullptr;
    const T* mask = s.has_mask ? static_cast<const T*>(ctx.input(kMask).data) : nullptr;
    T* y = static_cast<T*>(ctx.output(kY).data);
    Acc* acc = scratch::scratch_at<Acc>(ctx.scratch(), s.accumulator_offset);
    const std::int64_t image = s.out_channels * s.out_spatial;
    for (std::int64_t n = 0; n < s.batch; ++n) {
      spatial_util::fill_with_bias(bias, s.out_channels, s.out_spatial, acc);
      const T* x_image = x + n * s.in_channels * s.in_spatial;
      const T* offset_image = offsets + n * s.offset_groups * s.kernel_size * s.rank * s.out_spatial;
      const T* mask_image = mask ? mask + n * s.offset_groups * s.kernel_size * s.out_spatial : nullptr;
      std::int64_t out_index[sliding_window::kMaxSpatialRank] = {};
      for (std::int64_t o = 0; o < s.out_spatial; ++o) {
        for (std::int64_t og = 0; og < s.offset_groups; ++og) {
          std::int64_t tap_index[sliding_window::kMaxSpatialRank] = {};
          for (std::int64_t tap = 0; tap < s.kernel_size; ++tap) {
            const std::int64_t slot = og * s.kernel_size + tap;
            Acc position[sliding_window::kMaxSpatialRank];
            for (int d = 0; d < s.rank; ++d) {
              const Acc shift = compute_type::widen(offset_image[(slot * s.rank + d) * s.out_spatial + o]);
              position[d] =
                  static_cast<Acc>(out_index[d] * s.stride[d] - s.pad_begin[d] + tap_index[d] * s.dilation[d]) + shift;
            }
            Corners<Acc> corners;
            locate(s, position, corners);
            const Acc scale = mask_image ? compute_type::widen(mask_image[slot * s.out_spatial + o]) : Acc(1);
            for (std::int64_t c = og * s.group_channels; c < (og + 1) * s.group_channels; ++c) {
              const T* plane = x_image + c * s.in_spatial;
              Acc value = Acc(0);
              for (int k = 0; k < corners.count; ++k)
                value += corners.weight[k] * compute_type::widen(plane[corners.offset[k]]);
              value *= scale;
              if (value == Acc(0)) continue;
              const std::int64_t grp = c / s.group_in;
              const T* w_tap = w + (grp * s.group_out * s.group_in + c % s.group_in) * s.kernel_size + tap;
              Acc* out = acc + grp * s.group_out * s.out_spatial + o;
              for (std::int64_t m = 0; m < s.group_out; ++m) {
                out[m * s.out_spatial] += value * compute_type::widen(w_tap[m * s.group_in * s.kernel_size]);
              }
            }
            for (int d = s.rank - 1; d >= 0; --d) {
              if (++tap_index[d] < s.kernel[d]) break;
              tap_index[d] = 0;
            }
          }
        }
        for (int d = s.rank - 1; d >= 0; --d) {
          if (++out_index[d] < s.output[d]) break;
          out_index[d] = 0;
        }
      }
      spatial_util::store_narrowed(acc, image, y + n * image);
    }
  }
};

}  // namespace deform_conv_detail

// DeformConv-19 (also 22, which added bfloat16).
using DeformConv_19 = VersionedKernel<deform_conv_detail::DeformConvImpl, 19>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
