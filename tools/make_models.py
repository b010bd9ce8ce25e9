# SPDX-License-Identifier: MIT
"""Generates onnxmicro's small test/example models, deterministically, with onnx.helper.

Each model is written in the ONNX backend-test layout, so the conformance runner reads it like any ONNX
node test (``onnxmicro_conformance --data tests --suite models``):

    <out>/<name>/model.onnx
    <out>/<name>/test_data_set_0/input_<k>.pb     fixed, seeded input
    <out>/<name>/test_data_set_0/output_<k>.pb    expected output computed by onnxruntime

The expected outputs come from onnxruntime and are cross-checked against onnx.reference (the pure-Python
reference evaluator): the script fails when the two disagree, so a wrong expectation cannot be committed.
Weights and inputs come from fixed seeds; protobuf serialisation is deterministic, so rerunning the script
reproduces the committed bytes exactly (``--check`` verifies that without writing).

Models:
  hello_cnn  Conv -> Relu -> MaxPool -> Conv -> BatchNormalization -> Relu -> GlobalAveragePool -> Flatten
             -> Gemm -> Softmax; input 1x1x8x8, opset 13. The default model of examples/hello.
  mlp        MatMul/Add -> Relu -> MatMul/Add -> Tanh -> MatMul/Add -> Sigmoid; input [batch, 16] with a
             symbolic batch dim (test data uses batch 3, so runners must bind input shapes), opset 13.

It also writes the conformance runner's self-test cases (tests/conformance/selftest/<case>/, same layout):
Relu models whose expectations are right, within tolerance, or deliberately wrong (value, shape, dtype, an
int32 off by one) and a model with an op no build implements, so a test can prove the runner tells pass,
fail and unsupported apart.

hello_cnn is also embedded, with its input and expected output, in examples/hello/default_model.hpp
(written by tools/onnx2header.py).

Usage: .venv/bin/python tools/make_models.py [--out tests/models] [--only NAME] [--check]
(run tools/setup_python.sh first; it creates .venv).
"""
from __future__ import annotations

import argparse
import filecmp
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np
import onnx
import onnxruntime
from onnx import TensorProto, helper, numpy_helper
from onnx.reference import ReferenceEvaluator
from onnx.reference.op_run import OpRun

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OPSET = 13
IR_VERSION = 7  # the IR version that introduced opset 13; keeps the models loadable by older runtimes
PRODUCER = "onnxmicro tools/make_models.py"
# onnxruntime vs onnx.reference agreement required before an expectation is written.
CROSS_CHECK_RTOL = 1e-4
CROSS_CHECK_ATOL = 1e-6


def _weights(rng: np.random.Generator, shape: tuple[int, ...], fan_in: int) -> np.ndarray:
    """He-style scaled normal weights, float32, so activations stay in a sane range layer to layer."""
    return (rng.standard_normal(shape) * np.sqrt(2.0 / fan_in)).astype(np.float32)


def _init(name: str, array: np.ndarray) -> TensorProto:
    return numpy_helper.from_array(array, name)


def _finish(graph: onnx.GraphProto, doc: str, opset: int = OPSET) -> onnx.ModelProto:
    model = helper.make_model(
        graph,
        opset_imports=[helper.make_opsetid("", opset)],
        producer_name=PRODUCER,
        producer_version="1",
        doc_string=doc,
    )
    model.ir_version = IR_VERSION
    onnx.checker.check_model(model, full_check=True)
    return model


