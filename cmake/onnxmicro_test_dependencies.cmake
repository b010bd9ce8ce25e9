# SPDX-License-Identifier: MIT
# Finds every optional tool or library the tests use. Nothing is skipped silently: with ONNXMICRO_REQUIRE_ALL=ON a
# missing dependency is a configure error naming the Debian package(s) to install (tools/install_deps.sh installs
# them all); with OFF it is a "... disabled: ..." status line, and the tests that need it are not added.
#
# Results, for tests/ and its subdirectories (each ONNXMICRO_HAVE_* is ON or OFF):
#   ONNXMICRO_HAVE_PYTHON3       Python3_EXECUTABLE, a python3 interpreter (single-header generation)
#   ONNXMICRO_HAVE_PYTHON_VENV   that interpreter can create a venv with pip (modules venv + ensurepip)
#   ONNXMICRO_HAVE_PROTOBUF      protoc (Protobuf_PROTOC_EXECUTABLE) and libprotobuf (protobuf::libprotobuf)
#   ONNXMICRO_HAVE_OPENCL        OpenCL::OpenCL, <CL/opencl.hpp> (in ONNXMICRO_OPENCL_HPP_INCLUDE_DIR), and an ICD
#   ONNXMICRO_HAVE_CLANG         ONNXMICRO_CLANGXX, clang++ (second-compiler check of the headers)
#   ONNXMICRO_HAVE_LIBFUZZER     that clang++ links -fsanitize=fuzzer,address,undefined (tests/fuzz)
#   ONNXMICRO_HAVE_VALGRIND      ONNXMICRO_VALGRIND, valgrind (memcheck over the example)
#   ONNXMICRO_HAVE_AARCH64_CXX   ONNXMICRO_AARCH64_CXX, aarch64-linux-gnu-g++
#   ONNXMICRO_HAVE_QEMU_AARCH64  ONNXMICRO_QEMU_AARCH64, qemu-aarch64 (runs aarch64 test programs)
#   ONNXMICRO_HAVE_QEMU_X86_64   ONNXMICRO_QEMU_X86_64, qemu-x86_64 (on an x86-64 host: runs the reference generators
#                                on an emulated AVX2-only CPU, -cpu Haswell; OFF elsewhere)
#   ONNXMICRO_HAVE_ARMHF_CXX     ONNXMICRO_ARMHF_CXX, arm-linux-gnueabihf-g++
#   ONNXMICRO_HAVE_QEMU_ARM      ONNXMICRO_QEMU_ARM, qemu-arm (runs 32-bit Arm Linux test programs)
#   ONNXMICRO_HAVE_GTEST_SOURCES ONNXMICRO_GTEST_SOURCE_DIR, GoogleTest's sources (src/gtest-all.cc), built for the
#                                aarch64/armhf targets to run the unit tests under qemu-user
#   ONNXMICRO_HAVE_ARM_NONE_EABI ONNXMICRO_ARM_NONE_EABI_CXX, arm-none-eabi-g++ with newlib(-nano) and libstdc++
#   ONNXMICRO_HAVE_GNU_TIME      ONNXMICRO_GNU_TIME, /usr/bin/time (-v reports peak memory)
#   ONNXMICRO_HAVE_GRAPHVIZ      ONNXMICRO_GRAPHVIZ_DOT, Graphviz's dot (`onnxmicro graph --format svg`, and the check
#                                that the DOT the CLI writes is valid)

set(_onnxmicro_missing_packages "")
set(_onnxmicro_missing_lines "")

# Records whether dependency `name` was found; `packages` are the Debian packages that provide it and `enables`
# says what is lost without it.
function(_onnxmicro_dependency name found packages enables)
  if(found)
    set(ONNXMICRO_HAVE_${name} ON PARENT_SCOPE)
    return()
  endif()
  set(ONNXMICRO_HAVE_${name} OFF PARENT_SCOPE)
  string(REPLACE ";" " " _pkgs "${packages}")
  if(ONNXMICRO_REQUIRE_ALL)
    set(_onnxmicro_missing_packages ${_onnxmicro_missing_packages} ${packages} PARENT_SCOPE)
    set(_onnxmicro_missing_lines "${_onnxmicro_missing_lines}\n  ${enables}: needs Debian package(s) ${_pkgs}"
        PARENT_SCOPE)
  else()
    message(STATUS "onnxmicro: ${enables} disabled: ${name} not found (Debian package(s): ${_pkgs})")
  endif()
endfunction()

# GNU time: wall time and peak memory of the compiler in the build-time budget test.
find_program(ONNXMICRO_GNU_TIME NAMES time PATHS /usr/bin NO_DEFAULT_PATH)
_onnxmicro_dependency(GNU_TIME "${ONNXMICRO_GNU_TIME}" time "the build-time budget test (/usr/bin/time -v)")

