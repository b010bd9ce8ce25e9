// SPDX-License-Identifier: MIT
// The firmware: runs the model list (runner.cpp) and returns its result; startup.cpp calls it and passes the
// result to qemu's exit status through semihosting. Output goes through SYS_WRITE0, one line at a time.
#include "output.hpp"
#include "runner.hpp"
#include "semihosting.hpp"

namespace cortex_m {

int firmware_main() {
  Output out(&semihosting_write0);
  const int result = run_models(out);
  out.text("stack: ").unsigned_decimal(stack_bytes_used()).text(" bytes used at most").endl();
  out.text("exit ").unsigned_decimal(static_cast<unsigned>(result)).endl();
  return result;
}

}  // namespace cortex_m
