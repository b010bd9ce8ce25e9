# SPDX-License-Identifier: MIT
# x86-64 Linux compiled for Haswell (AVX2, FMA): the code paths that a -march build takes under __AVX2__ (e.g. the
# integer GEMM's 4 x 16 AVX2 tile in kernels/common/integer_gemm.hpp), which the default x86-64 (SSE2) build
# never compiles. Programs run directly on a host with AVX2 and FMA; elsewhere under qemu-x86_64 -cpu Haswell
# (Debian: qemu-user), but qemu 7.2's TCG faults on the masked-off lanes of VMASKMOVPS, which GCC's vectorizer
# emits for conditional loads (hardware does not fault there), so such runs can crash where the program is fine.
#   cmake -S . -B build-avx2 -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/x86_64-avx2.cmake
set(CMAKE_C_COMPILER gcc)
set(CMAKE_CXX_COMPILER g++)
set(CMAKE_C_FLAGS_INIT "-march=haswell")
set(CMAKE_CXX_FLAGS_INIT "-march=haswell")

set(_onnxmicro_cpuinfo "")
if(EXISTS /proc/cpuinfo)
  file(READ /proc/cpuinfo _onnxmicro_cpuinfo)
endif()
if(NOT _onnxmicro_cpuinfo MATCHES " avx2( |\n)" OR NOT _onnxmicro_cpuinfo MATCHES " fma( |\n)")
  # Not runnable here: a cross build whose programs run under the emulator.
  set(CMAKE_SYSTEM_NAME Linux)
  set(CMAKE_SYSTEM_PROCESSOR x86_64)
  find_program(ONNXMICRO_QEMU_X86_64 NAMES qemu-x86_64 qemu-x86_64-static)
  if(ONNXMICRO_QEMU_X86_64)
    set(CMAKE_CROSSCOMPILING_EMULATOR "${ONNXMICRO_QEMU_X86_64};-cpu;Haswell")
  endif()
endif()
