// SPDX-License-Identifier: MIT
// Multinomial: input 0 is [batch_size, class_size] unnormalised log-probabilities; output [batch_size,
// sample_size] holds, per row, sample_size independent class indices drawn with probability softmax(row), dtype
// int32 (the default, 'dtype' 6) or int64 (7). Drawing: u uniform in [0, 1) scaled by the row's sum of
// exp(logit - max), then the first class whose running sum exceeds it (computed in double). A row whose logits
// are all -inf, or that holds NaN or +inf, fails run() with a status naming the row. Random, so never folded at
// prepare time (kFoldable = false); generator, seeding and the state kept across runs: random_util.hpp.
#pragma once
#include "onnxmicro/kernels/generator/random_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {
namespace multinomial_detail {

/// Every Multinomial version; bfloat16 logits only from opset 22.
struct MultinomialImpl : KernelDefaults {
  static constexpr std::string_view kOpType = "Multinomial";
  static constexpr bool kFoldable = false;
  static constexpr std::uint64_t kSeedConstant = 0x4D756C74696E6F6Dull;  // "Multinom"

  struct State {
    random_util::Pcg32 generator;
    random_util::LoadFunction load;
    random_util::StoreFunction store;
    std::int64_t sample_size;
  };

  static Status prepare(PrepareContext& ctx, int since) noexcept {
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(0));
    const TensorInfo& in = ctx.input(0);
    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
    const bool allow_bfloat16 = since >= random_util::kBfloat16Since;
    state->load = random_util::real_loader(in.dtype, allow_bfloat16);
    if (state->load == nullptr) {
      return random_util::dtype_error("input 0's dtype", static_cast<std::int64_t>(in.dtype),
                                      allow_bfloat16 ? random_util::kRealDtypesBf16 : random_util::kRealDtypes);
    }
    if (in.shape.rank() != 2 || !in.shape.is_static()) {
      return ctx.input_error(0) << " has shape " << in.shape << "; Multinomial needs [batch_size, class_size]";
    }
    std::int64_t dtype_value = 0;
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("dtype", dtype_value, static_cast<std::int64_t>(DataType::int32)));
    const DataType dtype = static_cast<DataType>(dtype_value);
    if (dtype != DataType::int32 && dtype != DataType::int64) {
      return random_util::dtype_error("attribute 'dtype'", dtype_value, "int32 (6), int64 (7)");
    }
    state->store = random_util::numeric_storer(dtype);
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("sample_size", state->sample_size, 1));
    if (state->sample_size < 1) {
      return Status(StatusCode::invalid_model)
             << "attribute 'sample_size' is " << state->sample_size << "; it must be >= 1";
    }
    if (in.shape[1] < 1 && in.shape[0] > 0) {
      return ctx.input_error(0) << " has shape " << in.shape << "; class_size must be >= 1 to draw from";
    }
    std::uint64_t seed = 0;
    ONNXMICRO_RETURN_IF_ERROR(random_util::node_seed(ctx, kSeedConstant, seed));
    state->generator.seed(seed);
    ctx.set_output(0, dtype, Shape{in.shape[0], state->sample_size});
    return {};
  }

  static Status run(RunContext& ctx) noexcept {
    State& s = ctx.state<State>();
    const ConstTensorView& in = ctx.input(0);
    const TensorView& out = ctx.output(0);
    const std::size_t batch = static_cast<std::size_t>(in.shape[0]);
    const std::size_t classes = static_cast<std::size_t>(in.shape[1]);
    const std::size_t samples = static_cast<std::size_t>(s.sample_size);
    for (std::size_t row = 0; row < batch; ++row) {
      const std::size_t base = row * classes;
      double max_logit = -HUGE_VAL;
      for (std::size_t c = 0; c < classes; ++c) {
        const double logit = s.load(in.data, base + c);
        if (std::isnan(logit) || logit == HUGE_VAL) return bad_row(row, logit);
        if (logit > max_logit) max_logit = logit;
      }
      if (max_logit == -HUGE_VAL) return bad_row(row, max_logit);
      double total = 0.0;
      for (std::size_t c = 0; c < classes; ++c) total += std::exp(s.load(in.data, base + c) - max_logit);
      for (std::size_t k = 0; k < samples; ++k) {
        const double target = s.generator.next_double() * total;
        double running = 0.0;
        std::size_t chosen = classes - 1;  // rounding may leave target at the very end: the last class
        for (std::size_t c = 0; c < classes; ++c) {
          running += std::exp(s.load(in.data, base + c) - max_logit);
          if (target < running) {
            chosen = c;
            break;
          }
        }
        s.store(static_cast<double>(chosen), out.data, row * samples + k);
      }
    }
    return {};
  }

 private:
  static Status bad_row(std::size_t row, double logit) noexcept {
    return Status(StatusCode::out_of_range) << "input 0 row " << row << " has logit " << logit
                                            << "; logits must be finite or -inf, with at least one finite";
  }
};

}  // namespace multinomial_detail

// Opset 7: the first version (logits float16, float, double).
using Multinomial_7 = VersionedKernel<multinomial_detail::MultinomialImpl, 7, 22>;

// Opset 22: adds bfloat16 logits.
using Multinomial_22 = VersionedKernel<multinomial_detail::MultinomialImpl, 22>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
