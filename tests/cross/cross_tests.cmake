# SPDX-License-Identifier: MIT
# The unit tests and the conformance runner for a Linux target, run under CMAKE_CROSSCOMPILING_EMULATOR (included
# by CMakeLists.txt when ONNXMICRO_CROSS_TESTS is ON). Their outcomes must equal the host's: the same expected
# outputs, tolerances and allowlist as tests/CMakeLists.txt and tests/conformance/CMakeLists.txt use natively.
if(NOT ONNXMICRO_GTEST_SOURCE_DIR OR NOT EXISTS "${ONNXMICRO_GTEST_SOURCE_DIR}/src/gtest-all.cc")
  message(FATAL_ERROR "ONNXMICRO_CROSS_TESTS needs GoogleTest's sources: pass -DONNXMICRO_GTEST_SOURCE_DIR=<dir with "
                      "src/gtest-all.cc> (Debian package googletest: /usr/src/googletest/googletest)")
endif()

# Test programs, not firmware: exceptions are allowed (GoogleTest, the runner's std::filesystem), and the kernels
# they call come from onnxmicro_all_kernels, compiled at -O3 (CMakeLists.txt). GoogleTest and the unit tests are
# compiled at -O0 (40% less compile time than -O1, and they run in 2 s under qemu either way); the runner at -O1,
# as it parses and runs the whole node suite with the runtime code compiled into it. The later -O overrides the
# build type's -O3. Static, as relu_smoke, so qemu-user needs no target sysroot.
set(_test_flags -O0)
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  # GCC's notes on 32-bit Arm that passing std::initializer_list changed ABI in GCC 7.1: irrelevant to a program
  # built in one piece, and dozens of lines per unit test file.
  list(APPEND _test_flags -Wno-psabi)
endif()
set(_test_links -static -pthread)

add_library(cross_gtest STATIC "${ONNXMICRO_GTEST_SOURCE_DIR}/src/gtest-all.cc"
                               "${ONNXMICRO_GTEST_SOURCE_DIR}/src/gtest_main.cc")
target_include_directories(cross_gtest SYSTEM PUBLIC "${ONNXMICRO_GTEST_SOURCE_DIR}/include")
target_include_directories(cross_gtest PRIVATE "${ONNXMICRO_GTEST_SOURCE_DIR}")
target_compile_options(cross_gtest PRIVATE ${_test_flags} -pthread)
target_compile_features(cross_gtest PUBLIC cxx_std_17)

file(GLOB _unit_sources CONFIGURE_DEPENDS "${ONNXMICRO_SOURCE_DIR}/tests/unit/*.cpp")
add_executable(unit_tests ${_unit_sources})
target_include_directories(unit_tests PRIVATE "${ONNXMICRO_SOURCE_DIR}/tests")
target_link_libraries(unit_tests PRIVATE onnxmicro::onnxmicro onnxmicro_all_kernels onnxmicro_warnings cross_gtest)
target_compile_options(unit_tests PRIVATE ${_test_flags} -Werror)
# Every unit test includes both: parsed once instead of once per file.
target_precompile_headers(unit_tests PRIVATE <gtest/gtest.h> <onnxmicro/onnxmicro.hpp>)
# Unity batches as the host's unit tests (tests/CMakeLists.txt: each file's helpers live in
# `namespace ONNXMICRO_TEST_FILE_SCOPE`, unique per file in a batch, anonymous when compiled alone).
target_compile_definitions(unit_tests PRIVATE ONNXMICRO_TEST_FILE_SCOPE=)
set_target_properties(unit_tests PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 8
                                            UNITY_BUILD_UNIQUE_ID ONNXMICRO_TEST_FILE_SCOPE)
target_link_options(unit_tests PRIVATE ${_test_links})
# Excluded, as in the host's unit_tests: ExternalDataOnnxSaved needs a model the host's conformance fixtures make
# (the host runs it as external_data_onnx_saved).
set(_excluded "ExternalDataOnnxSaved.*")
add_test(NAME unit_tests COMMAND unit_tests --gtest_filter=-${_excluded})

add_executable(conformance "${ONNXMICRO_SOURCE_DIR}/tests/conformance/runner.cpp")
target_link_libraries(conformance PRIVATE onnxmicro::onnxmicro onnxmicro_all_kernels onnxmicro_warnings)
target_compile_options(conformance PRIVATE ${_test_flags} -O1 -Werror)
target_link_options(conformance PRIVATE ${_test_links})

set(_allowlist "${ONNXMICRO_SOURCE_DIR}/tests/conformance/allowlist.txt")
add_test(NAME conformance_models COMMAND conformance --data "${ONNXMICRO_SOURCE_DIR}/tests" --suite models
                                                     --quantum-atol 1 --allowlist "${_allowlist}")
if(ONNXMICRO_CONFORMANCE_DATA)
  # The whole node suite, in one process (--no-fork): a forked child re-translates under qemu all the code it runs,
  # which costs 7x the CPU time (74 s instead of 10 s on aarch64). A crash then ends the run, failing this test;
  # rerun without --no-fork to see which case crashed.
  add_test(NAME conformance_node COMMAND conformance --data "${ONNXMICRO_CONFORMANCE_DATA}" --suite node
                                                     --allowlist "${_allowlist}" --no-fork)
  set_tests_properties(conformance_node PROPERTIES TIMEOUT 900)
endif()
if(ONNXMICRO_QUANTIZED_DATA)
  # As the host's conformance_qoperator_ops: onnxruntime's float rounding vs onnxmicro's fixed point, one quantum.
  add_test(NAME conformance_qoperator_ops COMMAND conformance --data "${ONNXMICRO_QUANTIZED_DATA}"
                                                              --suite qoperator-ops --integer-atol 1
                                                              --session-per-data-set)
  # As the host's (tests/quantization/CMakeLists.txt): zero points and scales computed at run time, quantize_dynamic
  # models, against their semantics.
  add_test(NAME conformance_zero_point_ops COMMAND conformance --data "${ONNXMICRO_QUANTIZED_DATA}"
                                                               --suite zero-point-ops --no-fork)
  add_test(NAME conformance_zero_point_qlinear COMMAND conformance --data "${ONNXMICRO_QUANTIZED_DATA}"
                                                                   --suite zero-point-qlinear --integer-atol 1
                                                                   --atol-of-range 0.01 --no-fork)
  add_test(NAME conformance_dynamic_quant_models COMMAND conformance --data "${ONNXMICRO_QUANTIZED_DATA}"
                                                                     --suite dynamic-quant-models --rtol 1e-3
                                                                     --atol-of-range 0.01 --no-fork)
endif()
set_tests_properties(unit_tests conformance_models PROPERTIES TIMEOUT 1200)
