// SPDX-License-Identifier: MIT
// Binarizer (ai.onnx.ml, opset 1): y = x > threshold ? 1 : 0, same dtype and shape. Integer inputs compare
// in double against the float threshold (as numpy does in the reference); NaN gives 0.
#pragma once
#include <cstdint>

#include "onnxmicro/kernels/common/elementwise.hpp"
#include "onnxmicro/kernels/kernel_api.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

namespace binarizer_detail {

/// The implementation of Binarizer (see the file comment).
struct BinarizerImpl : KernelDefaults {
  static constexpr std::string_view kDomain = "ai.onnx.ml";
  static constexpr std::string_view kOpType = "Binarizer";
  static constexpr int kInPlaceInput = 0;
  static constexpr int kInput = 0;
  static constexpr int kOutput = 0;

  using Types = TypeList<float, double, std::int64_t, std::int32_t>;

  struct State {
    void (*compute)(const void*, void*, std::int64_t, double) noexcept;
    double threshold;
  };

  static Status prepare(PrepareContext& ctx) noexcept {
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kInput));
    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
    float threshold = 0.0f;
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("threshold", threshold, 0.0f));
    state->threshold = static_cast<double>(threshold);
    const bool known = visit_dtype(ctx.input(kInput).dtype, Types{},
                                   [&](auto tag) { state->compute = &compute<typename decltype(tag)::type>; });
    if (!known) return ctx.unsupported_input_dtype(kInput);
    ctx.set_output(kOutput, ctx.input(kInput).dtype, ctx.input(kInput).shape);
    return {};
  }

  static Status run(RunContext& ctx) noexcept {
    const State& state = ctx.state<State>();
    state.compute(ctx.input(kInput).data, ctx.output(kOutput).data, ctx.input(kInput).element_count(), state.threshold);
    return {};
  }

 private:
  template <typename T>
  static void compute(const void* x, void* y, std::int64_t count, double threshold) noexcept {
    const T* in = static_cast<const T*>(x);
    T* out = static_cast<T*>(y);
    for (std::int64_t i = 0; i < count; ++i) out[i] = static_cast<double>(in[i]) > threshold ? T(1) : T(0);
  }
};

}  // namespace binarizer_detail

// Opset 1: the only version.
using Binarizer_1 = VersionedKernel<binarizer_detail::BinarizerImpl, 1>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
