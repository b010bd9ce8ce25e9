# SPDX-License-Identifier: MIT
# Installs onnxmicro into a fresh PREFIX and checks the result: the CMake package files and every header of
# SOURCE_DIR/include, nothing missing. Two modes:
#   default     install the library components (headers and package, onnxmicro::all_kernels) of the configured
#               and built tree BUILD_DIR (setup step of the find_package consumer and build-time budget tests;
#               the tools' install rules are not under test here)
#   UNBUILT=ON  what a header-only user does (issue #20): configure SOURCE_DIR into a fresh BUILD_DIR with the
#               defaults, build nothing, and `cmake --install` every component; tools, examples and the
#               all-kernels library that were not built must not be required (and are not installed)
# Usage: cmake -DBUILD_DIR=... -DPREFIX=... -DSOURCE_DIR=... [-DCONFIG=...] [-DUNBUILT=ON] -P check_install_tree.cmake
file(REMOVE_RECURSE "${PREFIX}")
set(config_args "")
if(CONFIG)
  set(config_args --config "${CONFIG}")
endif()
set(component_args --component onnxmicro_development)
if(UNBUILT)
  file(REMOVE_RECURSE "${BUILD_DIR}")
  execute_process(COMMAND "${CMAKE_COMMAND}" -S "${SOURCE_DIR}" -B "${BUILD_DIR}" RESULT_VARIABLE rc
                  OUTPUT_QUIET)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "cmake -S ${SOURCE_DIR} -B ${BUILD_DIR}: ${rc}")
  endif()
  set(component_args "")
endif()
execute_process(COMMAND "${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${PREFIX}" ${config_args}
                        ${component_args} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cmake --install ${BUILD_DIR} --prefix ${PREFIX} ${component_args}: ${rc}")
endif()
if(NOT UNBUILT)
  # The built tree also installs onnxmicro::all_kernels, its own component.
  execute_process(COMMAND "${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${PREFIX}" ${config_args}
                          --component onnxmicro_all_kernels RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "cmake --install ${BUILD_DIR} --prefix ${PREFIX} --component onnxmicro_all_kernels: ${rc}")
  endif()
endif()
file(GLOB_RECURSE libraries RELATIVE "${PREFIX}" "${PREFIX}/*onnxmicro_all_kernels*")
if(UNBUILT AND libraries)
  message(FATAL_ERROR "an install without a build holds a kernel library: ${libraries}")
elseif(NOT UNBUILT AND NOT libraries)
  message(FATAL_ERROR "onnxmicro::all_kernels' library was not installed under ${PREFIX}")
endif()

file(GLOB_RECURSE package_files RELATIVE "${PREFIX}" "${PREFIX}/*.cmake")
foreach(required onnxmicroConfig.cmake onnxmicroConfigVersion.cmake onnxmicroTargets.cmake)
  set(hit "")
  foreach(f IN LISTS package_files)
    if(f MATCHES "(^|/)${required}$")
      set(hit "${f}")
    endif()
  endforeach()
  if(NOT hit)
    message(FATAL_ERROR "${required} was not installed under ${PREFIX} (found: ${package_files})")
  endif()
endforeach()

file(GLOB_RECURSE headers RELATIVE "${SOURCE_DIR}/include" "${SOURCE_DIR}/include/*.hpp")
file(GLOB_RECURSE installed RELATIVE "${PREFIX}" "${PREFIX}/*.hpp")
set(missing "")
foreach(h IN LISTS headers)
  if(NOT EXISTS "${PREFIX}/include/${h}")
    list(APPEND missing "${h}")
  endif()
endforeach()
if(missing)
  message(FATAL_ERROR "headers not installed under ${PREFIX}/include: ${missing}")
endif()
list(LENGTH headers n)
message(STATUS "installed ${n} headers and the CMake package into ${PREFIX}")
