# SPDX-License-Identifier: MIT
"""Runs the Cortex-M firmware under qemu-system-arm with semihosting and checks it; optionally compares its
output values with the host reference's.

    compare_outputs.py --firmware fw.elf [--host host_reference] [--timeout S] -- qemu-system-arm -M ... -cpu ...

Passes when qemu exits 0 within the timeout (the firmware checked every model against the test set's expected
outputs itself), and, with --host, when the host reference also exits 0, both print the same "y" lines (model,
output, index) and every firmware value is within the tolerance below of the host's.

Tolerance: |target - host| <= 1e-5 + 1e-4 * |host| per float32 element of a float model. Both sides run the same
source; they differ only where the compilers and C libraries may: GCC contracts a*b+c into one fused
multiply-add on Cortex-M4F/M7 (VFMA) but not for x86-64 without -mfma, and newlib's expf differs from glibc's
by an ulp or so. Each such step changes a value by a few float32 ulps (~1e-7 relative) and the CNN chains a
few dozen, so a relative 1e-4 leaves a wide margin while still catching a wrong kernel, a wrong layout or
uninitialised memory, which change values by far more. The script also prints the largest difference in ulps.
Bit-identical: other dtypes, and the outputs of quantized models (an output made by DequantizeLinear, for which
the firmware prints "quantum MODEL OUTPUT BITS VALUE"). Integer kernels compute the same integers on any target
(int32 accumulation, fixed-point requantisation); QuantizeLinear's x / scale and DequantizeLinear's
(q - zero_point) * scale are single correctly rounded float operations, with nothing to contract; and
QLinearSoftmax's exp table is computed in double and rounded to float32, so an ulp between newlib's and glibc's
exp would have to straddle a float32 rounding boundary to show. A quantum of difference is a bug to explain.
Needs only the Python standard library.
"""
from __future__ import annotations

import argparse
import struct
import subprocess
import sys

ABS_TOL = 1e-5
REL_TOL = 1e-4


def run(command: list[str], timeout: float, what: str) -> tuple[int, str]:
    try:
        done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=timeout)
    except subprocess.TimeoutExpired as e:
        out = (e.stdout or b"").decode("utf-8", "replace")
        sys.stdout.write(out)
        print(f"compare_outputs: {what} did not finish within {timeout} s: {' '.join(command)}")
        sys.exit(1)
    return done.returncode, done.stdout.decode("utf-8", "replace")


def values(text: str) -> dict[tuple[str, str, str], str]:
    """The "y MODEL OUTPUT INDEX 0xBITS VALUE" lines, keyed by (model, output, index)."""
    found = {}
    for line in text.splitlines():
        parts = line.split()
        if len(parts) >= 5 and parts[0] == "y":
            found[(parts[1], parts[2], parts[3])] = parts[4]
    return found


def quantized_outputs(text: str) -> set[tuple[str, str]]:
    """(model, output) of every "quantum MODEL OUTPUT 0xBITS VALUE" line."""
    return {(parts[1], parts[2]) for parts in (line.split() for line in text.splitlines())
            if len(parts) >= 3 and parts[0] == "quantum"}


def as_float(bits: str) -> float | None:
    if len(bits) != 10:  # 0x + 8 digits: a float32; anything else compares exactly
        return None
    return struct.unpack("<f", struct.pack("<I", int(bits, 16)))[0]


def ulps(a: str, b: str) -> int:
    def ordered(bits: str) -> int:
        v = int(bits, 16)
        return v if v < 0x80000000 else 0x80000000 - v
    return abs(ordered(a) - ordered(b))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--firmware", required=True)
    parser.add_argument("--host")
    parser.add_argument("--timeout", type=float, default=60)
    parser.add_argument("qemu", nargs=argparse.REMAINDER, help="-- qemu-system-arm -M BOARD -cpu CPU")
    args = parser.parse_args()
    qemu = [a for a in args.qemu if a != "--"]
    if not qemu:
        parser.error("give the qemu command after --")
    qemu += ["-semihosting-config", "enable=on,target=native", "-nographic", "-monitor", "none", "-serial", "none",
             "-kernel", args.firmware]
    code, target_text = run(qemu, args.timeout, "qemu")
    sys.stdout.write(target_text)
    if code != 0:
        print(f"compare_outputs: the firmware exited with {code} under {' '.join(qemu)}")
        return 1
    target = values(target_text)
    if not target:
        print("compare_outputs: the firmware printed no output values")
        return 1
    if not args.host:
        print(f"compare_outputs: firmware ok, {len(target)} output values")
        return 0

    code, host_text = run([args.host], args.timeout, "the host reference")
    if code != 0:
        sys.stdout.write(host_text)
        print(f"compare_outputs: the host reference exited with {code}")
        return 1
    host = values(host_text)
    exact = quantized_outputs(host_text) | quantized_outputs(target_text)
    failures = []
    if set(host) != set(target):
        failures.append(f"different elements: host only {sorted(set(host) - set(target))[:5]}, "
                        f"firmware only {sorted(set(target) - set(host))[:5]}")
    max_diff = 0.0
    max_ulps = 0
    identical = 0
    for key in sorted(set(host) & set(target)):
        h, t = host[key], target[key]
        if h == t:
            identical += 1
            continue
        hf, tf = as_float(h), as_float(t)
        if hf is None or tf is None or key[:2] in exact:
            failures.append(f"{' '.join(key)}: firmware {t}, host {h} (compared exactly)")
            continue
        diff = abs(tf - hf)
        max_diff = max(max_diff, diff)
        max_ulps = max(max_ulps, ulps(h, t))
        if not diff <= ABS_TOL + REL_TOL * abs(hf):
            failures.append(f"{' '.join(key)}: firmware {t} ({tf!r}), host {h} ({hf!r}), diff {diff:.3g}")
    quantized = sum(1 for key in host if key[:2] in exact)
    print(f"compare_outputs: {len(host)} values, {identical} bit-identical, max abs diff {max_diff:.3g} "
          f"({max_ulps} ulp), tolerance {ABS_TOL:g} + {REL_TOL:g} * |host| (0 for the {quantized} values of "
          f"quantized outputs)")
    for failure in failures[:20]:
        print("  MISMATCH " + failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
