// SPDX-License-Identifier: MIT
// Col2Im: the inverse of im2col. Input (N, C * prod(block_shape), L) holds, per channel and block tap, the
// value every sliding block position contributed; they are summed back into an image (N, C, image_shape...)
// where block position p and tap k land on p * stride + k * dilation - pad_begin per axis (positions in the
// padding are dropped). L must equal the number of block positions, prod((image + pads - (block - 1) *
// dilation - 1) / stride + 1). image_shape and block_shape decide the output shape, so they must be known at
// prepare time. Numeric dtypes only (string, bool and complex tensors are not supported).
#pragma once
#include <cstdint>

#include "onnxmicro/kernels/common/compute_type.hpp"
#include "onnxmicro/kernels/common/scratch.hpp"
#include "onnxmicro/kernels/common/shape_util.hpp"
#include "onnxmicro/kernels/common/sliding_window.hpp"
#include "onnxmicro/kernels/kernel_api.hpp"
#include "onnxmicro/kernels/nn/spatial_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {
namespace col2im_detail {

struct Col2ImImpl : kernels::KernelDefaults {
  static constexpr std::string_view kOpType = "Col2Im";
  using RunContext = kernels::RunContext;
  static constexpr int kInput = 0;
  static constexpr int kImageShape = 1;
  static constexpr int kBlockShape = 2;
  static constexpr int kOutput = 0;

  struct State {
    void (*compute)(const State&, RunContext&) noexcept;
    spatial_util::ScatterGeometry geometry;
    std::int64_t planes;  ///< N * C
    std::int64_t image_size, block_size, positions;
    std::size_t accumulator_offset;
  };

