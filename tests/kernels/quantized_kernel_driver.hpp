// SPDX-License-Identifier: MIT
// Runs one quantized kernel (any domain) through prepare() and run() with an optional fused Relu/Clip, as the
// session's QDQ fusion hands it over; inputs may be constant (initializers) or run-time values. Shared by the
// QLinearConv, QLinearMatMul and QGemm tests, which compare against straightforward references of their own.
#pragma once
#include <cmath>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "support/kernel_harness.hpp"

namespace onnxmicro_test {

struct DriverResult {
  Status status;
  TestTensor output;
  std::size_t scratch_bytes = 0;
  std::size_t metadata_bytes = 0;
};

inline DriverResult run_quantized(om::KernelRegistry registry, std::string_view domain, const std::string& op,
                                  int opset, const std::vector<TestTensor>& inputs,
                                  const std::vector<ProtoWriter>& attributes = {},
                                  const om::kernels::FusedClamp& clamp = {}, const HarnessSettings& settings = {}) {
  KernelHarness harness(registry, domain, op, opset, inputs, attributes, clamp, settings);
  // Poisoned, so a kernel that reads scratch it has not written shows up as a wrong output.
  harness.scratch_fill = 0xAB;
  DriverResult result;
  result.status = harness.prepare_status;
  if (!result.status.ok()) return result;
  result.scratch_bytes = harness.scratch_bytes();
  result.metadata_bytes = harness.metadata_bytes();
  result.status = harness.run(result.output);
  return result;
}

/// The reference's requantisation: round(total * float32(float32(s1 * s2) / y_scale)) + zero, ties to even,
/// saturated to [low, high] (the multiplier in float32 arithmetic, the product in float64).
inline std::int32_t reference_requantize(std::int32_t total, float s1, float s2, float y_scale, std::int32_t zero,
                                         std::int32_t low, std::int32_t high) {
  const float multiplier = (s1 * s2) / y_scale;
  double v = std::nearbyint(static_cast<double>(total) * static_cast<double>(multiplier)) + zero;
  if (v < low) v = low;
  if (v > high) v = high;
  return static_cast<std::int32_t>(v);
}

/// The quantized bounds of a fused Relu/Clip: saturate(round(bound / y_scale) + zero) in float32.
inline void reference_clamp_bounds(const om::kernels::FusedClamp& clamp, float y_scale, std::int32_t zero,
                                   std::int32_t& low, std::int32_t& high) {
  const std::int32_t type_low = low, type_high = high;
  auto quantize = [&](float v) {
    double q = std::nearbyint(static_cast<double>(v / y_scale)) + zero;
    return static_cast<std::int32_t>(q < type_low ? type_low : (q > type_high ? type_high : q));
  };
  if (clamp.has_min) low = std::max(low, quantize(clamp.min));
  if (clamp.has_max) high = std::min(high, quantize(clamp.max));
}

/// Two's complement wrap of an exact sum to int32 (the spec's 32-bit accumulator).
inline std::int32_t wrap32(std::int64_t v) { return static_cast<std::int32_t>(static_cast<std::uint32_t>(v)); }

}  // namespace onnxmicro_test
