# SPDX-License-Identifier: MIT
"""Cross-checks `onnxmicro inspect --json` against the onnx Python package on real exported CNNs.

Usage: python inspect_matches_onnx.py PATH_TO_CLI [MODEL.onnx ...]
Without models, uses the "light" model zoo CNNs the onnx package ships (onnx/backend/test/data/light).
Every field of the JSON report is recomputed here from onnx's own parser; any difference fails.
"""
import collections
import glob
import json
import os
import subprocess
import sys

import numpy as np
import onnx
from onnx import helper


def expected_report(path):
    model = onnx.load(path, load_external_data=False)
    graph = model.graph
    initializer_names = {t.name for t in graph.initializer}

    def normalise(domain):
        return "" if domain == "ai.onnx" else domain

    opsets = {normalise(o.domain): o.version for o in model.opset_import}

    def dtype_name(elem_type):
        # onnxmicro's dtype names are onnx's TensorProto.DataType names in lower case.
        return onnx.TensorProto.DataType.Name(elem_type).lower()

    def type_name(t):
        kind = t.WhichOneof("value")
        if kind == "tensor_type":
            return dtype_name(t.tensor_type.elem_type)
        if kind == "sparse_tensor_type":
            return f"sparse_tensor({dtype_name(t.sparse_tensor_type.elem_type)})"
        if kind == "sequence_type":
            return f"sequence({type_name(t.sequence_type.elem_type)})"
        if kind == "optional_type":
            return f"optional({type_name(t.optional_type.elem_type)})"
        if kind == "map_type":
            return f"map({dtype_name(t.map_type.key_type)},{type_name(t.map_type.value_type)})"
        return "unknown"

    def value(info):
        t = info.type
        shape = None
        if t.WhichOneof("value") == "tensor_type" and t.tensor_type.HasField("shape"):
            shape = []
            for d in t.tensor_type.shape.dim:
                if d.HasField("dim_value"):
                    shape.append(d.dim_value)
                else:
                    shape.append(d.dim_param if d.dim_param else "?")
        return {"name": info.name, "dtype": type_name(t) if info.HasField("type") else "unknown", "shape": shape}

    def tensor_bytes(t):
        if t.data_type == onnx.TensorProto.STRING:
            return sum(len(v) for v in t.string_data)
        count = int(np.prod(t.dims)) if len(t.dims) else 1
        if t.data_type in (onnx.TensorProto.INT4, onnx.TensorProto.UINT4, onnx.TensorProto.FLOAT4E2M1):
            return (count + 1) // 2
        return count * helper.tensor_dtype_to_np_dtype(t.data_type).itemsize

    ops = collections.Counter()

    def walk(g):
        for node in g.node:
            domain = normalise(node.domain)
            ops[(domain, node.op_type, opsets[domain])] += 1
            for attribute in node.attribute:
                if attribute.type == onnx.AttributeProto.GRAPH:
                    walk(attribute.g)
                for sub in attribute.graphs:
                    walk(sub)

    walk(graph)
    external = []
    for t in graph.initializer:
        if t.data_location == onnx.TensorProto.EXTERNAL:
            entries = {e.key: e.value for e in t.external_data}
            external.append({"name": t.name, "location": entries.get("location", ""),
                             "offset": int(entries.get("offset", 0)),
                             "length": int(entries["length"]) if "length" in entries else None})
    return {
        "ir_version": model.ir_version,
        "producer_name": model.producer_name,
        "producer_version": model.producer_version,
        "opset_imports": [{"domain": normalise(o.domain), "version": o.version} for o in model.opset_import],
        "inputs": [value(i) for i in graph.input if i.name not in initializer_names],
        "outputs": [value(o) for o in graph.output],
        "initializers": {"count": len(graph.initializer), "bytes": sum(tensor_bytes(t) for t in graph.initializer)},
        "external_data": external,
        "ops": [{"domain": d, "op_type": op, "version": v, "count": c} for (d, op, v), c in sorted(ops.items())],
    }


def main():
    cli = sys.argv[1]
    models = sys.argv[2:]
    if not models:
        light = os.path.join(os.path.dirname(onnx.__file__), "backend", "test", "data", "light")
        models = sorted(glob.glob(os.path.join(light, "*.onnx")))
    if not models:
        print("no models found")
        return 1
    failures = 0
    for path in models:
        run = subprocess.run([cli, "inspect", "--json", path], capture_output=True, text=True, timeout=120)
        if run.returncode != 0:
            print(f"FAILED {path}: exit {run.returncode}: {run.stderr.strip()}")
            failures += 1
            continue
        actual = json.loads(run.stdout)
        expected = expected_report(path)
        if actual != expected:
            failures += 1
            print(f"FAILED {path}:")
            for key in expected:
                if actual.get(key) != expected[key]:
                    print(f"  {key}: expected {expected[key]!r}\n  {' ' * len(key)}  actual   {actual.get(key)!r}")
            for key in set(actual) - set(expected):
                print(f"  unexpected key {key}")
        else:
            print(f"ok {os.path.basename(path)}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
