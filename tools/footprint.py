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

The same three builds of the minimal configuration (--minimal-*: the float CNN alone, with QDQ fusion and error
messages compiled out as well; examples/cortex-m/CMakeLists.txt) give the same numbers prefixed "minimal_".

Usage:
  python3 tools/footprint.py --size arm-none-eabi-size --baseline B.elf --framework F.elf --firmware W.elf
      [--minimal-baseline B.elf --minimal-framework F.elf --minimal-firmware W.elf]
      --record examples/cortex-m/footprint.txt [--update]
Without --update it fails (exit 1) when a number is more than 5% above the recorded one, or the record is
missing; with --update it writes the record. Needs only the Python standard library.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys

GROWTH_LIMIT = 1.05
TARGETS = {"runtime_framework_flash": 12 * 1024, "runtime_with_kernels_flash": 32 * 1024}
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


def measure_builds(size_tool: str, baseline_elf: str, framework_elf: str, firmware_elf: str,
                   prefix: str = "") -> dict[str, int]:
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
    return {prefix + key: value for key, value in numbers.items()}


def measure(args) -> dict[str, int]:
    numbers = measure_builds(args.size, args.baseline, args.framework, args.firmware)
    if args.minimal_firmware:
        numbers.update(measure_builds(args.size, args.minimal_baseline, args.minimal_framework,
                                      args.minimal_firmware, "minimal_"))
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
    for name in ("minimal-baseline", "minimal-framework", "minimal-firmware"):
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

    update = (f"python3 {os.path.abspath(__file__)} --size {args.size} --baseline {args.baseline} "
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
