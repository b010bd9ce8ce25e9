// SPDX-License-Identifier: MIT
// Sliding-window geometry of Conv, ConvTranspose, DeformConv, MaxPool, AveragePool, LpPool and their
// quantized forms: kernel_shape/strides/dilations/pads/auto_pad/ceil_mode parsing, validation and output
// sizes (following the ONNX spec and onnx's shape inference), and the walk over windows and their taps.
#pragma once
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string_view>

#include "onnxmicro/kernels/kernel_api.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {
namespace sliding_window {

/// Most spatial axes a window op handles: the input is (N, C, D1, ..., Dn).
constexpr int kMaxSpatialRank = kMaxRank > 2 ? kMaxRank - 2 : 1;

enum class AutoPad : std::uint8_t { notset, valid, same_upper, same_lower };

/// The resolved window of a Conv/pool node: per spatial axis the input extent, kernel, stride, dilation,
/// effective pads (explicit or derived from auto_pad) and output extent.
struct WindowGeometry {
  int rank = 0;  ///< number of spatial axes
  AutoPad auto_pad = AutoPad::notset;
  bool ceil_mode = false;
  std::int64_t input[kMaxSpatialRank] = {};
  std::int64_t kernel[kMaxSpatialRank] = {};
  std::int64_t stride[kMaxSpatialRank] = {};
  std::int64_t dilation[kMaxSpatialRank] = {};
  std::int64_t pad_begin[kMaxSpatialRank] = {};
  std::int64_t pad_end[kMaxSpatialRank] = {};
  std::int64_t output[kMaxSpatialRank] = {};

  std::int64_t input_size() const noexcept { return product(input); }
  std::int64_t output_size() const noexcept { return product(output); }
  std::int64_t kernel_size() const noexcept { return product(kernel); }
  bool has_padding() const noexcept {
    for (int i = 0; i < rank; ++i)
      if (pad_begin[i] != 0 || pad_end[i] != 0) return true;
    return false;
  }

