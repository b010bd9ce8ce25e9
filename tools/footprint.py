# SPDX-License-Identifier: MIT
"""Flash footprint of onnxmicro on Cortex-M, measured with arm-none-eabi-size on three builds of
examples/cortex-m (Cortex-M4F, -Os) that share the startup code, semihosting output, libc and the embedded model
and test bytes, and differ only in what they compile from onnxmicro:

    baseline   no onnxmicro at all (prints the models' sizes)
    framework  load, prepare, set_input, run, output with an empty kernel set (the runtime without kernels)
    firmware   the same with the kernels each model needs (examples/cortex-m/CMakeLists.txt's model list)

Flash is text + data (data is stored in flash and copied to RAM). The recorded numbers:

    runtime_framework_flash  = framework - baseline   (target: <= 12 KB)
    runtime_with_kernels_flash = firmware - baseline  (target: <= 32 KB)
    kernels_flash            = firmware - framework
    baseline_flash, firmware_flash, firmware_ram (data + bss: static arena, metadata, scratch, stack)

With --nm, two more numbers bracket the runtime's own code from below: the bytes of the symbols named in namespace
onnxmicro (functions and constant tables; not string literals, nor the libgcc/libm helpers the runtime pulls in),
as opposed to the image differences above, which also count the firmware's own printing and comparing code:

    runtime_framework_symbols    onnxmicro symbols of the framework build
    runtime_with_kernels_symbols onnxmicro symbols of the firmware build

The same three builds of the minimal configuration (--minimal-*: the float CNN alone, with QDQ fusion and error
messages compiled out as well; examples/cortex-m/CMakeLists.txt) give the same numbers prefixed "minimal_".

Usage:
  python3 tools/footprint.py --size arm-none-eabi-size [--nm arm-none-eabi-nm] --baseline B.elf --framework F.elf
      --firmware W.elf
      [--minimal-baseline B.elf --minimal-framework F.elf --minimal-firmware W.elf]
      --record examples/cortex-m/footprint.txt [--update]
Without --update it fails (exit 1) when a number is more than 5% above the recorded one, or the record is
missing; with --update it writes the record. Needs only the Python standard library.
"""
from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys

GROWTH_LIMIT = 1.05
TARGETS = {"runtime_framework_flash": 12 * 1024, "runtime_with_kernels_flash": 32 * 1024,
           "runtime_framework_symbols": 12 * 1024, "runtime_with_kernels_symbols": 32 * 1024}
TARGETS.update({"minimal_" + key: value for key, value in TARGETS.items()})
HEADER = """# SPDX-License-Identifier: MIT
# Flash/RAM footprint of examples/cortex-m, Cortex-M4F, MinSizeRel (-Os), in bytes; by tools/footprint.py.
# The ctest firmware_footprint (ctest --preset cortex-m4) fails when a number grows more than 5% above this
# record. After an intended change: python3 tools/footprint.py ... --update (the test prints the command).
"""


def berkeley(size_tool: str, elf: str) -> tuple[int, int, int]:
    out = subprocess.run([size_tool, "-B", elf], check=True, stdout=subprocess.PIPE, text=True).stdout
    fields = out.splitlines()[1].split()
    return int(fields[0]), int(fields[1]), int(fields[2])


# A mangled name in namespace onnxmicro: its members (_ZN, const members _ZNK), entities local to its functions
# (_ZZN: lambdas, statics) and its vtables and typeinfo (_ZTVN, _ZTIN, _ZTSN). Read from the mangled names: a
# demangled template function starts with its return type.
ONNXMICRO_SYMBOL = re.compile(r"^_Z(?:Z|T[VIS])?N[KVRO]*9onnxmicro")


def onnxmicro_symbol_bytes(nm_tool: str, elf: str) -> int:
    """Bytes of the sized code and read-only symbols in namespace onnxmicro."""
    out = subprocess.run([nm_tool, "-S", elf], check=True, stdout=subprocess.PIPE, text=True).stdout
    total = 0
    for line in out.splitlines():
        fields = line.split()
        # address size type name; b/B/d/D are RAM (bss, data), not code
        if len(fields) == 4 and fields[2] not in "bBdD" and ONNXMICRO_SYMBOL.match(fields[3]):
            total += int(fields[1], 16)
    return total


