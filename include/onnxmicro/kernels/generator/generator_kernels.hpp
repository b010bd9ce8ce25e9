// SPDX-License-Identifier: MIT
// Every kernel of the generator family (tensors made from attributes, shapes or random draws), as one KernelSet.
// Add a new kernel here after writing its file.
#pragma once
#include "onnxmicro/kernels/generator/bernoulli.hpp"
#include "onnxmicro/kernels/generator/constant.hpp"
#include "onnxmicro/kernels/generator/constant_of_shape.hpp"
#include "onnxmicro/kernels/generator/eye_like.hpp"
#include "onnxmicro/kernels/generator/multinomial.hpp"
#include "onnxmicro/kernels/generator/random_normal.hpp"
#include "onnxmicro/kernels/generator/random_normal_like.hpp"
#include "onnxmicro/kernels/generator/random_uniform.hpp"
#include "onnxmicro/kernels/generator/random_uniform_like.hpp"
#include "onnxmicro/kernels/generator/range.hpp"
#include "onnxmicro/kernels/kernel_set.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

using GeneratorKernels = KernelSet<                                                      //
    Constant_1, Constant_11, Constant_12,                                                //
    ConstantOfShape_9, EyeLike_9,                                                        //
    Range_11, Range_27,                                                                  //
    RandomUniform_1, RandomUniform_22, RandomNormal_1, RandomNormal_22,                  //
    RandomUniformLike_1, RandomUniformLike_22, RandomNormalLike_1, RandomNormalLike_22,  //
    Bernoulli_15, Bernoulli_22, Multinomial_7, Multinomial_22>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
