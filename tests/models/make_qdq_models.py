# SPDX-License-Identifier: MIT
"""Writes static INT8 models made by onnxruntime's quantize_static, and their float originals (issue #6).

Output: DIR/qdq-models/<name>/, laid out as an ONNX backend test case:
    model.onnx, test_data_set_<n>/input_0.pb, test_data_set_<n>/output_0.pb   (n = 0 .. DATA_SETS - 1)
Expected outputs (output_<k>.pb) are each model's own semantics, which do not depend on the CPU: for float and
QDQ models onnxruntime's CPU EP with every graph optimisation disabled (ORT_DISABLE_ALL: each DequantizeLinear,
float op and QuantizeLinear run as written, in float32); for QOperator models, whose ops are integer kernels even
unoptimised, the onnx reference evaluator with numpy com.microsoft ops (tests/models/reference_ops.py). onnxruntime's default level fuses QDQ groups into its integer kernels, whose rounding depends on the CPU
(AVX2 vs AVX-512 VNNI vs Arm: on AVX2 without VNNI its u8s8 GEMM saturates pairs of products); its outputs are
written beside, as onnxruntime_default_<k>.pb, for information only, and the script prints how far they are from
the reference (in quanta of the output).

Float models (onnx.helper, He-initialised weights, no BatchNorm; opset 17):
  cnn_float          [4,3,32,32] -> Conv3x3(3->16)+Relu, depthwise Conv3x3 stride 2 +Relu, Conv1x1(16->32)+Relu,
                     residual block (Conv3x3+Relu, Conv3x3, Add, Relu), MaxPool 2x2, Conv3x3(32->64)+Relu,
                     GlobalAveragePool, Flatten, Gemm(64->10)
  transformer_float  [1,16,64] -> one post-norm encoder layer: 4-head self-attention (MatMul+Add for Q, K, V;
                     Reshape/Transpose into heads; Q*K^T; Mul by 1/sqrt(16); Softmax; *V; output projection),
                     residual Add, LayerNormalization, FFN (MatMul+Add, Relu, MatMul+Add), residual Add,
                     LayerNormalization
Quantised variants of each <base>: onnxruntime's recommended flow, quant_pre_process (which also turns the
transformer's 3-D MatMul+Add into Reshape, Gemm, Reshape), then quantize_static with MinMax calibration over 32
random inputs of the distribution the test inputs come from:
  <base>_qdq_asym    QDQ, per-channel QInt8 weights, QUInt8 activations
  <base>_qdq_sym     QDQ, per-channel QInt8 weights, QInt8 activations, ActivationSymmetric, WeightSymmetric
  <base>_qoperator   QOperator (QLinearConv, QLinearMatMul, com.microsoft QLinear* ...), QUInt8/QInt8 per channel

The Cortex-M firmware's INT8 model (--firmware; committed, unlike the models above, which tests write into the
build tree):
  hello_cnn_qdq      tests/models/hello_cnn (tools/make_models.py: Conv, Relu, MaxPool, Conv, BatchNormalization,
                     Relu, GlobalAveragePool, Flatten, Gemm, Softmax; [1,1,8,8]) through the same flow, QDQ with
                     per-channel symmetric QInt8 weights and asymmetric QInt8 activations (TensorFlow Lite Micro's
                     and CMSIS-NN's scheme; int8 tensors with non-zero zero points, which the variants above leave
                     out: qdq_sym's are 0), so onnxruntime drops both Relus into the activations' ranges; calibrated
                     on 32 images like hello_cnn's input (noise plus one bright stroke). Its test_data_set_0 is
                     hello_cnn's input and onnxruntime's output for the quantised model.
  Written to tests/models/hello_cnn_qdq/ by default; --check rewrites it into a temporary directory and fails when
  it differs from the committed one (onnx, onnxruntime and numpy as pinned in tools/requirements.txt): the graph,
  weights and inputs exactly, calibrated values to rounding, the expected output to one quantum (same_case). Regenerate after
  a change to hello_cnn or to this script with
      .venv/bin/python tests/models/make_qdq_models.py --firmware
  and rebuild examples/cortex-m (its kernel list names the kernels this model needs after QDQ fusion).

Deterministic: weights, calibration and test inputs come from fixed seeds.
Usage: <repo>/.venv/bin/python tests/models/make_qdq_models.py -o DIR [--only NAME[,NAME]]
       <repo>/.venv/bin/python tests/models/make_qdq_models.py --firmware [-o DIR] [--check]
"""
from __future__ import annotations