def measure_builds(size_tool: str, baseline_elf: str, framework_elf: str, firmware_elf: str,
                   prefix: str = "", nm_tool: str = "") -> dict[str, int]:
    text_b, data_b, _ = berkeley(size_tool, baseline_elf)
    text_f, data_f, _ = berkeley(size_tool, framework_elf)
    text_w, data_w, bss_w = berkeley(size_tool, firmware_elf)
    baseline, framework, firmware = text_b + data_b, text_f + data_f, text_w + data_w
    numbers = {
        "baseline_flash": baseline,
        "firmware_flash": firmware,
        "firmware_ram": data_w + bss_w,
        "runtime_framework_flash": framework - baseline,
        "runtime_with_kernels_flash": firmware - baseline,
        "kernels_flash": firmware - framework,
    }
    if nm_tool:
        numbers["runtime_framework_symbols"] = onnxmicro_symbol_bytes(nm_tool, framework_elf)
        numbers["runtime_with_kernels_symbols"] = onnxmicro_symbol_bytes(nm_tool, firmware_elf)
    return {prefix + key: value for key, value in numbers.items()}


def measure(args) -> dict[str, int]:
    numbers = measure_builds(args.size, args.baseline, args.framework, args.firmware, nm_tool=args.nm)
    if args.minimal_firmware:
        numbers.update(measure_builds(args.size, args.minimal_baseline, args.minimal_framework,
                                      args.minimal_firmware, "minimal_", args.nm))
    return numbers


def read_record(path: str) -> dict[str, int]:
    record = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if line:
                key, value = line.split("=", 1)
                record[key.strip()] = int(value)
    return record


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    for name in ("size", "baseline", "framework", "firmware", "record"):
        parser.add_argument("--" + name, required=True)
    for name in ("nm", "minimal-baseline", "minimal-framework", "minimal-firmware"):
        parser.add_argument("--" + name, default="")
    parser.add_argument("--update", action="store_true", help="write the record instead of checking it")
    args = parser.parse_args()
    minimal = (args.minimal_baseline, args.minimal_framework, args.minimal_firmware)
    if any(minimal) and not all(minimal):
        parser.error("--minimal-baseline, --minimal-framework and --minimal-firmware go together")

    numbers = measure(args)
    for key, value in numbers.items():
        target = TARGETS.get(key)
        note = f"  (target <= {target}: {'met' if value <= target else 'NOT met'})" if target else ""
        print(f"{key:36} {value:8} bytes{note}")

    if args.update:
        with open(args.record, "w", encoding="utf-8", newline="\n") as f:
            f.write(HEADER)
            for key, value in numbers.items():
                f.write(f"{key} = {value}\n")
        print(f"footprint: wrote {args.record}")
        return 0

    nm_option = f" --nm {args.nm}" if args.nm else ""
    update = (f"python3 {os.path.abspath(__file__)} --size {args.size}{nm_option} --baseline {args.baseline} "
              f"--framework {args.framework} --firmware {args.firmware} --record {args.record} --update")
    if args.minimal_firmware:
        update = update.replace(" --record ", f" --minimal-baseline {args.minimal_baseline} --minimal-framework "
                                f"{args.minimal_framework} --minimal-firmware {args.minimal_firmware} --record ")
    if not os.path.exists(args.record):
        print(f"footprint: {args.record} does not exist; create it with\n  {update}")
        return 1
    record = read_record(args.record)
    failures = []
    for key, value in numbers.items():
        if key not in record:
            failures.append(f"{key} is not recorded")
        elif value > record[key] * GROWTH_LIMIT:
            failures.append(f"{key} grew from {record[key]} to {value} bytes "
                            f"(+{100.0 * (value - record[key]) / max(record[key], 1):.1f}%, limit +5%)")
        elif value < record[key] / GROWTH_LIMIT:
            print(f"footprint: {key} shrank from {record[key]} to {value} bytes; consider updating the record")
    for failure in failures:
        print("footprint: " + failure)
    if failures:
        print(f"footprint: if intended, update the record:\n  {update}")
        return 1
    print(f"footprint: within 5% of {args.record}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
