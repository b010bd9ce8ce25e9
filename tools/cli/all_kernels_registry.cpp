// SPDX-License-Identifier: MIT
// The one translation unit of the CLI that compiles every kernel; check/plan/run call
// onnxmicro::all_kernels_registry() (declared in runtime/all_kernels.hpp).
#define ONNXMICRO_DEFINE_ALL_KERNELS_REGISTRY
#include <onnxmicro/onnxmicro.hpp>
