// SPDX-License-Identifier: MIT
// The remap engine: the copy every "output element = input element at a per-axis mapped index" kernel uses
// (Slice, Expand, Tile, Pad, CenterCropPad, Split, ConstantOfShape): each output axis maps its index to a
// source index (affine, modulo, or one of the Pad modes, where -1 means "fill value"); copy() walks the output
// row by row and copies maximal runs of consecutive source elements at once. Elements move as raw bits, so any
// dtype works, including the packed sub-byte ones and strings (whose elements are StringRef views: copying
// them copies the views).
#pragma once
#include <cstdint>
#include <cstring>
#include <limits>

#include "onnxmicro/kernels/common/shape_util.hpp"
#include "onnxmicro/kernels/kernel_api.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {
namespace remap {

/// How an output axis maps its index to a source index.
enum class AxisKind : std::uint8_t {
  affine,        ///< start + i * step (Slice, crops; step 0 repeats one element: Expand)
  modulo,        ///< i mod source_dim (Tile)
  constant_pad,  ///< start + i when inside the source, else the fill value (Pad 'constant')
  edge_pad,      ///< start + i clamped to the source (Pad 'edge')
  reflect_pad,   ///< start + i reflected at the source's first/last element, repeatedly (Pad 'reflect')
  wrap_pad,      ///< start + i mod source_dim (Pad 'wrap')
};

/// One output axis of a remap.
struct Axis {
  AxisKind kind = AxisKind::affine;
  std::int64_t start = 0;  ///< affine: source index of output 0; pads: source index of output 0 (-pad_before)
  std::int64_t step = 1;   ///< affine only
  std::int64_t source_dim = 1;
  std::int64_t output_dim = 1;

  /// Source index of output index `i`, or -1 for the fill value.
  std::int64_t source_index(std::int64_t i) const noexcept {
    if (kind == AxisKind::affine) return start + i * step;
    if (kind == AxisKind::modulo) return i % source_dim;
    const std::int64_t s = start + i;
    if (s >= 0 && s < source_dim) return s;
    switch (kind) {
      case AxisKind::edge_pad: return s < 0 ? 0 : source_dim - 1;
      case AxisKind::reflect_pad: {
        if (source_dim == 1) return 0;
        const std::int64_t period = 2 * (source_dim - 1);
        std::int64_t m = s % period;
        if (m < 0) m += period;
        return m < source_dim ? m : period - m;
      }
      case AxisKind::wrap_pad: {
        std::int64_t m = s % source_dim;
        return m < 0 ? m + source_dim : m;
      }
      default: return -1;
    }
  }
};

/// A whole remap: output axes over a dense row-major source of the same rank.
struct Plan {
  int rank = 0;
  Axis axes[kMaxRank];
  std::int64_t source_strides[kMaxRank] = {};  ///< in elements
  std::size_t element_bits = 0;
  std::int64_t output_count = 0;
};

/// Finishes `plan` after its axes are set: source strides (from each axis's source_dim), output count.
inline void finish(Plan& plan, std::size_t element_bits) noexcept {
  plan.element_bits = element_bits;
  // Unsigned (wrapping) products: a plan whose output is too large to count is rejected by set_output()'s
  // size check, so an overflow here must not be undefined behaviour.
  std::uint64_t stride = 1;
  std::uint64_t output_count = 1;
  for (int d = plan.rank - 1; d >= 0; --d) {
    plan.source_strides[d] = static_cast<std::int64_t>(stride);
    stride *= static_cast<std::uint64_t>(plan.axes[d].source_dim);
    output_count *= static_cast<std::uint64_t>(plan.axes[d].output_dim);
  }
  plan.output_count = static_cast<std::int64_t>(output_count);
}

/// The output shape of a finished plan.
inline Shape output_shape(const Plan& plan) noexcept {
  Shape shape;
  shape.resize(plan.rank);
  for (int d = 0; d < plan.rank; ++d) shape[d] = plan.axes[d].output_dim;
  return shape;
}

/// Writes `count` copies of the fill element (`fill`: its bits; nullptr: zeros) from element `index` of `dst`.
inline void fill_elements(void* dst, std::int64_t index, std::int64_t count, const void* fill,
                          std::size_t bits) noexcept {
  if (bits < 8) {
    const std::uint8_t value = fill == nullptr ? 0 : shape_util::get_packed(fill, 0, bits);
    for (std::int64_t i = 0; i < count; ++i) shape_util::set_packed(dst, index + i, bits, value);
    return;
  }
  const std::size_t bytes = bits / 8;
  unsigned char* out = static_cast<unsigned char*>(dst) + static_cast<std::size_t>(index) * bytes;
  if (fill == nullptr) {
    std::memset(out, 0, static_cast<std::size_t>(count) * bytes);
    return;
  }
  for (std::int64_t i = 0; i < count; ++i) std::memcpy(out + static_cast<std::size_t>(i) * bytes, fill, bytes);
}

/// Runs a finished plan from `src` into `dst` (no overlap). `fill` is the fill element's bits (nullptr: zeros).
inline void copy(const Plan& plan, const void* src, void* dst, const void* fill) noexcept {
  if (plan.output_count == 0) return;
  const std::size_t bits = plan.element_bits;
  if (plan.rank == 0) {
    shape_util::copy_elements(dst, 0, src, 0, 1, bits);
  } else {
    const int last = plan.rank - 1;
    const Axis& inner = plan.axes[last];
    const std::int64_t length = inner.output_dim;
    std::int64_t index[kMaxRank] = {};
    std::int64_t out = 0;
    for (;;) {
      bool fill_row = false;
      std::int64_t base = 0;
      for (int d = 0; d < last; ++d) {
        const std::int64_t s = plan.axes[d].source_index(index[d]);
        if (s < 0) fill_row = true;
        base += s * plan.source_strides[d];
      }
      if (fill_row) {
        fill_elements(dst, out, length, fill, bits);
      } else {
        // Maximal runs of fill values or of consecutive source elements, each copied at once.
        for (std::int64_t j = 0; j < length;) {
          const std::int64_t s = inner.source_index(j);
          std::int64_t run = 1;
          if (s < 0) {
            while (j + run < length && inner.source_index(j + run) < 0) ++run;
            fill_elements(dst, out + j, run, fill, bits);
          } else {
            while (j + run < length && inner.source_index(j + run) == s + run) ++run;
            shape_util::copy_elements(dst, out + j, src, base + s, run, bits);
          }
          j += run;
        }
      }
      out += length;
      int d = last - 1;
      for (; d >= 0; --d) {
        if (++index[d] < plan.axes[d].output_dim) break;
        index[d] = 0;
      }
      if (d < 0) break;
    }
  }
  if (bits < 8) shape_util::clear_padding_bits(dst, plan.output_count, bits);
}

/// Identity axes for every dim of `source` (callers then change the axes they remap).
inline void start_identity(Plan& plan, const Shape& source) noexcept {
  plan.rank = source.rank();
  for (int d = 0; d < plan.rank; ++d) {
    plan.axes[d] = Axis();
    plan.axes[d].source_dim = source[d];
    plan.axes[d].output_dim = source[d];
  }
}

/// Validates the data input `index` for a remap kernel (known shape, fixed-size dtype); gives its element bits.
inline Status check_source(const PrepareContext& ctx, int index, std::size_t& bits) noexcept {
  ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(index));
  ONNXMICRO_RETURN_IF_ERROR(shape_util::input_element_bits(ctx, index, bits));
  const TensorInfo& in = ctx.input(index);
  if (!in.shape.is_static()) {
    return ctx.input_error(index, {}, StatusCode::unsupported) << " has shape " << in.shape << " with unknown dims";
  }
  return {};
}

