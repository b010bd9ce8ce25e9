// SPDX-License-Identifier: MIT
// RandomNormalLike: a tensor of input 0's shape drawn from the normal distribution (mean, scale = standard deviation),
// dtype 'dtype' (default input 0's, which must then be a floating-point type). Only the input's shape is read. Random,
// so never folded at prepare time (kFoldable = false); generator, seeding and the state kept across runs are described
// in random_util.hpp.
#pragma once
#include "onnxmicro/kernels/generator/random_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

/// Shared body of the RandomNormalLike versions; bfloat16 outputs only from opset 22.
template <bool kAllowBfloat16>
struct RandomNormalLikeKernel : KernelDefaults {
  static constexpr std::string_view kDomain = "";
  static constexpr std::string_view kOpType = "RandomNormalLike";
  static constexpr bool kFoldable = false;
  static constexpr std::uint64_t kSeedConstant = 0x4E6F726D4C696B65ull;  // "NormLike"
  static constexpr bool kNeedsInputData = false;
  static Status prepare(PrepareContext& ctx) noexcept {
    return random_util::prepare_like_fill<kAllowBfloat16>(ctx, random_util::kNormalParameters, kSeedConstant);
  }
  static Status run(RunContext& ctx) noexcept { return random_util::run_normal(ctx); }
};

// Opset 1: the first version (float16, float, double).
struct RandomNormalLike_1 : RandomNormalLikeKernel<false> {
  static constexpr int kSinceVersion = 1;
  static constexpr int kUntilVersion = 22;
};

// Opset 22: adds bfloat16.
struct RandomNormalLike_22 : RandomNormalLikeKernel<true> {
  static constexpr int kSinceVersion = 22;
};

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
