// SPDX-License-Identifier: MIT
// RandomUniform: a tensor of the 'shape' attribute drawn uniformly from [low, high), dtype 'dtype' (default float).
// Random, so never folded at prepare time (kFoldable = false); generator, seeding and the state kept across runs are
// described in random_util.hpp.
#pragma once
#include "onnxmicro/kernels/generator/random_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

/// RandomUniform's policy for the fill body (random_util.hpp).
struct RandomUniformOp {
  static constexpr std::string_view kOpType = "RandomUniform";
  static constexpr std::uint64_t kSeedConstant = 0x52616E64556E6966ull;  // "RandUnif"
  static constexpr random_util::FillParameters kParameters = random_util::kUniformParameters;
  static constexpr bool kLike = false;  ///< output of the 'shape' attribute
};

// Opset 1: the first version (float16, float, double).
using RandomUniform_1 = VersionedKernel<RandomFillKernel<RandomUniformOp>, 1, 22>;

// Opset 22: adds bfloat16.
using RandomUniform_22 = VersionedKernel<RandomFillKernel<RandomUniformOp>, 22>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
