# SPDX-License-Identifier: MIT
"""Runs `onnxmicro run` (the CLI, as an external user would) on every ONNX node case of the given ops and
compares each output_K.pb with numpy.allclose(rtol=1e-3, atol=1e-5). A case fails on a wrong output, a crash,
or an error other than "no kernel" (cases whose expanded form needs ops this build lacks are counted apart).

usage: run_node_cases.py ONNXMICRO_CLI DATA_DIR OP [OP ...]   (OP as in the case names: conv, maxpool, ...)
"""
import glob
import os
import subprocess
import sys
import tempfile

import numpy as np
import onnx
from onnx import numpy_helper


def load_tensor(path):
    tensor = onnx.TensorProto()
    with open(path, "rb") as f:
        tensor.ParseFromString(f.read())
    return numpy_helper.to_array(tensor)


def run_case(cli, case_dir, work):
    inputs = sorted(glob.glob(os.path.join(case_dir, "test_data_set_0", "input_*.pb")),
                    key=lambda p: int(p.rsplit("_", 1)[1].split(".")[0]))
    out_dir = os.path.join(work, os.path.basename(case_dir))
    cmd = [cli, "run", os.path.join(case_dir, "model.onnx"), "--output-dir", out_dir]
    if inputs:
        cmd += ["--inputs"] + inputs
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    if proc.returncode < 0:
        return "fail", f"crashed with signal {-proc.returncode}"
    if proc.returncode != 0:
        message = proc.stderr.strip()
        if len(message.splitlines()) != 1 or not message.startswith("onnxmicro: error:"):
            return "fail", f"exit {proc.returncode} without exactly one error line: {message!r}"
        if "no kernel" in message or "not supported yet" in message or "sequence" in message or "optional" in message:
            return "unsupported", message
        return "fail", message
    for expected_path in sorted(glob.glob(os.path.join(case_dir, "test_data_set_0", "output_*.pb"))):
        actual_path = os.path.join(out_dir, os.path.basename(expected_path))
        if not os.path.exists(actual_path):
            return "fail", f"missing {os.path.basename(actual_path)}"
        expected, actual = load_tensor(expected_path), load_tensor(actual_path)
        if expected.dtype != actual.dtype or expected.shape != actual.shape:
            return "fail", f"{os.path.basename(expected_path)}: {actual.dtype}{actual.shape} != {expected.dtype}{expected.shape}"
        if "float" in expected.dtype.name and expected.dtype.kind not in "fc":
            # float8/bfloat16 (ml_dtypes) compare as float32, so NaN == NaN holds as for the other floats
            expected, actual = expected.astype(np.float32), actual.astype(np.float32)
        if expected.dtype.kind in "fc":
            ok = np.allclose(actual, expected, rtol=1e-3, atol=1e-5, equal_nan=True)
        else:
            ok = np.array_equal(actual, expected)
        if not ok:
            return "fail", f"{os.path.basename(expected_path)}: values differ"
    return "pass", ""


def main():
    cli, data, ops = sys.argv[1], sys.argv[2], sys.argv[3:]
    cases = sorted({d for op in ops for d in glob.glob(os.path.join(data, "node", f"test_{op}*"))
                    if os.path.isdir(d)})
    counts = {"pass": 0, "fail": 0, "unsupported": 0}
    with tempfile.TemporaryDirectory() as work:
        for case_dir in cases:
            status, why = run_case(cli, case_dir, work)
            counts[status] += 1
            if status != "pass":
                print(f"{status.upper():12s}{os.path.basename(case_dir)}: {why}")
    print(f"cli run over {len(cases)} node cases of {len(ops)} ops: {counts['pass']} passed, "
          f"{counts['fail']} failed, {counts['unsupported']} unsupported")
    print(f"{counts['pass']} passed, {counts['fail']} failed")
    if not cases or counts["pass"] == 0:
        print("no case ran: the data directory or op list is wrong")
        return 1
    return 1 if counts["fail"] else 0


if __name__ == "__main__":
    sys.exit(main())
