# SPDX-License-Identifier: MIT
# Cortex-M7 bare metal (double-precision FPU, hard-float ABI), newlib-nano, -Os, no exceptions, no RTTI.
#   cmake -S . -B build-m7 -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/arm-none-eabi-cortex-m7.cmake
set(ONNXMICRO_ARM_CPU_FLAGS "-mcpu=cortex-m7 -mthumb -mfloat-abi=hard -mfpu=fpv5-d16")
include("${CMAKE_CURRENT_LIST_DIR}/arm-none-eabi-common.cmake")
