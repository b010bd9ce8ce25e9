// SPDX-License-Identifier: MIT
// RandomNormal: a tensor of the 'shape' attribute drawn from the normal distribution (mean, scale = standard
// deviation), dtype 'dtype' (default float). Random, so never folded at prepare time (kFoldable = false); generator,
// seeding and the state kept across runs are described in random_util.hpp.
#pragma once
#include "onnxmicro/kernels/generator/random_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

/// Shared body of the RandomNormal versions; bfloat16 outputs only from opset 22.
template <bool kAllowBfloat16>
struct RandomNormalKernel : KernelDefaults {
  static constexpr std::string_view kDomain = "";
  static constexpr std::string_view kOpType = "RandomNormal";
  static constexpr bool kFoldable = false;
  static constexpr std::uint64_t kSeedConstant = 0x52616E644E6F726Dull;  // "RandNorm"
  static Status prepare(PrepareContext& ctx) noexcept {
    return random_util::prepare_shaped_fill<kAllowBfloat16>(ctx, random_util::kNormalParameters, kSeedConstant);
  }
  static Status run(RunContext& ctx) noexcept { return random_util::run_normal(ctx); }
};

// Opset 1: the first version (float16, float, double).
struct RandomNormal_1 : RandomNormalKernel<false> {
  static constexpr int kSinceVersion = 1;
  static constexpr int kUntilVersion = 22;
};

// Opset 22: adds bfloat16.
struct RandomNormal_22 : RandomNormalKernel<true> {
  static constexpr int kSinceVersion = 22;
};

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
