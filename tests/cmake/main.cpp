// SPDX-License-Identifier: MIT
// The consumer program of the CMake package tests: builds against onnxmicro the way a user project does and
// checks that what it got is what CMake promised (version, configuration definitions, a working registry).
#include <onnxmicro/onnxmicro.hpp>

#include <cstdio>

// Set by the consumer's CMakeLists.txt from what find_package / the parent project reported.
#ifndef EXPECTED_VERSION_MAJOR
#error "EXPECTED_VERSION_MAJOR/MINOR/PATCH and EXPECTED_MAX_RANK must be defined by the consumer project"
#endif
static_assert(onnxmicro::kMaxRank == EXPECTED_MAX_RANK,
              "ONNXMICRO_MAX_RANK did not reach the consumer through the target's compile definitions");

using ReluOnly = onnxmicro::KernelSet<onnxmicro::kernels::Relu_1>;

int main() {
  const onnxmicro::Version v = onnxmicro::version();
  std::printf("onnxmicro %d.%d.%d (max rank %d)\n", v.major, v.minor, v.patch, onnxmicro::kMaxRank);
  if (v.major != EXPECTED_VERSION_MAJOR || v.minor != EXPECTED_VERSION_MINOR || v.patch != EXPECTED_VERSION_PATCH) {
    std::printf("FAIL: headers say %d.%d.%d, CMake package says %d.%d.%d\n", v.major, v.minor, v.patch,
                EXPECTED_VERSION_MAJOR, EXPECTED_VERSION_MINOR, EXPECTED_VERSION_PATCH);
    return 1;
  }

  const onnxmicro::KernelRegistry registry = ReluOnly::registry();
  const onnxmicro::KernelEntry* relu = onnxmicro::find_kernel(registry, "", "Relu", 14);
  if (registry.size() != 1 || relu == nullptr || relu->prepare == nullptr || relu->run == nullptr) {
    std::printf("FAIL: the Relu-only registry has %zu entries and %s Relu for opset 14\n", registry.size(),
                relu == nullptr ? "does not resolve" : "an incomplete entry for");
    return 1;
  }
  if (onnxmicro::find_kernel(registry, "", "Conv", 11) != nullptr) {
    std::printf("FAIL: the Relu-only registry resolves Conv\n");
    return 1;
  }
  std::printf("registry: %zu kernel, Relu resolves for opset 14, Conv does not\n", registry.size());
  return 0;
}
