// SPDX-License-Identifier: MIT
// The optional OpenCL backend: include this header (and link OpenCL, e.g. the CMake target onnxmicro::opencl) to run
// nodes on an OpenCL device through SessionOptions::device. The core never includes it; firmware never sees it.
// See backends/opencl/backend.hpp for the API and the memory model, node_lowering.hpp for the ops covered.
#pragma once
#if defined(ONNXMICRO_ENABLE_OPENCL) && !ONNXMICRO_ENABLE_OPENCL
#error "onnxmicro/backends/opencl.hpp included with ONNXMICRO_ENABLE_OPENCL=0"
#endif
#include "onnxmicro/backends/opencl/backend.hpp"
