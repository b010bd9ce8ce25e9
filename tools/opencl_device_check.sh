#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The OpenCL backend on a machine with an OpenCL GPU (e.g. an NVIDIA card with NVIDIA's OpenCL 3.0 driver, plus PoCL,
# ocl-icd and opencl-clhpp), in one short run:
#   1. builds the OpenCL tests (when GoogleTest's headers are there) and the CLI, Release, from this source tree;
#   2. runs the OpenCL tests on the GPU (ONNXMICRO_OPENCL_DEVICE selects it; default: the first GPU);
#   3. times each model of MODELS_DIR (the CNN exports of bench/make_bench_models.py and BERT-tiny of
#      tests/models/make_bert_tiny.py, generated elsewhere: the machine may have no Python packages) with
#      `onnxmicro bench`, on the GPU (--device opencl --strict) and on the CPU (--threads N), interleaved, and prints
#      one table (median ms and the CPU/GPU ratio) for bench/RESULTS.md.
# usage: tools/opencl_device_check.sh MODELS_DIR [THREADS] [RUNS]
# CI never runs it. It writes only under $BUILD_DIR (default build-opencl-check) and $OUT (default that folder).
set -euo pipefail

models=${1:?usage: tools/opencl_device_check.sh MODELS_DIR [THREADS] [RUNS]}
threads=${2:-$(nproc)}
runs=${3:-20}
build=${BUILD_DIR:-build-opencl-check}
out=${OUT:-$build}
jobs=$(nproc)
mkdir -p "$out"

echo "== devices"
clinfo -l 2>/dev/null || echo "(clinfo not installed)"

echo "== build (Release)"
have_gtest=OFF
if [ -f /usr/include/gtest/gtest.h ]; then have_gtest=ON; fi
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DONNXMICRO_BUILD_TESTS=OFF -DONNXMICRO_BUILD_EXAMPLES=OFF \
  -DONNXMICRO_BUILD_TOOLS=ON >"$out/configure.log"
cmake --build "$build" --target onnxmicro_cli -j "$jobs" >"$out/build.log"
cli="$build/tools/cli/onnxmicro"
"$cli" --version

if [ "$have_gtest" = ON ]; then
  echo "== OpenCL tests on the selected device"
  g++ -std=c++17 -O2 -fno-exceptions -fno-rtti -Iinclude -Itests -DONNXMICRO_SOURCE_DIR="\"$PWD\"" \
    tests/opencl/opencl_backend_test.cpp -lgtest -lgtest_main -lOpenCL -pthread -o "$build/opencl_tests"
  ONNXMICRO_OPENCL_MODELS_DIR="$models" "$build/opencl_tests" --gtest_filter=-NoPlatform.* | tail -n 25
else
  echo "== GoogleTest headers missing: correctness through the CLI's strict runs only"
fi

echo "== timings: $runs runs each, CPU at $threads threads vs OpenCL, interleaved"
printf '%-28s %12s %12s %8s  %s\n' model cpu_ms opencl_ms cpu/gpu placement | tee "$out/opencl_timings.txt"
for dir in "$models"/*/; do
  model="$dir/model.onnx"
  [ -f "$model" ] || continue
  name=$(basename "$dir")
  case "$name" in *_qdq) continue ;; esac  # integer kernels run on the CPU only
  cpu=() gpu=()
  for round in 1 2 3; do
    cpu+=("$("$cli" bench "$model" --threads "$threads" --runs "$runs" --warmup 3 | awk '/^median_ms/ {print $2}')")
    gpu_out=$("$cli" bench "$model" --device opencl --strict --runs "$runs" --warmup 3)
    gpu+=("$(echo "$gpu_out" | awk '/^median_ms/ {print $2}')")
    placement=$(echo "$gpu_out" | sed -n 's/^placement: //p')
  done
  median() { printf '%s\n' "$@" | sort -g | sed -n 2p; }
  c=$(median "${cpu[@]}")
  g=$(median "${gpu[@]}")
  ratio=$(awk -v c="$c" -v g="$g" 'BEGIN { printf "%.2f", c / g }')
  printf '%-28s %12s %12s %8s  %s\n' "$name" "$c" "$g" "$ratio" "$placement" | tee -a "$out/opencl_timings.txt"
done
