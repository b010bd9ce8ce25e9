// SPDX-License-Identifier: MIT
// The OpenCL C++ bindings as this backend uses them: OpenCL 1.2 (the version every driver, PoCL and NVIDIA's
// included, offers), no exceptions (every call returns a cl_int that becomes a Status naming the call).
#pragma once
#ifndef CL_HPP_TARGET_OPENCL_VERSION
#define CL_HPP_TARGET_OPENCL_VERSION 120
#endif
#ifndef CL_HPP_MINIMUM_OPENCL_VERSION
#define CL_HPP_MINIMUM_OPENCL_VERSION 120
#endif
#if defined(CL_HPP_ENABLE_EXCEPTIONS)
#error "onnxmicro's OpenCL backend reports errors as Status: build without CL_HPP_ENABLE_EXCEPTIONS"
#endif
#include <CL/opencl.hpp>

#include <string>

#include "onnxmicro/runtime/session.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace opencl {

/// The name of an OpenCL error code (CL_OUT_OF_RESOURCES, ...), or "OpenCL error N".
inline std::string cl_error_name(cl_int code) {
  switch (code) {
#define ONNXMICRO_CL_ERROR(name) \
  case name: return #name;
    ONNXMICRO_CL_ERROR(CL_DEVICE_NOT_FOUND)
    ONNXMICRO_CL_ERROR(CL_DEVICE_NOT_AVAILABLE)
    ONNXMICRO_CL_ERROR(CL_COMPILER_NOT_AVAILABLE)
    ONNXMICRO_CL_ERROR(CL_MEM_OBJECT_ALLOCATION_FAILURE)
    ONNXMICRO_CL_ERROR(CL_OUT_OF_RESOURCES)
    ONNXMICRO_CL_ERROR(CL_OUT_OF_HOST_MEMORY)
    ONNXMICRO_CL_ERROR(CL_BUILD_PROGRAM_FAILURE)
    ONNXMICRO_CL_ERROR(CL_INVALID_VALUE)
    ONNXMICRO_CL_ERROR(CL_INVALID_DEVICE)
    ONNXMICRO_CL_ERROR(CL_INVALID_BINARY)
    ONNXMICRO_CL_ERROR(CL_INVALID_BUILD_OPTIONS)
    ONNXMICRO_CL_ERROR(CL_INVALID_PROGRAM)
    ONNXMICRO_CL_ERROR(CL_INVALID_PROGRAM_EXECUTABLE)
    ONNXMICRO_CL_ERROR(CL_INVALID_KERNEL_NAME)
    ONNXMICRO_CL_ERROR(CL_INVALID_KERNEL)
    ONNXMICRO_CL_ERROR(CL_INVALID_ARG_INDEX)
    ONNXMICRO_CL_ERROR(CL_INVALID_ARG_VALUE)
    ONNXMICRO_CL_ERROR(CL_INVALID_ARG_SIZE)
    ONNXMICRO_CL_ERROR(CL_INVALID_KERNEL_ARGS)
    ONNXMICRO_CL_ERROR(CL_INVALID_WORK_GROUP_SIZE)
    ONNXMICRO_CL_ERROR(CL_INVALID_GLOBAL_WORK_SIZE)
    ONNXMICRO_CL_ERROR(CL_INVALID_MEM_OBJECT)
    ONNXMICRO_CL_ERROR(CL_INVALID_BUFFER_SIZE)
    ONNXMICRO_CL_ERROR(CL_INVALID_COMMAND_QUEUE)
    ONNXMICRO_CL_ERROR(CL_INVALID_CONTEXT)
    ONNXMICRO_CL_ERROR(CL_INVALID_PLATFORM)
    ONNXMICRO_CL_ERROR(CL_INVALID_OPERATION)
    ONNXMICRO_CL_ERROR(CL_PLATFORM_NOT_FOUND_KHR)
#undef ONNXMICRO_CL_ERROR
    default: return "OpenCL error " + std::to_string(code);
  }
}

/// A failed `call` as a Status: "clEnqueueNDRangeKernel failed: CL_OUT_OF_RESOURCES".
inline Status cl_failure(const char* call, cl_int code) noexcept {
  return Status(StatusCode::device_error) << "OpenCL " << call << " failed: " << cl_error_name(code).c_str();
}

#define ONNXMICRO_CL_CHECK(call_name, expression)                                                              \
  do {                                                                                                         \
    const cl_int onnxmicro_cl_code = (expression);                                                             \
    if (onnxmicro_cl_code != CL_SUCCESS) return ::onnxmicro::opencl::cl_failure(call_name, onnxmicro_cl_code); \
  } while (0)

}  // namespace opencl
ONNXMICRO_NAMESPACE_END
