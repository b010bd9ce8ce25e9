# SPDX-License-Identifier: MIT
"""Writes the ONNX backend test suites that onnxmicro_conformance runs, into DIR/<suite>/<case>/.

Every case is laid out as `python -m onnx.backend.test.cmd_tools generate-data` writes it:
    <case>/model.onnx, <case>/test_data_set_<n>/input_<k>.pb, <case>/test_data_set_<n>/output_<k>.pb
where input_<k> feeds model.graph.input[k] and output_<k> is the expected model.graph.output[k].

Suites:
  node               the per-operator cases of onnx.backend.test.case.node (about 1900). cmd_tools'
                     generate-data writes only the model cases since onnx 1.17, so they are fed through its
                     own writer here (same serialisation as upstream).
  simple             small multi-node models (cmd_tools generate-data, model cases).
  pytorch-converted, pytorch-operator
                     shipped as files inside the onnx package; copied.
  light              the reduced real models shipped in the onnx package (light_*.onnx and expected
                     outputs), with the input the onnx backend runner generates for them
                     (Runner.generate_dummy_data, non-random).
("real" is not a suite here: its cases are download URLs.)

The data is regenerated only when DIR is missing or stale: DIR/.onnxmicro-data-stamp records the onnx
version, the suites and this script's hash. Generation goes to a temporary directory that replaces DIR at
the end, so an interrupted run never leaves a half-written DIR that looks current.

Run with any python3: unless --no-venv is given, the script first runs tools/setup_python.sh (which creates
or reuses <repo>/.venv with the pinned onnx) and re-executes itself with the venv's interpreter.

Usage: python3 tests/conformance/generate_data.py -o DIR [--suites node,simple,...] [--force] [--no-venv]
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import warnings

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ALL_SUITES = ["node", "simple", "pytorch-converted", "pytorch-operator", "light"]
STAMP_NAME = ".onnxmicro-data-stamp"
_IN_VENV_ENV = "ONNXMICRO_GENERATE_DATA_IN_VENV"


def _reexec_in_venv() -> None:
    setup = os.path.join(REPO_ROOT, "tools", "setup_python.sh")
    result = subprocess.run([setup], stdout=subprocess.PIPE, text=True)
    if result.returncode != 0:
        sys.exit(f"generate_data: {setup} failed (exit {result.returncode}); see its message above")
    python = result.stdout.strip().splitlines()[-1]
    env = dict(os.environ, **{_IN_VENV_ENV: "1"})
    os.execve(python, [python, os.path.abspath(__file__)] + sys.argv[1:], env)


def _script_hash() -> str:
    with open(os.path.abspath(__file__), "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def _stamp(suites: list[str]) -> dict:
    import onnx

    return {"onnx": onnx.__version__, "suites": suites, "generator": _script_hash()}


def _read_stamp(directory: str):
    try:
        with open(os.path.join(directory, STAMP_NAME), encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def _write_cases(output: str, suites: list[str]) -> dict[str, int]:
    """Node and simple cases through cmd_tools' own writer."""
    import onnx.backend.test.case.model as model_cases
    import onnx.backend.test.case.node as node_cases
    import onnx.backend.test.cmd_tools as cmd_tools

    cases = []
    # The case generators compute expected outputs of edge cases (log(0), x/0) on purpose; their numpy
    # RuntimeWarnings are noise here.
    warnings.simplefilter("ignore", RuntimeWarning)
    if "simple" in suites:
        # "real" model cases are only URLs; skip them.
        cases += [c for c in model_cases.collect_testcases() if c.kind == "simple"]
    if "node" in suites:
        cases += node_cases.collect_testcases()
    if not cases:
        return {}
    # generate_data() writes model_cases.collect_testcases(); hand it our list for the duration of the call.
    original = model_cases.collect_testcases
    model_cases.collect_testcases = lambda: cases
    try:
        cmd_tools.generate_data(argparse.Namespace(output=output))
    finally:
        model_cases.collect_testcases = original
    counts: dict[str, int] = {}
    for case in cases:
        counts[case.kind] = counts.get(case.kind, 0) + 1
    return counts


