// SPDX-License-Identifier: MIT
// CumProd: running products along the axis given by input 1 (a constant int32/int64 scalar). exclusive=1 leaves
// the current element out (the first product is 1); reverse=1 runs from the end of the axis. Integers wrap
// modulo 2^bits like numpy; float16/bfloat16 accumulate in float32 and round each output once.
//
// CumProd has CumSum's inputs, attributes, dtypes (those of CumSum-14) and iteration plan, so it reuses
// CumSum_11's prepare() and run() and only replaces the per-dtype compute function in CumSum's state.
#pragma once
#include <type_traits>

#include "onnxmicro/kernels/math/cum_sum.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

namespace cum_prod_detail {

/// The implementation of CumProd (see the file comment).
struct CumProdImpl : KernelDefaults {
  static constexpr std::string_view kOpType = "CumProd";
  static constexpr int kInPlaceInput = 0;
  using State = cum_sum_detail::CumSumImpl::State;

  static Status prepare(PrepareContext& ctx) noexcept {
    ONNXMICRO_RETURN_IF_ERROR(cum_sum_detail::CumSumImpl::prepare(ctx));
    State* state = static_cast<State*>(ctx.state());
    visit_dtype(ctx.input(cum_sum_detail::CumSumImpl::kInput).dtype, cum_sum_detail::CumSumImpl::Types{},
                [&](auto tag) noexcept { state->compute = &compute<typename decltype(tag)::type>; });
    return {};
  }

  static Status run(RunContext& ctx) noexcept { return cum_sum_detail::CumSumImpl::run(ctx); }

 private:
  // y may alias x: each position's input is read before its output is written, and only earlier (in scan
  // order) positions were written before.
  template <typename T>
  static void compute(const void* x, void* y, const AxisSlices& s, bool exclusive, bool reverse) noexcept {
    using C = compute_t<T>;
    const T* in = static_cast<const T*>(x);
    T* out = static_cast<T*>(y);
    const std::int64_t step = reverse ? -s.inner : s.inner;
    const std::int64_t first = reverse ? (s.length - 1) * s.inner : 0;
    for (std::int64_t line = 0; line < s.outer * s.inner && s.length > 0; ++line) {
      std::int64_t p = (line / s.inner) * s.length * s.inner + line % s.inner + first;
      C product = 1;
      for (std::int64_t k = 0; k < s.length; ++k, p += step) {
        const C before = product;
        if constexpr (std::is_integral_v<C>) {
          product = wrapping_mul(product, load_element(in[p]));
        } else {
          product *= load_element(in[p]);
        }
        out[p] = store_element<T>(exclusive ? before : product);
      }
    }
  }
};

}  // namespace cum_prod_detail

// Opset 26: first version.
using CumProd_26 = VersionedKernel<cum_prod_detail::CumProdImpl, 26>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
