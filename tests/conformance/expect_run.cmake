# SPDX-License-Identifier: MIT
# ctest helper: runs a command and passes only when it exits with EXIT_CODE and its output matches REGEX
# (ctest alone can check one or the other, not both).
#   cmake -DARGS=<program>|<arg>|... -DEXIT_CODE=<n> -DREGEX=<regex> -P expect_run.cmake
string(REPLACE "|" ";" _command "${ARGS}")
execute_process(COMMAND ${_command} RESULT_VARIABLE _exit_code OUTPUT_VARIABLE _output ERROR_VARIABLE _errors)
message("${_output}${_errors}")
if(NOT "${_exit_code}" STREQUAL "${EXIT_CODE}")
  message(FATAL_ERROR "exit code ${_exit_code}, expected ${EXIT_CODE}")
endif()
if(NOT _output MATCHES "${REGEX}")
  message(FATAL_ERROR "the output does not match: ${REGEX}")
endif()
