// SPDX-License-Identifier: MIT
// The preset of every kernel this build has. Narrow it with KernelSetForOpsets or pick kernels by hand.
#pragma once
#include "onnxmicro/kernels/generator/generator_kernels.hpp"
#include "onnxmicro/kernels/logical/logical_kernels.hpp"
#include "onnxmicro/kernels/math/math_kernels.hpp"
#include "onnxmicro/kernels/ml/ml_kernels.hpp"
#include "onnxmicro/kernels/nn/nn_kernels.hpp"
#include "onnxmicro/kernels/quantization/quantization_kernels.hpp"
#include "onnxmicro/kernels/reduction/reduction_kernels.hpp"
#include "onnxmicro/kernels/sequence/sequence_kernels.hpp"
#include "onnxmicro/kernels/signal/signal_kernels.hpp"
#include "onnxmicro/kernels/tensor/tensor_kernels.hpp"
#include "onnxmicro/kernels/text/text_kernels.hpp"
#include "onnxmicro/kernels/training/training_kernels.hpp"
#include "onnxmicro/runtime/all_kernels_registry.hpp"
#include "onnxmicro/runtime/control_flow/control_flow_kernels.hpp"

ONNXMICRO_NAMESPACE_BEGIN

/// Every kernel of every family: one list per folder of kernels/ (kernels/<family>/<family>_kernels.hpp defines
/// kernels::<Family>Kernels, the folder's name in CamelCase), in the folders' alphabetical order, then the
/// runtime's control flow. cmake/onnxmicro_kernel_registry.cmake finds the lists by that convention and fails the
/// build unless this composes exactly them, in this order: a new family must be added here too.
using AllKernels =
    MergeKernelSets<kernels::GeneratorKernels, kernels::LogicalKernels, kernels::MathKernels, kernels::MlKernels,
                    kernels::NnKernels, kernels::QuantizationKernels, kernels::ReductionKernels,
                    kernels::SequenceKernels, kernels::SignalKernels, kernels::TensorKernels, kernels::TextKernels,
                    kernels::TrainingKernels, kernels::ControlFlowKernels>;

namespace detail {
/// One idiom for every built-in kernel (DEVELOPERS.md, "Adding a kernel"): each is a VersionedKernel alias.
template <typename K>
constexpr bool is_built_in_kernel_idiom() noexcept {
  static_assert(kernels::IsVersionedKernel<K>::value,
                "a built-in kernel must be `using Op_N = VersionedKernel<Impl, N[, Until]>;` (kernel_api.hpp), not a "
                "type that declares kSinceVersion itself");
  return kernels::IsVersionedKernel<K>::value;
}
template <typename... Ks>
constexpr bool all_built_in_kernel_idiom(KernelSet<Ks...>*) noexcept {
  // An array, not a fold expression: clang limits a fold's nesting to 256 operands, and there are more kernels.
  constexpr bool idiomatic[] = {is_built_in_kernel_idiom<Ks>()...};
  for (bool k : idiomatic)
    if (!k) return false;
  return true;
}
}  // namespace detail
static_assert(detail::all_built_in_kernel_idiom(static_cast<AllKernels*>(nullptr)));

// all_kernels_registry() (runtime/all_kernels_registry.hpp) is AllKernels::registry() as a plain
// function, compiled once: in the library onnxmicro::all_kernels, or in the one translation unit of a program that
// defines ONNXMICRO_DEFINE_ALL_KERNELS_REGISTRY before including onnxmicro (AllKernels::registry() compiles every
// kernel in each translation unit that calls it).
#if defined(ONNXMICRO_DEFINE_ALL_KERNELS_REGISTRY)
KernelRegistry all_kernels_registry() noexcept { return AllKernels::registry(); }
#endif

ONNXMICRO_NAMESPACE_END
