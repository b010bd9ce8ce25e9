# SPDX-License-Identifier: MIT
"""Writes dynamically quantized models and zero-point/scale cases, with reference outputs (issue #16).

Output, laid out as ONNX backend test cases (<case>/model.onnx, <case>/test_data_set_<n>/{input,output}_<k>.pb):
  DIR/zero-point-ops/      integer ops whose zero points are an initializer, a graph input, or computed at run
                           time by DynamicQuantizeLinear; scalar and per-column/per-channel; int8 and uint8 weights:
                           MatMulInteger and ConvInteger (int32 outputs: exact).
  DIR/zero-point-qlinear/  ops that take a scale and zero point computed at run time by DynamicQuantizeLinear:
                           DequantizeLinear, QuantizeLinear, QLinearMatMul, QLinearConv, com.microsoft QGemm
                           (per-column b_scale, int32 bias, quantized and float output), and a DequantizeLinear ->
                           MatMul -> QuantizeLinear group that looks like a QDQ fusion candidate. Their references
                           round in float, so outputs may differ by one quantum near a tie (--integer-atol 1).
  DIR/dynamic-quant-models/ onnxruntime.quantization.quantize_dynamic of a transformer encoder layer and of an
                           LSTM + Gemm model, with QInt8 and QUInt8 weights, per_channel off and on.

Every case has several data sets whose inputs differ in range, so a zero point computed at run time changes
from one data set to the next (a kernel that read it at prepare, or cached it, fails).

The reference is each model's own semantics, never a CPU-dependent library: the `onnx` package's reference
evaluator (numpy; integer products are exact), with the com.microsoft ops (DynamicQuantizeLSTM as onnxruntime
computes it, QGemm) in numpy (tests/models/reference_ops.py). onnxruntime is run beside it for information only, and its difference from the
reference printed: on x86-64 CPUs without AVX-512 VNNI its u8s8 integer GEMM (vpmaddubsw) saturates pairs of
products to int16, so its MatMulInteger/ConvInteger/DynamicQuantizeLSTM results are wrong there by up to
thousands of int32 units; on AVX-512 VNNI or Arm they are exact.

Deterministic: fixed seeds.
Usage: <repo>/.venv/bin/python tests/models/make_dynamic_quant_models.py -o DIR [--only SUITE[,SUITE]]
"""
from __future__ import annotations

import argparse
import logging
import os
import shutil
import sys
import tempfile

try:
    import numpy as np
    import onnx
    import onnxruntime as ort
    from onnx import TensorProto, helper, numpy_helper
    from onnxruntime.quantization import QuantType, quantize_dynamic
except ImportError as error:  # pragma: no cover - a setup problem, say how to fix it
    sys.exit(f"make_dynamic_quant_models: {error}; run with the repo venv: \"$(tools/setup_python.sh)\" "
             f"{sys.argv[0]} ...")

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_qdq_models import transformer_float  # noqa: E402  (the float transformer layer the QDQ tests use)

IR_VERSION = 10
OPSET = 21  # the reference evaluator implements DequantizeLinear/QuantizeLinear from opset 19 on
FLOAT = TensorProto.FLOAT


from reference_ops import reference  # noqa: E402  (the models' semantics: onnx reference evaluator + numpy)


def run_onnxruntime(model: onnx.ModelProto, feeds: dict, level) -> list[np.ndarray]:
    options = ort.SessionOptions()
    options.graph_optimization_level = level
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    options.log_severity_level = 4  # its refusals are reported in this script's own lines
    session = ort.InferenceSession(model.SerializeToString(), options, providers=["CPUExecutionProvider"])
    return session.run(None, feeds)


# ---- writing -----------------------------------------------------------------------------------------------

def write_tensor(path: str, array: np.ndarray, name: str) -> None:
    with open(path, "wb") as f:
        f.write(numpy_helper.from_array(np.asarray(array), name).SerializeToString())


def largest_difference(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.max(np.abs(a.astype(np.float64) - b.astype(np.float64)))) if a.size else 0.0


