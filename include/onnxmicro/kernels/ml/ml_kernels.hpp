// SPDX-License-Identifier: MIT
// The ai.onnx.ml family: classic machine-learning ops.
#pragma once
#include "onnxmicro/kernels/kernel_set.hpp"
#include "onnxmicro/kernels/ml/array_feature_extractor.hpp"
#include "onnxmicro/kernels/ml/binarizer.hpp"
#include "onnxmicro/kernels/ml/label_encoder.hpp"
#include "onnxmicro/kernels/ml/tree_ensemble.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

using MlKernels =
    KernelSet<ArrayFeatureExtractor_1, Binarizer_1, LabelEncoder_1, LabelEncoder_2, LabelEncoder_4, TreeEnsemble_5>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
