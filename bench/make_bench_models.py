# SPDX-License-Identifier: MIT
"""Generates the float models of the CPU speed benchmarks: ImageNet CNNs, BERT-tiny, an LSTM (issue #18, item 9).

Four torchvision classifiers, rebuilt with onnx.helper at exactly torchvision's layer shapes because
torch/torchvision (Debian's python3-torchvision) may be absent: each graph is what ``torch.onnx.export`` of the
eval-mode model produces at opset 13, i.e. every BatchNormalization folded into the preceding Conv's weight and
bias, Dropout dropped, ReLU6 as Clip(x, 0, 6), AdaptiveAvgPool2d((1, 1)) as GlobalAveragePool, chunk as Split,
nn.Linear as Gemm(transB=1).

    resnet18            Conv 7x7/2 + MaxPool, 4 stages of 2 BasicBlocks (64, 128, 256, 512), Gemm 512->1000
    squeezenet1_1       Conv 3x3/2, 8 Fire modules, 3 MaxPools (ceil_mode), Conv 512->1000 + Relu, GAP
    mobilenet_v2        17 inverted residual blocks (depthwise 3x3, Clip as ReLU6), Conv 320->1280, Gemm
    shufflenet_v2_x1_0  3 stages (4, 8, 4 blocks) of Split/Concat/channel shuffle, Conv 464->1024, ReduceMean

The weights are random (numpy, fixed seed, He-normal so activations stay finite), not the trained ones: the
models are for timing, and the parameter counts match torchvision's up to the folded BatchNormalization
(a folded BN adds a C-element conv bias but drops its 2*C scale and shift, so the count is C lower per BN).

All float32, batch 1, input "input" [1, 3, 224, 224], output "output" [1, 1000], opset 13, IR version 7.
Each model is written in the ONNX backend-test layout, so it is also a conformance case and a
bench/compare_onnxruntime.py --models-dir entry:

    <out>/<name>_float/model.onnx
    <out>/<name>_float/test_data_set_0/input_0.pb     uniform [0, 1) input, fixed seed
    <out>/<name>_float/test_data_set_0/output_0.pb    computed by onnxruntime (CPU EP, one thread)

The static INT8 twin of each CNN, <out>/<name>_qdq/ in the same layout (write_qdq_case: onnxruntime's
quantize_static, QDQ format, uint8 activations, per-channel int8 weights, MinMax over 8 random inputs).

Sequence models with dynamic batch and sequence axes, two cases (two shapes, one model.onnx) each, written as
<out>/<case>/ in the same layout (input_K.pb for every graph input, output_K.pb for every output):

    bert_tiny_1x8, bert_tiny_3x21   tests/models/make_bert_tiny.py --dynamic: BERT-tiny as torch.onnx.export with
                                    dynamic_axes writes it (opset 17), input_ids / attention_mask [batch, sequence]
                                    int64 -> last_hidden_state [batch, sequence, 128], pooler_output [batch, 128]
    lstm_1x5, lstm_4x37             a classifier around torch.nn.LSTM(64, 128, num_layers=2, bidirectional=True)
                                    as the exporter writes it at opset 14: input [sequence, batch, 64] float32 ->
                                    output [batch, 10]; cases (batch x sequence) 1 x 5 and 4 x 37

The LSTM classifier (LSTM_CASES): nn.LSTM's zero initial state (torch.zeros(4, input.size(1), 128): Shape ->
Gather 1 -> Unsqueeze -> Concat [4, batch, 128] -> ConstantOfShape, for h0 and c0), then per layer the exporter's
_generic_rnn: Slice of h0 and c0 to the layer's 2 directions, LSTM(direction=bidirectional, hidden_size=128) with
W [2, 512, in], R [2, 512, 128], B [2, 1024] initializers in ONNX gate order i, o, f, c (PyTorch's i, f, g, o
blocks reordered, B = bias_ih ++ bias_hh), and Y [seq, 2, batch, 128] -> Transpose [0, 2, 1, 3] -> Reshape
[0, 0, -1] -> [seq, batch, 256]; Y_h and Y_c are unused. Then output[-1] (Gather axis 0, index -1: the last time
step) and nn.Linear(256, 10) as Gemm(transB=1). Weights uniform(-1/sqrt(fan), 1/sqrt(fan)), PyTorch's default
init (fan = hidden size for the LSTM, in-features for the Linear); input standard normal; opset 14, IR 8.

Usage: .venv/bin/python bench/make_bench_models.py -o OUTDIR [--models resnet18,lstm_4x37,...]
"""
from __future__ import annotations

