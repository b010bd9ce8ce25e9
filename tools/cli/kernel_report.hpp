// SPDX-License-Identifier: MIT
// How `check` describes what a kernel registry offers for an op.
#pragma once
#include <algorithm>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <onnxmicro/onnxmicro.hpp>

namespace onnxmicro_cli {

/// The opset ranges [since,until) `registry` has kernels for (domain normalised: "" for ai.onnx), sorted,
/// e.g. "[1,6) [6,13) [14,inf)"; "none" when it has none.
inline std::string kernel_version_ranges(onnxmicro::KernelRegistry registry, std::string_view domain,
                                         std::string_view op_type) {
  std::vector<std::pair<int, int>> ranges;
  for (const onnxmicro::KernelEntry& entry : registry) {
    if (entry.domain == domain && entry.op_type == op_type)
      ranges.emplace_back(entry.since_version, entry.until_version);
  }
  if (ranges.empty()) return "none";
  std::sort(ranges.begin(), ranges.end());
  std::string out;
  for (const auto& [since, until] : ranges) {
    if (!out.empty()) out += ' ';
    out += "[" + std::to_string(since) + "," +
           (until >= onnxmicro::kernels::kOpenEnded ? std::string("inf") : std::to_string(until)) + ")";
  }
  return out;
}

}  // namespace onnxmicro_cli
