// SPDX-License-Identifier: MIT
// The C API's implementation in the C firmware (firmware_c): sessions resolve to the hello CNN's kernels only
// (models/hello_cnn_kernels.hpp, made by `onnxmicro kernels`), so the image carries no other kernel.
#include "hello_cnn_kernels.hpp"

#define ONNXMICRO_C_API_KERNELS hello_cnn::Kernels
#define ONNXMICRO_C_API_IMPLEMENTATION
#include <onnxmicro/c/onnxmicro_impl.hpp>
