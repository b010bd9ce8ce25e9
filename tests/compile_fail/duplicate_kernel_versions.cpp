// SPDX-License-Identifier: MIT
// Must NOT compile: two kernels for the same op with overlapping opset ranges make resolution ambiguous.
#include "onnxmicro/onnxmicro.hpp"

namespace {
struct AnotherRelu : onnxmicro::kernels::KernelDefaults {
  static constexpr std::string_view kDomain = "";
  static constexpr std::string_view kOpType = "Relu";
  static constexpr int kSinceVersion = 13;
  static onnxmicro::Status prepare(onnxmicro::kernels::PrepareContext&) noexcept { return {}; }
  static onnxmicro::Status run(onnxmicro::kernels::RunContext&) noexcept { return {}; }
};
}  // namespace

int main() {
  auto registry = onnxmicro::KernelSet<onnxmicro::kernels::Relu_1, AnotherRelu>::registry();
  return static_cast<int>(registry.size());
}
