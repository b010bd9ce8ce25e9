# SPDX-License-Identifier: MIT
"""Writes single-node models of onnxruntime's com.microsoft QOperator ops into DIR/qoperator-ops/<case>/.

The QOperator quantization format (onnxruntime.quantization, QuantFormat.QOperator) turns a CNN's Add, Mul,
Concat, AveragePool, GlobalAveragePool, LeakyRelu and Sigmoid into these com.microsoft nodes. Each case is laid
out as an ONNX backend test case, so onnxmicro_conformance runs it like any suite:
    <case>/model.onnx, <case>/test_data_set_<n>/input_<k>.pb, <case>/test_data_set_<n>/output_<k>.pb
Scales and zero points are initializers (as the quantizer writes them); the quantized tensors are graph inputs
with random values over the whole int8/uint8 range. Expected outputs come from onnxruntime on the CPU with every
graph optimisation disabled and one thread. onnxruntime computes these ops in float32 while onnxmicro uses
integer fixed point, so outputs may differ by one quantum where a value lands near a rounding tie: the
conformance test runs with --integer-atol 1 and prints how many elements differed.

Cases cover uint8 and int8, broadcasting (Add/Mul), per-op attributes (alpha,
count_include_pad, ceil_mode, pads, strides, auto_pad, axis), channels_last, Concat inputs with different scales
(and one quantized like the output, which is copied), and odd shapes. Every case has its zero points:
onnxruntime 1.31 fails type inference when an optional zero point is omitted, so it cannot serve as reference.

Deterministic: fixed seeds; serialisation is stable.
Usage: <repo>/.venv/bin/python tests/models/make_qoperator_op_models.py -o DIR [--only CASE[,CASE]]
"""
from __future__ import annotations

import argparse
import os
import shutil
import sys

try:
    import numpy as np
    import onnx
    import onnxruntime as ort
    from onnx import TensorProto, helper, numpy_helper
except ImportError as error:  # pragma: no cover - a setup problem, say how to fix it
    sys.exit(f"make_qoperator_op_models: {error}; run with the repo venv: \"$(tools/setup_python.sh)\" "
             f"{sys.argv[0]} ...")

SUITE = "qoperator-ops"
IR_VERSION = 8
OPSET = 17
DATA_SETS = 2
NUMPY_TYPES = {"u8": np.uint8, "i8": np.int8}
ONNX_TYPES = {"u8": TensorProto.UINT8, "i8": TensorProto.INT8}


class Case:
    """One com.microsoft node: quantized graph inputs, per-tensor parameters as initializers."""

    def __init__(self, op: str, dtype: str, **attributes):
        self.op = op
        self.dtype = dtype
        self.attributes = attributes
        self.node_inputs: list[str] = []
        self.graph_inputs: list[tuple[str, list[int]]] = []
        self.initializers: list[onnx.TensorProto] = []

    def data(self, name: str, shape: list[int]) -> "Case":
        self.node_inputs.append(name)
        self.graph_inputs.append((name, shape))
        return self

    def scale(self, name: str, value: float) -> "Case":
        self.node_inputs.append(name)
        self.initializers.append(numpy_helper.from_array(np.array(value, np.float32), name))
        return self

    def zero(self, name: str, value: int | None) -> "Case":
        if value is None:  # an omitted optional zero point
            self.node_inputs.append("")
            return self
        self.node_inputs.append(name)
        self.initializers.append(numpy_helper.from_array(np.array(value, NUMPY_TYPES[self.dtype]), name))
        return self

    def model(self) -> onnx.ModelProto:
        node = helper.make_node(self.op, self.node_inputs, ["Y"], domain="com.microsoft", **self.attributes)
        elem = ONNX_TYPES[self.dtype]
        rank = max(len(s) for _, s in self.graph_inputs)  # broadcasting (Add/Mul) takes the largest rank
        graph = helper.make_graph(
            [node], f"{self.op}_case", [helper.make_tensor_value_info(n, elem, s) for n, s in self.graph_inputs],
            [helper.make_tensor_value_info("Y", elem, [f"y{i}" for i in range(rank)])], self.initializers)
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET),
                                                        helper.make_opsetid("com.microsoft", 1)],
                                  producer_name="onnxmicro tests/models/make_qoperator_op_models.py")
        model.ir_version = IR_VERSION
        onnx.checker.check_model(model)  # com.microsoft schemas are not in onnx: structural check only
        return model

    def feeds(self, rng: np.random.RandomState) -> dict:
        info = np.iinfo(NUMPY_TYPES[self.dtype])
        return {n: rng.randint(info.min, info.max + 1, size=s).astype(NUMPY_TYPES[self.dtype])
                for n, s in self.graph_inputs}


def binary(op: str, dtype: str, a_shape, b_shape, a=(0.05, 120), b=(0.02, 10), c=(0.07, 128)) -> Case:
    """QLinearAdd/QLinearMul: (scale, zero point) per operand; zero point None omits it."""
    return (Case(op, dtype).data("A", a_shape).scale("A_scale", a[0]).zero("A_zero_point", a[1])
            .data("B", b_shape).scale("B_scale", b[0]).zero("B_zero_point", b[1])
            .scale("C_scale", c[0]).zero("C_zero_point", c[1]))


