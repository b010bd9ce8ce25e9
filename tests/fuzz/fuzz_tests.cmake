# SPDX-License-Identifier: MIT
# ctests for the libFuzzer fuzzers (label fuzz), included by tests/CMakeLists.txt:
#   fuzz_build        configures and builds the stand-alone project tests/fuzz (clang, ASan + UBSan + libFuzzer)
#                     into ${CMAKE_BINARY_DIR}/fuzz
#   fuzz_seeds        tests/fuzz/make_seeds.py with the repo venv's onnx: valid models, into .../fuzz-seeds
#   fuzz_<name>       runs fuzzer <name> for ONNXMICRO_FUZZ_SECONDS over a fresh copy of its seed corpus; fails on
#                     any crash, sanitizer report, leak, timeout (10 s per input) or RSS above 2 GiB
#   fuzz_regressions  every fuzzer over its committed findings, tests/fuzz/regressions/<name>/* (each run once)
# Needs clang++ with libFuzzer (ONNXMICRO_HAVE_LIBFUZZER, cmake/onnxmicro_test_dependencies.cmake); the fuzz runs
# also need the Python venv (python_venv fixture of tests/conformance).
set(ONNXMICRO_FUZZ_SECONDS 60 CACHE STRING "Seconds each fuzzer runs in its ctest fuzz_<name>")
# A fixed seed makes a CI run reproducible: a slower machine explores a prefix of the same input sequence, so a run
# that was clean here for longer is clean there. 0 lets libFuzzer pick one (local exploration).
set(ONNXMICRO_FUZZ_SEED 1 CACHE STRING "libFuzzer -seed for the ctests fuzz_<name> (0: random)")

if(NOT ONNXMICRO_HAVE_LIBFUZZER)
  message(STATUS "onnxmicro: fuzz tests disabled: clang++ with libFuzzer not found (Debian packages clang, "
                 "libclang-rt-14-dev)")
  return()
endif()

set(_fuzz_source "${CMAKE_CURRENT_SOURCE_DIR}/fuzz")
set(_fuzz_binary "${CMAKE_BINARY_DIR}/fuzz")
set(_fuzz_seeds "${CMAKE_BINARY_DIR}/fuzz-seeds")
set(_fuzzers fuzz_wire fuzz_load_prepare fuzz_mutate_run)

onnxmicro_project_test(fuzz_build SOURCE_DIR "${_fuzz_source}" BINARY_DIR "${_fuzz_binary}"
                       OPTIONS -DCMAKE_CXX_COMPILER=${ONNXMICRO_CLANGXX} -DCMAKE_BUILD_TYPE=
                       LABELS fuzz)
set_tests_properties(fuzz_build PROPERTIES FIXTURES_SETUP onnxmicro_fuzz_build)

add_test(NAME fuzz_regressions
         COMMAND "${CMAKE_COMMAND}" -DFUZZ_DIR=${_fuzz_binary} "-DFUZZERS=${_fuzzers}"
                 -DREGRESSIONS=${_fuzz_source}/regressions -P "${_fuzz_source}/run_fuzzer.cmake")
set_tests_properties(fuzz_regressions PROPERTIES FIXTURES_REQUIRED onnxmicro_fuzz_build LABELS fuzz TIMEOUT 600)

if(NOT ONNXMICRO_HAVE_PYTHON_VENV)
  message(STATUS "onnxmicro: timed fuzz runs (fuzz_<name>) disabled: they need the Python venv for their seeds")
  return()
endif()
add_test(NAME fuzz_seeds COMMAND "${PROJECT_SOURCE_DIR}/.venv/bin/python" "${_fuzz_source}/make_seeds.py" -o
                                 "${_fuzz_seeds}")
set_tests_properties(fuzz_seeds PROPERTIES FIXTURES_SETUP onnxmicro_fuzz_seeds
                                           FIXTURES_REQUIRED onnxmicro_python_venv LABELS fuzz TIMEOUT 300)
foreach(fuzzer ${_fuzzers})
  set(_corpus "${_fuzz_seeds}/models")
  if(fuzzer STREQUAL "fuzz_mutate_run")
    set(_corpus "${_fuzz_seeds}/mutate")
  endif()
  add_test(NAME ${fuzzer}
           COMMAND "${CMAKE_COMMAND}" -DFUZZ_DIR=${_fuzz_binary} -DFUZZERS=${fuzzer} -DSEEDS=${_corpus}
                   -DWORK_DIR=${CMAKE_CURRENT_BINARY_DIR}/${fuzzer}-run -DSECONDS=${ONNXMICRO_FUZZ_SECONDS}
                   -DSEED=${ONNXMICRO_FUZZ_SEED}
                   -P "${_fuzz_source}/run_fuzzer.cmake")
  math(EXPR _timeout "${ONNXMICRO_FUZZ_SECONDS} + 300")
  set_tests_properties(${fuzzer} PROPERTIES FIXTURES_REQUIRED "onnxmicro_fuzz_build;onnxmicro_fuzz_seeds"
                                            LABELS fuzz TIMEOUT ${_timeout})
endforeach()
