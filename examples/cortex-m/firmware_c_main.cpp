// SPDX-License-Identifier: MIT
// The C firmware (firmware_c): the C API example of examples/c (hello_c.c, C99) on the target, its text through
// semihosting. startup.cpp calls firmware_main and passes its result to qemu's exit status.
#include "hello_c.h"
#include "semihosting.hpp"

// The example takes a C function to write with.
extern "C" void firmware_c_write(const char* text) { cortex_m::semihosting_write0(text); }

namespace cortex_m {

int firmware_main() {
  const int result = hello_c_run(&firmware_c_write);
  semihosting_write0(result == 0 ? "exit 0\n" : "exit non-zero\n");
  return result;
}

}  // namespace cortex_m