def unary(op: str, dtype: str, shape, x=(0.05, 3), y=(0.04, -5), **attributes) -> Case:
    """Ops of inputs X, X_scale, X_zero_point, Y_scale, Y_zero_point."""
    return (Case(op, dtype, **attributes).data("X", shape).scale("X_scale", x[0]).zero("X_zero_point", x[1])
            .scale("Y_scale", y[0]).zero("Y_zero_point", y[1]))


def concat(dtype: str, axis: int, shapes, params, y=(0.05, 7)) -> Case:
    case = Case("QLinearConcat", dtype, axis=axis).scale("Y_scale", y[0]).zero("Y_zero_point", y[1])
    for i, (shape, (scale, zero)) in enumerate(zip(shapes, params)):
        case.data(f"X{i}", shape).scale(f"X{i}_scale", scale).zero(f"X{i}_zero_point", zero)
    return case


U8_ZEROS = dict(x=(0.05, 100), y=(0.04, 130))
CASES = {
    # QLinearAdd
    "add_u8_same_shape": lambda: binary("QLinearAdd", "u8", [2, 3, 4, 5], [2, 3, 4, 5]),
    "add_i8_broadcast": lambda: binary("QLinearAdd", "i8", [2, 3, 4, 5], [3, 1, 5], a=(0.05, -3), b=(0.02, 10),
                                       c=(0.06, 1)),
    "add_u8_both_broadcast": lambda: binary("QLinearAdd", "u8", [4, 1, 7], [1, 5, 1], a=(0.5, 128), b=(0.013, 0),
                                            c=(0.25, 100)),
    "add_i8_scalar": lambda: binary("QLinearAdd", "i8", [3, 17], [], a=(0.031, 0), b=(0.11, -100), c=(0.09, 5)),
    "add_u8_equal_scales": lambda: binary("QLinearAdd", "u8", [1, 8, 3, 3], [1, 8, 1, 1], a=(0.1, 128),
                                          b=(0.1, 128), c=(0.2, 128)),
    # QLinearMul
    "mul_u8_same_shape": lambda: binary("QLinearMul", "u8", [2, 3, 4, 5], [2, 3, 4, 5], c=(0.3, 40)),
    "mul_i8_broadcast": lambda: binary("QLinearMul", "i8", [2, 3, 4, 5], [3, 1, 5], a=(0.05, -3), b=(0.02, 10),
                                       c=(0.08, 2)),
    "mul_u8_both_broadcast": lambda: binary("QLinearMul", "u8", [4, 1, 7], [1, 5, 1], a=(0.02, 128), b=(0.013, 3),
                                            c=(0.004, 120)),
    "mul_i8_scalar": lambda: binary("QLinearMul", "i8", [3, 17], [1], a=(0.031, 0), b=(0.11, -100), c=(0.05, 5)),
    # QLinearGlobalAveragePool (zero points are required inputs)
    "global_average_pool_u8": lambda: unary("QLinearGlobalAveragePool", "u8", [1, 8, 7, 7], **U8_ZEROS),
    "global_average_pool_i8_odd": lambda: unary("QLinearGlobalAveragePool", "i8", [2, 5, 3, 9]),
    "global_average_pool_u8_channels_last": lambda: unary("QLinearGlobalAveragePool", "u8", [2, 5, 4, 6],
                                                          channels_last=1, **U8_ZEROS),
    "global_average_pool_i8_channels_last": lambda: unary("QLinearGlobalAveragePool", "i8", [1, 3, 3, 16],
                                                          channels_last=1, x=(0.02, -10), y=(0.01, 4)),
    # QLinearAveragePool
    "average_pool_u8_pads": lambda: unary("QLinearAveragePool", "u8", [1, 4, 7, 7], kernel_shape=[3, 3],
                                          pads=[1, 1, 1, 1], **U8_ZEROS),
    "average_pool_i8_count_include_pad": lambda: unary("QLinearAveragePool", "i8", [2, 3, 8, 9], kernel_shape=[3, 3],
                                                       strides=[2, 2], pads=[1, 1, 1, 1], count_include_pad=1),
    "average_pool_u8_ceil_mode": lambda: unary("QLinearAveragePool", "u8", [1, 3, 7, 7], kernel_shape=[2, 2],
                                               strides=[2, 2], ceil_mode=1, **U8_ZEROS),
    "average_pool_i8_ceil_mode_count_include_pad": lambda: unary(
        "QLinearAveragePool", "i8", [1, 2, 6, 7], kernel_shape=[3, 2], strides=[2, 2], pads=[1, 0, 1, 1],
        ceil_mode=1, count_include_pad=1),
    "average_pool_u8_same_upper": lambda: unary("QLinearAveragePool", "u8", [1, 3, 6, 5], kernel_shape=[3, 2],
                                                strides=[2, 1], auto_pad="SAME_UPPER", **U8_ZEROS),
    "average_pool_u8_channels_last": lambda: unary("QLinearAveragePool", "u8", [2, 5, 6, 4], kernel_shape=[2, 3],
                                                   pads=[0, 1, 1, 1], channels_last=1, **U8_ZEROS),
    "average_pool_i8_channels_last_count_include_pad": lambda: unary(
        "QLinearAveragePool", "i8", [1, 7, 7, 3], kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1],
        count_include_pad=1, channels_last=1),
    "average_pool_u8_1d": lambda: unary("QLinearAveragePool", "u8", [2, 3, 11], kernel_shape=[4], strides=[3],
                                        x=(0.02, 0), y=(0.015, 9)),
    # QLinearConcat
    "concat_u8_axis1_mixed_scales": lambda: concat("u8", 1, [[1, 2, 3, 3], [1, 3, 3, 3], [1, 1, 3, 3]],
                                                   [(0.05, 7), (0.02, 128), (0.1, 0)], y=(0.05, 7)),
    "concat_i8_last_axis": lambda: concat("i8", -1, [[2, 3, 4], [2, 3, 1], [2, 3, 5]],
                                          [(0.03, -2), (0.05, 7), (0.08, 100)], y=(0.05, 7)),
    "concat_u8_axis0": lambda: concat("u8", 0, [[1, 5], [3, 5]], [(0.2, 250), (0.01, 3)], y=(0.07, 120)),
    # QLinearLeakyRelu
    "leaky_relu_u8": lambda: unary("QLinearLeakyRelu", "u8", [1, 3, 5, 7], alpha=0.1, **U8_ZEROS),
    "leaky_relu_i8_default_alpha": lambda: unary("QLinearLeakyRelu", "i8", [2, 9, 13]),
    "leaky_relu_u8_vector": lambda: unary("QLinearLeakyRelu", "u8", [31], x=(0.1, 0), y=(0.05, 0), alpha=0.3),
    # QLinearSigmoid
    "sigmoid_u8": lambda: unary("QLinearSigmoid", "u8", [1, 3, 5, 7], x=(0.05, 128), y=(1.0 / 256, 0)),
    "sigmoid_i8": lambda: unary("QLinearSigmoid", "i8", [2, 9, 13], x=(0.08, 0), y=(1.0 / 256, -128)),
    "sigmoid_u8_odd_scales": lambda: unary("QLinearSigmoid", "u8", [37], x=(0.123, 77), y=(0.0051, 3)),
}