  static Status prepare(kernels::PrepareContext& ctx, int /*since: every version accepts the same*/) noexcept {
    for (int i = kInput; i <= kBlockShape; ++i) ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(i));
    const kernels::TensorInfo& x = ctx.input(kInput);
    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
    scratch::ScratchLayout layout;
    std::size_t accumulator_bytes = 0;
    switch (compiled_dtype(x.dtype)) {
      case DataType::float32:
        state->compute = &compute<float>;
        accumulator_bytes = 4;
        break;
      case DataType::float64:
        state->compute = &compute<double>;
        accumulator_bytes = 8;
        break;
      case DataType::float16:
        state->compute = &compute<float16_t>;
        accumulator_bytes = 4;
        break;
      case DataType::bfloat16:
        state->compute = &compute<bfloat16_t>;
        accumulator_bytes = 4;
        break;
      case DataType::int8:
        state->compute = &compute<std::int8_t>;
        accumulator_bytes = 1;
        break;
      case DataType::int16:
        state->compute = &compute<std::int16_t>;
        accumulator_bytes = 2;
        break;
      case DataType::int32:
        state->compute = &compute<std::int32_t>;
        accumulator_bytes = 4;
        break;
      case DataType::int64:
        state->compute = &compute<std::int64_t>;
        accumulator_bytes = 8;
        break;
      case DataType::uint8:
        state->compute = &compute<std::uint8_t>;
        accumulator_bytes = 1;
        break;
      case DataType::uint16:
        state->compute = &compute<std::uint16_t>;
        accumulator_bytes = 2;
        break;
      case DataType::uint32:
        state->compute = &compute<std::uint32_t>;
        accumulator_bytes = 4;
        break;
      case DataType::uint64:
        state->compute = &compute<std::uint64_t>;
        accumulator_bytes = 8;
        break;
      default: return ctx.unsupported_input_dtype(kInput);
    }
    if (x.shape.rank() != 3) {
      return ctx.input_error(kInput) << " has shape " << x.shape << ", expected rank 3 (N, C * prod(block_shape), L)";
    }
    std::int64_t image[kMaxRank + 1] = {}, block[kMaxRank + 1] = {};
    std::size_t image_rank = 0, block_rank = 0;
    ONNXMICRO_RETURN_IF_ERROR(
        kernels::shape_util::read_constant_ints(ctx, kImageShape, "image_shape", image, kMaxRank + 1, image_rank));
    ONNXMICRO_RETURN_IF_ERROR(
        kernels::shape_util::read_constant_ints(ctx, kBlockShape, "block_shape", block, kMaxRank + 1, block_rank));
    if (image_rank == 0 || block_rank != image_rank) {
      return Status(StatusCode::invalid_model) << "inputs 1 (image_shape) and 2 (block_shape) have " << image_rank
                                               << " and " << block_rank << " values, expected the same count >= 1";
    }
    const int rank = static_cast<int>(image_rank);
    if (rank > sliding_window::kMaxSpatialRank) {
      return Status(StatusCode::unsupported) << "image_shape has " << rank << " dims, at most "
                                             << sliding_window::kMaxSpatialRank << " supported (ONNXMICRO_MAX_RANK)";
    }
    spatial_util::ScatterGeometry& g = state->geometry;
    g.rank = rank;
    bool present = false;
    std::int64_t pads[2 * sliding_window::kMaxSpatialRank] = {};
    ONNXMICRO_RETURN_IF_ERROR(spatial_util::read_axis_attribute(ctx, "strides", rank, 1, 1, g.stride, present));
    ONNXMICRO_RETURN_IF_ERROR(spatial_util::read_axis_attribute(ctx, "dilations", rank, 1, 1, g.dilation, present));
    ONNXMICRO_RETURN_IF_ERROR(spatial_util::read_axis_attribute(ctx, "pads", 2 * rank, 0, 0, pads, present));
    for (int i = 0; i < rank; ++i) {
      if (image[i] < 1 || block[i] < 1) {
        return Status(StatusCode::invalid_model) << "image_shape and block_shape must be >= 1, got " << image[i]
                                                 << " and " << block[i] << " on axis " << i;
      }
      g.output[i] = image[i];
      g.kernel[i] = block[i];
      g.pad_begin[i] = pads[i];
      const std::int64_t span = image[i] + pads[i] + pads[i + rank] - (block[i] - 1) * g.dilation[i] - 1;
      if (span < 0) {
        return Status(StatusCode::invalid_model)
               << "axis " << i << ": the dilated block is larger than the padded image";
      }
      g.input[i] = span / g.stride[i] + 1;
    }
    state->block_size = g.kernel_size();
    state->positions = g.input_size();
    state->image_size = g.output_size();
    if (x.shape[1] % state->block_size != 0 || x.shape[2] != state->positions) {
      return ctx.input_error(kInput) << " has shape " << x.shape
                                     << ", expected dim 1 divisible by prod(block_shape) = " << state->block_size
                                     << " and dim 2 = the number of block positions " << state->positions;
    }
    const std::int64_t channels = x.shape[1] / state->block_size;
    state->planes = x.shape[0] * channels;
    Shape y;
    y.resize(rank + 2);
    y[0] = x.shape[0];
    y[1] = channels;
    for (int i = 0; i < rank; ++i) y[i + 2] = image[i];
    std::int64_t y_count = 0;
    ONNXMICRO_RETURN_IF_ERROR(y.checked_element_count(y_count));
    // One image plane accumulated in the compute type (float for the 16-bit floats).
    state->accumulator_offset =
        layout.reserve<unsigned char>(state->image_size * static_cast<std::int64_t>(accumulator_bytes));
    ctx.request_scratch(layout.bytes());
    ctx.set_output(kOutput, x.dtype, y);
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
    const T* x = static_cast<const T*>(ctx.input(kInput).data);
    T* y = static_cast<T*>(ctx.output(kOutput).data);
    Acc* acc = scratch::scratch_at<Acc>(ctx.scratch(), s.accumulator_offset);
    for (std::int64_t plane = 0; plane < s.planes; ++plane) {
      for (std::int64_t i = 0; i < s.image_size; ++i) acc[i] = Acc(0);
      const T* columns = x + plane * s.block_size * s.positions;
      spatial_util::for_each_scatter(s.geometry, [&](std::int64_t p, std::int64_t tap, std::int64_t o) {
        acc[o] = static_cast<Acc>(acc[o] + compute_type::widen(columns[tap * s.positions + p]));
      });
      spatial_util::store_narrowed(acc, s.image_size, y + plane * s.image_size);
    }
  }
};

}  // namespace col2im_detail

// Col2Im-18: the first version.
using Col2Im_18 = VersionedKernel<col2im_detail::Col2ImImpl, 18>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
