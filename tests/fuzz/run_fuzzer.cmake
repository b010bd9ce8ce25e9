# SPDX-License-Identifier: MIT
# Runs libFuzzer binaries for the ctests of fuzz_tests.cmake (cmake -P). Two modes:
#   -DFUZZ_DIR=<dir> -DFUZZERS=<name> -DSEEDS=<dir> -DWORK_DIR=<dir> -DSECONDS=<n>
#       fuzzes for SECONDS over a fresh copy of SEEDS (WORK_DIR/corpus); a finding is saved as WORK_DIR/crash-*
#       (or leak-*, timeout-*, oom-*) and fails the test; prints the executions done
#   -DFUZZ_DIR=<dir> -DFUZZERS=<a;b;c> -DREGRESSIONS=<dir>
#       runs each fuzzer once over every file of REGRESSIONS/<fuzzer>/ (the committed findings)
set(_options -timeout=10 -rss_limit_mb=2048 -print_final_stats=1)

if(DEFINED REGRESSIONS)
  # One run per file, so that every failing input is listed, not just the first.
  set(_passed 0)
  set(_failures "")
  foreach(fuzzer ${FUZZERS})
    file(GLOB _inputs "${REGRESSIONS}/${fuzzer}/*")
    foreach(input ${_inputs})
      execute_process(COMMAND "${FUZZ_DIR}/${fuzzer}" ${_options} "${input}" RESULT_VARIABLE _rc
                      OUTPUT_VARIABLE _out ERROR_VARIABLE _out)
      if(_rc EQUAL 0)
        math(EXPR _passed "${_passed} + 1")
      else()
        string(REGEX MATCH "(runtime error|ERROR: AddressSanitizer|promise broken)[^\n]*" _what "${_out}")
        string(APPEND _failures "\n  ${fuzzer} ${input} (exit ${_rc}): ${_what}")
      endif()
    endforeach()
  endforeach()
  if(_failures)
    message(FATAL_ERROR "fuzz regressions: ${_passed} inputs pass; these fail (rerun one with the fuzzer binary and "
                        "the file as its argument for the full report):${_failures}")
  endif()
  message(STATUS "fuzz regressions: ${_passed} inputs pass")
  return()
endif()

file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}/corpus")
file(GLOB _seeds "${SEEDS}/*")
if(NOT _seeds)
  message(FATAL_ERROR "no seeds in ${SEEDS} (the ctest fuzz_seeds writes them)")
endif()
file(COPY ${_seeds} DESTINATION "${WORK_DIR}/corpus")
if(NOT DEFINED SEED)
  set(SEED 1)
endif()
execute_process(COMMAND "${FUZZ_DIR}/${FUZZERS}" ${_options} -seed=${SEED} -max_total_time=${SECONDS}
                        -artifact_prefix=${WORK_DIR}/ "${WORK_DIR}/corpus"
                RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _out)
string(REGEX MATCH "stat::number_of_executed_units: *([0-9]+)" _ "${_out}")
set(_executions "${CMAKE_MATCH_1}")
if(NOT _rc EQUAL 0 OR _executions STREQUAL "")
  file(GLOB _artifacts "${WORK_DIR}/crash-*" "${WORK_DIR}/leak-*" "${WORK_DIR}/timeout-*" "${WORK_DIR}/oom-*")
  string(LENGTH "${_out}" _length)
  if(_length GREATER 20000)
    math(EXPR _start "${_length} - 20000")
    string(SUBSTRING "${_out}" ${_start} 20000 _out)
  endif()
  message(FATAL_ERROR "${FUZZERS} found a problem (exit ${_rc}); input saved as: ${_artifacts}\n"
                      "Fix it, then commit the input under tests/fuzz/regressions/${FUZZERS}/ with a line in "
                      "tests/fuzz/regressions/README.md.\n...${_out}")
endif()
message(STATUS "${FUZZERS}: ${_executions} executions in ${SECONDS} s, no findings")