def make_hello_cnn() -> tuple[onnx.ModelProto, list[np.ndarray]]:
    rng = np.random.default_rng(20240501)
    c1, c2, classes = 4, 8, 10
    inits = [
        _init("conv1.weight", _weights(rng, (c1, 1, 3, 3), 9)),
        _init("conv1.bias", (rng.standard_normal(c1) * 0.1).astype(np.float32)),
        _init("conv2.weight", _weights(rng, (c2, c1, 3, 3), c1 * 9)),
        _init("conv2.bias", (rng.standard_normal(c2) * 0.1).astype(np.float32)),
        _init("bn.scale", rng.uniform(0.5, 1.5, c2).astype(np.float32)),
        _init("bn.bias", (rng.standard_normal(c2) * 0.1).astype(np.float32)),
        _init("bn.mean", (rng.standard_normal(c2) * 0.1).astype(np.float32)),
        _init("bn.var", rng.uniform(0.5, 2.0, c2).astype(np.float32)),
        _init("fc.weight", _weights(rng, (classes, c2), c2)),  # [out, in]: Gemm with transB=1
        _init("fc.bias", (rng.standard_normal(classes) * 0.1).astype(np.float32)),
    ]
    nodes = [
        helper.make_node("Conv", ["input", "conv1.weight", "conv1.bias"], ["conv1"], name="conv1",
                         kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["conv1"], ["relu1"], name="relu1"),
        helper.make_node("MaxPool", ["relu1"], ["pool1"], name="pool1", kernel_shape=[2, 2], strides=[2, 2]),
        helper.make_node("Conv", ["pool1", "conv2.weight", "conv2.bias"], ["conv2"], name="conv2",
                         kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
        helper.make_node("BatchNormalization", ["conv2", "bn.scale", "bn.bias", "bn.mean", "bn.var"], ["bn"],
                         name="bn", epsilon=1e-5),
        helper.make_node("Relu", ["bn"], ["relu2"], name="relu2"),
        helper.make_node("GlobalAveragePool", ["relu2"], ["gap"], name="gap"),
        helper.make_node("Flatten", ["gap"], ["flat"], name="flatten", axis=1),
        helper.make_node("Gemm", ["flat", "fc.weight", "fc.bias"], ["logits"], name="fc", transB=1),
        helper.make_node("Softmax", ["logits"], ["probabilities"], name="softmax", axis=-1),
    ]
    graph = helper.make_graph(
        nodes,
        "hello_cnn",
        [helper.make_tensor_value_info("input", TensorProto.FLOAT, [1, 1, 8, 8])],
        [helper.make_tensor_value_info("probabilities", TensorProto.FLOAT, [1, classes])],
        initializer=inits,
    )
    model = _finish(graph, "onnxmicro hello example: a tiny CNN classifying an 8x8 image into 10 classes.")
    # A fixed "image": a bright diagonal stroke over seeded noise, values in [0, 1].
    noise = np.random.default_rng(7).uniform(0.0, 0.2, (8, 8))
    image = np.clip(noise + np.eye(8) * 0.8, 0.0, 1.0).astype(np.float32).reshape(1, 1, 8, 8)
    return model, [image]


def make_mlp() -> tuple[onnx.ModelProto, list[np.ndarray]]:
    rng = np.random.default_rng(20240502)
    sizes = [16, 32, 16, 4]
    inits = []
    for i in range(3):
        inits.append(_init(f"fc{i}.weight", _weights(rng, (sizes[i], sizes[i + 1]), sizes[i])))
        inits.append(_init(f"fc{i}.bias", (rng.standard_normal(sizes[i + 1]) * 0.1).astype(np.float32)))
    nodes = []
    activations = ["Relu", "Tanh", "Sigmoid"]
    previous = "x"
    for i, activation in enumerate(activations):
        nodes.append(helper.make_node("MatMul", [previous, f"fc{i}.weight"], [f"mm{i}"], name=f"fc{i}.matmul"))
        nodes.append(helper.make_node("Add", [f"mm{i}", f"fc{i}.bias"], [f"fc{i}"], name=f"fc{i}.add"))
        out = "y" if i == len(activations) - 1 else f"act{i}"
        nodes.append(helper.make_node(activation, [f"fc{i}"], [out], name=f"act{i}"))
        previous = out
    graph = helper.make_graph(
        nodes,
        "mlp",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", sizes[0]])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["batch", sizes[-1]])],
        initializer=inits,
    )
    model = _finish(graph, "onnxmicro test model: a 3-layer MLP with a symbolic batch dimension.")
    x = np.random.default_rng(11).standard_normal((3, sizes[0])).astype(np.float32)
    return model, [x]


MODELS = {"hello_cnn": make_hello_cnn, "mlp": make_mlp}


# ---- self-test cases of the conformance runner --------------------------------------------------------------
# Cases with known outcomes (some expectations deliberately wrong), so a test proves the runner can fail:
# name -> (expected outcome, builder returning model, inputs, expected outputs).


def _relu_model(dtype: int, name: str, opset: int = OPSET) -> onnx.ModelProto:
    graph = helper.make_graph(
        [helper.make_node("Relu", ["x"], ["y"], name="relu")],
        name,
        [helper.make_tensor_value_info("x", dtype, [2, 3])],
        [helper.make_tensor_value_info("y", dtype, [2, 3])],
    )
    return _finish(graph, f"onnxmicro conformance self-test: {name}", opset)


def _relu_float_case(name: str):
    x = np.array([[-1.5, 0.25, 3.0], [100.0, -0.0, 7.5]], dtype=np.float32)
    model = _relu_model(TensorProto.FLOAT, name)
    return model, [x], expected_outputs(model, [x])


def _selftest_relu_pass():
    return _relu_float_case("relu_pass")


def _selftest_relu_within_tolerance():
    model, inputs, (y,) = _relu_float_case("relu_within_tolerance")
    y = y.copy()
    y[0, 1] += 5e-6  # inside atol (1e-5)
    y[1, 0] += 0.05  # inside rtol * |expected| (1e-3 * 100)
    return model, inputs, [y]


def _selftest_relu_wrong_value():
    model, inputs, (y,) = _relu_float_case("relu_wrong_value")
    y = y.copy()
    y[1, 2] += 0.01  # outside atol + rtol * 7.5
    return model, inputs, [y]


def _selftest_relu_wrong_shape():
    model, inputs, (y,) = _relu_float_case("relu_wrong_shape")
    return model, inputs, [y.reshape(3, 2)]


def _selftest_relu_wrong_dtype():
    model, inputs, (y,) = _relu_float_case("relu_wrong_dtype")
    return model, inputs, [y.astype(np.float64)]


def _selftest_relu_int32_off_by_one():
    x = np.array([[-5, 100000, 3], [7, -100000, 0]], dtype=np.int32)
    model = _relu_model(TensorProto.INT32, "relu_int32_off_by_one", opset=14)  # Relu takes int32 from opset 14
    (y,) = expected_outputs(model, [x])
    y = y.copy()
    y[0, 1] += 1  # within a float tolerance, but integers compare exactly
    return model, [x], [y]


def _selftest_no_kernel():
    graph = helper.make_graph(
        [helper.make_node("NoSuchOp", ["x"], ["y"], name="missing", domain="org.onnxmicro.selftest")],
        "no_kernel",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2])],
    )
    model = helper.make_model(
        graph,
        opset_imports=[helper.make_opsetid("", OPSET), helper.make_opsetid("org.onnxmicro.selftest", 1)],
        producer_name=PRODUCER,
        producer_version="1",
        doc_string="onnxmicro conformance self-test: an op no build has a kernel for",
    )
    model.ir_version = IR_VERSION
    x = np.array([1.0, 2.0], dtype=np.float32)
    return model, [x], [x]


