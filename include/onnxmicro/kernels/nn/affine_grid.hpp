// SPDX-License-Identifier: MIT
// AffineGrid: the sampling grid theta @ [x, y, (z,) 1] over evenly spaced positions in [-1, 1] for an output of
// spatial size `size` (N, C, H, W) or (N, C, D, H, W); output (N, H, W, 2) or (N, D, H, W, 3), x varying along W.
// align_corners=1 puts -1 and 1 on the centres of the corner pixels, 0 on their outer edges. Computed in double
// as onnx/reference/ops/op_affine_grid.py (float64 matmul), then rounded to theta's dtype. `size` decides the
// output shape, so it must be known at prepare time (Session::run(inputs) offers the values and re-plans). Only version
// 20 exists.
#pragma once
#include <cstdint>

#include "onnxmicro/kernels/common/shape_util.hpp"
#include "onnxmicro/kernels/kernel_api.hpp"
#include "onnxmicro/kernels/nn/resize_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

namespace affine_grid_detail {

/// The implementation of AffineGrid (see the file comment).
struct AffineGridImpl : KernelDefaults {
  static constexpr std::string_view kOpType = "AffineGrid";
  static constexpr int kTheta = 0;
  static constexpr int kSize = 1;
  static constexpr int kGrid = 0;

  struct State {
    void (*compute)(const State& s, const void* theta, void* grid) noexcept;
    int spatial_rank;  ///< 2 or 3
    std::int64_t batch;
    std::int64_t dims[3];  ///< (H, W) or (D, H, W)
    double start[3];       ///< first position along each dim
    double step[3];        ///< spacing along each dim
  };

  static Status prepare(PrepareContext& ctx) noexcept {
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kTheta));
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kSize));
    const TensorInfo& theta = ctx.input(kTheta);
    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
    switch (compiled_dtype(theta.dtype)) {
      case DataType::float32: state->compute = &compute<float>; break;
      case DataType::float64: state->compute = &compute<double>; break;
      case DataType::float16: state->compute = &compute<float16_t>; break;
      case DataType::bfloat16: state->compute = &compute<bfloat16_t>; break;
      default: return ctx.unsupported_input_dtype(kTheta);
    }
    std::int64_t size[kMaxRank];
    std::size_t count = 0;
    ONNXMICRO_RETURN_IF_ERROR(shape_util::read_constant_ints(ctx, kSize, "size", size, kMaxRank, count));
    if (count != 4 && count != 5) {
      return ctx.input_error(kSize, "size")
             << " has " << count << " values, expected 4 (N, C, H, W) or 5 (N, C, D, H, W)";
    }
    const int r = static_cast<int>(count) - 2;
    if (theta.shape.rank() != 3 || theta.shape[0] != size[0] || theta.shape[1] != r || theta.shape[2] != r + 1) {
      return ctx.input_error(kTheta) << " has shape " << theta.shape << ", expected [" << size[0] << ", " << r << ", "
                                     << r + 1 << "] for size of " << r + 2 << " values";
    }
    std::int64_t align = 0;
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("align_corners", align, 0));
    state->spatial_rank = r;
    state->batch = size[0];
    Shape grid;
    grid.resize(r + 2);
    grid[0] = size[0];
    for (int d = 0; d < r; ++d) {
      const std::int64_t n = size[d + 2];
      if (n < 0) {
        return ctx.input_error(kSize, "size") << " has negative dimension " << n;
      }
      state->dims[d] = n;
      grid[d + 1] = n;
      // np.arange(-1, 1, 2/(n-1)) with align_corners, else from -1 + 1/n in steps of 2/n; a single position is 0
      // (PyTorch's choice; the reference divides by zero there).
      if (n <= 1) {
        state->start[d] = 0.0;
        state->step[d] = 0.0;
      } else if (align != 0) {
        state->step[d] = 2.0 / static_cast<double>(n - 1);
        state->start[d] = -1.0;
      } else {
        state->step[d] = 2.0 / static_cast<double>(n);
        state->start[d] = -1.0 + state->step[d] / 2;
      }
    }
    grid[r + 1] = r;
    ctx.set_output(kGrid, theta.dtype, grid);
    return {};
  }

  static Status run(RunContext& ctx) noexcept {
    const State& state = ctx.state<State>();
    state.compute(state, ctx.input(kTheta).data, ctx.output(kGrid).data);
    return {};
  }

 private:
  template <typename T>
  static void compute(const State& s, const void* theta_data, void* grid_data) noexcept {
    const T* theta = static_cast<const T*>(theta_data);
    T* grid = static_cast<T*>(grid_data);
    const int r = s.spatial_rank;
    const std::int64_t depth = r == 3 ? s.dims[0] : 1;
    const std::int64_t height = s.dims[r - 2];
    const std::int64_t width = s.dims[r - 1];
    std::int64_t out = 0;
    for (std::int64_t n = 0; n < s.batch; ++n) {
      const T* m = theta + n * r * (r + 1);
      for (std::int64_t z = 0; z < depth; ++z) {
        for (std::int64_t y = 0; y < height; ++y) {
          for (std::int64_t x = 0; x < width; ++x) {
            // Homogeneous position (x, y[, z], 1): x along W, y along H, z along D.
            double position[4];
            position[0] = s.start[r - 1] + static_cast<double>(x) * s.step[r - 1];
            position[1] = s.start[r - 2] + static_cast<double>(y) * s.step[r - 2];
            if (r == 3) position[2] = s.start[0] + static_cast<double>(z) * s.step[0];
            position[r] = 1.0;
            for (int i = 0; i < r; ++i) {
              double acc = 0.0;
              for (int k = 0; k <= r; ++k) acc += resize_util::load(m[i * (r + 1) + k]) * position[k];
              grid[out++] = resize_util::store<T>(acc);
            }
          }
        }
      }
    }
  }
};

}  // namespace affine_grid_detail

// AffineGrid-20: the first version.
using AffineGrid_20 = VersionedKernel<affine_grid_detail::AffineGridImpl, 20>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
