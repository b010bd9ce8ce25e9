// SPDX-License-Identifier: MIT
// The preset of every kernel this build has. Narrow it with KernelSetForOpsets or pick kernels by hand.
#pragma once
#include "onnxmicro/kernels/generator/generator_kernels.hpp"
#include "onnxmicro/kernels/generator/random_kernels.hpp"
#include "onnxmicro/kernels/logical/logical_kernels.hpp"
#include "onnxmicro/kernels/math/binary_kernels.hpp"
#include "onnxmicro/kernels/math/linalg_kernels.hpp"
#include "onnxmicro/kernels/math/loss_kernels.hpp"
#include "onnxmicro/kernels/math/math_kernels.hpp"
#include "onnxmicro/kernels/math/matmul_kernels.hpp"
#include "onnxmicro/kernels/math/softmax_family_kernels.hpp"
#include "onnxmicro/kernels/math/unary_kernels.hpp"
#include "onnxmicro/kernels/ml/ml_kernels.hpp"
#include "onnxmicro/kernels/nn/attention_kernels.hpp"
#include "onnxmicro/kernels/nn/image_kernels.hpp"
#include "onnxmicro/kernels/nn/nn_kernels.hpp"
#include "onnxmicro/kernels/nn/normalization_kernels.hpp"
#include "onnxmicro/kernels/nn/recurrent_kernels.hpp"
#include "onnxmicro/kernels/nn/spatial_kernels.hpp"
#include "onnxmicro/kernels/quantization/microsoft_kernels.hpp"
#include "onnxmicro/kernels/quantization/quantization_kernels.hpp"
#include "onnxmicro/kernels/reduction/reduction_kernels.hpp"
#include "onnxmicro/kernels/sequence/sequence_kernels.hpp"
#include "onnxmicro/kernels/signal/signal_kernels.hpp"
#include "onnxmicro/kernels/tensor/indexing_kernels.hpp"
#include "onnxmicro/kernels/tensor/shape_ops_kernels.hpp"
#include "onnxmicro/kernels/tensor/tensor_kernels.hpp"
#include "onnxmicro/kernels/text/text_kernels.hpp"
#include "onnxmicro/kernels/text/tfidf_kernels.hpp"
#include "onnxmicro/kernels/training/training_kernels.hpp"
#include "onnxmicro/runtime/control_flow/control_flow_kernels.hpp"

ONNXMICRO_NAMESPACE_BEGIN

/// Every kernel of every family.
using AllKernels = MergeKernelSets<
    kernels::MathKernels, kernels::MatMulKernels, kernels::NnKernels, kernels::TensorKernels, kernels::IndexingKernels,
    kernels::GeneratorKernels, kernels::LogicalKernels, kernels::BinaryMathKernels, kernels::UnaryMathKernels,
    kernels::ReductionKernels, kernels::SoftmaxFamilyKernels, kernels::LossKernels, kernels::QuantizationKernels,
    kernels::RecurrentKernels, kernels::AttentionKernels, kernels::LinalgKernels, kernels::TrainingKernels,
    kernels::ImageKernels, kernels::NormalizationKernels, kernels::SpatialKernels, kernels::TextKernels,
    kernels::SignalKernels, kernels::ShapeOpsKernels, kernels::ControlFlowKernels, kernels::SequenceKernels,
    kernels::MlKernels, kernels::TfIdfKernels, kernels::RandomKernels, kernels::MicrosoftQuantizationKernels>;

/// The AllKernels registry as a plain function, for programs whose many translation units all need every kernel:
/// AllKernels::registry() instantiates (and compiles) every kernel in each translation unit that calls it, while
/// this declaration compiles nothing. Define ONNXMICRO_DEFINE_ALL_KERNELS_REGISTRY before including onnxmicro in
/// exactly one translation unit of the program to provide the definition there.
KernelRegistry all_kernels_registry() noexcept;

#if defined(ONNXMICRO_DEFINE_ALL_KERNELS_REGISTRY)
KernelRegistry all_kernels_registry() noexcept { return AllKernels::registry(); }
#endif

ONNXMICRO_NAMESPACE_END
