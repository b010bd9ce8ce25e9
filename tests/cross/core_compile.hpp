// SPDX-License-Identifier: MIT
// The runtime path compiled by the cross builds (core_compile.cpp) and driven by relu_smoke.cpp.
#pragma once
#include <cstddef>

#include "onnxmicro/onnxmicro.hpp"

namespace onnxmicro_cross {

/// Loads `model` with caller-provided metadata buffers (no heap), prepares it with every kernel of the build
/// (onnxmicro::AllKernels), feeds `input` as graph input 0, runs once and copies output 0 (float32) into
/// `output`, setting `output_count`. Fails when a step fails or the output does not fit.
onnxmicro::Status run_first_output(const unsigned char* model, std::size_t model_size,
                                   const onnxmicro::ConstTensorView& input, float* output, std::size_t output_capacity,
                                   std::size_t& output_count) noexcept;

#if ONNXMICRO_HAS_FILESYSTEM
/// Maps a model file and loads it with the default (heap) allocators: the hosted path.
onnxmicro::Status load_file(const char* path, std::size_t& node_count) noexcept;
#endif

}  // namespace onnxmicro_cross
