# SPDX-License-Identifier: MIT
# Cortex-M33 bare metal (Armv8-M Mainline, single-precision FPU, hard-float ABI), newlib-nano, -Os, no exceptions,
# no RTTI. The firmware runs on qemu's mps2-an505 board in the Secure state.
#   cmake -S . -B build-m33 -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/arm-none-eabi-cortex-m33.cmake
set(ONNXMICRO_ARM_CPU_FLAGS "-mcpu=cortex-m33 -mthumb -mfloat-abi=hard -mfpu=fpv5-sp-d16")
include("${CMAKE_CURRENT_LIST_DIR}/arm-none-eabi-common.cmake")