# Graphviz: the CLI runs `dot` from PATH for `graph --format svg`; the test checks that dot accepts what it writes.
find_program(ONNXMICRO_GRAPHVIZ_DOT NAMES dot)
_onnxmicro_dependency(GRAPHVIZ "${ONNXMICRO_GRAPHVIZ_DOT}" graphviz "the CLI test cli_graph_svg (Graphviz's dot)")

# Python: the interpreter (amalgamation) and venv creation (the conformance suite's onnx/onnxruntime/numpy venv).
find_package(Python3 COMPONENTS Interpreter)
_onnxmicro_dependency(PYTHON3 "${Python3_Interpreter_FOUND}" python3 "single-header generation and tests")
set(_venv_ok OFF)
if(Python3_Interpreter_FOUND)
  # Debian's python3 has the venv module without ensurepip unless python3-venv is installed, and then
  # `python3 -m venv` fails; ask for both.
  execute_process(COMMAND "${Python3_EXECUTABLE}" -c "import venv, ensurepip" RESULT_VARIABLE _venv_rc
                  OUTPUT_QUIET ERROR_QUIET)
  if(_venv_rc EQUAL 0)
    set(_venv_ok ON)
  endif()
endif()
_onnxmicro_dependency(PYTHON_VENV "${_venv_ok}" "python3;python3-venv"
                      "Python venv creation (${Python3_EXECUTABLE} -m venv) for the ONNX conformance suite")

find_package(Protobuf QUIET)
set(_protobuf_ok OFF)
if(Protobuf_FOUND AND Protobuf_PROTOC_EXECUTABLE)
  set(_protobuf_ok ON)
endif()
_onnxmicro_dependency(PROTOBUF "${_protobuf_ok}" "protobuf-compiler;libprotobuf-dev"
                      "tests checked against protoc/libprotobuf")

