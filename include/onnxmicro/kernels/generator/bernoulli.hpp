// SPDX-License-Identifier: MIT
// Bernoulli: y[i] = 1 with probability x[i], else 0 (y = u < p, u uniform in [0, 1)), output dtype 'dtype'
// (default input 0's). A probability outside [0, 1] (or NaN) fails run() with a status naming the value and its
// position. Random, so never folded at prepare time (kFoldable = false); generator, seeding and the state kept
// across runs are described in random_util.hpp.
#pragma once
#include "onnxmicro/kernels/generator/random_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {
namespace bernoulli_detail {

/// Every Bernoulli version; bfloat16 probabilities only from opset 22 (bfloat16 outputs: 15+).
struct BernoulliImpl : KernelDefaults {
  static constexpr std::string_view kOpType = "Bernoulli";
  static constexpr bool kFoldable = false;
  static constexpr std::uint64_t kSeedConstant = 0x4265726E6F756C6Cull;  // "Bernoull"

  struct State {
    random_util::Pcg32 generator;
    random_util::LoadFunction load;
    random_util::StoreFunction store;
  };

  static Status prepare(PrepareContext& ctx, int since) noexcept {
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(0));
    const TensorInfo& in = ctx.input(0);
    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
    const bool allow_bfloat16_input = since >= random_util::kBfloat16Since;
    state->load = random_util::real_loader(in.dtype, allow_bfloat16_input);
    if (state->load == nullptr) {
      return random_util::dtype_error("input 0's dtype", static_cast<std::int64_t>(in.dtype),
                                      allow_bfloat16_input ? random_util::kRealDtypesBf16 : random_util::kRealDtypes);
    }
    std::int64_t dtype_value = static_cast<std::int64_t>(in.dtype);
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("dtype", dtype_value, dtype_value));
    const DataType dtype = static_cast<DataType>(dtype_value);
    state->store =
        is_known_dtype(static_cast<std::int32_t>(dtype_value)) ? random_util::numeric_storer(dtype) : nullptr;
    if (state->store == nullptr) {
      return random_util::dtype_error("attribute 'dtype'", dtype_value,
                                      "bfloat16, float16, float, double, int8..int64, uint8..uint64, bool");
    }
    std::uint64_t seed = 0;
    ONNXMICRO_RETURN_IF_ERROR(random_util::node_seed(ctx, kSeedConstant, seed));
    state->generator.seed(seed);
    ctx.set_output(0, dtype, in.shape);
    return {};
  }

  static Status run(RunContext& ctx) noexcept {
    State& s = ctx.state<State>();
    const ConstTensorView& in = ctx.input(0);
    const TensorView& out = ctx.output(0);
    const std::size_t count = static_cast<std::size_t>(out.shape.element_count());
    for (std::size_t i = 0; i < count; ++i) {
      const double p = s.load(in.data, i);
      if (!(p >= 0.0 && p <= 1.0)) {
        return Status(StatusCode::out_of_range)
               << "input 0 has probability " << p << " at flat index " << i << "; probabilities must be in [0, 1]";
      }
      s.store(s.generator.next_double() < p ? 1.0 : 0.0, out.data, i);
    }
    return {};
  }
};

}  // namespace bernoulli_detail

// Opset 15: the first version (probabilities float16, float, double).
using Bernoulli_15 = VersionedKernel<bernoulli_detail::BernoulliImpl, 15, 22>;

// Opset 22: adds bfloat16 probabilities.
using Bernoulli_22 = VersionedKernel<bernoulli_detail::BernoulliImpl, 22>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
