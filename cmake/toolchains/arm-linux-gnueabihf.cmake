# SPDX-License-Identifier: MIT
# 32-bit Arm Linux, hard-float (Debian: g++-arm-linux-gnueabihf). Programs run under qemu-arm when it is
# installed (Debian: qemu-user), so ctest works in a cross build.
#   cmake -S . -B build-armhf -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/arm-linux-gnueabihf.cmake
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR arm)

set(CMAKE_C_COMPILER arm-linux-gnueabihf-gcc)
set(CMAKE_CXX_COMPILER arm-linux-gnueabihf-g++)

set(CMAKE_FIND_ROOT_PATH /usr/arm-linux-gnueabihf)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

find_program(ONNXMICRO_QEMU_ARM NAMES qemu-arm qemu-arm-static)
if(ONNXMICRO_QEMU_ARM)
  set(CMAKE_CROSSCOMPILING_EMULATOR "${ONNXMICRO_QEMU_ARM};-L;/usr/arm-linux-gnueabihf")
endif()
