// SPDX-License-Identifier: MIT
#include "semihosting.hpp"

#include <cstdint>

namespace cortex_m {
namespace {

constexpr std::uint32_t kSysWrite0 = 0x04;
constexpr std::uint32_t kSysExit = 0x18;
constexpr std::uint32_t kSysExitExtended = 0x20;
constexpr std::uint32_t kApplicationExit = 0x20026;  // ADP_Stopped_ApplicationExit

std::uint32_t semihosting_call(std::uint32_t operation, const void* argument) noexcept {
  register std::uint32_t r0 asm("r0") = operation;
  register const void* r1 asm("r1") = argument;
  // The host may read memory r1 points to: the "memory" clobber keeps prior stores in place.
  asm volatile("bkpt 0xAB" : "+r"(r0) : "r"(r1) : "memory");
  return r0;
}

}  // namespace

void semihosting_write0(const char* text) noexcept { semihosting_call(kSysWrite0, text); }

void semihosting_exit(int code) noexcept {
  // On 32-bit Arm, SYS_EXIT carries only the reason (qemu: exit 0 for ApplicationExit, 1 otherwise);
  // SYS_EXIT_EXTENDED's parameter block also carries the status code.
  const std::uint32_t block[2] = {kApplicationExit, static_cast<std::uint32_t>(code)};
  semihosting_call(kSysExitExtended, block);
  // A host without SYS_EXIT_EXTENDED returns here: exit with a reason that still tells success from failure.
  semihosting_call(kSysExit, reinterpret_cast<const void*>(code == 0 ? kApplicationExit : 0x20023u));
  for (;;) {
  }
}

}  // namespace cortex_m
