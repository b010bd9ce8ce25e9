// SPDX-License-Identifier: MIT
// MaxPool: the maximum of each (dilated) window over the spatial axes of (N, C, D1, ..., Dn); padding never
// wins. Optional output 1 (8+) holds each maximum's int64 position in X flattened over (N, C, D1..Dn), the
// spatial part row-major (storage_order 0) or column-major (storage_order 1). The first maximum in row-major
// window order wins ties (without Indices, float planes on AVX2 may return the other zero of a +0/-0 tie); NaN
// inputs are skipped. A window lying entirely in padding yields the lowest value of the type and index -1.
#pragma once
#include <cstddef>
#include <cstdint>
#include <limits>

#include "onnxmicro/kernels/common/compute_type.hpp"
#include "onnxmicro/kernels/common/integer_gemm.hpp"
#include "onnxmicro/kernels/common/scratch.hpp"
#include "onnxmicro/kernels/common/sliding_window.hpp"
#include "onnxmicro/kernels/common/window_rows.hpp"
#include "onnxmicro/kernels/kernel_api.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {
namespace max_pool_detail {

/// Implementation shared by every MaxPool version; the version-specific attributes are gated on the node's
/// opset (storage_order and Indices: 8, ceil_mode and dilations: 10).
struct MaxPoolImpl : kernels::KernelDefaults {
  static constexpr std::string_view kOpType = "MaxPool";
  using RunContext = kernels::RunContext;
  static constexpr int kX = 0;
  static constexpr int kY = 0;
  static constexpr int kIndices = 1;

  struct State {
    void (*compute)(const State&, RunContext&) noexcept;
    sliding_window::WindowGeometry geometry;
    std::int64_t planes;  ///< N * C
    std::int64_t in_spatial, out_spatial;
    bool write_indices;
    bool column_major;                 ///< storage_order = 1
    Isa isa;                           ///< the row loops' instruction set (float planes without Indices)
    std::size_t plane_scratch_offset;  ///< 8-bit planes: per task, the byte rows, or the planes as floats
  };

  static Status prepare(kernels::PrepareContext& ctx, int /*since: every version accepts the same*/) noexcept {
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kX));
    const kernels::TensorInfo& x = ctx.input(kX);
    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
    switch (compiled_dtype(x.dtype)) {
      case DataType::float32: state->compute = &compute<float>; break;
      case DataType::float64: state->compute = &compute<double>; break;
      case DataType::float16: state->compute = &compute<float16_t>; break;
      case DataType::bfloat16: state->compute = &compute<bfloat16_t>; break;  // opset 22
      case DataType::int8: state->compute = &compute<std::int8_t>; break;     // opset 12
      case DataType::uint8: state->compute = &compute<std::uint8_t>; break;   // opset 12
      default: return ctx.unsupported_input_dtype(kX);
    }
    sliding_window::WindowRules rules;
    rules.dilations_since = 10;
    rules.ceil_mode_since = 10;
    ONNXMICRO_RETURN_IF_ERROR(sliding_window::parse_window(ctx, x.shape, rules, state->geometry));

