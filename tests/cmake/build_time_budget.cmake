# SPDX-License-Identifier: MIT
# Build-time budget (issue #21): configures tests/cmake/build_time against the installed package in PREFIX, then
# builds, each alone under GNU time, the README example (linking the precompiled onnxmicro::all_kernels) and
# examples/hello (header-only, its model's kernel set), runs both, and reports wall time, compiler CPU time and
# peak compiler memory. It fails only on a gross regression: CPU time or memory over twice RECORD's numbers (CPU
# time, not wall time, because ctest runs other tests beside it on a shared machine). After an intended change,
# update RECORD with the numbers printed here.
# Usage: cmake -DPREFIX=... -DSOURCE_DIR=... -DBINARY_DIR=... -DGNU_TIME=/usr/bin/time -DRECORD=...
#              -DGENERATOR=... -DCXX=... -P build_time_budget.cmake
foreach(var PREFIX SOURCE_DIR BINARY_DIR GNU_TIME RECORD GENERATOR CXX)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "pass -D${var}=...")
  endif()
endforeach()

file(REMOVE_RECURSE "${BINARY_DIR}")
execute_process(COMMAND "${CMAKE_COMMAND}" -S "${SOURCE_DIR}/tests/cmake/build_time" -B "${BINARY_DIR}"
                        -G "${GENERATOR}" -DCMAKE_BUILD_TYPE=Release "-DCMAKE_CXX_COMPILER=${CXX}"
                        "-DONNXMICRO_PREFIX=${PREFIX}" "-DONNXMICRO_SOURCE_DIR=${SOURCE_DIR}"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "configuring tests/cmake/build_time against ${PREFIX} failed:\n${out}")
endif()

# Seconds from GNU time's "h:mm:ss" or "m:ss.ss".
function(_seconds text out_var)
  string(REPLACE ":" ";" parts "${text}")
  set(total 0)
  foreach(part IN LISTS parts)
    math(EXPR whole "${total} * 60")
    string(REGEX MATCH "^[0-9]+" int_part "${part}")
    math(EXPR total "${whole} + ${int_part}")
    string(REGEX MATCH "\\.[0-9]+$" frac "${part}")
  endforeach()
  set(${out_var} "${total}${frac}" PARENT_SCOPE)
endfunction()

set(failures "")
set(report "")
file(STRINGS "${RECORD}" record_lines REGEX "^[a-z_]+ = [0-9.]+")
foreach(target readme_example hello)
  execute_process(COMMAND "${GNU_TIME}" -v "${CMAKE_COMMAND}" --build "${BINARY_DIR}" --target ${target}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE build_out ERROR_VARIABLE time_out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "building ${target} failed:\n${build_out}\n${time_out}")
  endif()
  string(REGEX MATCH "Elapsed \\(wall clock\\) time \\(h:mm:ss or m:ss\\): ([0-9:.]+)" _ "${time_out}")
  _seconds("${CMAKE_MATCH_1}" wall)
  string(REGEX MATCH "User time \\(seconds\\): ([0-9.]+)" _ "${time_out}")
  set(user "${CMAKE_MATCH_1}")
  string(REGEX MATCH "System time \\(seconds\\): ([0-9.]+)" _ "${time_out}")
  set(system "${CMAKE_MATCH_1}")
  string(REGEX MATCH "Maximum resident set size \\(kbytes\\): ([0-9]+)" _ "${time_out}")
  math(EXPR peak_mb "${CMAKE_MATCH_1} / 1024")
  # CPU seconds, rounded to tenths (CMake's math is integer-only).
  string(REGEX REPLACE "\\." "" user_cs "${user}")
  string(REGEX REPLACE "\\." "" system_cs "${system}")
  math(EXPR cpu_ds "(${user_cs} + ${system_cs}) / 10")
  math(EXPR cpu_whole "${cpu_ds} / 10")
  math(EXPR cpu_tenth "${cpu_ds} % 10")
  string(APPEND report "  ${target}: wall ${wall} s, compiler CPU ${cpu_whole}.${cpu_tenth} s, peak memory ${peak_mb} MB\n")
  string(APPEND report "    (record: ${target}_cpu_seconds = ${cpu_whole}.${cpu_tenth}, ${target}_peak_mb = ${peak_mb})\n")

  foreach(line IN LISTS record_lines)
    if(line MATCHES "^${target}_cpu_seconds = ([0-9]+)(\\.([0-9]))?")
      set(tenth "${CMAKE_MATCH_3}")
      if(tenth STREQUAL "")
        set(tenth 0)
      endif()
      math(EXPR limit_ds "2 * (${CMAKE_MATCH_1} * 10 + ${tenth})")
      if(cpu_ds GREATER limit_ds)
        string(APPEND failures "  ${target}: compiler CPU ${cpu_whole}.${cpu_tenth} s is over twice the recorded ${line}\n")
      endif()
    elseif(line MATCHES "^${target}_peak_mb = ([0-9]+)")
      math(EXPR limit_mb "2 * ${CMAKE_MATCH_1}")
      if(peak_mb GREATER limit_mb)
        string(APPEND failures "  ${target}: peak memory ${peak_mb} MB is over twice the recorded ${line}\n")
      endif()
    endif()
  endforeach()
endforeach()

# Both programs must also work.
execute_process(COMMAND "${BINARY_DIR}/readme_example" WORKING_DIRECTORY "${SOURCE_DIR}/tests/models/hello_cnn"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "readme_example on tests/models/hello_cnn/model.onnx failed (${rc}):\n${out}")
endif()
string(APPEND report "  readme_example ran: ${out}")
execute_process(COMMAND "${BINARY_DIR}/hello" 1 RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "hello failed (${rc}):\n${out}")
endif()

message(STATUS "build-time budget (recorded in ${RECORD}):\n${report}")
if(failures)
  message(FATAL_ERROR "build-time regression:\n${failures}")
endif()
