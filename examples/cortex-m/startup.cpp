// SPDX-License-Identifier: MIT
// Minimal Cortex-M startup for the MPS2 boards (linked with -nostartfiles and mps2.ld): the vector table, and a
// reset handler that enables the FPU, copies .data from flash to RAM, zeroes .bss, runs the static
// constructors, calls cortex_m::firmware_main and reports its result to the host through semihosting.
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "semihosting.hpp"

namespace cortex_m {
/// The program (firmware_main.cpp). Not `main`: C++ forbids calling main, and nothing here needs the name.
int firmware_main();
}  // namespace cortex_m

namespace {
constexpr std::uint32_t kStackPaint = 0xA5A5A5A5u;
}  // namespace

extern "C" {
// Defined by mps2.ld.
extern unsigned char _estack[];
extern std::uint32_t _sidata[], _sdata[], _edata[], _sbss[], _ebss[], _sstack[];
extern void (*__preinit_array_start[])();
extern void (*__preinit_array_end[])();
extern void (*__init_array_start[])();
extern void (*__init_array_end[])();

[[noreturn]] void Reset_Handler();
[[noreturn]] void Fault_Handler();
// Destructors registered with __cxa_atexit belong to the DSO this symbol names (crtbegin.o, which
// -nostartfiles leaves out, would define it); they never run: main's return ends the program.
void* __dso_handle = nullptr;
}

namespace {

#if defined(__ARM_FP)
// Coprocessor Access Control Register: full access to CP10 and CP11 (the FPU) for privileged and user code.
volatile std::uint32_t& cpacr() { return *reinterpret_cast<volatile std::uint32_t*>(0xE000ED88u); }
#endif

struct VectorTable {
  void* initial_stack;
  void (*handlers[15])();
};

}  // namespace

// Initial stack pointer, reset, and the 14 other system exceptions (NMI, HardFault, MemManage, BusFault,
// UsageFault, reserved x4, SVCall, DebugMonitor, reserved, PendSV, SysTick). No device interrupt is enabled.
__attribute__((section(".isr_vector"), used)) const VectorTable g_vectors = {
    _estack,
    {Reset_Handler, Fault_Handler, Fault_Handler, Fault_Handler, Fault_Handler, Fault_Handler, nullptr, nullptr,
     nullptr, nullptr, Fault_Handler, Fault_Handler, nullptr, Fault_Handler, Fault_Handler}};

void Reset_Handler() {
#if defined(__ARM_FP)
  // Before any floating-point instruction: hard-float code traps (UsageFault/NOCP) while the FPU is off.
  cpacr() |= 0xFu << 20;
  asm volatile("dsb\n\tisb" ::: "memory");
#endif
  const std::size_t data_bytes =
      static_cast<std::size_t>(reinterpret_cast<unsigned char*>(_edata) - reinterpret_cast<unsigned char*>(_sdata));
  std::memcpy(_sdata, _sidata, data_bytes);
  const std::size_t bss_bytes =
      static_cast<std::size_t>(reinterpret_cast<unsigned char*>(_ebss) - reinterpret_cast<unsigned char*>(_sbss));
  std::memset(_sbss, 0, bss_bytes);
  // Paint the unused stack below the current frame, so stack_bytes_used() can find the deepest use.
  std::uint32_t* sp = nullptr;
  asm volatile("mov %0, sp" : "=r"(sp));
  for (std::uint32_t* p = _sstack; p < sp - 16; ++p) *p = kStackPaint;
  for (auto f = __preinit_array_start; f != __preinit_array_end; ++f) (*f)();
  for (auto f = __init_array_start; f != __init_array_end; ++f) (*f)();
  cortex_m::semihosting_exit(cortex_m::firmware_main());
}

void Fault_Handler() {
  cortex_m::semihosting_write0("firmware: fault exception\n");
  cortex_m::semihosting_exit(3);
}

std::size_t cortex_m::stack_bytes_used() noexcept {
  const std::uint32_t* p = _sstack;
  while (p < reinterpret_cast<std::uint32_t*>(_estack) && *p == kStackPaint) ++p;
  return static_cast<std::size_t>(_estack - reinterpret_cast<const unsigned char*>(p));
}
