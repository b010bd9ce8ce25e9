// SPDX-License-Identifier: MIT
// The host build of the firmware's program: the same runner (runner.cpp) with the same static buffers and
// kernel sets, printing the same lines to stdout, so compare_outputs.py can compare the firmware's output
// values under qemu with the host's.
#include <cstdio>

#include "output.hpp"
#include "runner.hpp"

namespace {
void write_stdout(const char* text) { std::fputs(text, stdout); }
}  // namespace

int main() {
  cortex_m::Output out(&write_stdout);
  const int result = cortex_m::run_models(out);
  out.text("exit ").unsigned_decimal(static_cast<unsigned>(result)).endl();
  return result;
}
