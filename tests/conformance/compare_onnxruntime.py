# SPDX-License-Identifier: MIT
"""Runs onnxruntime over the same ONNX backend test cases as onnxmicro_conformance and prints both results
side by side, to tell our bugs from cases that are hard for everyone.

    onnxmicro_conformance --data DIR --suite node --results-json ours.json
    .venv/bin/python tests/conformance/compare_onnxruntime.py --data DIR --suite node --results-json ours.json

onnxruntime's outcome per case uses the runner's rules: pass when every output_K.pb matches (same dtype and
shape, |actual - expected| <= atol + rtol * |expected|, NaN equal to NaN, integers and strings exact); fail
on a mismatch or error; unsupported when it reports NOT_IMPLEMENTED or cannot load the model's opset.
Without --results-json only onnxruntime's column is printed.

Run it with the repo's venv python (tools/setup_python.sh prints its path).
"""
from __future__ import annotations

import argparse
import glob
import json
import os
import sys
import warnings


def _load_value(path: str, type_proto):
    """A test-data file as onnxruntime takes it: ndarray, list (sequence), dict (map) or None (optional)."""
    import onnx
    from onnx import numpy_helper

    with open(path, "rb") as f:
        data = f.read()
    kind = type_proto.WhichOneof("value") if type_proto is not None else "tensor_type"
    if kind == "sequence_type":
        proto = onnx.SequenceProto()
        proto.ParseFromString(data)
        return numpy_helper.to_list(proto)
    if kind == "map_type":
        proto = onnx.MapProto()
        proto.ParseFromString(data)
        return numpy_helper.to_dict(proto)
    if kind == "optional_type":
        proto = onnx.OptionalProto()
        proto.ParseFromString(data)
        return numpy_helper.to_optional(proto)
    proto = onnx.TensorProto()
    proto.ParseFromString(data)
    return numpy_helper.to_array(proto)


def _compare(actual, expected, rtol: float, atol: float) -> str:
    """'' when `actual` matches `expected`, else what differs."""
    import numpy as np

    if isinstance(expected, (list, tuple)):
        if not isinstance(actual, (list, tuple)) or len(actual) != len(expected):
            return f"sequence of {len(expected)} expected, got {type(actual).__name__}"
        for i, (a, e) in enumerate(zip(actual, expected)):
            why = _compare(a, e, rtol, atol)
            if why:
                return f"element {i}: {why}"
        return ""
    if isinstance(expected, dict) or expected is None:
        return "" if actual == expected else "value differs"
    actual = np.asarray(actual)
    if actual.shape != expected.shape:
        return f"shape {list(actual.shape)}, expected {list(expected.shape)}"
    if expected.dtype == object or expected.dtype.kind in "SU":
        return "" if np.array_equal(actual.astype(object), expected.astype(object)) else "strings differ"
    if actual.dtype != expected.dtype:
        return f"dtype {actual.dtype}, expected {expected.dtype}"
    if expected.dtype.kind in "biu":
        mismatches = int(np.count_nonzero(actual != expected))
        return f"{mismatches} of {expected.size} elements differ" if mismatches else ""
    element_rtol = max(rtol, 2**-6) if expected.dtype.name == "bfloat16" else rtol
    a = actual.astype(np.complex128 if expected.dtype.kind == "c" else np.float64)
    e = expected.astype(a.dtype)
    close = np.isclose(a, e, rtol=element_rtol, atol=atol, equal_nan=True)
    mismatches = int(close.size - np.count_nonzero(close))
    return f"{mismatches} of {expected.size} elements differ" if mismatches else ""


# onnxruntime errors that mean "cannot run this" rather than "ran it wrong".
_UNSUPPORTED_MARKERS = (
    "NOT_IMPLEMENTED",
    "is not a registered function/op",
    "ValidateOpsetForDomain",
    "Unsupported model IR version",
    "Unrecognized attribute",  # an attribute added by an opset newer than onnxruntime knows
    "can't be converted to MLDataType",  # dtypes its Python binding cannot feed (float8, int4, ...)
    "are not supported",
    "is not supported",
)


def _classify_error(where: str, error: Exception) -> tuple[str, str]:
    text = str(error)
    first_line = text.splitlines()[0] if text else type(error).__name__
    unsupported = any(marker in text for marker in _UNSUPPORTED_MARKERS)
    return ("unsupported" if unsupported else "fail"), f"{where}: {first_line}"


