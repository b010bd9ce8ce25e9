#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs the Debian/Ubuntu packages onnxmicro's full test suite needs (what -DONNXMICRO_REQUIRE_ALL=ON checks),
# and only those that are missing. Idempotent: when everything is installed it returns at once without apt.
# Needs root to install; otherwise it prints the apt-get command to run and fails.
#
#   tools/install_deps.sh           # install what is missing
#   tools/install_deps.sh --list    # print the package list and exit
set -euo pipefail

packages=(
  # build and unit tests
  cmake make g++ libgtest-dev
  # bench/ (Google Benchmark; its bench_smoke test runs with the rest)
  libbenchmark-dev
  # single-header generation, the conformance suite's venv (tools/setup_python.sh)
  python3 python3-venv
  # tests checked against protoc / libprotobuf
  protobuf-compiler libprotobuf-dev
  # OpenCL backend tests: C++ bindings, ICD loader + C headers, a CPU driver
  opencl-clhpp-headers ocl-icd-opencl-dev pocl-opencl-icd
  # second compiler (and libFuzzer), valgrind memcheck of the example
  clang libclang-rt-14-dev valgrind
  # cross builds: aarch64 and armhf Linux (run under qemu-user), Cortex-M4/M7 bare metal with newlib-nano
  g++-aarch64-linux-gnu g++-arm-linux-gnueabihf qemu-user
  # GoogleTest's sources (/usr/src/googletest), compiled for those targets to run the unit tests under qemu-user
  googletest
  gcc-arm-none-eabi libstdc++-arm-none-eabi-newlib libnewlib-arm-none-eabi
  # the Cortex-M firmware (examples/cortex-m) runs on qemu's emulated MPS2 boards
  qemu-system-arm
  # the formatting check (.ci/run with ONNXMICRO_CHECK_FORMAT=1)
  clang-format-14
  # the build-time budget test (wall time and peak compiler memory of the README example and examples/hello)
  time
  # `onnxmicro graph --format svg` and the check that the DOT it writes is valid (Graphviz's dot)
  graphviz
)

if [[ ${1:-} == --list ]]; then
  printf '%s\n' "${packages[@]}"
  exit 0
fi

if ! command -v dpkg-query >/dev/null 2>&1; then
  echo "install_deps: not a Debian-based system (no dpkg-query); install the equivalents of:" >&2
  printf '  %s\n' "${packages[@]}" >&2
  exit 1
fi

missing=()
for package in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null || true)
  [[ $status == "install ok installed" ]] || missing+=("$package")
done

if ((${#missing[@]} == 0)); then
  echo "install_deps: all ${#packages[@]} packages are installed" >&2
  exit 0
fi

command_line="apt-get update && apt-get install -y --no-install-recommends ${missing[*]}"
if [[ $(id -u) -ne 0 ]]; then
  echo "install_deps: missing packages: ${missing[*]}" >&2
  echo "install_deps: run as root:  $command_line" >&2
  exit 1
fi

echo "install_deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update
apt-get install -y --no-install-recommends "${missing[@]}"