import argparse
import collections
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
    from onnxruntime.quantization import (CalibrationDataReader, QuantFormat, QuantType, quantize_static)
    from onnxruntime.quantization.shape_inference import quant_pre_process
except ImportError as error:  # pragma: no cover - a setup problem, say how to fix it
    sys.exit(f"make_qdq_models: {error}; run with the repo venv: \"$(tools/setup_python.sh)\" {sys.argv[0]} ...")

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from reference_ops import reference  # noqa: E402

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OPSET = 17  # LayerNormalization; per-channel QDQ needs >= 13
IR_VERSION = 8
FLOAT = TensorProto.FLOAT
CALIBRATION_SAMPLES = 32
DATA_SETS = 5


class GraphBuilder:
    """Collects nodes and initializers, naming values after the node that makes them."""

    def __init__(self, rng: np.random.RandomState):
        self.rng = rng
        self.nodes: list[onnx.NodeProto] = []
        self.initializers: list[onnx.TensorProto] = []

    def op(self, op: str, *inputs: str, name: str, output: str = "", **attributes) -> str:
        """Adds node `name`; its output is called `name` too unless `output` names it (a graph output)."""
        output = output or name
        self.nodes.append(helper.make_node(op, list(inputs), [output], name=name, **attributes))
        return output

    def tensor(self, name: str, value: np.ndarray) -> str:
        self.initializers.append(numpy_helper.from_array(np.asarray(value), name))
        return name

    def conv(self, x: str, name: str, cin: int, cout: int, kernel: int, stride: int = 1, group: int = 1,
             relu: bool = True) -> str:
        fan_in = cin // group * kernel * kernel
        w = self.tensor(f"{name}.weight", (self.rng.standard_normal((cout, cin // group, kernel, kernel)) *
                                           np.sqrt(2.0 / fan_in)).astype(np.float32))
        b = self.tensor(f"{name}.bias", (0.05 * self.rng.standard_normal(cout)).astype(np.float32))
        pad = kernel // 2
        y = self.op("Conv", x, w, b, name=name, kernel_shape=[kernel, kernel], strides=[stride, stride],
                    pads=[pad] * 4, group=group)
        return self.op("Relu", y, name=f"{name}.relu") if relu else y

    def linear(self, x: str, name: str, fan_in: int, fan_out: int) -> str:
        # nn.Linear on a 3-D input as torch exports it: MatMul with the transposed weight, then Add of the bias.
        w = self.tensor(f"{name}.weight_t", (self.rng.standard_normal((fan_in, fan_out)) *
                                             np.sqrt(1.0 / fan_in)).astype(np.float32))
        b = self.tensor(f"{name}.bias", (0.05 * self.rng.standard_normal(fan_out)).astype(np.float32))
        return self.op("Add", self.op("MatMul", x, w, name=f"{name}.matmul"), b, name=f"{name}.add")


def make_model(g: GraphBuilder, name: str, inputs: list, outputs: list) -> onnx.ModelProto:
    graph = helper.make_graph(g.nodes, name, inputs, outputs, g.initializers)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)],
                              producer_name="onnxmicro tests/models/make_qdq_models.py")
    model.ir_version = IR_VERSION
    onnx.checker.check_model(model, full_check=True)
    return model


# ---- float models ------------------------------------------------------------------------------------------

def cnn_float() -> onnx.ModelProto:
    g = GraphBuilder(np.random.RandomState(61))
    x = g.conv("input", "conv1", 3, 16, 3)                            # [1,16,32,32]
    x = g.conv(x, "dwconv", 16, 16, 3, stride=2, group=16)            # [1,16,16,16]
    block_in = g.conv(x, "pwconv", 16, 32, 1)                         # [1,32,16,16]
    x = g.conv(block_in, "res.conv1", 32, 32, 3)
    x = g.conv(x, "res.conv2", 32, 32, 3, relu=False)
    x = g.op("Relu", g.op("Add", x, block_in, name="res.add"), name="res.relu")
    x = g.op("MaxPool", x, name="maxpool", kernel_shape=[2, 2], strides=[2, 2])   # [1,32,8,8]
    x = g.conv(x, "conv3", 32, 64, 3)                                 # [1,64,8,8]
    x = g.op("Flatten", g.op("GlobalAveragePool", x, name="gap"), name="flatten", axis=1)
    w = g.tensor("fc.weight", (g.rng.standard_normal((10, 64)) * np.sqrt(1.0 / 64)).astype(np.float32))
    b = g.tensor("fc.bias", (0.05 * g.rng.standard_normal(10)).astype(np.float32))
    g.op("Gemm", x, w, b, name="fc", output="logits", transB=1)
    return make_model(g, "cnn", [helper.make_tensor_value_info("input", FLOAT, [4, 3, 32, 32])],
                      [helper.make_tensor_value_info("logits", FLOAT, [4, 10])])


