// SPDX-License-Identifier: MIT
// The kernels the fuzzers that prepare and run models use: the ops of common CNNs, MLPs, QDQ models and control
// flow (~100 kernel types across ~60 ops), not the whole catalogue, so the fuzz build stays a few minutes on CI.
// fuzz_kernels.cpp instantiates them once; the fuzzers link that object and call fuzz_kernels_registry().
#pragma once
#include <onnxmicro/onnxmicro.hpp>

namespace onnxmicro_fuzz {

/// Registry of the fuzz kernel set (defined in fuzz_kernels.cpp).
onnxmicro::KernelRegistry fuzz_kernels_registry() noexcept;

}  // namespace onnxmicro_fuzz
