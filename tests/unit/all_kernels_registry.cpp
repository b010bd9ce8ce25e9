// SPDX-License-Identifier: MIT
// The one translation unit of the test binary that compiles every kernel: the other test files call
// onnxmicro::all_kernels_registry() (declared in runtime/all_kernels.hpp) and compile none.
#define ONNXMICRO_DEFINE_ALL_KERNELS_REGISTRY
#include "onnxmicro/onnxmicro.hpp"
