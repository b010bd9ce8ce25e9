# SPDX-License-Identifier: MIT
# 64-bit Arm Linux (Debian: g++-aarch64-linux-gnu). Programs run under qemu-aarch64 when it is installed
# (Debian: qemu-user), so ctest works in a cross build.
#   cmake -S . -B build-aarch64 -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/aarch64-linux-gnu.cmake
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)

set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)

# The Debian cross packages install the target's headers and libraries here.
set(CMAKE_FIND_ROOT_PATH /usr/aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

find_program(ONNXMICRO_QEMU_AARCH64 NAMES qemu-aarch64 qemu-aarch64-static)
if(ONNXMICRO_QEMU_AARCH64)
  set(CMAKE_CROSSCOMPILING_EMULATOR "${ONNXMICRO_QEMU_AARCH64};-L;/usr/aarch64-linux-gnu")
endif()
