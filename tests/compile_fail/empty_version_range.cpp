// SPDX-License-Identifier: MIT
// Must NOT compile: a kernel whose [since, until) range is empty.
#include "onnxmicro/onnxmicro.hpp"

namespace {
struct BrokenKernel : onnxmicro::kernels::KernelDefaults {
  static constexpr std::string_view kDomain = "";
  static constexpr std::string_view kOpType = "Broken";
  static constexpr int kSinceVersion = 13;
  static constexpr int kUntilVersion = 13;
  static onnxmicro::Status prepare(onnxmicro::kernels::PrepareContext&) noexcept { return {}; }
  static onnxmicro::Status run(onnxmicro::kernels::RunContext&) noexcept { return {}; }
};
}  // namespace

int main() { return static_cast<int>(onnxmicro::KernelSet<BrokenKernel>::registry().size()); }