import argparse
import os
import shutil
import sys
import time

import numpy as np
import onnx
import onnxruntime
from onnx import TensorProto, helper, numpy_helper

OPSET = 13
IR_VERSION = 7
PRODUCER = "onnxmicro bench/make_bench_models.py"
INPUT_SHAPE = (1, 3, 224, 224)
NUM_CLASSES = 1000
WEIGHT_SEED = 2024
INPUT_SEED = 7
CALIBRATION_SEED = 11
CALIBRATION_INPUTS = 8

TESTS_MODELS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "models")
BERT_CASES = ("bert_tiny_1x8", "bert_tiny_3x21")  # make_bert_tiny.DYNAMIC_CASES
LSTM_OPSET = 14
LSTM_IR_VERSION = 8  # what torch.onnx.export writes (as for make_bert_tiny.py's opset 17)
LSTM_INPUT, LSTM_HIDDEN, LSTM_LAYERS, LSTM_CLASSES = 64, 128, 2, 10
LSTM_CASES = {"lstm_1x5": (5, 1), "lstm_4x37": (37, 4)}  # name -> (sequence, batch)


class GraphBuilder:
    """Collects nodes and initializers; one method per layer kind. Values are named after their node."""

    def __init__(self, seed: int):
        self.rng = np.random.default_rng(seed)
        self.nodes: list[onnx.NodeProto] = []
        self.initializers: list[onnx.TensorProto] = []
        self.parameter_count = 0  # learnable elements (weights and biases; not shapes, split sizes or clip bounds)
        self.op_counts: dict[str, int] = {}

    # ---- plumbing ---------------------------------------------------------------------------------------------

    def op(self, op_type: str, inputs: list[str], name: str = "", **attributes) -> str:
        """Adds one node with one output, named `name` or <op_type>_<k>; returns the output's name."""
        if not name:
            k = self.op_counts.get(op_type, 0)
            self.op_counts[op_type] = k + 1
            name = f"{op_type}_{k}"
        self.nodes.append(helper.make_node(op_type, inputs, [name], name=name, **attributes))
        return name

    def constant(self, name: str, value: np.ndarray) -> str:
        """A non-learnable initializer (shape, split sizes, clip bounds), added once."""
        if not any(t.name == name for t in self.initializers):
            self.initializers.append(numpy_helper.from_array(value, name))
        return name

    def parameter(self, name: str, value: np.ndarray) -> str:
        self.initializers.append(numpy_helper.from_array(value.astype(np.float32), name))
        self.parameter_count += value.size
        return name

    def he_normal(self, shape: tuple[int, ...], fan_in: int, gain: float) -> np.ndarray:
        return self.rng.standard_normal(shape) * np.sqrt(gain / fan_in)

    def small_bias(self, n: int) -> np.ndarray:
        return 0.01 * self.rng.standard_normal(n)

    # ---- layers -----------------------------------------------------------------------------------------------

    def conv(self, x: str, name: str, cin: int, cout: int, kernel: int, stride: int = 1, pad: int = 0,
             group: int = 1, gain: float = 2.0) -> str:
        """Conv with bias (a bias-free Conv followed by BatchNormalization, folded, looks the same).

        gain 2 (He) when a Relu follows, 1 when the output stays linear (projections, residual branches)."""
        fan_in = cin // group * kernel * kernel
        w = self.parameter(f"{name}.weight", self.he_normal((cout, cin // group, kernel, kernel), fan_in, gain))
        b = self.parameter(f"{name}.bias", self.small_bias(cout))
        return self.op("Conv", [x, w, b], name=name, dilations=[1, 1], group=group,
                       kernel_shape=[kernel, kernel], pads=[pad] * 4, strides=[stride, stride])

    def relu(self, x: str) -> str:
        return self.op("Relu", [x])

    def relu6(self, x: str) -> str:
        """nn.ReLU6 as the opset-13 exporter writes it: Clip with min and max as constant inputs."""
        lo = self.constant("clip_min", np.array(0.0, dtype=np.float32))
        hi = self.constant("clip_max", np.array(6.0, dtype=np.float32))
        return self.op("Clip", [x, lo, hi])

    def maxpool(self, x: str, kernel: int, stride: int, pad: int = 0, ceil_mode: bool = False) -> str:
        return self.op("MaxPool", [x], ceil_mode=int(ceil_mode), kernel_shape=[kernel, kernel],
                       pads=[pad] * 4, strides=[stride, stride])

    def add(self, a: str, b: str) -> str:
        return self.op("Add", [a, b])

    def concat(self, inputs: list[str]) -> str:
        return self.op("Concat", inputs, axis=1)

    def split_channels(self, x: str, channels: int) -> tuple[str, str]:
        """x.chunk(2, dim=1): opset-13 Split with the sizes as an input; two outputs."""
        sizes = self.constant(f"split_{channels}", np.array([channels // 2, channels // 2], dtype=np.int64))
        k = self.op_counts.get("Split", 0)
        self.op_counts["Split"] = k + 1
        name = f"Split_{k}"
        outputs = [f"{name}.0", f"{name}.1"]
        self.nodes.append(helper.make_node("Split", [x, sizes], outputs, name=name, axis=1))
        return outputs[0], outputs[1]

    def reshape(self, x: str, shape: list[int]) -> str:
        s = self.constant("shape_" + "_".join(str(d).replace("-", "m") for d in shape), np.array(shape, np.int64))
        return self.op("Reshape", [x, s])

    def transpose(self, x: str, perm: list[int]) -> str:
        return self.op("Transpose", [x], perm=perm)

    def channel_shuffle(self, x: str, channels: int, size: int, groups: int = 2) -> str:
        """torchvision's channel_shuffle: view(b, g, c/g, h, w) -> transpose(1, 2) -> view(b, c, h, w)."""
        y = self.reshape(x, [1, groups, channels // groups, size, size])
        y = self.transpose(y, [0, 2, 1, 3, 4])
        return self.reshape(y, [1, channels, size, size])

    def global_avg_pool(self, x: str) -> str:
        return self.op("GlobalAveragePool", [x])

    def reduce_mean_hw(self, x: str) -> str:
        """x.mean([2, 3]): opset-13 ReduceMean with axes as an attribute."""
        return self.op("ReduceMean", [x], axes=[2, 3], keepdims=0)

    def flatten(self, x: str) -> str:
        return self.op("Flatten", [x], axis=1)

    def gemm(self, x: str, name: str, fan_in: int, fan_out: int, output: str = "") -> str:
        """nn.Linear: Gemm with weight [out, in] and transB=1."""
        w = self.parameter(f"{name}.weight", self.he_normal((fan_out, fan_in), fan_in, 1.0))
        b = self.parameter(f"{name}.bias", self.small_bias(fan_out))
        return self.op("Gemm", [x, w, b], name=output or name, alpha=1.0, beta=1.0, transB=1)


# ---- ResNet-18 --------------------------------------------------------------------------------------------------

def basic_block(g: GraphBuilder, x: str, name: str, cin: int, cout: int, stride: int) -> str:
    y = g.relu(g.conv(x, f"{name}.conv1", cin, cout, 3, stride, pad=1))
    y = g.conv(y, f"{name}.conv2", cout, cout, 3, 1, pad=1, gain=1.0)
    shortcut = x
    if stride != 1 or cin != cout:
        shortcut = g.conv(x, f"{name}.downsample.0", cin, cout, 1, stride, gain=1.0)
    return g.relu(g.add(y, shortcut))


def resnet18(g: GraphBuilder) -> str:
    x = g.relu(g.conv("input", "conv1", 3, 64, 7, 2, pad=3))          # [1, 64, 112, 112]
    x = g.maxpool(x, 3, 2, pad=1)                                      # [1, 64, 56, 56]
    cin = 64
    for stage, cout in enumerate((64, 128, 256, 512), start=1):        # 56, 28, 14, 7
        for block in range(2):
            stride = 2 if stage > 1 and block == 0 else 1
            x = basic_block(g, x, f"layer{stage}.{block}", cin, cout, stride)
            cin = cout
    x = g.flatten(g.global_avg_pool(x))
    return g.gemm(x, "fc", 512, NUM_CLASSES, output="output")


# ---- SqueezeNet 1.1 ---------------------------------------------------------------------------------------------

def fire(g: GraphBuilder, x: str, name: str, cin: int, squeeze: int, expand1x1: int, expand3x3: int) -> str:
    s = g.relu(g.conv(x, f"{name}.squeeze", cin, squeeze, 1))
    e1 = g.relu(g.conv(s, f"{name}.expand1x1", squeeze, expand1x1, 1))
    e3 = g.relu(g.conv(s, f"{name}.expand3x3", squeeze, expand3x3, 3, pad=1))
    return g.concat([e1, e3])


def squeezenet1_1(g: GraphBuilder) -> str:
    x = g.relu(g.conv("input", "features.0", 3, 64, 3, 2))             # [1, 64, 111, 111]
    x = g.maxpool(x, 3, 2, ceil_mode=True)                              # [1, 64, 55, 55]
    x = fire(g, x, "features.3", 64, 16, 64, 64)
    x = fire(g, x, "features.4", 128, 16, 64, 64)
    x = g.maxpool(x, 3, 2, ceil_mode=True)                              # [1, 128, 27, 27]
    x = fire(g, x, "features.6", 128, 32, 128, 128)
    x = fire(g, x, "features.7", 256, 32, 128, 128)
    x = g.maxpool(x, 3, 2, ceil_mode=True)                              # [1, 256, 13, 13]
    x = fire(g, x, "features.9", 256, 48, 192, 192)
    x = fire(g, x, "features.10", 384, 48, 192, 192)
    x = fire(g, x, "features.11", 384, 64, 256, 256)
    x = fire(g, x, "features.12", 512, 64, 256, 256)
    # classifier: Dropout (identity in eval), final_conv, ReLU, AdaptiveAvgPool2d((1, 1)); then flatten(x, 1)
    x = g.relu(g.conv(x, "classifier.1", 512, NUM_CLASSES, 1))
    x = g.global_avg_pool(x)
    return g.op("Flatten", [x], name="output", axis=1)


# ---- MobileNetV2 ------------------------------------------------------------------------------------------------

MOBILENET_V2_SETTING = ((1, 16, 1, 1), (6, 24, 2, 2), (6, 32, 3, 2), (6, 64, 4, 2),
                        (6, 96, 3, 1), (6, 160, 3, 2), (6, 320, 1, 1))  # (t, c, n, s)


def inverted_residual_v2(g: GraphBuilder, x: str, name: str, cin: int, cout: int, stride: int,
                         expand_ratio: int) -> str:
    hidden = int(round(cin * expand_ratio))
    y, k = x, 0
    if expand_ratio != 1:
        y = g.relu6(g.conv(y, f"{name}.conv.{k}.0", cin, hidden, 1))
        k += 1
    y = g.relu6(g.conv(y, f"{name}.conv.{k}.0", hidden, hidden, 3, stride, pad=1, group=hidden))
    y = g.conv(y, f"{name}.conv.{k + 1}", hidden, cout, 1, gain=1.0)   # linear bottleneck
    return g.add(x, y) if stride == 1 and cin == cout else y


def mobilenet_v2(g: GraphBuilder) -> str:
    x = g.relu6(g.conv("input", "features.0.0", 3, 32, 3, 2, pad=1))  # [1, 32, 112, 112]
    cin, index = 32, 1
    for t, c, n, s in MOBILENET_V2_SETTING:
        for i in range(n):
            x = inverted_residual_v2(g, x, f"features.{index}", cin, c, s if i == 0 else 1, t)
            cin, index = c, index + 1
    x = g.relu6(g.conv(x, f"features.{index}.0", 320, 1280, 1))       # [1, 1280, 7, 7]
    x = g.flatten(g.global_avg_pool(x))
    return g.gemm(x, "classifier.1", 1280, NUM_CLASSES, output="output")


# ---- ShuffleNetV2 x1.0 ------------------------------------------------------------------------------------------

def shuffle_block(g: GraphBuilder, x: str, name: str, cin: int, cout: int, stride: int, size: int) -> str:
    """torchvision's shufflenetv2.InvertedResidual; `size` is the output's height and width."""
    half = cout // 2
    if stride == 1:
        left, right = g.split_channels(x, cin)
        right_in = half
    else:
        left = g.conv(x, f"{name}.branch1.0", cin, cin, 3, stride, pad=1, group=cin, gain=1.0)
        left = g.relu(g.conv(left, f"{name}.branch1.2", cin, half, 1))
        right, right_in = x, cin
    y = g.relu(g.conv(right, f"{name}.branch2.0", right_in, half, 1))
    y = g.conv(y, f"{name}.branch2.3", half, half, 3, stride, pad=1, group=half, gain=1.0)
    y = g.relu(g.conv(y, f"{name}.branch2.5", half, half, 1))
    return g.channel_shuffle(g.concat([left, y]), cout, size)


def shufflenet_v2_x1_0(g: GraphBuilder) -> str:
    x = g.relu(g.conv("input", "conv1.0", 3, 24, 3, 2, pad=1))        # [1, 24, 112, 112]
    x = g.maxpool(x, 3, 2, pad=1)                                      # [1, 24, 56, 56]
    cin, size = 24, 56
    for stage, (repeats, cout) in enumerate(zip((4, 8, 4), (116, 232, 464)), start=2):
        size //= 2                                                     # 28, 14, 7
        for i in range(repeats):
            x = shuffle_block(g, x, f"stage{stage}.{i}", cin, cout, 2 if i == 0 else 1, size)
            cin = cout
    x = g.relu(g.conv(x, "conv5.0", 464, 1024, 1))                     # [1, 1024, 7, 7]
    x = g.reduce_mean_hw(x)
    return g.gemm(x, "fc", 1024, NUM_CLASSES, output="output")


# ---- bidirectional LSTM classifier -----------------------------------------------------------------------------

def torch_uniform(g: GraphBuilder, shape: tuple[int, ...], fan: int) -> np.ndarray:
    """PyTorch's default nn.LSTM / nn.Linear init: uniform(-1/sqrt(fan), 1/sqrt(fan))."""
    bound = 1.0 / np.sqrt(fan)
    return g.rng.uniform(-bound, bound, shape)


def lstm_weights(g: GraphBuilder, name: str, input_size: int) -> tuple[str, str, str]:
    """One bidirectional layer's W, R, B from PyTorch's per-direction weight_ih, weight_hh, bias_ih, bias_hh
    (drawn in nn.LSTM's parameter order, forward then _reverse), gate blocks reordered i,f,g,o -> i,o,f,c."""
    order = [0, 3, 1, 2]  # ONNX gate k is PyTorch gate order[k]

    def onnx_gates(a: np.ndarray) -> np.ndarray:
        return np.concatenate([a.reshape(4, LSTM_HIDDEN, -1)[k] for k in order]).reshape(a.shape)

    w, r, b = [], [], []
    for _ in range(2):  # forward, reverse
        weight_ih = torch_uniform(g, (4 * LSTM_HIDDEN, input_size), LSTM_HIDDEN)
        weight_hh = torch_uniform(g, (4 * LSTM_HIDDEN, LSTM_HIDDEN), LSTM_HIDDEN)
        bias_ih = torch_uniform(g, (4 * LSTM_HIDDEN,), LSTM_HIDDEN)
        bias_hh = torch_uniform(g, (4 * LSTM_HIDDEN,), LSTM_HIDDEN)
        w.append(onnx_gates(weight_ih))
        r.append(onnx_gates(weight_hh))
        b.append(np.concatenate([onnx_gates(bias_ih), onnx_gates(bias_hh)]))
    return (g.parameter(f"{name}.W", np.stack(w)), g.parameter(f"{name}.R", np.stack(r)),
            g.parameter(f"{name}.B", np.stack(b)))


def lstm_classifier(g: GraphBuilder) -> str:
    # torch.zeros(num_layers * 2, input.size(1), hidden) for h0 and for c0
    batch = g.op("Gather", [g.op("Shape", ["input"]), g.constant("index_1", np.array(1, np.int64))], axis=0)
    axes_0 = g.constant("axes_0", np.array([0], np.int64))
    zeros_shape = g.op("Concat", [g.constant("dim_4", np.array([2 * LSTM_LAYERS], np.int64)),
                                  g.op("Unsqueeze", [batch, axes_0]),
                                  g.constant(f"dim_{LSTM_HIDDEN}", np.array([LSTM_HIDDEN], np.int64))], axis=0)
    zero = helper.make_tensor("value", TensorProto.FLOAT, [1], [0.0])
    h0 = g.op("ConstantOfShape", [zeros_shape], value=zero)
    c0 = g.op("ConstantOfShape", [zeros_shape], value=zero)
    x, input_size = "input", LSTM_INPUT
    for layer in range(LSTM_LAYERS):
        w, r, b = lstm_weights(g, f"lstm.layer{layer}", input_size)
        starts = g.constant(f"starts_{2 * layer}", np.array([2 * layer], np.int64))
        ends = g.constant(f"ends_{2 * layer + 2}", np.array([2 * layer + 2], np.int64))
        initial = [g.op("Slice", [state, starts, ends, axes_0]) for state in (h0, c0)]
        name = f"LSTM_{layer}"
        outputs = [f"{name}.Y", f"{name}.Y_h", f"{name}.Y_c"]  # Y_h, Y_c: named, unused (the classifier drops them)
        g.nodes.append(helper.make_node("LSTM", [x, w, r, b, ""] + initial, outputs, name=name,
                                        direction="bidirectional", hidden_size=LSTM_HIDDEN))
        # Y [seq, 2, batch, hidden] -> [seq, batch, 2, hidden] -> [seq, batch, 2 * hidden]
        x = g.reshape(g.transpose(outputs[0], [0, 2, 1, 3]), [0, 0, -1])
        input_size = 2 * LSTM_HIDDEN
    last = g.op("Gather", [x, g.constant("index_m1", np.array(-1, np.int64))], axis=0)  # output[-1]
    fc_w = g.parameter("fc.weight", torch_uniform(g, (LSTM_CLASSES, input_size), input_size))
    fc_b = g.parameter("fc.bias", torch_uniform(g, (LSTM_CLASSES,), input_size))
    return g.op("Gemm", [last, fc_w, fc_b], name="output", alpha=1.0, beta=1.0, transB=1)


def build_lstm_model() -> tuple[onnx.ModelProto, int]:
    """The LSTM classifier and its parameter count; checked (full_check) and shape-inferred to [batch, 10]."""
    g = GraphBuilder(WEIGHT_SEED)
    assert lstm_classifier(g) == "output"
    graph = helper.make_graph(
        g.nodes, "lstm_classifier",
        [helper.make_tensor_value_info("input", TensorProto.FLOAT, ["sequence", "batch", LSTM_INPUT])],
        [helper.make_tensor_value_info("output", TensorProto.FLOAT, ["batch", LSTM_CLASSES])],
        g.initializers)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", LSTM_OPSET)], producer_name=PRODUCER,
                              producer_version="1", doc_string="2-layer bidirectional nn.LSTM(64, 128) + Linear(256, "
                              "10) on the last step, dynamic batch and sequence, random weights")
    model.ir_version = LSTM_IR_VERSION
    onnx.checker.check_model(model, full_check=True)
    inferred = onnx.shape_inference.infer_shapes(model, check_type=True, strict_mode=True, data_prop=True)
    dims = [d.dim_param or d.dim_value for d in inferred.graph.output[0].type.tensor_type.shape.dim]
    if dims != ["batch", LSTM_CLASSES]:
        raise RuntimeError(f"{model.graph.name}: inferred output shape {dims}, expected ['batch', {LSTM_CLASSES}]")
    return model, g.parameter_count


# ---- driver -----------------------------------------------------------------------------------------------------

MODELS = {
    "resnet18": resnet18,
    "squeezenet1_1": squeezenet1_1,
    "mobilenet_v2": mobilenet_v2,
    "shufflenet_v2_x1_0": shufflenet_v2_x1_0,
}


def build_model(name: str) -> tuple[onnx.ModelProto, int]:
    """The model and its learnable parameter count; checked (full_check) and shape-inferred to [1, 1000]."""
    g = GraphBuilder(WEIGHT_SEED)
    output = MODELS[name](g)
    assert output == "output", f"{name}: last node must write 'output'"
    graph = helper.make_graph(
        g.nodes, name,
        [helper.make_tensor_value_info("input", TensorProto.FLOAT, list(INPUT_SHAPE))],
        [helper.make_tensor_value_info("output", TensorProto.FLOAT, [1, NUM_CLASSES])],
        g.initializers)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)], producer_name=PRODUCER,
                              producer_version="1", doc_string=f"torchvision {name} layer shapes, random weights")
    model.ir_version = IR_VERSION
    check_model(model)
    return model, g.parameter_count


def check_model(model: onnx.ModelProto) -> None:
    onnx.checker.check_model(model, full_check=True)
    inferred = onnx.shape_inference.infer_shapes(model, check_type=True, strict_mode=True, data_prop=True)
    dims = [d.dim_value for d in inferred.graph.output[0].type.tensor_type.shape.dim]
    if dims != [1, NUM_CLASSES]:
        raise RuntimeError(f"{model.graph.name}: inferred output shape {dims}, expected [1, {NUM_CLASSES}]")


def run_onnxruntime(model: onnx.ModelProto, feeds: dict[str, np.ndarray]) -> tuple[list[np.ndarray], float]:
    """One single-threaded CPU run; returns the outputs and the run's wall time in ms."""
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    session = onnxruntime.InferenceSession(model.SerializeToString(), options, providers=["CPUExecutionProvider"])
    start = time.perf_counter()
    outputs = session.run(None, feeds)
    return outputs, (time.perf_counter() - start) * 1e3


def write_tensor(path: str, array: np.ndarray, name: str) -> None:
    with open(path, "wb") as f:
        f.write(numpy_helper.from_array(array, name).SerializeToString())


def write_cnn_case(case_dir: str, model: onnx.ModelProto, parameters: int) -> None:
    """<case_dir>/ for a CNN: the model, the seeded uniform [0, 1) input and onnxruntime's output for it."""
    x = np.random.default_rng(INPUT_SEED).uniform(0.0, 1.0, INPUT_SHAPE).astype(np.float32)
    (y,), ms = run_onnxruntime(model, {"input": x})
    if not np.all(np.isfinite(y)):
        raise RuntimeError(f"{case_dir}: onnxruntime output is not finite")
    shutil.rmtree(case_dir, ignore_errors=True)
    os.makedirs(os.path.join(case_dir, "test_data_set_0"))
    onnx.save_model(model, os.path.join(case_dir, "model.onnx"))
    write_tensor(os.path.join(case_dir, "test_data_set_0", "input_0.pb"), x, "input")
    write_tensor(os.path.join(case_dir, "test_data_set_0", "output_0.pb"), y, "output")
    print(f"{os.path.basename(case_dir)}: {parameters:,} parameters, {len(model.graph.node)} nodes, "
          f"onnxruntime 1 thread single run {ms:.1f} ms, output std {float(y.std()):.3g} -> {case_dir}")


def write_case(out_dir: str, name: str) -> None:
    model, parameters = build_model(name)
    write_cnn_case(os.path.join(out_dir, f"{name}_float"), model, parameters)


def write_qdq_case(out_dir: str, name: str) -> None:
    """<out_dir>/<cnn>_qdq/: the CNN's static INT8 twin, as a user makes it with onnxruntime's tools:
    quant_pre_process, then quantize_static in the QDQ format with uint8 activations (asymmetric), int8 weights
    per output channel and MinMax calibration over CALIBRATION_INPUTS uniform [0, 1) inputs (tests/models/
    make_qdq_models.py's "qdq_asym" variant, imported here for the same reason as make_bert_tiny). The test input
    and its onnxruntime output are made as for the float model (same seed); the parameter count is the float
    model's."""
    if TESTS_MODELS not in sys.path:
        sys.path.insert(0, TESTS_MODELS)
    import tempfile  # noqa: E402 pylint: disable=import-outside-toplevel
    import make_qdq_models  # noqa: E402 pylint: disable=import-outside-toplevel
    cnn = name[:-len("_qdq")]
    float_model, parameters = build_model(cnn)
    rng = np.random.default_rng(CALIBRATION_SEED)
    calibration = [{"input": rng.uniform(0.0, 1.0, INPUT_SHAPE).astype(np.float32)}
                   for _ in range(CALIBRATION_INPUTS)]
    with tempfile.TemporaryDirectory() as work:
        model = make_qdq_models.quantize(float_model, calibration, "qdq_asym", work)
    model.doc_string = f"static INT8 (QDQ, uint8 activations, per-channel int8 weights) twin of {cnn}_float"
    write_cnn_case(os.path.join(out_dir, name), model, parameters)


def write_lstm_case(out_dir: str, name: str) -> None:
    """<out_dir>/<name>/ for one of LSTM_CASES: the one LSTM model, input [sequence, batch, 64] standard normal."""
    model, parameters = build_lstm_model()
    model_bytes = model.SerializeToString()
    x = np.random.default_rng(INPUT_SEED).standard_normal((*LSTM_CASES[name], LSTM_INPUT)).astype(np.float32)
    (y,), ms = run_onnxruntime(model, {"input": x})
    if not np.all(np.isfinite(y)):
        raise RuntimeError(f"{name}: onnxruntime output is not finite")
    case_dir = os.path.join(out_dir, name)
    shutil.rmtree(case_dir, ignore_errors=True)
    os.makedirs(os.path.join(case_dir, "test_data_set_0"))
    with open(os.path.join(case_dir, "model.onnx"), "wb") as f:
        f.write(model_bytes)
    write_tensor(os.path.join(case_dir, "test_data_set_0", "input_0.pb"), x, "input")
    write_tensor(os.path.join(case_dir, "test_data_set_0", "output_0.pb"), y, "output")
    print(f"{name}: {parameters:,} parameters, {len(model.graph.node)} nodes, {len(model_bytes):,} bytes, "
          f"input {list(x.shape)}, onnxruntime 1 thread single run {ms:.1f} ms, output std {float(y.std()):.3g} "
          f"-> {case_dir}")


def write_bert_case(out_dir: str, name: str) -> None:
    """<out_dir>/<name>/ for one of BERT_CASES, written by tests/models/make_bert_tiny.py (imported here, not at the
    top: it imports this module for its GraphBuilder)."""
    if TESTS_MODELS not in sys.path:
        sys.path.insert(0, TESTS_MODELS)
    import make_bert_tiny  # noqa: E402 pylint: disable=import-outside-toplevel
    make_bert_tiny.write_case(out_dir, name)


def all_cases() -> dict:
    """--models name -> writer(out_dir, name): the CNNs, then the sequence models."""
    cases = {name: write_case for name in MODELS}
    cases.update({f"{name}_qdq": write_qdq_case for name in MODELS})
    cases.update({name: write_bert_case for name in BERT_CASES})
    cases.update({name: write_lstm_case for name in LSTM_CASES})
    return cases


def main() -> int:
    cases = all_cases()
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("-o", "--out", required=True,
                        help="output directory (<name>_float/ per CNN, <name>/ per sequence-model case)")
    parser.add_argument("--models", default=",".join(cases),
                        help=f"comma-separated subset of {', '.join(cases)} (default: all)")
    args = parser.parse_args()
    names = [n for n in args.models.split(",") if n]
    unknown = [n for n in names if n not in cases]
    if unknown:
        parser.error(f"unknown model(s) {', '.join(unknown)}; choose from {', '.join(cases)}")
    for name in names:
        cases[name](args.out, name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
