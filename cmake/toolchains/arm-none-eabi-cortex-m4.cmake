# SPDX-License-Identifier: MIT
# Cortex-M4F bare metal (single-precision FPU, hard-float ABI), newlib-nano, -Os, no exceptions, no RTTI.
#   cmake -S . -B build-m4 -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/arm-none-eabi-cortex-m4.cmake
set(ONNXMICRO_ARM_CPU_FLAGS "-mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16")
include("${CMAKE_CURRENT_LIST_DIR}/arm-none-eabi-common.cmake")