SEQUENCE, D_MODEL, HEADS, FFN = 16, 64, 4, 128
HEAD_DIM = D_MODEL // HEADS


def transformer_float() -> onnx.ModelProto:
    g = GraphBuilder(np.random.RandomState(62))
    x = "input"
    heads_shape = g.tensor("heads_shape", np.array([1, SEQUENCE, HEADS, HEAD_DIM], np.int64))
    merged_shape = g.tensor("merged_shape", np.array([1, SEQUENCE, D_MODEL], np.int64))

    def heads(name: str, perm: list[int]) -> str:
        projection = g.linear(x, f"attn.{name}_proj", D_MODEL, D_MODEL)
        return g.op("Transpose", g.op("Reshape", projection, heads_shape, name=f"attn.{name}.reshape"),
                    name=f"attn.{name}.transpose", perm=perm)

    q = heads("q", [0, 2, 1, 3])  # [1, h, s, d]
    k = heads("k", [0, 2, 3, 1])  # [1, h, d, s]: Q*K^T is a plain MatMul
    v = heads("v", [0, 2, 1, 3])
    scale = g.tensor("attn.scale", np.array(1.0 / np.sqrt(HEAD_DIM), np.float32))
    scores = g.op("Mul", g.op("MatMul", q, k, name="attn.qk"), scale, name="attn.scale_mul")
    probabilities = g.op("Softmax", scores, name="attn.softmax", axis=-1)
    context = g.op("MatMul", probabilities, v, name="attn.context")                      # [1, h, s, d]
    context = g.op("Reshape", g.op("Transpose", context, name="attn.merge.transpose", perm=[0, 2, 1, 3]),
                   merged_shape, name="attn.merge.reshape")
    attended = g.op("Add", x, g.linear(context, "attn.out_proj", D_MODEL, D_MODEL), name="attn.residual")

    def layer_norm(y: str, name: str, output: str = "") -> str:
        gamma = g.tensor(f"{name}.weight", (1.0 + 0.1 * g.rng.standard_normal(D_MODEL)).astype(np.float32))
        beta = g.tensor(f"{name}.bias", (0.1 * g.rng.standard_normal(D_MODEL)).astype(np.float32))
        return g.op("LayerNormalization", y, gamma, beta, name=name, output=output, axis=-1,
                    epsilon=1e-5)

    x = layer_norm(attended, "norm1")
    hidden = g.op("Relu", g.linear(x, "ffn.linear1", D_MODEL, FFN), name="ffn.relu")
    x = g.op("Add", x, g.linear(hidden, "ffn.linear2", FFN, D_MODEL), name="ffn.residual")
    layer_norm(x, "norm2", output="output")
    return make_model(g, "transformer",
                      [helper.make_tensor_value_info("input", FLOAT, [1, SEQUENCE, D_MODEL])],
                      [helper.make_tensor_value_info("output", FLOAT, [1, SEQUENCE, D_MODEL])])


BASES = {"cnn_float": cnn_float, "transformer_float": transformer_float}


def random_inputs(model: onnx.ModelProto, seed: int, count: int) -> list[dict]:
    """Standard normal inputs (the distribution calibration and the test data sets share)."""
    rng = np.random.RandomState(seed)
    value = model.graph.input[0]
    shape = [d.dim_value for d in value.type.tensor_type.shape.dim]
    return [{value.name: rng.standard_normal(shape).astype(np.float32)} for _ in range(count)]


# ---- quantisation ------------------------------------------------------------------------------------------

class RandomDataReader(CalibrationDataReader):
    def __init__(self, feeds: list[dict]):
        self._feeds = iter(feeds)

    def get_next(self):
        return next(self._feeds, None)


