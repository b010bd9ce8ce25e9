// SPDX-License-Identifier: MIT
// Must NOT compile: the check all_kernels.hpp runs over AllKernels, given a kernel type that declares its version
// range itself instead of being a VersionedKernel alias (the one idiom of built-in kernels).
#include "onnxmicro/onnxmicro.hpp"

namespace {
struct HandWritten_13 : onnxmicro::kernels::KernelDefaults {
  static constexpr std::string_view kOpType = "HandWritten";
  static constexpr int kSinceVersion = 13;
  static onnxmicro::Status prepare(onnxmicro::kernels::PrepareContext&) noexcept { return {}; }
  static onnxmicro::Status run(onnxmicro::kernels::RunContext&) noexcept { return {}; }
};
using Set = onnxmicro::KernelSet<onnxmicro::kernels::Relu_1, HandWritten_13>;
static_assert(onnxmicro::detail::all_built_in_kernel_idiom(static_cast<Set*>(nullptr)));
}  // namespace

int main() { return 0; }
