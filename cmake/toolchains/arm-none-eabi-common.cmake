# SPDX-License-Identifier: MIT
# Shared part of the bare-metal Arm toolchain files (arm-none-eabi-cortex-m*.cmake set ONNXMICRO_ARM_CPU_FLAGS
# and include this). Debian: gcc-arm-none-eabi, libstdc++-arm-none-eabi-newlib, libnewlib-arm-none-eabi.
# No OS: no file system and no heap, so config.hpp defaults ONNXMICRO_HAS_FILESYSTEM=0 and ONNXMICRO_HAS_HEAP=0.
# Executables link against newlib-nano with stub system calls (nosys.specs) and the default memory layout;
# a real firmware adds its own startup code and linker script (-T).
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR arm)

set(CMAKE_C_COMPILER arm-none-eabi-gcc)
set(CMAKE_CXX_COMPILER arm-none-eabi-g++)
set(CMAKE_ASM_COMPILER arm-none-eabi-gcc)
# Without startup code a test executable cannot link, so CMake's compiler checks build a static library.
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)

# nano.specs also selects newlib-nano's headers, so it belongs on the compile line too.
set(_onnxmicro_arm_flags "${ONNXMICRO_ARM_CPU_FLAGS} --specs=nano.specs -ffunction-sections -fdata-sections")
set(CMAKE_C_FLAGS_INIT "${_onnxmicro_arm_flags} -Os")
set(CMAKE_CXX_FLAGS_INIT "${_onnxmicro_arm_flags} -Os -fno-exceptions -fno-rtti")
set(CMAKE_EXE_LINKER_FLAGS_INIT "--specs=nosys.specs -Wl,--gc-sections")

set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
