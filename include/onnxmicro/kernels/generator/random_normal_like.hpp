// SPDX-License-Identifier: MIT
// RandomNormalLike: a tensor of input 0's shape drawn from the normal distribution (mean, scale = standard deviation),
// dtype 'dtype' (default input 0's, which must then be a floating-point type). Only the input's shape is read. Random,
// so never folded at prepare time (kFoldable = false); generator, seeding and the state kept across runs are described
// in random_util.hpp.
#pragma once
#include "onnxmicro/kernels/generator/random_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

/// RandomNormalLike's policy for the fill body (random_util.hpp).
struct RandomNormalLikeOp {
  static constexpr std::string_view kOpType = "RandomNormalLike";
  static constexpr std::uint64_t kSeedConstant = 0x4E6F726D4C696B65ull;  // "NormLike"
  static constexpr random_util::FillParameters kParameters = random_util::kNormalParameters;
  static constexpr bool kLike = true;  ///< output of input 0's shape
};

// Opset 1: the first version (float16, float, double).
using RandomNormalLike_1 = VersionedKernel<RandomFillKernel<RandomNormalLikeOp>, 1, 22>;

// Opset 22: adds bfloat16.
using RandomNormalLike_22 = VersionedKernel<RandomFillKernel<RandomNormalLikeOp>, 22>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