def write_case(root: str, name: str, model: onnx.ModelProto, data_sets: list[dict]) -> None:
    """Writes the case with the reference's outputs; prints onnxruntime's distance from them (information)."""
    case_dir = os.path.join(root, name)
    shutil.rmtree(case_dir, ignore_errors=True)
    os.makedirs(case_dir)
    onnx.save(model, os.path.join(case_dir, "model.onnx"))
    output_names = [value.name for value in model.graph.output]
    ort_distance: dict[str, float | str] = {"unoptimised": 0.0, "default": 0.0}
    levels = {"unoptimised": ort.GraphOptimizationLevel.ORT_DISABLE_ALL,
              "default": ort.GraphOptimizationLevel.ORT_ENABLE_ALL}
    output_range = 0.0
    for n, feeds in enumerate(data_sets):
        expected = reference(model, feeds)
        for label, level in levels.items():
            if isinstance(ort_distance[label], str):
                continue
            try:
                got_outputs = run_onnxruntime(model, feeds, level)
            except Exception as error:  # onnxruntime refuses some valid models (per-channel ConvInteger)
                ort_distance[label] = "refused (" + str(error).split("Status Message: ")[-1].split(". ")[-1].strip() + ")"
                continue
            for got, want in zip(got_outputs, expected):
                ort_distance[label] = max(ort_distance[label], largest_difference(got, want))
        output_range = max(output_range, float(np.ptp(expected[0].astype(np.float64))) if expected[0].size else 0)
        set_dir = os.path.join(case_dir, f"test_data_set_{n}")
        os.makedirs(set_dir)
        for k, (input_name, value) in enumerate(feeds.items()):
            write_tensor(os.path.join(set_dir, f"input_{k}.pb"), value, input_name)
        for k, (output_name, value) in enumerate(zip(output_names, expected)):
            write_tensor(os.path.join(set_dir, f"output_{k}.pb"), value, output_name)
    distances = ", ".join(f"{label} {value:.6g}" if isinstance(value, float) else f"{label} {value}"
                          for label, value in ort_distance.items())
    print(f"  {name}: {len(model.graph.node)} nodes; onnxruntime vs reference, largest difference: {distances} "
          f"(output 0 range {output_range:.6g})")


def make_model(name: str, nodes: list, inputs: list, outputs: list, initializers: list,
               microsoft: bool = False) -> onnx.ModelProto:
    graph = helper.make_graph(nodes, name, inputs, outputs, initializers)
    opsets = [helper.make_opsetid("", OPSET)] + ([helper.make_opsetid("com.microsoft", 1)] if microsoft else [])
    model = helper.make_model(graph, opset_imports=opsets, producer_name="tests/models/make_dynamic_quant_models.py")
    model.ir_version = IR_VERSION
    return model


def float_inputs(rng: np.random.RandomState, shape: list[int], count: int = 3) -> list[np.ndarray]:
    """Data sets of different ranges: centred, positive only (zero point 0), negative-heavy (zero point high)."""
    base = [rng.standard_normal(shape), np.abs(rng.standard_normal(shape)) * 2, rng.standard_normal(shape) * 3 - 2]
    return [b.astype(np.float32) for b in base[:count]]


# ---- zero-point-ops: MatMulInteger, ConvInteger ------------------------------------------------------------

ZERO_POINT_SOURCES = ("initializer", "input", "computed")


