// SPDX-License-Identifier: MIT
// Which instruction set the kernels use. The x86-64 fast paths (AVX2+FMA, AVX-512F) are compiled into every build
// with per-function target attributes (ONNXMICRO_ENABLE_ISA_DISPATCH) and chosen at run time from the CPU, so a
// program built with plain `g++ -O2` gets them on CPUs that have them. A session fixes its choice at prepare
// (Session::isa()) and kernels keep it in their state; SessionOptions::max_isa and the environment variable
// ONNXMICRO_MAX_ISA cap it, so every level can be tested on one machine.
#pragma once
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "onnxmicro/core/version.hpp"
#if ONNXMICRO_ENABLE_ISA_DISPATCH
#include <cpuid.h>
#endif

ONNXMICRO_NAMESPACE_BEGIN

/// Instruction-set levels, ordered: a session uses the highest one that the CPU has and no cap excludes.
enum class Isa : std::uint8_t {
  baseline = 0,  ///< what the compiler targets by default: SSE2 on x86-64, NEON on aarch64, scalar on Cortex-M
  avx2 = 1,      ///< x86-64 AVX2 with FMA3 (8-float vectors, fused multiply-add)
  avx512 = 2,    ///< x86-64 AVX-512F (16-float vectors, masked edges), with AVX2+FMA
  best = 255,    ///< as a cap: no cap
};

/// The name `onnxmicro --version`, `bench` and reports print, e.g. "avx2" or "sse2" (the baseline's name).
constexpr std::string_view isa_name(Isa isa) noexcept {
  switch (isa) {
    case Isa::avx2: return "avx2";
    case Isa::avx512: return "avx512";
    case Isa::best: return "best";
    case Isa::baseline: break;
  }
#if ONNXMICRO_BASELINE_ISA >= 3
  return "avx512 (compile-time baseline)";
#elif ONNXMICRO_BASELINE_ISA == 2
  return "avx2 (compile-time baseline)";
#elif defined(__SSE2__)
  return "sse2";
#elif defined(__ARM_NEON)
  return "neon";
#else
  return "scalar";
#endif
}

/// Parses an ISA name as isa_name() prints it (also "sse2", "neon" and "scalar" for the baseline); false when
/// `name` is none of them.
constexpr bool parse_isa(std::string_view name, Isa& isa) noexcept {
  if (name == "baseline" || name == "sse2" || name == "neon" || name == "scalar") {
    isa = Isa::baseline;
  } else if (name == "avx2") {
    isa = Isa::avx2;
  } else if (name == "avx512") {
    isa = Isa::avx512;
  } else if (name == "best") {
    isa = Isa::best;
  } else {
    return false;
  }
  return true;
}

constexpr Isa min_isa(Isa a, Isa b) noexcept {
  return static_cast<std::uint8_t>(a) < static_cast<std::uint8_t>(b) ? a : b;
}

/// The highest level this CPU (and its operating system's register saving) supports, among those compiled in.
inline Isa detected_isa() noexcept {
#if ONNXMICRO_ENABLE_ISA_DISPATCH
  // GCC's and Clang's CPU model (libgcc / compiler-rt) checks both CPUID and XCR0, so a level is only reported
  // when the OS saves its registers.
  // The AVX-512 level also runs AVX2 code (stride-2 depthwise rows), which every AVX-512 CPU has.
  const bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  if (avx2 && __builtin_cpu_supports("avx512f")) return Isa::avx512;
  if (avx2) return Isa::avx2;
#endif
  return Isa::baseline;
}

/// Whether this CPU has AVX-512 VNNI (vpdpwssd: an int16 pair's multiply-add and its accumulation into int32 in
/// one instruction). Not a level of its own: the avx512 level's integer tiles use it where present, with the same
/// results, and the avx2 cap runs the tiles without it.
inline bool detected_avx512_vnni() noexcept {
#if ONNXMICRO_ENABLE_ISA_DISPATCH
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vnni");
#else
  return false;
#endif
}

/// Whether this CPU executes each 512-bit vector operation as two 256-bit halves: AMD family 19h (Zen 4, the only
/// one of that family with AVX-512). The environment variable ONNXMICRO_SPLIT_512 set to 0 or 1 overrides the answer,
/// so that tests run both choices that depend on it on one AVX-512 machine.
inline bool detected_split_512bit() noexcept {
#if ONNXMICRO_HAS_FILESYSTEM
  const char* forced = std::getenv("ONNXMICRO_SPLIT_512");
  if (forced != nullptr && (forced[0] == '0' || forced[0] == '1') && forced[1] == '\0') return forced[0] == '1';
#endif
#if ONNXMICRO_ENABLE_ISA_DISPATCH
  unsigned max_leaf = 0, ebx = 0, ecx = 0, edx = 0, eax = 0;
  if (__get_cpuid(0, &max_leaf, &ebx, &ecx, &edx) == 0 || max_leaf < 1) return false;
  const bool amd = ebx == 0x68747541u && edx == 0x69746e65u && ecx == 0x444d4163u;  // "AuthenticAMD"
  if (!amd || __get_cpuid(1, &eax, &ebx, &ecx, &edx) == 0) return false;
  const unsigned base_family = (eax >> 8) & 0xFu,
                 family = base_family + (base_family == 0xFu ? (eax >> 20) & 0xFFu : 0u);
  return family == 0x19u && __builtin_cpu_supports("avx512f");
#else
  return false;
#endif
}

/// The cap in the environment variable ONNXMICRO_MAX_ISA (for tests and benchmarks): Isa::best when it is unset
/// (or the platform has no environment); false when it is set to something parse_isa() does not accept.
inline bool isa_cap_from_environment(Isa& cap) noexcept {
  cap = Isa::best;
#if ONNXMICRO_HAS_FILESYSTEM
  const char* value = std::getenv("ONNXMICRO_MAX_ISA");
  if (value != nullptr && *value != '\0') return parse_isa(value, cap);
#endif
  return true;
}

/// The instruction set a session prepared with SessionOptions::max_isa = `max_isa` uses in this process: the CPU's
/// best level, at most `max_isa` and at most ONNXMICRO_MAX_ISA. False (with `isa` the baseline) when that variable
/// is malformed. Session::prepare(), `onnxmicro --version`, the benchmarks and the test runners all ask this.
inline bool effective_isa(Isa max_isa, Isa& isa) noexcept {
  Isa environment_cap = Isa::best;
  const bool valid = isa_cap_from_environment(environment_cap);
  isa = valid ? min_isa(detected_isa(), min_isa(max_isa, environment_cap)) : Isa::baseline;
  return valid;
}

ONNXMICRO_NAMESPACE_END
