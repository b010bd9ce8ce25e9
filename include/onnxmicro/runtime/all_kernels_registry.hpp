// SPDX-License-Identifier: MIT
// The declaration of all_kernels_registry(), for programs that use every kernel without compiling them:
// onnxmicro/all_kernels_registry.hpp (the runtime and this) says where the definition comes from.
#pragma once
#include "onnxmicro/kernels/kernel_set.hpp"

ONNXMICRO_NAMESPACE_BEGIN

/// Every kernel of this build (AllKernels::registry()'s table), compiled into the library onnxmicro::all_kernels;
/// without that library, define ONNXMICRO_DEFINE_ALL_KERNELS_REGISTRY before including onnxmicro.hpp in exactly one
/// file of the program instead.
KernelRegistry all_kernels_registry() noexcept;

ONNXMICRO_NAMESPACE_END
