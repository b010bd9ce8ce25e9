// SPDX-License-Identifier: MIT
// Arm semihosting (the debugger, here qemu's `-semihosting-config enable=on,target=native`, services a
// `bkpt 0xAB` with the operation in r0 and its argument in r1). Two operations are enough for a test firmware.
#pragma once
#include <cstddef>

namespace cortex_m {

/// SYS_WRITE0: writes a NUL-terminated string to the host's console.
void semihosting_write0(const char* text) noexcept;

/// The deepest stack use so far, in bytes (startup.cpp paints the stack at reset and scans the paint).
std::size_t stack_bytes_used() noexcept;

/// SYS_EXIT_EXTENDED with ADP_Stopped_ApplicationExit: qemu exits with `code` as its exit status.
[[noreturn]] void semihosting_exit(int code) noexcept;

}  // namespace cortex_m
