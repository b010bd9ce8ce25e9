#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The example, as in the README: configures build/ (if needed), builds the onnxmicro_hello target only, runs it.
# Arguments go to the program. ONNXMICRO_BUILD_DIR overrides build/.
set -euo pipefail

repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=${ONNXMICRO_BUILD_DIR:-$repo_root/build}

if [[ ! -f $build_dir/CMakeCache.txt ]]; then
  # A fresh tree needs no test dependencies for the example; tools/run_tests.sh turns the tests back on.
  cmake -S "$repo_root" -B "$build_dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DONNXMICRO_BUILD_TESTS=OFF
fi
cmake --build "$build_dir" --target onnxmicro_hello -j"$(nproc 2>/dev/null || echo 2)"
exec "$build_dir/examples/hello/onnxmicro_hello" "$@"