 private:
  std::int64_t product(const std::int64_t* dims) const noexcept {
    std::int64_t n = 1;
    for (int i = 0; i < rank; ++i) n *= dims[i];
    return n;
  }
};

/// Which window attributes a given op version defines, and where the kernel size comes from.
struct WindowRules {
  /// First opset version defining `dilations` (Conv: 1, MaxPool: 10, AveragePool: 19).
  int dilations_since = 1;
  /// First opset version defining `ceil_mode`; 0 when the op has none (Conv).
  int ceil_mode_since = 0;
  /// Conv: W's spatial dims (kernel_shape is then optional but must match). nullptr: kernel_shape is required.
  const std::int64_t* weight_kernel = nullptr;
};

/// Room for pads of every spatial axis plus one, so a list one too long is reported with its length.
constexpr std::size_t kAxisIntsCapacity = 2 * kMaxSpatialRank + 1;

/// Reads an INTS attribute that must have exactly `expected` values, each >= `minimum`.
inline Status read_axis_ints(const kernels::PrepareContext& ctx, std::string_view name, int expected,
                             std::int64_t minimum, std::int64_t* values, bool& present) noexcept {
  std::size_t count = 0;
  ONNXMICRO_RETURN_IF_ERROR(ctx.attribute_ints(name, values, kAxisIntsCapacity, count, present));
  if (!present) return {};
  if (count != static_cast<std::size_t>(expected)) {
    return Status(StatusCode::invalid_model)
           << "attribute '" << name << "' has " << count << " values, expected " << expected << " ("
           << (name == "pads" ? "2 x " : "") << "the " << (name == "pads" ? expected / 2 : expected)
           << " spatial axes of input 0)";
  }
  for (int i = 0; i < expected; ++i) {
    if (values[i] < minimum) {
      return Status(StatusCode::invalid_model)
             << "attribute '" << name << "'[" << i << "] is " << values[i] << ", expected >= " << minimum;
    }
  }
  return {};
}

/// Fails when an attribute the model's opset does not define yet carries a non-default value.
inline Status reject_before(const kernels::PrepareContext& ctx, std::string_view name, bool non_default,
                            int since) noexcept {
  if (!non_default || ctx.opset_version() >= since) return {};
  return Status(StatusCode::invalid_model) << "attribute '" << name << "' is only defined from opset " << since
                                           << ", but the node's opset is " << ctx.opset_version();
}

/// Parses and validates the window attributes of a node whose input 0 has shape `x` (N, C, D1..Dn) and
/// computes the output extent and effective pads of every spatial axis:
/// - NOTSET (explicit pads) and VALID (no pads): out = floor((in + pads - eff) / stride) + 1, or with
///   ceil_mode ceil(...) + 1 minus one when the last window would start past the input and the left pad;
///   eff = (kernel - 1) * dilation + 1.
/// - SAME_UPPER/SAME_LOWER: out = ceil(in / stride); the total pad (out - 1) * stride + eff - in (at least 0)
///   is split evenly, the odd pixel at the end (UPPER) or the beginning (LOWER). Explicit pads are ignored.
inline Status parse_window(const kernels::PrepareContext& ctx, const Shape& x, const WindowRules& rules,
                           WindowGeometry& g) noexcept {
  if (x.rank() < 3) {
    return ctx.input_error(0) << " has shape " << x << ", expected rank >= 3 (N, C, and at least one spatial axis)";
  }
  if (x.rank() - 2 > kMaxSpatialRank) {
    return ctx.input_error(0, {}, StatusCode::unsupported) << " has " << x.rank() - 2 << " spatial axes, at most "
                                                           << kMaxSpatialRank << " supported (ONNXMICRO_MAX_RANK)";
  }
  const int rank = x.rank() - 2;
  g = WindowGeometry();
  g.rank = rank;
  for (int i = 0; i < rank; ++i) g.input[i] = x[i + 2];

  // kernel_shape: required for pools; for Conv optional, inferred from W, and must agree with it.
  std::int64_t values[kAxisIntsCapacity] = {};
  bool present = false;
  ONNXMICRO_RETURN_IF_ERROR(read_axis_ints(ctx, "kernel_shape", rank, 1, values, present));
  if (rules.weight_kernel != nullptr) {
    for (int i = 0; i < rank; ++i) {
      if (present && values[i] != rules.weight_kernel[i]) {
        return Status(StatusCode::invalid_model) << "attribute 'kernel_shape'[" << i << "] is " << values[i]
                                                 << " but input 1 (W) has spatial dim " << rules.weight_kernel[i];
      }
      g.kernel[i] = rules.weight_kernel[i];
    }
  } else {
    if (!present) {
      return Status(StatusCode::invalid_model) << "required attribute 'kernel_shape' (INTS) is missing";
    }
    for (int i = 0; i < rank; ++i) g.kernel[i] = values[i];
  }

  ONNXMICRO_RETURN_IF_ERROR(read_axis_ints(ctx, "strides", rank, 1, values, present));
  for (int i = 0; i < rank; ++i) g.stride[i] = present ? values[i] : 1;

  ONNXMICRO_RETURN_IF_ERROR(read_axis_ints(ctx, "dilations", rank, 1, values, present));
  bool non_default = false;
  for (int i = 0; i < rank; ++i) {
    g.dilation[i] = present ? values[i] : 1;
    non_default = non_default || g.dilation[i] != 1;
  }
  ONNXMICRO_RETURN_IF_ERROR(reject_before(ctx, "dilations", non_default, rules.dilations_since));

  std::int64_t ceil_mode = 0;
  if (rules.ceil_mode_since > 0) {
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("ceil_mode", ceil_mode, 0));
    if (ceil_mode != 0 && ceil_mode != 1) {
      return Status(StatusCode::invalid_model) << "attribute 'ceil_mode' is " << ceil_mode << ", expected 0 or 1";
    }
    ONNXMICRO_RETURN_IF_ERROR(reject_before(ctx, "ceil_mode", ceil_mode != 0, rules.ceil_mode_since));
  }
  g.ceil_mode = ceil_mode != 0;

