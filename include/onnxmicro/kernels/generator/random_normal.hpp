// SPDX-License-Identifier: MIT
// RandomNormal: a tensor of the 'shape' attribute drawn from the normal distribution (mean, scale = standard
// deviation), dtype 'dtype' (default float). Random, so never folded at prepare time (kFoldable = false); generator,
// seeding and the state kept across runs are described in random_util.hpp.
#pragma once
#include "onnxmicro/kernels/generator/random_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

/// RandomNormal's policy for the fill body (random_util.hpp).
struct RandomNormalOp {
  static constexpr std::string_view kOpType = "RandomNormal";
  static constexpr std::uint64_t kSeedConstant = 0x52616E644E6F726Dull;  // "RandNorm"
  static constexpr random_util::FillParameters kParameters = random_util::kNormalParameters;
  static constexpr bool kLike = false;  ///< output of the 'shape' attribute
};

// Opset 1: the first version (float16, float, double).
using RandomNormal_1 = VersionedKernel<RandomFillKernel<RandomNormalOp>, 1, 22>;

// Opset 22: adds bfloat16.
using RandomNormal_22 = VersionedKernel<RandomFillKernel<RandomNormalOp>, 22>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