/// Reads element `i` of a constant int32/int64 input as int64 (constant data may be unaligned).
inline std::int64_t constant_int(const TensorInfo& info, std::int64_t i) noexcept {
  const unsigned char* bytes = static_cast<const unsigned char*>(info.const_data);
  if (info.dtype == DataType::int32) {
    std::int32_t v;
    std::memcpy(&v, bytes + i * 4, 4);
    return v;
  }
  std::int64_t v;
  std::memcpy(&v, bytes + i * 8, 8);
  return v;
}

/// Kernel state of the remap kernels that fill with zeros or nothing.
struct State {
  Plan plan;
};

/// Checks the output size and sets output 0 (dtype of input 0, shape of `plan`).
inline Status set_output(PrepareContext& ctx, const Plan& plan) noexcept {
  const Shape out = output_shape(plan);
  std::size_t bytes = 0;
  ONNXMICRO_RETURN_IF_ERROR(checked_byte_size(ctx.input(0).dtype, out, bytes));
  ctx.set_output(0, ctx.input(0).dtype, out);
  return {};
}

/// set_output(), then stores `plan` in a new State.
inline Status set_output_and_state(PrepareContext& ctx, const Plan& plan) noexcept {
  ONNXMICRO_RETURN_IF_ERROR(set_output(ctx, plan));
  State* state = nullptr;
  ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
  state->plan = plan;
  return {};
}

/// run() of the remap kernels whose State is remap::State: input 0 to output 0, zero fill.
inline Status run_state(RunContext& ctx) noexcept {
  copy(ctx.state<State>().plan, ctx.input(0).data, ctx.output(0).data, nullptr);
  return {};
}

}  // namespace remap
}  // namespace kernels
ONNXMICRO_NAMESPACE_END