SELFTEST_CASES = {
    "relu_pass": ("pass", _selftest_relu_pass),
    "relu_within_tolerance": ("pass", _selftest_relu_within_tolerance),
    "relu_wrong_value": ("fail", _selftest_relu_wrong_value),
    "relu_wrong_shape": ("fail", _selftest_relu_wrong_shape),
    "relu_wrong_dtype": ("fail", _selftest_relu_wrong_dtype),
    "relu_int32_off_by_one": ("fail", _selftest_relu_int32_off_by_one),
    "no_kernel": ("unsupported", _selftest_no_kernel),
}

# Models embedded as C++ headers: name -> (header path from the repo root, array name). The header also
# carries the model's fixed input and expected output.
HEADERS = {"hello_cnn": ("examples/hello/default_model.hpp", "hello_cnn_model")}


def header_command(name: str, models_dir: str, check: bool) -> list[str]:
    header, array = HEADERS[name]
    data = os.path.join(models_dir, name, "test_data_set_0")
    command = [
        sys.executable, os.path.join(REPO_ROOT, "tools", "onnx2header.py"),
        os.path.join(models_dir, name, "model.onnx"), "--name", array, "-o", os.path.join(REPO_ROOT, header),
        "--tensor", "input=" + os.path.join(data, "input_0.pb"),
        "--tensor", "expected=" + os.path.join(data, "output_0.pb"),
    ]
    return command + (["--check"] if check else [])


class BatchNormalization(OpRun):
    """Inference-mode BatchNormalization for onnx.reference.

    onnx 1.23's reference BatchNormalization_9 (opsets 9-13) applies the training-mode running-mean update
    whenever `momentum` has a value, and the schema default always gives it one, so for a plain inference
    node it disagrees with the spec and with onnxruntime. This override computes the spec's single-output
    formula: y = scale * (x - mean) / sqrt(var + epsilon) + bias.
    """

    op_domain = ""

    def _run(self, x, scale, bias, mean, var, epsilon=None, momentum=None, training_mode=None):  # noqa: ARG002
        if training_mode:
            raise NotImplementedError("training-mode BatchNormalization")
        shape = (-1,) + (1,) * (x.ndim - 2)
        eps = 1e-5 if epsilon is None else epsilon
        y = scale.reshape(shape) * (x - mean.reshape(shape)) / np.sqrt(var.reshape(shape) + eps)
        return ((y + bias.reshape(shape)).astype(x.dtype),)


def expected_outputs(model: onnx.ModelProto, inputs: list[np.ndarray]) -> list[np.ndarray]:
    """Outputs by onnxruntime, after checking that onnx.reference agrees with them."""
    model_bytes = model.SerializeToString(deterministic=True)
    feeds = {vi.name: x for vi, x in zip(model.graph.input, inputs)}
    options = onnxruntime.SessionOptions()
    # Graph optimisations could fuse ops and change rounding; the oracle should compute the graph as written.
    options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_DISABLE_ALL
    session = onnxruntime.InferenceSession(model_bytes, options, providers=["CPUExecutionProvider"])
    ort_outputs = session.run(None, feeds)
    reference_outputs = ReferenceEvaluator(model, new_ops=[BatchNormalization]).run(None, feeds)
    for i, (a, b) in enumerate(zip(ort_outputs, reference_outputs)):
        if a.shape != b.shape or a.dtype != b.dtype or not np.allclose(
            a, b, rtol=CROSS_CHECK_RTOL, atol=CROSS_CHECK_ATOL
        ):
            raise SystemExit(
                f"make_models: {model.graph.name} output {i}: onnxruntime and onnx.reference disagree\n"
                f"  onnxruntime: {a!r}\n  reference:   {b!r}"
            )
    return ort_outputs


