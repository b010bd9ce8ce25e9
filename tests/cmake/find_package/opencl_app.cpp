// SPDX-License-Identifier: MIT
// Builds against the installed onnxmicro::opencl: the backend's headers, OpenCL::OpenCL and ONNXMICRO_ENABLE_OPENCL.
#include <cstdio>

#include <onnxmicro/backends/opencl.hpp>
#include <onnxmicro/onnxmicro.hpp>

#if !ONNXMICRO_ENABLE_OPENCL
#error "onnxmicro::opencl did not define ONNXMICRO_ENABLE_OPENCL"
#endif

int main() {
  onnxmicro::opencl::Backend backend;
  const onnxmicro::Status status = backend.open();
  std::printf("%s\n", status.ok() ? backend.device_description().c_str() : status.message());
  return 0;
}
