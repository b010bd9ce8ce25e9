// SPDX-License-Identifier: MIT
// The one translation unit of the single-header test binary that compiles every kernel: the test files call
// onnxmicro::all_kernels_registry() (declared in runtime/all_kernels.hpp) and compile none. (The main test binary
// links onnxmicro_all_kernels instead, one unit per kernel set: cmake/onnxmicro_kernel_registry.cmake.)
#define ONNXMICRO_DEFINE_ALL_KERNELS_REGISTRY
#include "onnxmicro/onnxmicro.hpp"