  std::string_view auto_pad;
  ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("auto_pad", auto_pad, "NOTSET"));
  if (auto_pad == "NOTSET") {
    g.auto_pad = AutoPad::notset;
  } else if (auto_pad == "VALID") {
    g.auto_pad = AutoPad::valid;
  } else if (auto_pad == "SAME_UPPER") {
    g.auto_pad = AutoPad::same_upper;
  } else if (auto_pad == "SAME_LOWER") {
    g.auto_pad = AutoPad::same_lower;
  } else {
    return Status(StatusCode::invalid_model)
           << "attribute 'auto_pad' is '" << auto_pad << "', expected NOTSET, VALID, SAME_UPPER or SAME_LOWER";
  }

  // pads are read only with NOTSET; with auto_pad set they are ignored, as onnx's shape inference does.
  if (g.auto_pad == AutoPad::notset) {
    ONNXMICRO_RETURN_IF_ERROR(read_axis_ints(ctx, "pads", 2 * rank, 0, values, present));
    for (int i = 0; i < rank; ++i) {
      g.pad_begin[i] = present ? values[i] : 0;
      g.pad_end[i] = present ? values[i + rank] : 0;
    }
  }

  constexpr std::int64_t kLimit = std::numeric_limits<std::int32_t>::max();  // keeps every product below in range
  for (int i = 0; i < rank; ++i) {
    if (g.kernel[i] > kLimit || g.stride[i] > kLimit || g.dilation[i] > kLimit || g.pad_begin[i] > kLimit ||
        g.pad_end[i] > kLimit || g.input[i] > (std::int64_t{1} << 40)) {
      return Status(StatusCode::limit_exceeded)
             << "window attributes of spatial axis " << i << " exceed 2^31 - 1 (kernel, stride, dilation or pads)";
    }
    const std::int64_t in = g.input[i];
    const std::int64_t s = g.stride[i];
    const std::int64_t effective = (g.kernel[i] - 1) * g.dilation[i] + 1;
    if (g.auto_pad == AutoPad::same_upper || g.auto_pad == AutoPad::same_lower) {
      g.output[i] = (in + s - 1) / s;
      std::int64_t total = (g.output[i] - 1) * s + effective - in;
      if (total < 0) total = 0;
      g.pad_begin[i] = g.auto_pad == AutoPad::same_upper ? total / 2 : total - total / 2;
      g.pad_end[i] = total - g.pad_begin[i];
      continue;
    }
    const std::int64_t span = in + g.pad_begin[i] + g.pad_end[i] - effective;
    if (span < 0) {
      return Status(StatusCode::invalid_argument)
             << "spatial axis " << i << " of input 0 has size " << in << " plus pads "
             << (g.pad_begin[i] + g.pad_end[i]) << ", smaller than the dilated kernel " << effective;
    }
    if (g.ceil_mode) {
      g.output[i] = (span + s - 1) / s + 1;
      // The last window must start inside the input or the left padding (onnx shape inference, PyTorch).
      if ((g.output[i] - 1) * s >= in + g.pad_begin[i]) --g.output[i];
    } else {
      g.output[i] = span / s + 1;
    }
  }
  return {};
}

/// Output shape (N, channels, out...) of a window op.
inline Shape window_output_shape(const Shape& x, std::int64_t channels, const WindowGeometry& g) noexcept {
  Shape y = x;
  y[1] = channels;
  for (int i = 0; i < g.rank; ++i) y[i + 2] = g.output[i];
  return y;
}

/// Range of kernel taps [first, last) of one axis whose input coordinate start + k * dilation lies in
/// [lower, upper).
inline void valid_taps(std::int64_t start, std::int64_t dilation, std::int64_t kernel, std::int64_t lower,
                       std::int64_t upper, std::int64_t& first, std::int64_t& last) noexcept {
  if (dilation == 1) {  // the common case, without divisions
    first = start >= lower ? 0 : lower - start;
    last = upper - start;
  } else {
    first = start >= lower ? 0 : (lower - start + dilation - 1) / dilation;
    last = start >= upper ? 0 : (upper - start + dilation - 1) / dilation;
  }
  if (last > kernel) last = kernel;
  if (last < 0) last = 0;
  if (first > last) first = last;
}

