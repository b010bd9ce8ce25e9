# SPDX-License-Identifier: MIT
# Compiles SOURCE and succeeds only when compilation fails with a diagnostic matching EXPECTED.
execute_process(
  COMMAND ${COMPILER} -std=c++17 -fsyntax-only -Wall -Wextra -Werror -fno-exceptions -fno-rtti -I${INCLUDE_DIR} ${SOURCE}
  RESULT_VARIABLE result
  OUTPUT_VARIABLE output
  ERROR_VARIABLE output)
if(result EQUAL 0)
  message(FATAL_ERROR "${SOURCE} compiled, but it must not")
endif()
if(NOT output MATCHES "${EXPECTED}")
  message(FATAL_ERROR "${SOURCE} failed to compile, but not with the expected diagnostic '${EXPECTED}':\n${output}")
endif()
message(STATUS "${SOURCE} fails to compile as expected")
