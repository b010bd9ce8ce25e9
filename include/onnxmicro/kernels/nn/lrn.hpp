// SPDX-License-Identifier: MIT
// LRN (local response normalisation across channels) of X (N, C, D1, ..., Dk):
//   y = x / (bias + alpha / size * sum of x^2 over channels [c - floor((size-1)/2), c + ceil((size-1)/2)])^beta,
// the channel range clipped to [0, C). Squares are summed in double. (onnx's reference loops over the batch
// dim where it means channels; the spec and the expected outputs, whose N equals C, agree with channels.)
#pragma once
#include <cmath>
#include <cstdint>

#include "onnxmicro/kernels/common/compute_type.hpp"
#include "onnxmicro/kernels/common/shape_util.hpp"
#include "onnxmicro/kernels/kernel_api.hpp"
#include "onnxmicro/kernels/nn/spatial_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {
namespace lrn_detail {

struct LrnImpl : kernels::KernelDefaults {
  static constexpr std::string_view kOpType = "LRN";
  static constexpr int kX = 0;
  static constexpr int kY = 0;

  struct State {
    void (*compute)(const State&, const void* x, void* y) noexcept;
    std::int64_t batch, channels, inner;
    std::int64_t before, after;  ///< channels summed before and after c
    double alpha_over_size, beta, bias;
  };

  static Status prepare(kernels::PrepareContext& ctx, int /*since: every version accepts the same*/) noexcept {
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kX));
    const kernels::TensorInfo& x = ctx.input(kX);
    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
    const bool is_float = spatial_util::visit_float_dtype(
        x.dtype, [&](auto tag) { state->compute = &compute<typename decltype(tag)::type>; });
    if (!is_float) return ctx.unsupported_input_dtype(kX);
    if (x.shape.rank() < 2) {
      return ctx.input_error(kX) << " has shape " << x.shape << ", expected rank >= 2 (N, C, D1, ..., Dk)";
    }
    std::int64_t size = 0;
    ONNXMICRO_RETURN_IF_ERROR(ctx.required_attribute("size", size));
    if (size < 1) {
      return Status(StatusCode::invalid_model) << "attribute 'size' is " << size << ", expected >= 1";
    }
    float alpha = 1e-4f, beta = 0.75f, bias = 1.0f;
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("alpha", alpha, 1e-4f));
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("beta", beta, 0.75f));
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("bias", bias, 1.0f));
    state->alpha_over_size = static_cast<double>(alpha) / static_cast<double>(size);
    state->beta = static_cast<double>(beta);
    state->bias = static_cast<double>(bias);
    state->before = (size - 1) / 2;
    state->after = size - 1 - state->before;
    state->batch = x.shape[0];
    state->channels = x.shape[1];
    state->inner = kernels::shape_util::dims_product(x.shape, 2, x.shape.rank());
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
    for (std::int64_t n = 0; n < s.batch; ++n) {
      const T* image = x + n * s.channels * s.inner;
      T* out = y + n * s.channels * s.inner;
      for (std::int64_t c = 0; c < s.channels; ++c) {
        const std::int64_t first = c - s.before < 0 ? 0 : c - s.before;
        const std::int64_t last = c + s.after >= s.channels ? s.channels - 1 : c + s.after;
        for (std::int64_t i = 0; i < s.inner; ++i) {
          double sum = 0.0;
          for (std::int64_t k = first; k <= last; ++k) {
            const double v = static_cast<double>(compute_type::widen(image[k * s.inner + i]));
            sum += v * v;
          }
          const double divisor = std::pow(s.bias + s.alpha_over_size * sum, s.beta);
          const C v = compute_type::widen(image[c * s.inner + i]);
          out[c * s.inner + i] = compute_type::narrow<T>(static_cast<C>(static_cast<double>(v) / divisor));
        }
      }
    }
  }
};

}  // namespace lrn_detail

// LRN-1 (also 13, which added bfloat16).
using LRN_1 = VersionedKernel<lrn_detail::LrnImpl, 1>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