/// One located window: per spatial axis its first input coordinate `start` (negative in the left padding)
/// and the taps [first, last) that fall inside the input; `inside` = number of taps inside (0: the window
/// lies entirely in padding).
struct WindowPlacement {
  std::int64_t start[kMaxSpatialRank];
  std::int64_t first[kMaxSpatialRank];
  std::int64_t last[kMaxSpatialRank];
  std::int64_t inside;
};

/// Calls per_window(output_offset, placement) for every output position of one (N, C) plane, in row-major
/// order. The outer axes are placed once per output row, only the innermost axis per position.
template <typename PerWindow>
inline void for_each_window(const WindowGeometry& g, PerWindow&& per_window) noexcept {
  const int inner = g.rank - 1;
  WindowPlacement w;
  std::int64_t outer_index[kMaxSpatialRank] = {};
  std::int64_t rows = 1;
  for (int d = 0; d < inner; ++d) rows *= g.output[d];
  std::int64_t output_offset = 0;
  for (std::int64_t row = 0; row < rows; ++row) {
    std::int64_t outer_inside = 1;
    for (int d = 0; d < inner; ++d) {
      w.start[d] = outer_index[d] * g.stride[d] - g.pad_begin[d];
      valid_taps(w.start[d], g.dilation[d], g.kernel[d], 0, g.input[d], w.first[d], w.last[d]);
      outer_inside *= w.last[d] - w.first[d];
    }
    for (std::int64_t o = 0; o < g.output[inner]; ++o) {
      w.start[inner] = o * g.stride[inner] - g.pad_begin[inner];
      valid_taps(w.start[inner], g.dilation[inner], g.kernel[inner], 0, g.input[inner], w.first[inner], w.last[inner]);
      w.inside = outer_inside * (w.last[inner] - w.first[inner]);
      per_window(output_offset++, static_cast<const WindowPlacement&>(w));
    }
    for (int d = inner - 1; d >= 0; --d) {  // next output row
      if (++outer_index[d] < g.output[d]) break;
      outer_index[d] = 0;
    }
  }
}

/// Calls visit(offset, tap) for every tap of a placed window that lies inside the input, in row-major order;
/// `offset` is the tap's row-major position within one (N, C) plane, `tap` its row-major index within the
/// kernel (a weight's position in a convolution filter). Precondition: w.inside > 0.
template <typename Visit>
inline void visit_window_taps(const WindowGeometry& g, const WindowPlacement& w, Visit&& visit) noexcept {
  const int inner = g.rank - 1;
  std::int64_t tap[kMaxSpatialRank];
  for (int d = 0; d < inner; ++d) tap[d] = w.first[d];
  const std::int64_t step = g.dilation[inner];
  const std::int64_t inner_begin = w.start[inner] + w.first[inner] * step;
  const std::int64_t inner_count = w.last[inner] - w.first[inner];
  for (;;) {
    std::int64_t base = 0;
    std::int64_t tap_base = 0;
    for (int d = 0; d < inner; ++d) {
      base = base * g.input[d] + w.start[d] + tap[d] * g.dilation[d];
      tap_base = tap_base * g.kernel[d] + tap[d];
    }
    const std::int64_t row_begin = base * g.input[inner] + inner_begin;
    const std::int64_t tap_begin = tap_base * g.kernel[inner] + w.first[inner];
    for (std::int64_t k = 0; k < inner_count; ++k) visit(row_begin + k * step, tap_begin + k);
    int d = inner - 1;
    for (; d >= 0; --d) {
      if (++tap[d] < w.last[d]) break;
      tap[d] = w.first[d];
    }
    if (d < 0) return;
  }
}

/// visit_window_taps without the tap index: visit(offset).
template <typename Visit>
inline void visit_window(const WindowGeometry& g, const WindowPlacement& w, Visit&& visit) noexcept {
  visit_window_taps(g, w, [&visit](std::int64_t offset, std::int64_t) { visit(offset); });
}

}  // namespace sliding_window
}  // namespace kernels
ONNXMICRO_NAMESPACE_END