def _copy_shipped(output: str, suite: str) -> int:
    import onnx

    source = os.path.join(os.path.dirname(onnx.__file__), "backend", "test", "data", suite)
    if not os.path.isdir(source):
        sys.exit(f"generate_data: onnx {onnx.__version__} does not ship {source}")
    shutil.copytree(source, os.path.join(output, suite))
    return sum(1 for entry in os.scandir(os.path.join(output, suite)) if entry.is_dir())


def _write_light(output: str) -> int:
    import onnx
    from onnx.backend.test.runner import Runner

    source = os.path.join(os.path.dirname(onnx.__file__), "backend", "test", "data", "light")
    count = 0
    for file_name in sorted(os.listdir(source)):
        if not file_name.endswith(".onnx"):
            continue
        stem = file_name[: -len(".onnx")]
        case_dir = os.path.join(output, "light", stem)
        data_dir = os.path.join(case_dir, "test_data_set_0")
        os.makedirs(data_dir)
        shutil.copyfile(os.path.join(source, file_name), os.path.join(case_dir, "model.onnx"))
        model = onnx.load(os.path.join(source, file_name))
        initializers = {t.name for t in model.graph.initializer}
        k = 0
        for value_info in model.graph.input:
            if value_info.name in initializers:
                continue
            # The same input the onnx backend runner feeds these models (its expected outputs match it).
            value = Runner.generate_dummy_data(value_info, seed=0, name=stem, random=False)
            tensor = onnx.numpy_helper.from_array(value, value_info.name)
            with open(os.path.join(data_dir, f"input_{k}.pb"), "wb") as f:
                f.write(tensor.SerializeToString())
            k += 1
        for i in range(len(model.graph.output)):
            expected = os.path.join(source, f"{stem}_output_{i}.pb")
            if not os.path.exists(expected):
                sys.exit(f"generate_data: {expected} missing")
            shutil.copyfile(expected, os.path.join(data_dir, f"output_{i}.pb"))
        count += 1
    return count


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("-o", "--output", required=True, help="directory to (re)generate")
    parser.add_argument("--suites", default=",".join(ALL_SUITES),
                        help="comma-separated suites (default: %(default)s)")
    parser.add_argument("--force", action="store_true", help="regenerate even when DIR is up to date")
    parser.add_argument("--no-venv", action="store_true",
                        help="use the running interpreter (it must have onnx) instead of <repo>/.venv")
    args = parser.parse_args()

    if not args.no_venv and os.environ.get(_IN_VENV_ENV) != "1":
        _reexec_in_venv()  # does not return

    suites = [s for s in args.suites.split(",") if s]
    unknown = [s for s in suites if s not in ALL_SUITES]
    if unknown:
        sys.exit(f"generate_data: unknown suite(s) {', '.join(unknown)}; known: {', '.join(ALL_SUITES)}")
    try:
        import onnx  # noqa: F401
    except ImportError:
        sys.exit(f"generate_data: {sys.executable} has no onnx module; run tools/setup_python.sh or drop --no-venv")

    output = os.path.abspath(args.output)
    wanted = _stamp(suites)
    if not args.force and os.path.isdir(output) and _read_stamp(output) == wanted:
        print(f"generate_data: {output} is up to date (onnx {wanted['onnx']})")
        return 0

    scratch = f"{output}.tmp-{os.getpid()}"
    shutil.rmtree(scratch, ignore_errors=True)
    os.makedirs(scratch)
    try:
        counts = _write_cases(scratch, suites)
        for suite in ("pytorch-converted", "pytorch-operator"):
            if suite in suites:
                counts[suite] = _copy_shipped(scratch, suite)
        if "light" in suites:
            counts["light"] = _write_light(scratch)
        with open(os.path.join(scratch, STAMP_NAME), "w", encoding="utf-8") as f:
            json.dump(wanted, f, sort_keys=True)
        shutil.rmtree(output, ignore_errors=True)
        os.replace(scratch, output)
    except BaseException:
        shutil.rmtree(scratch, ignore_errors=True)
        raise
    summary = ", ".join(f"{suite} {counts.get(suite, 0)}" for suite in suites)
    print(f"generate_data: wrote {output} (onnx {wanted['onnx']}): {summary} cases")
    return 0


if __name__ == "__main__":
    sys.exit(main())
