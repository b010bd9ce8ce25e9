// SPDX-License-Identifier: MIT
// Version and ABI tag. Everything of onnxmicro lives in an inline namespace named after the version and the
// layout-changing configuration, so mixing translation units built with different settings fails to link.
#pragma once
#include "onnxmicro/core/config.hpp"

#define ONNXMICRO_CONCAT_IMPL(a, b, c, d, e, f, g) v##a##_##b##_##c##_r##d##_h##e##_m##f##_i##g
#define ONNXMICRO_CONCAT(a, b, c, d, e, f, g) ONNXMICRO_CONCAT_IMPL(a, b, c, d, e, f, g)
#define ONNXMICRO_ABI_NAMESPACE                                                                                   \
  ONNXMICRO_CONCAT(ONNXMICRO_VERSION_MAJOR, ONNXMICRO_VERSION_MINOR, ONNXMICRO_VERSION_PATCH, ONNXMICRO_MAX_RANK, \
                   ONNXMICRO_HAS_HEAP, ONNXMICRO_ENABLE_ERROR_MESSAGES, ONNXMICRO_BASELINE_ISA)
#define ONNXMICRO_NAMESPACE_BEGIN \
  namespace onnxmicro {           \
  inline namespace ONNXMICRO_ABI_NAMESPACE {
#define ONNXMICRO_NAMESPACE_END \
  }                             \
  }

ONNXMICRO_NAMESPACE_BEGIN

/// The library version as numbers; compare against ONNXMICRO_VERSION_* to detect a header/binary mismatch.
struct Version {
  int major;
  int minor;
  int patch;
};

/// Version of the headers this translation unit was compiled with.
constexpr Version version() noexcept {
  return {ONNXMICRO_VERSION_MAJOR, ONNXMICRO_VERSION_MINOR, ONNXMICRO_VERSION_PATCH};
}

/// True when a caller built against `required` can use this version (same major, not older minor/patch).
constexpr bool version_compatible(Version required) noexcept {
  return required.major == ONNXMICRO_VERSION_MAJOR &&
         (required.minor < ONNXMICRO_VERSION_MINOR ||
          (required.minor == ONNXMICRO_VERSION_MINOR && required.patch <= ONNXMICRO_VERSION_PATCH));
}

ONNXMICRO_NAMESPACE_END

/// Fails compilation when the headers are older than the version a program needs.
#define ONNXMICRO_REQUIRE_VERSION(major, minor, patch)                                      \
  static_assert(::onnxmicro::version_compatible(::onnxmicro::Version{major, minor, patch}), \
                "onnxmicro headers are older than this program requires")
