#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The full test suite, as in the README: installs missing dependencies, sets up the Python venv, configures
# build/ with every optional test required and warnings as errors, builds, runs ctest.
#
# Environment: ONNXMICRO_BUILD_DIR (default <repo>/build), ONNXMICRO_BUILD_TYPE (default Debug: on 2 cores an
# optimised build of the GoogleTest sources costs 4-5x the compile time; the optimised compile of the whole runtime
# with -Werror is covered by the ctests core_*/cross_* at -O3 and -Os),
# ONNXMICRO_SKIP_INSTALL_DEPS=1 to skip tools/install_deps.sh (e.g. non-Debian systems with everything installed).
# Extra arguments go to ctest (e.g. tools/run_tests.sh -L unit).
set -euo pipefail

repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=${ONNXMICRO_BUILD_DIR:-$repo_root/build}
jobs=$(nproc 2>/dev/null || echo 2)

if [[ ${ONNXMICRO_SKIP_INSTALL_DEPS:-0} != 1 ]]; then
  "$repo_root/tools/install_deps.sh"
fi
if [[ -f $repo_root/tools/setup_python.sh ]]; then
  bash "$repo_root/tools/setup_python.sh" >/dev/null
fi

cmake -S "$repo_root" -B "$build_dir" \
  -DCMAKE_BUILD_TYPE="${ONNXMICRO_BUILD_TYPE:-Debug}" \
  -DONNXMICRO_BUILD_TESTS=ON -DONNXMICRO_BUILD_TOOLS=ON -DONNXMICRO_BUILD_EXAMPLES=ON -DONNXMICRO_BUILD_BENCH=ON \
  -DONNXMICRO_REQUIRE_ALL=ON -DONNXMICRO_WERROR=ON
cmake --build "$build_dir" -j"$jobs"
ctest --test-dir "$build_dir" --output-on-failure -j2 "$@"
