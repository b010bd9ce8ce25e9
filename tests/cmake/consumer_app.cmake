# SPDX-License-Identifier: MIT
# The consumer program of the package tests (main.cpp), shared by the find_package, add_subdirectory and
# FetchContent consumers: onnxmicro_consumer_app(VERSION MAX_RANK) adds target `app` linking onnxmicro::onnxmicro,
# told the version and ONNXMICRO_MAX_RANK it must find in the headers.
set(_onnxmicro_consumer_dir "${CMAKE_CURRENT_LIST_DIR}")
function(onnxmicro_consumer_app version max_rank)
  string(REPLACE "." ";" _v "${version}")
  list(GET _v 0 _vmajor)
  list(GET _v 1 _vminor)
  list(GET _v 2 _vpatch)
  add_executable(app "${_onnxmicro_consumer_dir}/main.cpp")
  target_link_libraries(app PRIVATE onnxmicro::onnxmicro)
  target_compile_definitions(app PRIVATE EXPECTED_VERSION_MAJOR=${_vmajor} EXPECTED_VERSION_MINOR=${_vminor}
                                         EXPECTED_VERSION_PATCH=${_vpatch} EXPECTED_MAX_RANK=${max_rank})
endfunction()

# Fails unless every variable named is defined (-D...); when ONNXMICRO_PREFIX is one of them, find_package looks
# there and nowhere else (no package registries).
macro(onnxmicro_consumer_require)
  foreach(_var ${ARGN})
    if(NOT DEFINED ${_var})
      message(FATAL_ERROR "pass -D${_var}=...")
    endif()
  endforeach()
  if(DEFINED ONNXMICRO_PREFIX)
    set(CMAKE_FIND_USE_PACKAGE_REGISTRY OFF)
    set(CMAKE_FIND_USE_SYSTEM_PACKAGE_REGISTRY OFF)
    set(CMAKE_PREFIX_PATH "${ONNXMICRO_PREFIX}")
  endif()
endmacro()