VARIANTS = {
    "qdq_asym": dict(quant_format=QuantFormat.QDQ, activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8,
                     extra_options={"ActivationSymmetric": False}),
    "qdq_sym": dict(quant_format=QuantFormat.QDQ, activation_type=QuantType.QInt8, weight_type=QuantType.QInt8,
                    extra_options={"ActivationSymmetric": True, "WeightSymmetric": True}),
    "qoperator": dict(quant_format=QuantFormat.QOperator, activation_type=QuantType.QUInt8,
                      weight_type=QuantType.QInt8, extra_options={}),
}


# The firmware's model (hello_cnn_qdq): int8 activations with a zero point, per-channel symmetric int8 weights
# (the int8 scheme of microcontroller runtimes).
FIRMWARE_VARIANT = dict(quant_format=QuantFormat.QDQ, activation_type=QuantType.QInt8, weight_type=QuantType.QInt8,
                        extra_options={"ActivationSymmetric": False, "WeightSymmetric": True})


def quantize(float_model: onnx.ModelProto, calibration: list[dict], variant: str, work: str,
             options: dict | None = None) -> onnx.ModelProto:
    """quantize_static with VARIANTS[variant] (or `options`), after quant_pre_process."""
    float_path = os.path.join(work, "float.onnx")
    prepared_path = os.path.join(work, "prepared.onnx")
    quantized_path = os.path.join(work, f"{variant}.onnx")
    if not os.path.exists(prepared_path):  # once per base model
        onnx.save(float_model, float_path)
        # Every shape is static, so onnx's shape inference suffices (the symbolic one needs sympy, not in the venv).
        quant_pre_process(float_path, prepared_path, skip_symbolic_shape=True)
    # quantize_static warns on the root logger that LayerNormalization's 1-D scale has no channel axis 1 (it
    # quantises that scale per tensor, as it should).
    logging.getLogger().setLevel(logging.ERROR)
    quantize_static(prepared_path, quantized_path, RandomDataReader(calibration), per_channel=True,
                    **(options or VARIANTS[variant]))
    model = onnx.load(quantized_path)
    onnx.checker.check_model(model)
    return model


# ---- writing -----------------------------------------------------------------------------------------------

def run_onnxruntime(model_bytes: bytes, feeds: dict, level) -> list[np.ndarray]:
    options = ort.SessionOptions()
    options.graph_optimization_level = level
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    session = ort.InferenceSession(model_bytes, options, providers=["CPUExecutionProvider"])
    return session.run(None, feeds)


def output_quantum(model: onnx.ModelProto, output: str) -> float | None:
    """Scale of the DequantizeLinear that makes `output` (None when another op makes it)."""
    initializers = {t.name: t for t in model.graph.initializer}
    for node in model.graph.node:
        if output in node.output and node.op_type == "DequantizeLinear" and node.input[1] in initializers:
            return float(numpy_helper.to_array(initializers[node.input[1]]).reshape(-1)[0])
    return None


def write_tensor(path: str, array: np.ndarray, name: str) -> None:
    with open(path, "wb") as f:
        f.write(numpy_helper.from_array(array, name).SerializeToString())


def write_case(root: str, name: str, model: onnx.ModelProto, data_sets: list[dict], with_fused: bool = True) -> None:
    """Writes the case; with_fused: also onnxruntime's default-level outputs (information)."""
    case_dir = os.path.join(root, name)
    shutil.rmtree(case_dir, ignore_errors=True)
    os.makedirs(case_dir)
    model_bytes = model.SerializeToString()
    with open(os.path.join(case_dir, "model.onnx"), "wb") as f:
        f.write(model_bytes)
    input_names = [value.name for value in model.graph.input]
    output_names = [value.name for value in model.graph.output]
    quantum = output_quantum(model, output_names[0])
    # onnxruntime's default level against no optimisation: largest difference (in quanta; absolute when not
    # quantised) and how many elements differ at all, over every data set.
    spread, differing, elements = 0.0, 0, 0
    integer_ops = any(node.op_type.startswith("QLinear") or node.op_type == "QGemm" for node in model.graph.node)
    for n, feeds in enumerate(data_sets):
        outputs = reference(model, feeds) if integer_ops else \
            run_onnxruntime(model_bytes, feeds, ort.GraphOptimizationLevel.ORT_DISABLE_ALL)
        fused = run_onnxruntime(model_bytes, feeds, ort.GraphOptimizationLevel.ORT_ENABLE_ALL)
        for a, b in zip(fused, outputs):
            spread = max(spread, float(np.max(np.abs(a - b))) / (quantum or 1.0))
            differing += int(np.count_nonzero(a != b))
            elements += a.size
        set_dir = os.path.join(case_dir, f"test_data_set_{n}")
        os.makedirs(set_dir)
        for k, input_name in enumerate(input_names):
            write_tensor(os.path.join(set_dir, f"input_{k}.pb"), feeds[input_name], input_name)
        for k, (output_name, value) in enumerate(zip(output_names, outputs)):
            write_tensor(os.path.join(set_dir, f"output_{k}.pb"), np.asarray(value), output_name)
        if with_fused:
            for k, (output_name, value) in enumerate(zip(output_names, fused)):
                write_tensor(os.path.join(set_dir, f"onnxruntime_default_{k}.pb"), np.asarray(value), output_name)
    histogram = collections.Counter(
        (f"{node.domain}." if node.domain not in ("", "ai.onnx") else "") + node.op_type for node in model.graph.node)
    ops = ", ".join(f"{op} {count}" for op, count in sorted(histogram.items()))
    unit = f"quanta (quantum {quantum:.6g})" if quantum is not None else "absolute"
    print(f"{name}: {len(model.graph.node)} nodes, {len(model_bytes)} bytes; onnxruntime default (fused) vs the "
          f"reference: {100 * differing / elements:.1f}% of elements differ, max {spread:.3g} "
          f"{unit}\n    {ops}")


