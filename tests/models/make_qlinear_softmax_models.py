# SPDX-License-Identifier: MIT
"""Writes com.microsoft QLinearSoftmax models (and the QDQ groups onnxruntime fuses into it) into
DIR/qlinear-softmax/<case>/.

onnxruntime's quantizer (QuantFormat.QOperator) writes Softmax as a com.microsoft QLinearSoftmax node with an
`opset` attribute (the Softmax semantics: below 13 the input is flattened to 2-D at `axis`, from 13 one axis),
and its CPU EP fuses DequantizeLinear -> Softmax -> QuantizeLinear into the same node at its default
optimisation level. Each case is laid out as an ONNX backend test case, so onnxmicro_conformance runs it:
    <case>/model.onnx, <case>/test_data_set_<n>/input_0.pb, <case>/test_data_set_<n>/output_0.pb
Cases:
  single-node QLinearSoftmax    uint8 and int8; opset 11/12 (flatten) and 13 semantics; first, middle, last and
                                negative axes and the default axis; rows of 2 to 300 elements; x scales from
                                0.01 (flat) to 0.5 (peaked); y_scale 1/256 with zero point 0 (uint8) or -128
                                (int8) as the quantizer writes it, and a few other output parameters.
                                Reference: onnxruntime, every graph optimisation disabled, one thread.
  qdq_*                         DequantizeLinear -> Softmax -> QuantizeLinear in ai.onnx (opset 12 and 13).
                                Reference: the group's own semantics, onnxruntime with every optimisation
                                disabled (its default level fuses the group into its QLinearSoftmax, which
                                multiplies by floor(1 / y_scale): 254 for a 1/255 scale, a quantum low at the top).
  *_single_element_rows         rows of one element. onnxruntime overflows float32 there (table entry times
                                floor(1 / y_scale) is inf, inf / inf) and returns the zero point for uint8, so the
                                reference is quantize(1.0) = 255 / 127, computed here.
The scales and zero points are initializers; the quantized data is a graph input. Data sets: values over the
whole 8-bit range, and logits clustered around the zero point (as in attention scores).
onnxruntime computes in float32 like onnxmicro's kernel, which follows its arithmetic; run with --integer-atol 1.

Deterministic: fixed seeds; serialisation is stable.
Usage: <repo>/.venv/bin/python tests/models/make_qlinear_softmax_models.py -o DIR [--only CASE[,CASE]]
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
    sys.exit(f"make_qlinear_softmax_models: {error}; run with the repo venv: \"$(tools/setup_python.sh)\" "
             f"{sys.argv[0]} ...")

SUITE = "qlinear-softmax"
IR_VERSION = 8
DATA_SETS = 2
NUMPY_TYPES = {"u8": np.uint8, "i8": np.int8}
ONNX_TYPES = {"u8": TensorProto.UINT8, "i8": TensorProto.INT8}
# The quantizer's output parameters for Softmax: [0, 1] onto the whole 8-bit range.
Y_DEFAULT = {"u8": (1.0 / 256.0, 0), "i8": (1.0 / 256.0, -128)}


class Case:
    """One model: x (graph input) -> y, with the quantization parameters as initializers."""

    def __init__(self, dtype: str, shape: list[int], x: tuple[float, int], y: tuple[float, int] | None = None,
                 opset: int = 13, axis: int | None = None, qdq: bool = False, single_element_rows: bool = False):
        self.dtype, self.shape, self.x = dtype, shape, x
        self.y = y if y is not None else Y_DEFAULT[dtype]
        self.opset, self.axis, self.qdq = opset, axis, qdq
        self.single_element_rows = single_element_rows

    def model(self) -> onnx.ModelProto:
        np_type, onnx_type = NUMPY_TYPES[self.dtype], ONNX_TYPES[self.dtype]
        initializers = [numpy_helper.from_array(np.array(self.x[0], np.float32), "x_scale"),
                        numpy_helper.from_array(np.array(self.x[1], np_type), "x_zero_point"),
                        numpy_helper.from_array(np.array(self.y[0], np.float32), "y_scale"),
                        numpy_helper.from_array(np.array(self.y[1], np_type), "y_zero_point")]
        axis = {} if self.axis is None else {"axis": self.axis}
        if self.qdq:
            nodes = [helper.make_node("DequantizeLinear", ["x", "x_scale", "x_zero_point"], ["x_real"], name="dq"),
                     helper.make_node("Softmax", ["x_real"], ["y_real"], name="softmax", **axis),
                     helper.make_node("QuantizeLinear", ["y_real", "y_scale", "y_zero_point"], ["y"], name="q")]
            opsets = [helper.make_opsetid("", self.opset)]
        else:
            nodes = [helper.make_node("QLinearSoftmax", ["x", "x_scale", "x_zero_point", "y_scale", "y_zero_point"],
                                      ["y"], name="softmax", domain="com.microsoft", opset=self.opset, **axis)]
            opsets = [helper.make_opsetid("", self.opset), helper.make_opsetid("com.microsoft", 1)]
        graph = helper.make_graph(nodes, "qlinear_softmax", [helper.make_tensor_value_info("x", onnx_type, self.shape)],
                                  [helper.make_tensor_value_info("y", onnx_type, self.shape)], initializers)
        model = helper.make_model(graph, opset_imports=opsets,
                                  producer_name="onnxmicro tests/models/make_qlinear_softmax_models.py")
        model.ir_version = IR_VERSION
        onnx.checker.check_model(model, full_check=True)
        return model


CASES = {
    # opset 13: one axis
    "u8_last_axis": Case("u8", [2, 4, 16], (0.1, 128), axis=-1),
    "i8_last_axis": Case("i8", [2, 4, 16], (0.08, 0), axis=-1),
    "u8_middle_axis": Case("u8", [2, 5, 3, 4], (0.06, 100), axis=1),
    "i8_middle_axis": Case("i8", [2, 5, 3, 4], (0.06, -10), axis=2),
    "i8_first_axis": Case("i8", [6, 3, 4], (0.15, 5), axis=0),
    "u8_negative_axis": Case("u8", [3, 7, 5], (0.1, 120), axis=-2),
    "u8_default_axis": Case("u8", [3, 9], (0.1, 128)),
    "i8_default_axis": Case("i8", [2, 3, 9], (0.1, 0)),
    "u8_attention_scores": Case("u8", [1, 2, 12, 12], (0.125, 128), axis=-1),
    "i8_attention_scores": Case("i8", [1, 2, 12, 12], (0.125, 0), axis=-1),
    "u8_long_rows": Case("u8", [2, 300], (0.05, 128), axis=-1),
    "i8_long_rows": Case("i8", [3, 257], (0.05, 0), axis=1),
    "u8_two_element_rows": Case("u8", [5, 2], (0.1, 128), axis=-1),
    "i8_two_element_rows": Case("i8", [2, 5], (0.1, 0), axis=0),
    "u8_flat_scale": Case("u8", [4, 32], (0.01, 128), axis=-1),
    "i8_peaked_scale": Case("i8", [4, 32], (0.5, 0), axis=-1),
    "u8_other_output_params": Case("u8", [4, 16], (0.1, 128), y=(0.003, 3), axis=-1),
    "i8_other_output_params": Case("i8", [4, 16], (0.1, 0), y=(1.0 / 128.0, -100), axis=-1),
    # opset 11/12: flattened to 2-D at axis
    "u8_flatten_axis1_op12": Case("u8", [3, 4, 5], (0.1, 128), opset=12, axis=1),
    "i8_flatten_axis1_op12": Case("i8", [3, 4, 5], (0.1, 0), opset=12, axis=1),
    "u8_flatten_axis2_op11": Case("u8", [2, 3, 4, 5], (0.07, 128), opset=11, axis=2),
    "i8_flatten_axis0_op12": Case("i8", [3, 4, 5], (0.2, 0), opset=12, axis=0),
    "i8_flatten_negative_axis_op12": Case("i8", [2, 3, 4, 5], (0.1, 0), opset=12, axis=-3),
    "u8_flatten_default_axis_op12": Case("u8", [4, 3, 6], (0.1, 128), opset=12),
    "i8_flatten_default_axis_op11": Case("i8", [4, 3, 6], (0.1, 0), opset=11),
    # DequantizeLinear -> Softmax -> QuantizeLinear, fused by onnxruntime
    "qdq_u8_last_axis": Case("u8", [2, 3, 16], (0.1, 128), axis=-1, qdq=True),
    "qdq_i8_last_axis": Case("i8", [2, 3, 16], (0.1, 0), axis=-1, qdq=True),
    "qdq_i8_middle_axis": Case("i8", [2, 6, 4], (0.08, 0), axis=1, qdq=True),
    "qdq_u8_default_axis_op13": Case("u8", [2, 3, 8], (0.1, 128), qdq=True),
    "qdq_u8_flatten_op12": Case("u8", [3, 4, 5], (0.1, 128), opset=12, axis=1, qdq=True),
    "qdq_i8_flatten_default_axis_op12": Case("i8", [3, 4, 5], (0.1, 0), opset=12, qdq=True),
    # rows of one element: reference computed here (see the module comment)
    "u8_single_element_rows": Case("u8", [3, 1], (0.1, 128), axis=-1, single_element_rows=True),
    "i8_single_element_rows": Case("i8", [1, 4], (0.1, 0), axis=0, single_element_rows=True),
}


def inputs_for(case: Case, rng: np.random.RandomState, data_set: int) -> np.ndarray:
    info = np.iinfo(NUMPY_TYPES[case.dtype])
    if data_set == 0:
        values = rng.randint(info.min, info.max + 1, size=case.shape)
    else:  # logits of a few units around the zero point
        values = np.rint(case.x[1] + rng.standard_normal(case.shape) * (2.0 / case.x[0]))
    return np.clip(values, info.min, info.max).astype(NUMPY_TYPES[case.dtype])


def reference_output(case: Case, model: onnx.ModelProto, x: np.ndarray) -> np.ndarray:
    if case.single_element_rows:
        # softmax of one element is 1.0, quantized: round(1 / y_scale) + zero point, saturated
        info = np.iinfo(NUMPY_TYPES[case.dtype])
        value = np.clip(np.rint(1.0 / case.y[0]) + case.y[1], info.min, info.max)
        return np.full(case.shape, value, NUMPY_TYPES[case.dtype])
    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    session = ort.InferenceSession(model.SerializeToString(), options, providers=["CPUExecutionProvider"])
    return session.run(None, {"x": x})[0]


def write_tensor(path: str, array: np.ndarray, name: str) -> None:
    with open(path, "wb") as f:
        f.write(numpy_helper.from_array(array, name).SerializeToString())


def write_case(directory: str, name: str, seed: int) -> None:
    case = CASES[name]
    case_dir = os.path.join(directory, name)
    shutil.rmtree(case_dir, ignore_errors=True)
    os.makedirs(case_dir)
    model = case.model()
    with open(os.path.join(case_dir, "model.onnx"), "wb") as f:
        f.write(model.SerializeToString())
    rng = np.random.RandomState(seed)
    for n in range(DATA_SETS):
        data_dir = os.path.join(case_dir, f"test_data_set_{n}")
        os.makedirs(data_dir)
        x = inputs_for(case, rng, n)
        write_tensor(os.path.join(data_dir, "input_0.pb"), x, "x")
        write_tensor(os.path.join(data_dir, "output_0.pb"), reference_output(case, model, x), "y")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("-o", "--output", required=True, help="root directory; cases go to DIR/" + SUITE + "/")
    parser.add_argument("--only", help="comma-separated case names")
    args = parser.parse_args()
    names = list(CASES)
    if args.only:
        names = args.only.split(",")
        unknown = [name for name in names if name not in CASES]
        if unknown:
            sys.exit(f"make_qlinear_softmax_models: unknown case(s) {', '.join(unknown)}; known: {', '.join(CASES)}")
    directory = os.path.join(args.output, SUITE)
    os.makedirs(directory, exist_ok=True)
    for name in names:
        write_case(directory, name, 1000 + list(CASES).index(name))
    print(f"make_qlinear_softmax_models: wrote {len(names)} case(s) to {directory}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
