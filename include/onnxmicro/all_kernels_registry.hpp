// SPDX-License-Identifier: MIT
// The runtime (onnxmicro/runtime.hpp) and all_kernels_registry(), the registry of every kernel, precompiled: the
// static library onnxmicro::all_kernels defines it (CMake: target_link_libraries(app PRIVATE onnxmicro::all_kernels),
// from find_package(onnxmicro), add_subdirectory or FetchContent). A program that includes only this parses no
// kernel header and compiles in seconds; the library is built once. Header-only alternatives: onnxmicro.hpp's
// AllKernels::registry(), which compiles every kernel in the file that calls it (minutes), or a kernel set of the
// model's own kernels (`onnxmicro kernels model.onnx`), the choice for firmware and small binaries.
#pragma once
#include "onnxmicro/runtime.hpp"
#include "onnxmicro/runtime/all_kernels_registry.hpp"