# ---- the firmware's model ----------------------------------------------------------------------------------

FIRMWARE_MODEL = "hello_cnn_qdq"
FIRMWARE_SOURCE = os.path.join(REPO_ROOT, "tests", "models", "hello_cnn")  # committed by tools/make_models.py


def stroke_images(seed: int, count: int) -> list[dict]:
    """8x8 images like hello_cnn's test input: uniform noise in [0, 0.2] plus one stroke of 0.8 (a diagonal, an
    anti-diagonal, a row or a column), clipped to [0, 1]."""
    rng = np.random.RandomState(seed)
    images = []
    for _ in range(count):
        stroke = np.zeros((8, 8))
        kind, k = rng.randint(4), rng.randint(8)
        if kind == 0:
            stroke = np.eye(8)
        elif kind == 1:
            stroke = np.fliplr(np.eye(8))
        elif kind == 2:
            stroke[k, :] = 1.0
        else:
            stroke[:, k] = 1.0
        image = np.clip(rng.uniform(0.0, 0.2, (8, 8)) + 0.8 * stroke, 0.0, 1.0)
        images.append({"input": image.astype(np.float32).reshape(1, 1, 8, 8)})
    return images


def write_firmware_model(root: str) -> None:
    """Writes ROOT/hello_cnn_qdq/ from the committed hello_cnn and its test input."""
    float_model = onnx.load(os.path.join(FIRMWARE_SOURCE, "model.onnx"))
    test_input = onnx.load_tensor(os.path.join(FIRMWARE_SOURCE, "test_data_set_0", "input_0.pb"))
    feeds = {test_input.name: numpy_helper.to_array(test_input)}
    with tempfile.TemporaryDirectory(prefix="onnxmicro-qdq-") as work:
        model = quantize(float_model, stroke_images(seed=1000, count=CALIBRATION_SAMPLES), FIRMWARE_MODEL, work,
                         FIRMWARE_VARIANT)
    write_case(root, FIRMWARE_MODEL, model, [feeds], with_fused=False)