    std::int64_t storage_order = 0;
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("storage_order", storage_order, 0));
    if (storage_order != 0 && storage_order != 1) {
      return Status(StatusCode::invalid_model)
             << "attribute 'storage_order' is " << storage_order << ", expected 0 or 1";
    }
    if (storage_order != 0 && ctx.opset_version() < 8) {
      return Status(StatusCode::invalid_model) << "attribute 'storage_order' is only defined from opset 8";
    }
    const bool indices = ctx.has_output(kIndices);
    if (indices && ctx.opset_version() < 8) {
      return ctx.output_error(kIndices, "Indices") << " is only defined from opset 8";
    }

    const sliding_window::WindowGeometry& g = state->geometry;
    state->planes = x.shape[0] * x.shape[1];
    state->in_spatial = g.input_size();
    state->out_spatial = g.output_size();
    state->write_indices = indices;
    state->column_major = storage_order == 1;
    // float 1-D/2-D planes without Indices: a row at a time (kernels/common/window_rows.hpp)
    if (ONNXMICRO_ENABLE_FAST_PATHS && !ctx.size_optimized() && !indices && g.rank <= 2) {
      state->isa = ctx.isa();
      if (x.dtype == DataType::float32) state->compute = &compute_rows;
      // 8-bit planes (QDQ models' pools) as bytes (window_rows::max_plane_bytes), or else through float rows: every
      // 8-bit value and their maxima are exact in float.
      const bool bytes = window_rows::max_bytes_fit(window_rows::plane_of(g));
      if (x.dtype == DataType::uint8)
        state->compute = bytes ? &compute_bytes<std::uint8_t> : &compute_rows_8bit<std::uint8_t>;
      if (x.dtype == DataType::int8)
        state->compute = bytes ? &compute_bytes<std::int8_t> : &compute_rows_8bit<std::int8_t>;
      if (x.dtype == DataType::uint8 || x.dtype == DataType::int8) {
        scratch::ScratchLayout layout;
        const std::int64_t slice_bytes =
            bytes ? window_rows::max_bytes_scratch(window_rows::plane_of(g))
                  : (state->in_spatial + state->out_spatial) * static_cast<std::int64_t>(sizeof(float));
        state->plane_scratch_offset = layout.reserve_slices<std::uint8_t>(slice_bytes, ctx.workers());
        ctx.request_scratch(layout.bytes());
      }
    }
    const Shape y = sliding_window::window_output_shape(x.shape, x.shape[1], g);
    ctx.set_output(kY, x.dtype, y);
    if (indices) ctx.set_output(kIndices, DataType::int64, y);
    return {};
  }

  static Status run(RunContext& ctx) noexcept {
    const State& state = ctx.state<State>();
    state.compute(state, ctx);
    return {};
  }

 private:
  /// Each plane a row at a time (window_rows: separably on AVX2 and up), vectorised over columns. The planes are
  /// split over the workers.
  static void compute_rows(const State& s, RunContext& ctx) noexcept {
    const window_rows::PlaneGeometry plane = window_rows::plane_of(s.geometry);
    const float* x = static_cast<const float*>(ctx.input(kX).data);
    float* y = static_cast<float*>(ctx.output(kY).data);
    auto planes_in = [&](std::int64_t first, std::int64_t end) noexcept {
      for (std::int64_t p = first; p < end; ++p) {
        window_rows::window_plane<window_rows::RowOp::max>(s.isa, plane, x + p * s.in_spatial, nullptr,
                                                           std::numeric_limits<float>::lowest(), y + p * s.out_spatial);
      }
    };
    const double plane_work = static_cast<double>(s.out_spatial) * static_cast<double>(s.geometry.kernel_size());
    ctx.workers().for_each_range(s.planes, plane_work * kTapCost, planes_in);
  }

  /// pool(x_plane, y_plane, scratch) for every plane of an 8-bit input, split over the workers, each task with
  /// `slice_bytes` of scratch of its own.
  template <typename T, typename Pool>
  static void for_each_8bit_plane(const State& s, RunContext& ctx, std::size_t slice_bytes, Pool&& pool) noexcept {
    const T* x = static_cast<const T*>(ctx.input(kX).data);
    T* y = static_cast<T*>(ctx.output(kY).data);
    const std::size_t stride = scratch::ScratchLayout::slice_stride<std::uint8_t>(slice_bytes);
    auto planes_in = [&](std::size_t task, std::int64_t first, std::int64_t end) noexcept {
      void* task_scratch = scratch::scratch_at<std::uint8_t>(ctx.scratch(), s.plane_scratch_offset + task * stride);
      for (std::int64_t p = first; p < end; ++p) pool(x + p * s.in_spatial, y + p * s.out_spatial, task_scratch);
    };
    const double plane_work = static_cast<double>(s.out_spatial) * static_cast<double>(s.geometry.kernel_size());
    ctx.workers().for_each_task_range(s.planes, plane_work * kTapCost, planes_in);
  }

  /// 8-bit planes: each plane widened to float, pooled as compute_rows does, and narrowed back (a window entirely in
  /// padding gives the type's lowest value, as the generic path does).
  template <typename T>
  static void compute_rows_8bit(const State& s, RunContext& ctx) noexcept {
    const window_rows::PlaneGeometry plane = window_rows::plane_of(s.geometry);
    const std::size_t bytes = static_cast<std::size_t>(s.in_spatial + s.out_spatial) * sizeof(float);
    for_each_8bit_plane<T>(s, ctx, bytes, [&](const T* x, T* y, void* task_scratch) {
      float* in = static_cast<float*>(task_scratch);
      float* out = in + s.in_spatial;
      integer_gemm::widen_floats(s.isa, x, s.in_spatial, 0, in);
      window_rows::window_plane<window_rows::RowOp::max>(s.isa, plane, in, nullptr,
                                                         std::numeric_limits<float>::lowest(), out);
      integer_gemm::narrow_floats(s.isa, out, s.out_spatial, y);
    });
  }

  /// 8-bit planes pooled as bytes (window_rows::max_plane_bytes).
  template <typename T>
  static void compute_bytes(const State& s, RunContext& ctx) noexcept {
    const window_rows::PlaneGeometry plane = window_rows::plane_of(s.geometry);
    const std::size_t bytes = static_cast<std::size_t>(window_rows::max_bytes_scratch(plane));
    for_each_8bit_plane<T>(s, ctx, bytes, [&](const T* x, T* y, void* task_scratch) {
      window_rows::max_plane_bytes(plane, x, y, static_cast<std::uint8_t*>(task_scratch));
    });
  }

  /// Work of one window tap, in the multiply-adds Workers::tasks_for counts: SqueezeNet's first MaxPool (64 planes,
  /// 3x3 windows, 55x55 outputs) takes ~0.2 ms for its 1.7 M taps on this host's cores, where the GEMM does ~40 M
  /// multiply-adds in that time. So that pool splits (it did not at a cost of 1: under two tasks' worth).
  static constexpr double kTapCost = 4.0;

  /// Spatial row-major offset -> column-major offset (storage_order 1).
  static std::int64_t column_major_offset(const sliding_window::WindowGeometry& g, std::int64_t offset) noexcept {
    std::int64_t coordinates[sliding_window::kMaxSpatialRank];
    for (int d = g.rank - 1; d >= 0; --d) {
      coordinates[d] = offset % g.input[d];
      offset /= g.input[d];
    }
    std::int64_t result = 0;
    for (int d = g.rank - 1; d >= 0; --d) result = result * g.input[d] + coordinates[d];
    return result;
  }

  template <typename T>
  static void compute(const State& s, RunContext& ctx) noexcept {
    using C = compute_type::ComputeType<T>;
    const sliding_window::WindowGeometry& g = s.geometry;
    const T* x = static_cast<const T*>(ctx.input(kX).data);
    T* y = static_cast<T*>(ctx.output(kY).data);
    std::int64_t* indices = s.write_indices ? static_cast<std::int64_t*>(ctx.output(kIndices).data) : nullptr;
    for (std::int64_t plane = 0; plane < s.planes; ++plane) {
      const T* x_plane = x + plane * s.in_spatial;
      T* y_plane = y + plane * s.out_spatial;
      // Without Indices, a walk that skips the index bookkeeping is faster; the size-optimised build keeps one.
      if (!ONNXMICRO_OPTIMIZE_FOR_SIZE && indices == nullptr) {
        sliding_window::for_each_window(g, [&](std::int64_t o, const sliding_window::WindowPlacement& w) {
          C best = std::numeric_limits<C>::lowest();
          if (w.inside > 0) {
            sliding_window::visit_window(g, w, [&](std::int64_t offset) {
              const C v = compute_type::widen(x_plane[offset]);
              best = v > best ? v : best;  // NaN compares false and never wins
            });
          }
          y_plane[o] = compute_type::narrow<T>(best);
        });
        continue;
      }
      std::int64_t* i_plane = indices != nullptr ? indices + plane * s.out_spatial : nullptr;
      sliding_window::for_each_window(g, [&](std::int64_t o, const sliding_window::WindowPlacement& w) {
        C best = std::numeric_limits<C>::lowest();
        std::int64_t best_offset = -1;
        if (w.inside > 0) {
          sliding_window::visit_window(g, w, [&](std::int64_t offset) {
            const C v = compute_type::widen(x_plane[offset]);
            if ((v > best || best_offset < 0) && v == v) {  // first maximum wins; NaN never does
              best = v;
              best_offset = offset;
            }
          });
        }
        y_plane[o] = compute_type::narrow<T>(best);
        if (i_plane == nullptr) return;
        i_plane[o] = best_offset < 0
                         ? -1
                         : plane * s.in_spatial + (s.column_major ? column_major_offset(g, best_offset) : best_offset);
      });
    }
  }
};

}  // namespace max_pool_detail

// MaxPool-1: kernel_shape, strides, pads, auto_pad; output Y only.
using MaxPool_1 = VersionedKernel<max_pool_detail::MaxPoolImpl, 1, 8>;
// MaxPool-8: adds the optional Indices output and storage_order.
using MaxPool_8 = VersionedKernel<max_pool_detail::MaxPoolImpl, 8, 10>;
// MaxPool-10: adds ceil_mode and dilations. 11 only re-documented SAME padding as out = ceil(in / stride)
// (what every version computes here), 12 added int8/uint8, 22 bfloat16.
using MaxPool_10 = VersionedKernel<max_pool_detail::MaxPoolImpl, 10>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