def run_onnxruntime(case_dir: str, rtol: float, atol: float) -> tuple[str, str]:
    """(status, reason) of one case under onnxruntime."""
    import onnx
    import onnxruntime

    model_path = os.path.join(case_dir, "model.onnx")
    if not os.path.exists(model_path):
        return "unsupported", "no model.onnx"
    model = onnx.load(model_path)
    options = onnxruntime.SessionOptions()
    options.log_severity_level = 4  # errors come back as exceptions; keep the console quiet
    try:
        session = onnxruntime.InferenceSession(model_path, options, providers=["CPUExecutionProvider"])
    except Exception as error:  # noqa: BLE001 - onnxruntime raises several exception types
        return _classify_error("InferenceSession", error)
    inputs = list(model.graph.input)
    outputs = list(model.graph.output)
    for data_set in sorted(glob.glob(os.path.join(case_dir, "test_data_set_*"))):
        feeds = {}
        k = 0
        while os.path.exists(os.path.join(data_set, f"input_{k}.pb")):
            value_info = inputs[k]
            feeds[value_info.name] = _load_value(os.path.join(data_set, f"input_{k}.pb"), value_info.type)
            k += 1
        try:
            results = session.run(None, feeds)
        except Exception as error:  # noqa: BLE001
            return _classify_error("run", error)
        names = [o.name for o in session.get_outputs()]
        k = 0
        while os.path.exists(os.path.join(data_set, f"output_{k}.pb")):
            value_info = outputs[k]
            expected = _load_value(os.path.join(data_set, f"output_{k}.pb"), value_info.type)
            if value_info.name not in names:
                return "fail", f"output {value_info.name} missing"
            why = _compare(results[names.index(value_info.name)], expected, rtol, atol)
            if why:
                return "fail", f"output {k} '{value_info.name}': {why}"
            k += 1
    return "pass", ""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--data", required=True, help="test data root (as onnxmicro_conformance --data)")
    parser.add_argument("--suite", default="node", help="comma-separated suites (default: %(default)s)")
    parser.add_argument("--filter", action="append", default=[], help="only cases whose name contains this")
    parser.add_argument("--results-json", help="onnxmicro_conformance --results-json output to compare with")
    parser.add_argument("--rtol", type=float, default=1e-3)
    parser.add_argument("--atol", type=float, default=1e-5)
    parser.add_argument("--list", action="store_true",
                        help="list every case where the two runtimes disagree (default: the first 40)")
    parser.add_argument("--require-more-passes", action="store_true",
                        help="exit 1 unless onnxmicro passes more cases than onnxruntime (needs --results-json)")
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    import onnxruntime

    onnxruntime.set_default_logger_severity(4)  # failures are reported per case; no log spam

    ours = {}
    if args.results_json:
        with open(args.results_json, encoding="utf-8") as f:
            for entry in json.load(f)["cases"]:
                ours[(entry["suite"], entry["name"])] = (entry["status"], entry["reason"])

    theirs = {}
    for suite in [s for s in args.suite.split(",") if s]:
        suite_dir = os.path.join(args.data, suite)
        if not os.path.isdir(suite_dir):
            sys.exit(f"compare_onnxruntime: no suite directory {suite_dir}")
        for name in sorted(os.listdir(suite_dir)):
            case_dir = os.path.join(suite_dir, name)
            if not os.path.isdir(case_dir):
                continue
            if args.filter and not any(f in name for f in args.filter):
                continue
            try:
                theirs[(suite, name)] = run_onnxruntime(case_dir, args.rtol, args.atol)
            except Exception as error:  # noqa: BLE001 - a broken case must not end the comparison
                theirs[(suite, name)] = ("fail", f"{type(error).__name__}: {error}")

    statuses = ("pass", "fail", "unsupported")
    columns = [("onnxruntime", theirs)] + ([("onnxmicro", ours)] if ours else [])
    print(f"{'':14}" + "".join(f"{title:>14}" for title, _ in columns))
    for status in statuses:
        label = {"pass": "passed", "fail": "failed", "unsupported": "unsupported"}[status]
        print(f"{label:14}" + "".join(f"{sum(1 for s, _ in r.values() if s == status):>14}" for _, r in columns))
    print(f"{'cases':14}" + "".join(f"{len(r):>14}" for _, r in columns))

    if ours:
        only_in_one = sorted(set(ours) ^ set(theirs))
        if only_in_one:
            print(f"\n{len(only_in_one)} cases were run by only one side (different --filter or data?)")
        pairs = {}
        for key in sorted(set(ours) & set(theirs)):
            pairs.setdefault((ours[key][0], theirs[key][0]), []).append(key)
        print("\nonnxmicro vs onnxruntime, by outcome:")
        for (mine, other), keys in sorted(pairs.items()):
            print(f"  onnxmicro {mine:<12} onnxruntime {other:<12} {len(keys):>5} cases")
        # Ours failing where onnxruntime passes is most likely our bug; list those first.
        suspicious = pairs.get(("fail", "pass"), [])
        if suspicious:
            shown = suspicious if args.list else suspicious[:40]
            print(f"\nonnxmicro fails, onnxruntime passes ({len(suspicious)}):")
            for suite, name in shown:
                print(f"  {name if suite == 'node' else suite + '/' + name}: {ours[(suite, name)][1]}")
            if len(shown) < len(suspicious):
                print("  ... (--list for all)")
        both_fail = pairs.get(("fail", "fail"), [])
        if both_fail:
            print(f"\nboth fail ({len(both_fail)}; the expected data may be at fault):")
            for suite, name in (both_fail if args.list else both_fail[:20]):
                print(f"  {name}: onnxruntime: {theirs[(suite, name)][1]}")
    if args.require_more_passes:
        if not ours:
            sys.exit("compare_onnxruntime: --require-more-passes needs --results-json")
        ours_passed = sum(1 for s, _ in ours.values() if s == "pass")
        theirs_passed = sum(1 for s, _ in theirs.values() if s == "pass")
        verdict = "more" if ours_passed > theirs_passed else "NOT more"
        print(f"\nonnxmicro passes {ours_passed}, onnxruntime {theirs_passed}: {verdict}")
        return 0 if ours_passed > theirs_passed else 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
