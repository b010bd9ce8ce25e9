# SPDX-License-Identifier: MIT
# Fails when the linked image IMAGE (listed with NM) defines or references a heap function: with
# ONNXMICRO_HAS_HEAP=0 the runtime promises never to call malloc or operator new, so the linker must not have
# pulled any of them in. Usage: cmake -DNM=<nm> -DIMAGE=<elf> -P check_no_heap.cmake
execute_process(COMMAND "${NM}" "${IMAGE}" OUTPUT_VARIABLE symbols RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${NM} ${IMAGE} failed (${rc})")
endif()
# malloc family (newlib names them _malloc_r etc.) and the mangled global operator new/delete (_Znw*, _Zna*,
# _Zdl*, _Zda*).
set(heap_symbols "_?(malloc|free|calloc|realloc)(_r)?|_Z(nw|na|dl|da)[A-Za-z_0-9]*")
string(REGEX MATCHALL "[^\n]* (${heap_symbols})\n" found "${symbols}\n")
if(found)
  string(REPLACE ";" "" found "${found}")
  message(FATAL_ERROR "${IMAGE} contains heap functions (ONNXMICRO_HAS_HEAP=0 must not need them):\n${found}"
                      "The linker map ${IMAGE}.map says which object pulled each one in.")
endif()
message(STATUS "${IMAGE}: no malloc/free/new/delete")