# OpenCL: three separate packages (C++ bindings, ICD loader + C headers, a CPU driver), each named on its own.
find_package(OpenCL QUIET)
find_path(ONNXMICRO_OPENCL_HPP_INCLUDE_DIR NAMES CL/opencl.hpp)
file(GLOB _opencl_icds /etc/OpenCL/vendors/*.icd)
_onnxmicro_dependency(OPENCL_LIBRARY "${OpenCL_FOUND}" ocl-icd-opencl-dev "OpenCL backend tests (ICD loader)")
_onnxmicro_dependency(OPENCL_CLHPP "${ONNXMICRO_OPENCL_HPP_INCLUDE_DIR}" opencl-clhpp-headers
                      "OpenCL backend tests (CL/opencl.hpp)")
_onnxmicro_dependency(OPENCL_ICD "${_opencl_icds}" pocl-opencl-icd
                      "OpenCL backend tests (an OpenCL driver in /etc/OpenCL/vendors)")
if(ONNXMICRO_HAVE_OPENCL_LIBRARY AND ONNXMICRO_HAVE_OPENCL_CLHPP AND ONNXMICRO_HAVE_OPENCL_ICD)
  set(ONNXMICRO_HAVE_OPENCL ON)
else()
  set(ONNXMICRO_HAVE_OPENCL OFF)
endif()

find_program(ONNXMICRO_VALGRIND NAMES valgrind)
_onnxmicro_dependency(VALGRIND "${ONNXMICRO_VALGRIND}" valgrind "valgrind memcheck of the example")

find_program(ONNXMICRO_CLANGXX NAMES clang++ clang++-14)
_onnxmicro_dependency(CLANG "${ONNXMICRO_CLANGXX}" clang "clang++ compile check of the headers")
# libFuzzer and the sanitizer runtimes come in libclang-rt-14-dev, not with clang++ itself: link a tiny fuzzer.
set(_libfuzzer_ok OFF)
if(ONNXMICRO_CLANGXX)
  set(_probe "${CMAKE_CURRENT_BINARY_DIR}/onnxmicro_probe_libfuzzer.cpp")
  file(WRITE "${_probe}" "extern \"C\" int LLVMFuzzerTestOneInput(const unsigned char*, unsigned long) { return 0; }\n")
  execute_process(COMMAND "${ONNXMICRO_CLANGXX}" -fsanitize=fuzzer,address,undefined "${_probe}" -o "${_probe}.bin"
                  RESULT_VARIABLE _libfuzzer_rc OUTPUT_QUIET ERROR_QUIET)
  if(_libfuzzer_rc EQUAL 0)
    set(_libfuzzer_ok ON)
  endif()
endif()
_onnxmicro_dependency(LIBFUZZER "${_libfuzzer_ok}" "clang;libclang-rt-14-dev" "libFuzzer fuzz tests (tests/fuzz)")

find_program(ONNXMICRO_AARCH64_CXX NAMES aarch64-linux-gnu-g++)
_onnxmicro_dependency(AARCH64_CXX "${ONNXMICRO_AARCH64_CXX}" g++-aarch64-linux-gnu "aarch64 Linux cross build tests")
find_program(ONNXMICRO_QEMU_AARCH64 NAMES qemu-aarch64 qemu-aarch64-static)
_onnxmicro_dependency(QEMU_AARCH64 "${ONNXMICRO_QEMU_AARCH64}" qemu-user "running aarch64 test programs")
if(CMAKE_HOST_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64)$")
  find_program(ONNXMICRO_QEMU_X86_64 NAMES qemu-x86_64 qemu-x86_64-static)
  _onnxmicro_dependency(QEMU_X86_64 "${ONNXMICRO_QEMU_X86_64}" qemu-user
                        "checking that test references do not depend on the CPU (AVX2-only emulation)")
else()
  set(ONNXMICRO_HAVE_QEMU_X86_64 OFF)
endif()
find_program(ONNXMICRO_ARMHF_CXX NAMES arm-linux-gnueabihf-g++)
_onnxmicro_dependency(ARMHF_CXX "${ONNXMICRO_ARMHF_CXX}" g++-arm-linux-gnueabihf "32-bit Arm Linux cross build tests")
find_program(ONNXMICRO_QEMU_ARM NAMES qemu-arm qemu-arm-static)
_onnxmicro_dependency(QEMU_ARM "${ONNXMICRO_QEMU_ARM}" qemu-user "running 32-bit Arm Linux test programs")
# libgtest-dev has host libraries only: the cross builds compile GoogleTest from the sources of package googletest.
find_path(ONNXMICRO_GTEST_SOURCE_DIR NAMES src/gtest-all.cc
          PATHS /usr/src/googletest/googletest /usr/src/gtest NO_DEFAULT_PATH)
_onnxmicro_dependency(GTEST_SOURCES "${ONNXMICRO_GTEST_SOURCE_DIR}" googletest
                      "unit tests and conformance runs on aarch64/armhf under qemu-user")

# arm-none-eabi-g++ alone is not enough: libstdc++ and newlib(-nano) come in separate packages, so compile and link
# a small C++ program the way the Cortex-M toolchain files do.
find_program(ONNXMICRO_ARM_NONE_EABI_CXX NAMES arm-none-eabi-g++)
_onnxmicro_dependency(ARM_NONE_EABI_GXX "${ONNXMICRO_ARM_NONE_EABI_CXX}" gcc-arm-none-eabi "Cortex-M cross build tests")
set(_newlib_ok OFF)
if(ONNXMICRO_ARM_NONE_EABI_CXX)
  set(_probe "${CMAKE_CURRENT_BINARY_DIR}/onnxmicro_probe_newlib.cpp")
  file(WRITE "${_probe}" "#include <cstdint>\n#include <cstring>\n#include <string_view>\n#include <type_traits>\n"
                         "int main() { return static_cast<int>(std::string_view(\"ok\").size()) - 2; }\n")
  execute_process(
    COMMAND "${ONNXMICRO_ARM_NONE_EABI_CXX}" -std=c++17 -mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16
            --specs=nano.specs --specs=nosys.specs -fno-exceptions -fno-rtti "${_probe}" -o "${_probe}.elf"
    RESULT_VARIABLE _newlib_rc OUTPUT_QUIET ERROR_VARIABLE _newlib_err)
  if(_newlib_rc EQUAL 0)
    set(_newlib_ok ON)
  endif()
endif()
_onnxmicro_dependency(ARM_NONE_EABI_NEWLIB "${_newlib_ok}" "libstdc++-arm-none-eabi-newlib;libnewlib-arm-none-eabi"
                      "Cortex-M cross build tests (newlib-nano and libstdc++ for arm-none-eabi)")
if(ONNXMICRO_HAVE_ARM_NONE_EABI_GXX AND ONNXMICRO_HAVE_ARM_NONE_EABI_NEWLIB)
  set(ONNXMICRO_HAVE_ARM_NONE_EABI ON)
else()
  set(ONNXMICRO_HAVE_ARM_NONE_EABI OFF)
endif()

if(_onnxmicro_missing_packages)
  list(REMOVE_DUPLICATES _onnxmicro_missing_packages)
  string(REPLACE ";" " " _pkgs "${_onnxmicro_missing_packages}")
  message(FATAL_ERROR "ONNXMICRO_REQUIRE_ALL is ON and test dependencies are missing:${_onnxmicro_missing_lines}\n"
                      "Install them with tools/install_deps.sh, or: apt-get install -y ${_pkgs}\n"
                      "(or configure with -DONNXMICRO_REQUIRE_ALL=OFF to build without those tests)")
endif()
