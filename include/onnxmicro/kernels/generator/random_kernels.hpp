// SPDX-License-Identifier: MIT
// The random generator ops (RandomUniform, RandomNormal, RandomUniformLike, RandomNormalLike, Bernoulli,
// Multinomial), as one KernelSet.
#pragma once
#include "onnxmicro/kernels/generator/bernoulli.hpp"
#include "onnxmicro/kernels/generator/multinomial.hpp"
#include "onnxmicro/kernels/generator/random_normal.hpp"
#include "onnxmicro/kernels/generator/random_normal_like.hpp"
#include "onnxmicro/kernels/generator/random_uniform.hpp"
#include "onnxmicro/kernels/generator/random_uniform_like.hpp"
#include "onnxmicro/kernels/kernel_set.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

using RandomKernels = KernelSet<RandomUniform_1, RandomUniform_22, RandomNormal_1, RandomNormal_22, RandomUniformLike_1,
                                RandomUniformLike_22, RandomNormalLike_1, RandomNormalLike_22, Bernoulli_15,
                                Bernoulli_22, Multinomial_7, Multinomial_22>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
