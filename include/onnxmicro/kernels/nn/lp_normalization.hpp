// SPDX-License-Identifier: MIT
// LpNormalization: y = x / ||x||_p along `axis` (default -1), p = 1 or 2 (default 2); a zero norm gives 0 (as
// onnx's reference). The norm is summed in double. The reference raises x (not |x|) to p, which differs only
// for p = 1 with negative values; this follows the spec (the L1 norm sums |x|).
#pragma once
#include <cmath>
#include <cstdint>

#include "onnxmicro/kernels/common/compute_type.hpp"
#include "onnxmicro/kernels/common/shape_util.hpp"
#include "onnxmicro/kernels/kernel_api.hpp"
#include "onnxmicro/kernels/nn/spatial_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {
namespace lp_normalization_detail {

struct LpNormalizationImpl : kernels::KernelDefaults {
  static constexpr std::string_view kOpType = "LpNormalization";
  static constexpr int kInPlaceInput = 0;  // each line is read completely before it is written
  static constexpr int kX = 0;
  static constexpr int kY = 0;

  struct State {
    void (*compute)(const State&, const void* x, void* y) noexcept;
    std::int64_t outer, axis_size, inner;
    bool l1;
  };

  static Status prepare(kernels::PrepareContext& ctx, int /*since: every version accepts the same*/) noexcept {
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kX));
    const kernels::TensorInfo& x = ctx.input(kX);
    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
    const bool is_float = spatial_util::visit_float_dtype(
        x.dtype, [&](auto tag) { state->compute = &compute<typename decltype(tag)::type>; });
    if (!is_float) return ctx.unsupported_input_dtype(kX);
    const int rank = x.shape.rank();
    if (rank < 1) {
      return ctx.input_error(kX) << " is a scalar, expected rank >= 1";
    }
    std::int64_t axis_value = -1, p = 2;
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("axis", axis_value, -1));
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("p", p, 2));
    if (p != 1 && p != 2) {
      return Status(StatusCode::invalid_model) << "attribute 'p' is " << p << ", expected 1 or 2";
    }
    int axis = 0;
    ONNXMICRO_RETURN_IF_ERROR(kernels::shape_util::normalize_axis(axis_value, rank, "attribute 'axis'", true, axis));
    state->l1 = p == 1;
    state->outer = kernels::shape_util::dims_product(x.shape, 0, axis);
    state->axis_size = x.shape[axis];
    state->inner = kernels::shape_util::dims_product(x.shape, axis + 1, rank);
    ctx.set_output(kY, x.dtype, x.shape);
    return {};
  }

  static Status run(kernels::RunContext& ctx) noexcept {
    const State& s = ctx.state<State>();
    s.compute(s, ctx.input(kX).data, ctx.output(kY).data);
    return {};
  }

 private:
  template <typename T>
  static void compute(const State& s, const void* x_data, void* y_data) noexcept {
    using C = compute_type::ComputeType<T>;
    const T* x = static_cast<const T*>(x_data);
    T* y = static_cast<T*>(y_data);
    for (std::int64_t o = 0; o < s.outer; ++o) {
      for (std::int64_t i = 0; i < s.inner; ++i) {
        const std::int64_t base = o * s.axis_size * s.inner + i;
        double sum = 0.0;
        for (std::int64_t k = 0; k < s.axis_size; ++k) {
          const double v = static_cast<double>(compute_type::widen(x[base + k * s.inner]));
          sum += s.l1 ? std::fabs(v) : v * v;
        }
        const double norm = s.l1 ? sum : std::sqrt(sum);
        for (std::int64_t k = 0; k < s.axis_size; ++k) {
          const double v = static_cast<double>(compute_type::widen(x[base + k * s.inner]));
          y[base + k * s.inner] = compute_type::narrow<T>(static_cast<C>(norm == 0.0 ? 0.0 : v / norm));
        }
      }
    }
  }
};

}  // namespace lp_normalization_detail

// LpNormalization-1 (also 22, which added bfloat16).
using LpNormalization_1 = VersionedKernel<lp_normalization_detail::LpNormalizationImpl, 1>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