def reference_outputs(model: onnx.ModelProto, feeds: dict) -> list[np.ndarray]:
    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    session = ort.InferenceSession(model.SerializeToString(), options, providers=["CPUExecutionProvider"])
    return session.run(None, feeds)


def write_tensor(path: str, array: np.ndarray, name: str) -> None:
    with open(path, "wb") as f:
        f.write(numpy_helper.from_array(array, name).SerializeToString())


def write_case(directory: str, name: str, seed: int) -> None:
    case = CASES[name]()
    model = case.model()
    case_dir = os.path.join(directory, name)
    shutil.rmtree(case_dir, ignore_errors=True)
    os.makedirs(case_dir)
    with open(os.path.join(case_dir, "model.onnx"), "wb") as f:
        f.write(model.SerializeToString())
    rng = np.random.RandomState(seed)
    for n in range(DATA_SETS):
        feeds = case.feeds(rng)
        outputs = reference_outputs(model, feeds)
        set_dir = os.path.join(case_dir, f"test_data_set_{n}")
        os.makedirs(set_dir)
        for k, (input_name, _) in enumerate(case.graph_inputs):
            write_tensor(os.path.join(set_dir, f"input_{k}.pb"), feeds[input_name], input_name)
        write_tensor(os.path.join(set_dir, "output_0.pb"), np.asarray(outputs[0]), "Y")
    print(f"{name}: {case.op} {case.dtype} {[list(s) for _, s in case.graph_inputs]} -> "
          f"{list(np.shape(outputs[0]))}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("-o", "--output", required=True, help=f"directory to write {SUITE}/<case>/ into")
    parser.add_argument("--only", default="", help="comma-separated case names (default: all)")
    args = parser.parse_args()
    names = [n for n in args.only.split(",") if n] or list(CASES)
    unknown = [n for n in names if n not in CASES]
    if unknown:
        sys.exit(f"make_qoperator_op_models: unknown case(s) {unknown}; known: {list(CASES)}")
    directory = os.path.join(args.output, SUITE)
    os.makedirs(directory, exist_ok=True)
    if not args.only:  # drop cases an earlier version of this script wrote
        for stale in sorted(set(os.listdir(directory)) - set(CASES)):
            shutil.rmtree(os.path.join(directory, stale), ignore_errors=True)
    for name in names:
        write_case(directory, name, seed=list(CASES).index(name) + 1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
