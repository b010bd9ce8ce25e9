// SPDX-License-Identifier: MIT
// RandomUniformLike: a tensor of input 0's shape drawn uniformly from [low, high), dtype 'dtype' (default input 0's,
// which must then be a floating-point type). Only the input's shape is read. Random, so never folded at prepare time
// (kFoldable = false); generator, seeding and the state kept across runs are described in random_util.hpp.
#pragma once
#include "onnxmicro/kernels/generator/random_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

/// RandomUniformLike's policy for the fill body (random_util.hpp).
struct RandomUniformLikeOp {
  static constexpr std::string_view kOpType = "RandomUniformLike";
  static constexpr std::uint64_t kSeedConstant = 0x556E69664C696B65ull;  // "UnifLike"
  static constexpr random_util::FillParameters kParameters = random_util::kUniformParameters;
  static constexpr bool kLike = true;  ///< output of input 0's shape
};

// Opset 1: the first version (float16, float, double).
using RandomUniformLike_1 = VersionedKernel<RandomFillKernel<RandomUniformLikeOp>, 1, 22>;

// Opset 22: adds bfloat16.
using RandomUniformLike_22 = VersionedKernel<RandomFillKernel<RandomUniformLikeOp>, 22>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
