# SPDX-License-Identifier: MIT
"""Checks that the quantized test models and their references do not depend on the CPU that made them (issue #16).

Runs tests/models/make_qdq_models.py, make_dynamic_quant_models.py and make_qdq_models.py --firmware twice: here,
and under qemu-x86_64 -cpu Haswell, where numpy and onnxruntime see an AVX2-only CPU without AVX-512 or VNNI and
take those kernels (onnxruntime's u8 x s8 GEMM then saturates pairs of products in 16 bits). Every model and
expected output must come out byte for byte the same; only onnxruntime_default_<k>.pb (onnxruntime's own fused
result, kept for information) may differ, and how far it moved is printed.

Usage: <repo>/.venv/bin/python tests/models/check_reference_cpu_independent.py --qemu PATH [--only SCRIPT[,...]]
Exit 0 when both runs agree, 1 when a file differs, 2 when a run fails.
"""
from __future__ import annotations

import argparse
import filecmp
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
RUNS = {  # name: arguments after the script's path (-o DIR is added)
    "make_qdq_models": ["make_qdq_models.py"],
    "make_dynamic_quant_models": ["make_dynamic_quant_models.py"],
    "firmware": ["make_qdq_models.py", "--firmware"],
    "make_qoperator_op_models": ["make_qoperator_op_models.py"],
    "make_qlinear_softmax_models": ["make_qlinear_softmax_models.py"],
}


def generate(prefix: list[str], arguments: list[str], output: str) -> None:
    command = prefix + [sys.executable, os.path.join(HERE, arguments[0])] + arguments[1:] + ["-o", output]
    result = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if result.returncode != 0:
        messages = [line for line in result.stderr.splitlines() if not line.startswith("qemu-x86_64: warning")]
        print(f"check_reference_cpu_independent: {' '.join(command)} failed:\n" + "\n".join(messages[-20:]))
        sys.exit(2)


def differing_files(a: str, b: str, prefix: str = "") -> list[str]:
    comparison = filecmp.dircmp(a, b)
    found = [prefix + name for name in comparison.left_only + comparison.right_only]
    _, mismatch, errors = filecmp.cmpfiles(a, b, comparison.common_files, shallow=False)
    found += [prefix + name for name in mismatch + errors]
    for sub in comparison.common_dirs:
        found += differing_files(os.path.join(a, sub), os.path.join(b, sub), prefix + sub + "/")
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--qemu", required=True, help="qemu-x86_64 (Debian package qemu-user)")
    parser.add_argument("--only", default="", help=f"comma-separated runs (default: all of {list(RUNS)})")
    args = parser.parse_args()
    failed = False
    for name in [n for n in args.only.split(",") if n] or list(RUNS):
        with tempfile.TemporaryDirectory(prefix="onnxmicro-cpu-check-") as work:
            here, haswell = os.path.join(work, "here"), os.path.join(work, "haswell")
            generate([], RUNS[name], here)
            generate([args.qemu, "-cpu", "Haswell"], RUNS[name], haswell)
            files = differing_files(here, haswell)
            informational = [f for f in files if os.path.basename(f).startswith("onnxruntime_default_")]
            wrong = [f for f in files if f not in informational]
            print(f"{name}: {'FAIL' if wrong else 'pass'}: {len(wrong)} model/reference files differ between this "
                  f"CPU and an emulated AVX2-only one; onnxruntime's own fused outputs differ in "
                  f"{len(informational)} files (information)")
            for f in wrong[:20]:
                print(f"    differs: {f}")
            failed |= bool(wrong)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
