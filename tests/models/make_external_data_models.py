# SPDX-License-Identifier: MIT
"""Re-saves an ONNX backend test case with every initializer in one external data file, the way users get
such models: onnx.save_model(..., save_as_external_data=True, all_tensors_to_one_file=True, size_threshold=0).

    python tests/models/make_external_data_models.py --source CASE_DIR --output OUT_CASE_DIR

CASE_DIR holds model.onnx and test_data_set_*/ (as tests/conformance/generate_data.py writes them). OUT_CASE_DIR
is replaced by model.onnx (the graph, weights left out), model.onnx.data (every initializer's bytes) and a copy
of the test data sets, so onnxmicro_conformance can run it as a case of its own. Fails when no initializer
ended up external (the test would then prove nothing). Run with the repo's venv (tools/setup_python.sh).
"""
from __future__ import annotations

import argparse
import os
import shutil
import sys


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--source", required=True, help="test case directory holding model.onnx")
    parser.add_argument("--output", required=True, help="case directory to (re)create")
    args = parser.parse_args()

    import onnx
    from onnx.external_data_helper import uses_external_data

    source_model = os.path.join(args.source, "model.onnx")
    if not os.path.isfile(source_model):
        sys.exit(f"make_external_data_models: {source_model} not found (generate the conformance data first)")
    # onnx appends to an existing data file: start from an empty directory.
    shutil.rmtree(args.output, ignore_errors=True)
    os.makedirs(args.output)
    for name in sorted(os.listdir(args.source)):
        if name.startswith("test_data_set_"):
            shutil.copytree(os.path.join(args.source, name), os.path.join(args.output, name))

    model = onnx.load(source_model)
    output_model = os.path.join(args.output, "model.onnx")
    onnx.save_model(model, output_model, save_as_external_data=True, all_tensors_to_one_file=True,
                    location="model.onnx.data", size_threshold=0)

    saved = onnx.load(output_model, load_external_data=False)
    external = sum(1 for t in saved.graph.initializer if uses_external_data(t))
    if external == 0:
        sys.exit(f"make_external_data_models: no initializer of {source_model} was saved as external data")
    print(f"make_external_data_models: {output_model}: {external} of {len(saved.graph.initializer)} "
          f"initializers in model.onnx.data ({os.path.getsize(output_model + '.data')} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