def same_case(committed: str, fresh: str) -> str:
    """'' when the committed case is what the script makes now, else what differs. The graph, the integer weights
    and the inputs must match exactly; float initializers (calibrated scales, float biases) to rtol 1e-5 and integer
    initializers (quantized biases, zero points) to 1, since calibration runs onnxruntime's float kernels, whose
    last bits may depend on the CPU; expected outputs to one quantum of the output."""
    if sorted(os.listdir(committed)) != sorted(os.listdir(fresh)):
        return f"files {sorted(os.listdir(committed))} vs {sorted(os.listdir(fresh))}"
    old, new = (onnx.load(os.path.join(d, "model.onnx")) for d in (committed, fresh))
    old_graph, new_graph = onnx.helper.make_graph(list(old.graph.node), "g", [], []), \
        onnx.helper.make_graph(list(new.graph.node), "g", [], [])
    if old_graph.SerializeToString() != new_graph.SerializeToString() or old.opset_import != new.opset_import:
        return "the graph's nodes or opsets differ"
    old_tensors = {t.name: numpy_helper.to_array(t) for t in old.graph.initializer}
    new_tensors = {t.name: numpy_helper.to_array(t) for t in new.graph.initializer}
    if old_tensors.keys() != new_tensors.keys():
        return f"initializers {sorted(old_tensors)} vs {sorted(new_tensors)}"
    for name, a in old_tensors.items():
        b = new_tensors[name]
        if a.dtype != b.dtype or a.shape != b.shape:
            return f"initializer {name}: {a.dtype}{a.shape} vs {b.dtype}{b.shape}"
        close = np.allclose(a, b, rtol=1e-5, atol=0) if a.dtype.kind == "f" else \
            (np.array_equal(a, b) if a.dtype.itemsize == 1 and "weight" in name else
             np.max(np.abs(a.astype(np.int64) - b.astype(np.int64)), initial=0) <= 1)
        if not close:
            return f"initializer {name} differs"
    quantum = output_quantum(new, new.graph.output[0].name) or 0.0
    for set_name in sorted(d for d in os.listdir(fresh) if d.startswith("test_data_set_")):
        for file in sorted(os.listdir(os.path.join(fresh, set_name))):
            a, b = (numpy_helper.to_array(onnx.load_tensor(os.path.join(d, set_name, file))) for d in (committed, fresh))
            limit = 0.0 if file.startswith("input_") else quantum * (1 + 1e-3)
            if a.shape != b.shape or np.max(np.abs(a.astype(np.float64) - b.astype(np.float64)), initial=0) > limit:
                return f"{set_name}/{file} differs"
    return ""


def firmware_main(output: str, check: bool) -> int:
    if not check:
        write_firmware_model(output)
        return 0
    committed = os.path.join(output, FIRMWARE_MODEL)
    with tempfile.TemporaryDirectory(prefix="onnxmicro-qdq-check-") as scratch:
        write_firmware_model(scratch)
        difference = same_case(committed, os.path.join(scratch, FIRMWARE_MODEL)) if os.path.isdir(committed) \
            else "it is missing"
        if difference:
            print(f"make_qdq_models: {committed} is out of date ({difference}); regenerate it with\n"
                  f"    .venv/bin/python tests/models/make_qdq_models.py --firmware", file=sys.stderr)
            return 1
    print(f"make_qdq_models: {committed} is up to date")
    return 0


def main() -> int:
    names = [base for base in BASES] + [f"{base[:-len('_float')]}_{variant}" for base in BASES for variant in VARIANTS]
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("-o", "--output", help="directory to write qdq-models/<name>/ into (with --firmware: "
                        "<name>/, default tests/models of this checkout)")
    parser.add_argument("--only", default="", help=f"comma-separated model names (default: all of {names})")
    parser.add_argument("--firmware", action="store_true",
                        help=f"write only the Cortex-M firmware's model, {FIRMWARE_MODEL}")
    parser.add_argument("--check", action="store_true",
                        help="with --firmware: regenerate into a temporary directory, fail if it differs from -o's")
    args = parser.parse_args()
    if args.firmware:
        if args.only:
            parser.error("--only does not apply to --firmware")
        return firmware_main(args.output or os.path.join(REPO_ROOT, "tests", "models"), args.check)
    if args.check:
        parser.error("--check needs --firmware")
    if not args.output:
        parser.error("-o/--output is required (without --firmware)")
    wanted = [n for n in args.only.split(",") if n] or names
    unknown = [n for n in wanted if n not in names]
    if unknown:
        sys.exit(f"make_qdq_models: unknown model(s) {unknown}; known: {names}")
    root = os.path.join(args.output, "qdq-models")
    os.makedirs(root, exist_ok=True)
    for base, build in BASES.items():
        prefix = base[:-len("_float")]
        todo = [n for n in wanted if n == base or n.startswith(prefix + "_")]
        if not todo:
            continue
        float_model = build()
        calibration = random_inputs(float_model, seed=1000, count=CALIBRATION_SAMPLES)
        tests = random_inputs(float_model, seed=2000, count=DATA_SETS)
        with tempfile.TemporaryDirectory(prefix="onnxmicro-qdq-") as work:
            for name in todo:
                model = float_model if name == base else quantize(float_model, calibration,
                                                                   name[len(prefix) + 1:], work)
                write_case(root, name, model, tests)
    return 0


if __name__ == "__main__":
    sys.exit(main())