def write_case(directory: str, model: onnx.ModelProto, inputs: list[np.ndarray],
               outputs: list[np.ndarray] | None = None) -> None:
    if outputs is None:
        outputs = expected_outputs(model, inputs)
    data_dir = os.path.join(directory, "test_data_set_0")
    os.makedirs(data_dir, exist_ok=True)
    with open(os.path.join(directory, "model.onnx"), "wb") as f:
        f.write(model.SerializeToString(deterministic=True))
    for k, (vi, x) in enumerate(zip(model.graph.input, inputs)):
        with open(os.path.join(data_dir, f"input_{k}.pb"), "wb") as f:
            f.write(numpy_helper.from_array(x, vi.name).SerializeToString(deterministic=True))
    for k, (vi, y) in enumerate(zip(model.graph.output, outputs)):
        with open(os.path.join(data_dir, f"output_{k}.pb"), "wb") as f:
            f.write(numpy_helper.from_array(y, vi.name).SerializeToString(deterministic=True))


def _same_tree(a: str, b: str) -> bool:
    comparison = filecmp.dircmp(a, b)
    if comparison.left_only or comparison.right_only or comparison.funny_files:
        return False
    _, mismatch, errors = filecmp.cmpfiles(a, b, comparison.common_files, shallow=False)
    if mismatch or errors:
        return False
    return all(_same_tree(os.path.join(a, d), os.path.join(b, d)) for d in comparison.common_dirs)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--out", default=os.path.join(REPO_ROOT, "tests", "models"),
                        help="output directory (default: %(default)s)")
    parser.add_argument("--selftest-out", default=os.path.join(REPO_ROOT, "tests", "conformance", "selftest"),
                        help="where the conformance runner's self-test cases go (default: %(default)s)")
    parser.add_argument("--only", action="append", choices=sorted(MODELS), help="generate only this model")
    parser.add_argument("--check", action="store_true",
                        help="regenerate into a temporary directory and fail if it differs from --out")
    args = parser.parse_args()
    names = args.only or sorted(MODELS)

    if args.check:
        with tempfile.TemporaryDirectory() as scratch:
            stale = []
            for name in names:
                model, inputs = MODELS[name]()
                write_case(os.path.join(scratch, name), model, inputs)
                committed = os.path.join(args.out, name)
                if not os.path.isdir(committed) or not _same_tree(os.path.join(scratch, name), committed):
                    stale.append(name)
            if not args.only:
                for name, (_, build) in SELFTEST_CASES.items():
                    model, inputs, outputs = build()
                    write_case(os.path.join(scratch, "selftest", name), model, inputs, outputs)
                if not _same_tree(os.path.join(scratch, "selftest"), args.selftest_out):
                    stale.append(os.path.relpath(args.selftest_out, REPO_ROOT))
            if stale:
                print(f"make_models: out of date in {args.out}: {', '.join(stale)}; rerun tools/make_models.py",
                      file=sys.stderr)
                return 1
        for name in names:
            if name in HEADERS and subprocess.run(header_command(name, args.out, check=True)).returncode != 0:
                return 1
        print(f"make_models: {args.out} is up to date ({len(names)} models)")
        return 0

    for name in names:
        model, inputs = MODELS[name]()
        directory = os.path.join(args.out, name)
        write_case(directory, model, inputs)
        size = os.path.getsize(os.path.join(directory, "model.onnx"))
        print(f"make_models: wrote {os.path.relpath(directory)} (model.onnx {size} bytes, "
              f"onnx {onnx.__version__}, onnxruntime {onnxruntime.__version__})")
        if name in HEADERS:
            subprocess.run(header_command(name, args.out, check=False), check=True)
    if not args.only:
        shutil.rmtree(args.selftest_out, ignore_errors=True)
        for name, (_, build) in SELFTEST_CASES.items():
            model, inputs, outputs = build()
            write_case(os.path.join(args.selftest_out, name), model, inputs, outputs)
        outcomes = [outcome for outcome, _ in SELFTEST_CASES.values()]
        print(f"make_models: wrote {len(SELFTEST_CASES)} conformance self-test cases to "
              f"{os.path.relpath(args.selftest_out)} ({outcomes.count('pass')} pass, {outcomes.count('fail')} fail, "
              f"{outcomes.count('unsupported')} unsupported by design)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