def integer_op_case(op: str, source: str, weight_type: str, per_column: bool, rng: np.random.RandomState):
    """X -> DynamicQuantizeLinear -> op(xq, weights, x_zero_point, w_zero_point): x_zero_point from `source`."""
    np_type, onnx_type = (np.int8, TensorProto.INT8) if weight_type == "s8" else (np.uint8, TensorProto.UINT8)
    low, high = (-128, 128) if weight_type == "s8" else (0, 256)
    if op == "MatMulInteger":
        x_shape, columns = [8, 1, 128], 384
        weights = rng.randint(low, high, (128, columns)).astype(np_type)
        zero_shape = [columns]
    else:  # ConvInteger
        x_shape, columns = [2, 8, 10, 10], 16
        weights = rng.randint(low, high, (columns, 8, 3, 3)).astype(np_type)
        zero_shape = [columns]
    w_zero = (rng.randint(low // 4 + (high - low) // 4, low + 3 * (high - low) // 4, zero_shape) if per_column
              else np.array(rng.randint(low, high) // 2)).astype(np_type)
    if weight_type == "s8" and not per_column:
        w_zero = np.array(0, np_type)  # quantize_dynamic's symmetric int8 weights
    x_values = float_inputs(rng, x_shape)
    initializers = [numpy_helper.from_array(weights, "w"), numpy_helper.from_array(w_zero, "w_zero_point")]
    inputs = [helper.make_tensor_value_info("x", FLOAT, x_shape)]
    zero_name = {"initializer": "x_zero_point_constant", "input": "x_zero_point_input", "computed": "x_zero"}[source]
    if source == "initializer":
        initializers.append(numpy_helper.from_array(np.array(131, np.uint8), zero_name))
    elif source == "input":
        inputs.append(helper.make_tensor_value_info(zero_name, TensorProto.UINT8, []))
    attributes = {"pads": [1, 1, 1, 1]} if op == "ConvInteger" else {}
    nodes = [helper.make_node("DynamicQuantizeLinear", ["x"], ["xq", "x_scale", "x_zero"]),
             helper.make_node(op, ["xq", "w", zero_name, "w_zero_point"], ["y"], **attributes)]
    outputs = [helper.make_tensor_value_info("y", TensorProto.INT32, None),
               helper.make_tensor_value_info("x_zero", TensorProto.UINT8, None)]
    model = make_model(f"{op}_{source}", nodes, inputs, outputs, initializers)
    data_sets = []
    for n, x in enumerate(x_values):
        feeds = {"x": x}
        if source == "input":
            feeds[zero_name] = np.array([7, 128, 250][n], np.uint8)
        data_sets.append(feeds)
    return model, data_sets


def write_zero_point_ops(root: str) -> None:
    suite = os.path.join(root, "zero-point-ops")
    os.makedirs(suite, exist_ok=True)
    print("zero-point-ops:")
    rng = np.random.RandomState(160)
    for op in ("MatMulInteger", "ConvInteger"):
        for source in ZERO_POINT_SOURCES:
            for weight_type in ("s8", "u8"):
                for per_column in (False, True):
                    model, data_sets = integer_op_case(op, source, weight_type, per_column, rng)
                    layout = "per_column" if per_column else "scalar"
                    write_case(suite, f"{op.lower()}_{source}_zero_point_{weight_type}_{layout}", model, data_sets)


# ---- zero-point-qlinear: ops taking a run-time scale and zero point ----------------------------------------

def qlinear_cases(rng: np.random.RandomState):
    """(name, nodes, extra initializers, output name, output type, x shape) of each case; every case starts with
    x -> DynamicQuantizeLinear -> (xq, x_scale, x_zero)."""
    w_scale = np.float32(0.02)
    mat = rng.randint(-128, 128, (64, 32)).astype(np.int8)
    conv = rng.randint(-128, 128, (8, 4, 3, 3)).astype(np.int8)
    per_channel_scale = (0.01 + 0.02 * rng.random_sample(8)).astype(np.float32)
    float_w = (rng.standard_normal((64, 32)) * 0.2).astype(np.float32)
    yield ("dequantize_linear", [helper.make_node("DequantizeLinear", ["xq", "x_scale", "x_zero"], ["y"])], [],
           "y", FLOAT, [4, 64])
    yield ("quantize_linear", [helper.make_node("QuantizeLinear", ["x", "x_scale", "x_zero"], ["y"])], [],
           "y", TensorProto.UINT8, [4, 64])
    yield ("qlinear_matmul",
           [helper.make_node("QLinearMatMul", ["xq", "x_scale", "x_zero", "w", "w_scale", "w_zero", "y_scale",
                                               "y_zero"], ["y"])],
           [numpy_helper.from_array(mat, "w"), numpy_helper.from_array(np.array(w_scale), "w_scale"),
            numpy_helper.from_array(np.array(0, np.int8), "w_zero"),
            numpy_helper.from_array(np.array(np.float32(1.5)), "y_scale"),
            numpy_helper.from_array(np.array(120, np.uint8), "y_zero")],
           "y", TensorProto.UINT8, [4, 64])
    yield ("qlinear_conv_per_channel",
           [helper.make_node("QLinearConv", ["xq", "x_scale", "x_zero", "w", "w_scale", "w_zero", "y_scale",
                                             "y_zero"], ["y"], pads=[1, 1, 1, 1])],
           [numpy_helper.from_array(conv, "w"), numpy_helper.from_array(per_channel_scale, "w_scale"),
            numpy_helper.from_array(np.zeros(8, np.int8), "w_zero"),
            numpy_helper.from_array(np.array(np.float32(0.5)), "y_scale"),
            numpy_helper.from_array(np.array(128, np.uint8), "y_zero")],
           "y", TensorProto.UINT8, [1, 4, 9, 9])
    gemm_b = rng.randint(-128, 128, (32, 64)).astype(np.int8)  # transB: [N, K]
    gemm_params = [numpy_helper.from_array(gemm_b, "b"),
                   numpy_helper.from_array((0.01 + 0.01 * rng.random_sample(32)).astype(np.float32), "b_scale"),
                   numpy_helper.from_array(np.zeros(32, np.int8), "b_zero"),
                   numpy_helper.from_array(rng.randint(-5000, 5000, 32).astype(np.int32), "bias")]
    yield ("qgemm_quantized_output",
           [helper.make_node("QGemm", ["xq", "x_scale", "x_zero", "b", "b_scale", "b_zero", "bias", "y_scale",
                                       "y_zero"], ["y"], domain="com.microsoft", transB=1, alpha=0.5)],
           gemm_params + [numpy_helper.from_array(np.array(np.float32(0.25)), "y_scale"),
                          numpy_helper.from_array(np.array(128, np.uint8), "y_zero")],
           "y", TensorProto.UINT8, [4, 64])
    yield ("qgemm_float_output",
           [helper.make_node("QGemm", ["xq", "x_scale", "x_zero", "b", "b_scale", "b_zero", "bias"], ["y"],
                             domain="com.microsoft", transB=1)],
           gemm_params, "y", FLOAT, [4, 64])
    # A QDQ-looking group whose activation parameters are not constants: fusion must leave it or read them per run.
    yield ("dequantize_matmul_quantize",
           [helper.make_node("DequantizeLinear", ["xq", "x_scale", "x_zero"], ["xd"]),
            helper.make_node("MatMul", ["xd", "w"], ["m"]),
            helper.make_node("QuantizeLinear", ["m", "x_scale", "x_zero"], ["yq"]),
            helper.make_node("DequantizeLinear", ["yq", "x_scale", "x_zero"], ["y"])],
           [numpy_helper.from_array(float_w, "w")],
           "y", FLOAT, [4, 64])


def write_zero_point_qlinear(root: str) -> None:
    suite = os.path.join(root, "zero-point-qlinear")
    os.makedirs(suite, exist_ok=True)
    print("zero-point-qlinear:")
    rng = np.random.RandomState(161)
    for name, nodes, initializers, output, output_type, x_shape in qlinear_cases(rng):
        all_nodes = [helper.make_node("DynamicQuantizeLinear", ["x"], ["xq", "x_scale", "x_zero"])] + nodes
        model = make_model(name, all_nodes, [helper.make_tensor_value_info("x", FLOAT, x_shape)],
                           [helper.make_tensor_value_info(output, output_type, None)], initializers,
                           microsoft=any(node.domain == "com.microsoft" for node in nodes))
        write_case(suite, name, model, [{"x": x} for x in float_inputs(rng, x_shape)])


# ---- dynamic-quant-models: quantize_dynamic of a transformer layer and an LSTM -----------------------------

LSTM_STEPS, LSTM_INPUT, LSTM_HIDDEN, LSTM_CLASSES = 12, 16, 32, 5


def lstm_gemm_float() -> onnx.ModelProto:
    """[steps, 1, input] -> bidirectional LSTM -> [steps, 2 * hidden] -> Gemm -> [steps, classes]."""
    rng = np.random.RandomState(163)
    h, i = LSTM_HIDDEN, LSTM_INPUT
    tensors = {
        "lstm.W": rng.standard_normal((2, 4 * h, i)) * np.sqrt(1.0 / i),
        "lstm.R": rng.standard_normal((2, 4 * h, h)) * np.sqrt(1.0 / h),
        "lstm.B": rng.standard_normal((2, 8 * h)) * 0.1,
        "fc.weight": rng.standard_normal((LSTM_CLASSES, 2 * h)) * np.sqrt(1.0 / (2 * h)),
        "fc.bias": rng.standard_normal(LSTM_CLASSES) * 0.05,
    }
    initializers = [numpy_helper.from_array(v.astype(np.float32), k) for k, v in tensors.items()]
    initializers.append(numpy_helper.from_array(np.array([LSTM_STEPS, 2 * h], np.int64), "flat_shape"))
    nodes = [helper.make_node("LSTM", ["input", "lstm.W", "lstm.R", "lstm.B"], ["lstm.y", "lstm.y_h", "lstm.y_c"],
                              hidden_size=h, direction="bidirectional"),
             helper.make_node("Transpose", ["lstm.y"], ["lstm.y_t"], perm=[0, 2, 1, 3]),
             helper.make_node("Reshape", ["lstm.y_t", "flat_shape"], ["lstm.flat"]),
             helper.make_node("Gemm", ["lstm.flat", "fc.weight", "fc.bias"], ["logits"], transB=1)]
    return make_model("lstm_gemm", nodes, [helper.make_tensor_value_info("input", FLOAT, [LSTM_STEPS, 1, i])],
                      [helper.make_tensor_value_info("logits", FLOAT, [LSTM_STEPS, LSTM_CLASSES])], initializers)


def write_dynamic_quant_models(root: str) -> None:
    suite = os.path.join(root, "dynamic-quant-models")
    os.makedirs(suite, exist_ok=True)
    print("dynamic-quant-models:")
    logging.getLogger().setLevel(logging.ERROR)
    bases = {"transformer": transformer_float(), "lstm_gemm": lstm_gemm_float()}
    with tempfile.TemporaryDirectory(prefix="onnxmicro-dynamic-quant-") as work:
        for base, float_model in bases.items():
            value = float_model.graph.input[0]
            shape = [d.dim_value for d in value.type.tensor_type.shape.dim]
            data_sets = [{value.name: x} for x in float_inputs(np.random.RandomState(164), shape)]
            float_path = os.path.join(work, f"{base}.onnx")
            onnx.save(float_model, float_path)
            for weight_type in (QuantType.QInt8, QuantType.QUInt8):
                for per_channel in (False, True):
                    name = f"{base}_{'s8' if weight_type == QuantType.QInt8 else 'u8'}" \
                           f"{'_per_channel' if per_channel else ''}"
                    quantized_path = os.path.join(work, f"{name}.onnx")
                    quantize_dynamic(float_path, quantized_path, weight_type=weight_type, per_channel=per_channel)
                    write_case(suite, name, onnx.load(quantized_path), data_sets)


SUITES = {"zero-point-ops": write_zero_point_ops, "zero-point-qlinear": write_zero_point_qlinear,
          "dynamic-quant-models": write_dynamic_quant_models}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("-o", "--output", required=True, help="directory to write the suites into")
    parser.add_argument("--only", default="", help=f"comma-separated suites (default: all of {list(SUITES)})")
    args = parser.parse_args()
    wanted = [s for s in args.only.split(",") if s] or list(SUITES)
    unknown = [s for s in wanted if s not in SUITES]
    if unknown:
        sys.exit(f"make_dynamic_quant_models: unknown suite(s) {unknown}; known: {list(SUITES)}")
    for suite in wanted:
        SUITES[suite](args.output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
