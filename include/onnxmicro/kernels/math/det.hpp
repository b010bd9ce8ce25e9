// SPDX-License-Identifier: MIT
// Det: determinants of the square matrices in the last two dims, [*, M, M] -> [*]. Each matrix is copied to
// scratch and reduced by Gaussian elimination with partial pivoting (LU); the determinant is the product of the
// pivots, negated once per row swap. float16/bfloat16 compute in float32 and round once.
#pragma once
#include <cmath>

#include "onnxmicro/kernels/common/elementwise.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

namespace det_detail {

/// The implementation of Det (see the file comment).
struct DetImpl : KernelDefaults {
  static constexpr std::string_view kOpType = "Det";
  static constexpr int kInput = 0;
  static constexpr int kOutput = 0;

  struct State {
    std::int64_t matrices;
    std::int64_t size;  // M
    void (*compute)(const void* x, void* y, std::int64_t matrices, std::int64_t size, void* scratch) noexcept;
  };

  static Status prepare(PrepareContext& ctx) noexcept {
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kInput));
    const TensorInfo& input = ctx.input(kInput);
    if (!input.shape.is_static()) {
      return ctx.input_error(kInput, {}, StatusCode::unsupported)
             << " has shape " << input.shape << "; it must be known at prepare time";
    }
    const int rank = input.shape.rank();
    if (rank < 2 || input.shape[rank - 1] != input.shape[rank - 2]) {
      return ctx.input_error(kInput) << " must be square matrices [*, M, M], got shape " << input.shape;
    }
    // bfloat16: added in opset 22.
    if (input.dtype == DataType::bfloat16 && ctx.opset_version() < 22) return ctx.unsupported_input_dtype(kInput);
    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
    std::size_t scratch_element = 0;
    const bool supported = visit_dtype(input.dtype, FloatTypes{}, [&](auto tag) noexcept {
      using T = typename decltype(tag)::type;
      state->compute = &compute<T>;
      scratch_element = sizeof(compute_t<T>);
    });
    if (!supported) return ctx.unsupported_input_dtype(kInput);
    Shape output;
    ONNXMICRO_RETURN_IF_ERROR(output.assign(input.shape.data(), static_cast<std::size_t>(rank - 2)));
    state->matrices = output.element_count();
    state->size = input.shape[rank - 1];
    ctx.request_scratch(static_cast<std::size_t>(state->size * state->size) * scratch_element);
    ctx.set_output(kOutput, input.dtype, output);
    return {};
  }

  static Status run(RunContext& ctx) noexcept {
    const State& state = ctx.state<State>();
    state.compute(ctx.input(kInput).data, ctx.output(kOutput).data, state.matrices, state.size, ctx.scratch());
    return {};
  }

 private:
  template <typename T>
  static void compute(const void* x, void* y, std::int64_t matrices, std::int64_t size, void* scratch) noexcept {
    using C = compute_t<T>;
    const T* in = static_cast<const T*>(x);
    T* out = static_cast<T*>(y);
    C* a = static_cast<C*>(scratch);
    const std::int64_t elements = size * size;
    for (std::int64_t m = 0; m < matrices; ++m) {
      for (std::int64_t i = 0; i < elements; ++i) a[i] = load_element(in[m * elements + i]);
      out[m] = store_element<T>(determinant(a, size));
    }
  }

  // Destroys `a` (row-major size x size). The determinant of a 0 x 0 matrix is 1.
  template <typename C>
  static C determinant(C* a, std::int64_t size) noexcept {
    C det = 1;
    for (std::int64_t k = 0; k < size; ++k) {
      std::int64_t pivot = k;
      for (std::int64_t r = k + 1; r < size; ++r) {
        if (std::fabs(a[r * size + k]) > std::fabs(a[pivot * size + k])) pivot = r;
      }
      if (a[pivot * size + k] == C(0)) return C(0);  // singular
      if (pivot != k) {
        for (std::int64_t c = k; c < size; ++c) {
          const C t = a[k * size + c];
          a[k * size + c] = a[pivot * size + c];
          a[pivot * size + c] = t;
        }
        det = -det;
      }
      const C diagonal = a[k * size + k];
      det *= diagonal;
      for (std::int64_t r = k + 1; r < size; ++r) {
        const C factor = a[r * size + k] / diagonal;
        for (std::int64_t c = k + 1; c < size; ++c) a[r * size + c] -= factor * a[k * size + c];
      }
    }
    return det;
  }
};

}  // namespace det_detail

// Opset 11: first version (float16/float/double); opset 22 adds bfloat16 and nothing else, so this one kernel
// serves both.
using Det_11 = VersionedKernel<det_detail::DetImpl, 11>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
