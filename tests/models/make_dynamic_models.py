# SPDX-License-Identifier: MIT
"""Writes models shaped like real PyTorch exports, with dynamic axes and control flow (issue #4), into DIR/<name>/.

Each model is laid out as an ONNX backend test case, so onnxmicro_conformance runs it like any suite:
    <name>/model.onnx, <name>/test_data_set_<n>/input_<k>.pb, <name>/test_data_set_<n>/output_<k>.pb
The data sets of one model use DIFFERENT input shapes (and values that steer control flow differently), so a
runner that keeps one session per model exercises re-planning. Expected outputs come from onnxruntime on the
CPU with every graph optimisation disabled and one thread, so the reference is independent and reproducible.

Models (built with onnx.helper, no torch; node patterns follow what torch.onnx.export / torch.jit.script emit:
Constant nodes for small constants, Shape -> Gather -> Unsqueeze -> Concat -> Reshape for dynamic reshapes,
dim_param names such as "batch" and "sequence"):
  transformer_encoder    two post-norm encoder layers (4-head self-attention, LayerNormalization, FFN with the
                         exporter's erf-based Gelu in the first layer, Relu in the second); opset 17
  lstm_dynamic_sequence  batch-first LSTM (input 8, hidden 16, with B, initial_h, initial_c) and a Gemm head
                         on the last time step
  loop_scripted          a scripted while loop: Loop with a trip count from an input and a condition computed in
                         the body, carrying a counter, an accumulator [batch, 4] and a running max, plus a scan
                         output (every input decides shapes, so a runtime must know them all at prepare)
  loop_counted           a scripted for loop with a break that does not depend on tensor data, no scan output:
                         the loop can run at run time, only the trip count and break point are scalars
  if_branch_shapes       a scripted `if x.sum() > 0`: If whose branches return different shapes (Slice vs Concat),
                         then ReduceSum
  nonzero_gather         NonZero -> Transpose -> GatherND (output size depends on the data)

Deterministic: weights and inputs come from fixed seeds; serialisation is stable.
Usage: <repo>/.venv/bin/python tests/models/make_dynamic_models.py -o DIR [--only NAME[,NAME]]
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
    sys.exit(f"make_dynamic_models: {error}; run with the repo venv: \"$(tools/setup_python.sh)\" {sys.argv[0]} ...")

IR_VERSION = 8  # what torch.onnx.export writes for opset 17
FLOAT = TensorProto.FLOAT
INT64 = TensorProto.INT64
BOOL = TensorProto.BOOL
MAX_FILE_BYTES = 200 * 1024  # keeps the generated suite small


class GraphBuilder:
    """Collects nodes and initializers; names intermediate values like the exporter (onnx::Op_N / /layer/Op)."""

    def __init__(self, prefix: str = ""):
        self.prefix = prefix
        self.nodes: list[onnx.NodeProto] = []
        self.initializers: list[onnx.TensorProto] = []
        self._count = 0

    def _name(self, op: str) -> str:
        self._count += 1
        return f"{self.prefix}/{op}_{self._count}"

    def node(self, op: str, inputs: list[str], outputs: int = 1, **attributes) -> list[str]:
        name = self._name(op)
        names = [f"{name}_output_{i}" for i in range(outputs)]
        self.nodes.append(helper.make_node(op, inputs, names, name=name, **attributes))
        return names

    def op(self, op: str, *inputs: str, **attributes) -> str:
        return self.node(op, list(inputs), 1, **attributes)[0]

    def constant(self, value: np.ndarray) -> str:
        """A Constant node, as the exporter emits for shape pieces and scalars."""
        return self.op("Constant", value=numpy_helper.from_array(np.asarray(value)))

    def weight(self, name: str, value: np.ndarray) -> str:
        self.initializers.append(numpy_helper.from_array(value.astype(np.float32), name))
        return name


def make_model(graph: onnx.GraphProto, opset: int) -> onnx.ModelProto:
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)],
                              producer_name="onnxmicro tests/models/make_dynamic_models.py")
    model.ir_version = IR_VERSION
    onnx.checker.check_model(model, full_check=True)
    return model


# ---- 1. transformer_encoder --------------------------------------------------------------------------------

D_MODEL, HEADS, FFN = 32, 4, 64
HEAD_DIM = D_MODEL // HEADS


def _linear(g: GraphBuilder, x: str, rng: np.random.RandomState, name: str, fan_in: int, fan_out: int) -> str:
    # torch exports nn.Linear on a 3-D input as MatMul with the transposed weight plus Add of the bias.
    bound = 1.0 / np.sqrt(fan_in)
    w = g.weight(f"{name}.weight_t", rng.uniform(-bound, bound, (fan_in, fan_out)))
    b = g.weight(f"{name}.bias", rng.uniform(-bound, bound, (fan_out,)))
    return g.op("Add", g.op("MatMul", x, w), b)


def _batch_and_sequence(g: GraphBuilder, x: str) -> tuple[str, str]:
    """[batch] and [sequence] as 1-D int64, the way the exporter builds them for view()/reshape()."""
    shape = g.op("Shape", x)
    batch = g.op("Gather", shape, g.constant(np.array(0, np.int64)), axis=0)
    # The newer exporter slices the shape with Shape's start/end (opset 15) instead of a second Gather.
    sequence = g.op("Shape", x, start=1, end=2)
    return g.op("Unsqueeze", batch, g.constant(np.array([0], np.int64))), sequence


def _self_attention(g: GraphBuilder, x: str, rng: np.random.RandomState, name: str) -> str:
    batch, sequence = _batch_and_sequence(g, x)
    heads_shape = g.op("Concat", batch, sequence, g.constant(np.array([HEADS], np.int64)),
                       g.constant(np.array([HEAD_DIM], np.int64)), axis=0)

    def split_heads(projection: str, perm: list[int]) -> str:
        return g.op("Transpose", g.op("Reshape", projection, heads_shape), perm=perm)

    q = split_heads(_linear(g, x, rng, f"{name}.q_proj", D_MODEL, D_MODEL), [0, 2, 1, 3])  # [b, h, s, d]
    k = split_heads(_linear(g, x, rng, f"{name}.k_proj", D_MODEL, D_MODEL), [0, 2, 3, 1])  # [b, h, d, s]
    v = split_heads(_linear(g, x, rng, f"{name}.v_proj", D_MODEL, D_MODEL), [0, 2, 1, 3])
    scores = g.op("Div", g.op("MatMul", q, k), g.constant(np.array(np.sqrt(HEAD_DIM), np.float32)))
    context = g.op("MatMul", g.op("Softmax", scores, axis=-1), v)  # [b, h, s, d]
    context = g.op("Transpose", context, perm=[0, 2, 1, 3])
    merged_shape = g.op("Concat", batch, sequence, g.constant(np.array([D_MODEL], np.int64)), axis=0)
    return _linear(g, g.op("Reshape", context, merged_shape), rng, f"{name}.out_proj", D_MODEL, D_MODEL)


def _layer_norm(g: GraphBuilder, x: str, rng: np.random.RandomState, name: str) -> str:
    scale = g.weight(f"{name}.weight", 1.0 + 0.1 * rng.standard_normal(D_MODEL))
    bias = g.weight(f"{name}.bias", 0.1 * rng.standard_normal(D_MODEL))
    return g.op("LayerNormalization", x, scale, bias, axis=-1, epsilon=1e-5)


def _gelu_erf(g: GraphBuilder, x: str) -> str:
    # torch.nn.functional.gelu before opset 20: 0.5 * x * (1 + erf(x / sqrt(2)))
    erf = g.op("Erf", g.op("Div", x, g.constant(np.array(np.sqrt(2.0), np.float32))))
    half_x = g.op("Mul", x, g.constant(np.array(0.5, np.float32)))
    return g.op("Mul", half_x, g.op("Add", erf, g.constant(np.array(1.0, np.float32))))


def transformer_encoder() -> tuple[onnx.ModelProto, list[dict]]:
    rng = np.random.RandomState(1)
    g = GraphBuilder()
    x = "src"
    for layer, activation in enumerate(["gelu", "relu"]):
        name = f"layers.{layer}"
        attended = g.op("Add", x, _self_attention(g, x, rng, f"{name}.self_attn"))
        x = _layer_norm(g, attended, rng, f"{name}.norm1")
        hidden = _linear(g, x, rng, f"{name}.linear1", D_MODEL, FFN)
        hidden = _gelu_erf(g, hidden) if activation == "gelu" else g.op("Relu", hidden)
        x = _layer_norm(g, g.op("Add", x, _linear(g, hidden, rng, f"{name}.linear2", FFN, D_MODEL)), rng,
                        f"{name}.norm2")
    g.nodes.append(helper.make_node("Identity", [x], ["output"], name="/Identity_output"))
    graph = helper.make_graph(
        g.nodes, "transformer_encoder",
        [helper.make_tensor_value_info("src", FLOAT, ["batch", "sequence", D_MODEL])],
        [helper.make_tensor_value_info("output", FLOAT, ["batch", "sequence", D_MODEL])], g.initializers)
    data = np.random.RandomState(101)
    shapes = [(1, 7), (8, 7), (1, 64), (8, 64), (2, 3)]
    inputs = [{"src": data.standard_normal((b, s, D_MODEL)).astype(np.float32)} for b, s in shapes]
    return make_model(graph, 17), inputs


# ---- 2. lstm_dynamic_sequence ------------------------------------------------------------------------------

LSTM_INPUT, LSTM_HIDDEN, LSTM_CLASSES = 8, 16, 4


def lstm_dynamic_sequence() -> tuple[onnx.ModelProto, list[dict]]:
    rng = np.random.RandomState(2)
    g = GraphBuilder()
    bound = 1.0 / np.sqrt(LSTM_HIDDEN)
    w = g.weight("onnx::LSTM_W", rng.uniform(-bound, bound, (1, 4 * LSTM_HIDDEN, LSTM_INPUT)))
    r = g.weight("onnx::LSTM_R", rng.uniform(-bound, bound, (1, 4 * LSTM_HIDDEN, LSTM_HIDDEN)))
    b = g.weight("onnx::LSTM_B", rng.uniform(-bound, bound, (1, 8 * LSTM_HIDDEN)))
    # batch_first=True: the exporter transposes to [sequence, batch, input] around the LSTM node.
    x = g.op("Transpose", "x", perm=[1, 0, 2])
    y, y_h, y_c = g.node("LSTM", [x, w, r, b, "", "h0", "c0"], 3, hidden_size=LSTM_HIDDEN, direction="forward")
    # Y is [sequence, 1, batch, hidden]: squeeze the direction axis, back to batch-first via Transpose + Reshape
    # with a shape built from the input's Shape.
    y = g.op("Transpose", g.op("Squeeze", y, g.constant(np.array([1], np.int64))), perm=[1, 0, 2])
    shape = g.op("Shape", "x")
    batch = g.op("Unsqueeze", g.op("Gather", shape, g.constant(np.array(0, np.int64)), axis=0),
                 g.constant(np.array([0], np.int64)))
    sequence = g.op("Unsqueeze", g.op("Gather", shape, g.constant(np.array(1, np.int64)), axis=0),
                    g.constant(np.array([0], np.int64)))
    y = g.op("Reshape", y, g.op("Concat", batch, sequence, g.constant(np.array([LSTM_HIDDEN], np.int64)), axis=0))
    last = g.op("Gather", y, g.constant(np.array(-1, np.int64)), axis=1)  # output[:, -1, :]
    head_w = g.weight("head.weight", rng.uniform(-bound, bound, (LSTM_CLASSES, LSTM_HIDDEN)))
    head_b = g.weight("head.bias", rng.uniform(-bound, bound, (LSTM_CLASSES,)))
    g.nodes.append(helper.make_node("Gemm", [last, head_w, head_b], ["logits"], name="/head/Gemm", transB=1))
    g.nodes.append(helper.make_node("Identity", [y_h], ["hn"], name="/Identity_hn"))
    g.nodes.append(helper.make_node("Identity", [y_c], ["cn"], name="/Identity_cn"))
    state = [1, "batch", LSTM_HIDDEN]
    graph = helper.make_graph(
        g.nodes, "lstm_dynamic_sequence",
        [helper.make_tensor_value_info("x", FLOAT, ["batch", "sequence", LSTM_INPUT]),
         helper.make_tensor_value_info("h0", FLOAT, state), helper.make_tensor_value_info("c0", FLOAT, state)],
        [helper.make_tensor_value_info("logits", FLOAT, ["batch", LSTM_CLASSES]),
         helper.make_tensor_value_info("hn", FLOAT, state), helper.make_tensor_value_info("cn", FLOAT, state)],
        g.initializers)
    data = np.random.RandomState(102)
    shapes = [(1, 1), (3, 1), (1, 5), (3, 23), (1, 64), (3, 64)]
    inputs = [{"x": data.standard_normal((batch, seq, LSTM_INPUT)).astype(np.float32),
               "h0": (0.5 * data.standard_normal((1, batch, LSTM_HIDDEN))).astype(np.float32),
               "c0": (0.5 * data.standard_normal((1, batch, LSTM_HIDDEN))).astype(np.float32)} for batch, seq in shapes]
    return make_model(graph, 17), inputs


# ---- 3. loop_scripted --------------------------------------------------------------------------------------

def loop_scripted() -> tuple[onnx.ModelProto, list[dict]]:
    """torch.jit.script of
        def forward(self, x, steps: int, limit: float):   # x: [batch, 4]
            i = 0; acc = zeros_like(x); peak = x
            while i < steps and acc.sum() < limit:         # exported as Loop(M=steps, cond=acc.sum() < limit)
                acc = acc + x * (i + 1); peak = max(peak, acc); i += 1
                sums.append(acc.sum(1))                    # the scan output
            return i, acc, peak, stack(sums)
    """
    body = GraphBuilder("/loop_body")
    i_next = body.op("Add", "i_in", body.constant(np.array(1, np.int64)))
    step_scale = body.op("Cast", i_next, to=FLOAT)
    acc = body.op("Add", "acc_in", body.op("Mul", "x", step_scale))  # x comes from the enclosing scope
    peak = body.op("Max", "peak_in", acc)
    keep_going = body.op("Less", body.op("ReduceSum", acc, keepdims=0), "limit")
    row_sums = body.op("ReduceSum", acc, body.constant(np.array([1], np.int64)), keepdims=0)
    body.nodes += [helper.make_node("Identity", [keep_going], ["cond_out"]),
                   helper.make_node("Identity", [i_next], ["i_out"]),
                   helper.make_node("Identity", [acc], ["acc_out"]),
                   helper.make_node("Identity", [peak], ["peak_out"]),
                   helper.make_node("Identity", [row_sums], ["row_sums_out"])]
    body_graph = helper.make_graph(
        body.nodes, "loop_body",
        [helper.make_tensor_value_info("iteration", INT64, []), helper.make_tensor_value_info("cond_in", BOOL, []),
         helper.make_tensor_value_info("i_in", INT64, []), helper.make_tensor_value_info("acc_in", FLOAT, None),
         helper.make_tensor_value_info("peak_in", FLOAT, None)],
        [helper.make_tensor_value_info("cond_out", BOOL, []), helper.make_tensor_value_info("i_out", INT64, []),
         helper.make_tensor_value_info("acc_out", FLOAT, None), helper.make_tensor_value_info("peak_out", FLOAT, None),
         helper.make_tensor_value_info("row_sums_out", FLOAT, None)])

    g = GraphBuilder()
    zero = g.constant(np.array(0, np.int64))
    acc0 = g.op("ConstantOfShape", g.op("Shape", "x"), value=numpy_helper.from_array(np.array([0], np.float32)))
    # The exporter evaluates the condition once before the loop: i < steps and acc.sum() < limit.
    cond0 = g.op("And", g.op("Less", zero, "steps"), g.op("Less", g.op("ReduceSum", acc0, keepdims=0), "limit"))
    g.nodes.append(helper.make_node("Loop", ["steps", cond0, zero, acc0, "x"], ["count", "acc", "peak", "row_sums"],
                                    name="/Loop", body=body_graph))
    graph = helper.make_graph(
        g.nodes, "loop_scripted",
        [helper.make_tensor_value_info("x", FLOAT, ["batch", 4]), helper.make_tensor_value_info("steps", INT64, []),
         helper.make_tensor_value_info("limit", FLOAT, [])],
        [helper.make_tensor_value_info("count", INT64, []), helper.make_tensor_value_info("acc", FLOAT, ["batch", 4]),
         helper.make_tensor_value_info("peak", FLOAT, ["batch", 4]),
         helper.make_tensor_value_info("row_sums", FLOAT, ["iterations", "batch"])], g.initializers)
    data = np.random.RandomState(103)
    # (batch, steps, limit): stops on the trip count, on the condition, after one step, on the condition again
    cases = [(1, 3, 1e6), (4, 10, 40.0), (2, 1, 1e6), (3, 6, 15.0), (4, 10, 40.0)]
    inputs = [{"x": np.abs(data.standard_normal((batch, 4))).astype(np.float32),
               "steps": np.array(steps, np.int64), "limit": np.array(limit, np.float32)}
              for batch, steps, limit in cases]
    return make_model(graph, 17), inputs


def loop_counted() -> tuple[onnx.ModelProto, list[dict]]:
    """torch.jit.script of a for loop with a data-independent break, so the loop runs at run time:
        def forward(self, x, steps: int, stop_at: int):   # x: [batch, 4]
            acc = zeros_like(x); peak = x; i = 0
            for _ in range(steps):                         # Loop(M=steps, cond=0 < stop_at)
                i += 1; acc = acc * 0.5 + x * i; peak = max(peak, acc)
                if i >= stop_at: break                     # the body's condition output: i < stop_at
            return i, acc, peak
    """
    body = GraphBuilder("/loop_body")
    i_next = body.op("Add", "i_in", body.constant(np.array(1, np.int64)))
    scaled = body.op("Mul", "x", body.op("Cast", i_next, to=FLOAT))
    acc = body.op("Add", body.op("Mul", "acc_in", body.constant(np.array(0.5, np.float32))), scaled)
    body.nodes += [helper.make_node("Less", [i_next, "stop_at"], ["cond_out"]),
                   helper.make_node("Identity", [i_next], ["i_out"]),
                   helper.make_node("Identity", [acc], ["acc_out"]),
                   helper.make_node("Max", ["peak_in", acc], ["peak_out"])]
    body_graph = helper.make_graph(
        body.nodes, "loop_body",
        [helper.make_tensor_value_info("iteration", INT64, []), helper.make_tensor_value_info("cond_in", BOOL, []),
         helper.make_tensor_value_info("i_in", INT64, []), helper.make_tensor_value_info("acc_in", FLOAT, None),
         helper.make_tensor_value_info("peak_in", FLOAT, None)],
        [helper.make_tensor_value_info("cond_out", BOOL, []), helper.make_tensor_value_info("i_out", INT64, []),
         helper.make_tensor_value_info("acc_out", FLOAT, None),
         helper.make_tensor_value_info("peak_out", FLOAT, None)])
    g = GraphBuilder()
    zero = g.constant(np.array(0, np.int64))
    acc0 = g.op("ConstantOfShape", g.op("Shape", "x"), value=numpy_helper.from_array(np.array([0], np.float32)))
    g.nodes.append(helper.make_node("Loop", ["steps", g.op("Less", zero, "stop_at"), zero, acc0, "x"],
                                    ["count", "acc", "peak"], name="/Loop", body=body_graph))
    graph = helper.make_graph(
        g.nodes, "loop_counted",
        [helper.make_tensor_value_info("x", FLOAT, ["batch", 4]), helper.make_tensor_value_info("steps", INT64, []),
         helper.make_tensor_value_info("stop_at", INT64, [])],
        [helper.make_tensor_value_info("count", INT64, []), helper.make_tensor_value_info("acc", FLOAT, ["batch", 4]),
         helper.make_tensor_value_info("peak", FLOAT, ["batch", 4])], g.initializers)
    data = np.random.RandomState(106)
    # (batch, steps, stop_at): runs out of steps, breaks early, runs zero times, same shapes as the first
    cases = [(1, 3, 100), (4, 10, 4), (2, 0, 5), (3, 6, 6), (1, 3, 100)]
    inputs = [{"x": data.standard_normal((batch, 4)).astype(np.float32), "steps": np.array(steps, np.int64),
               "stop_at": np.array(stop_at, np.int64)} for batch, steps, stop_at in cases]
    return make_model(graph, 17), inputs


# ---- 4. if_branch_shapes -----------------------------------------------------------------------------------

def if_branch_shapes() -> tuple[onnx.ModelProto, list[dict]]:
    """torch.jit.script of `y = x[:, :2] if x.sum() > 0 else torch.cat([x, x], 1); return y, y.sum(1)`."""
    then_branch = GraphBuilder("/then")
    head = then_branch.op("Slice", "x", then_branch.constant(np.array([0], np.int64)),
                          then_branch.constant(np.array([2], np.int64)), then_branch.constant(np.array([1], np.int64)))
    then_branch.nodes.append(helper.make_node("Identity", [head], ["then_y"]))
    else_branch = GraphBuilder("/else")
    else_branch.nodes.append(helper.make_node("Concat", ["x", "x"], ["else_y"], axis=1))
    branch_output = lambda name: helper.make_tensor_value_info(name, FLOAT, ["batch", None])  # noqa: E731
    g = GraphBuilder()
    positive = g.op("Greater", g.op("ReduceSum", "x", keepdims=0), g.constant(np.array(0, np.float32)))
    g.nodes.append(helper.make_node(
        "If", [positive], ["y"], name="/If",
        then_branch=helper.make_graph(then_branch.nodes, "then_branch", [], [branch_output("then_y")]),
        else_branch=helper.make_graph(else_branch.nodes, "else_branch", [], [branch_output("else_y")])))
    g.nodes.append(helper.make_node("ReduceSum", ["y", g.constant(np.array([1], np.int64))], ["row_sums"],
                                    name="/ReduceSum", keepdims=0))
    graph = helper.make_graph(
        g.nodes, "if_branch_shapes", [helper.make_tensor_value_info("x", FLOAT, ["batch", 4])],
        [helper.make_tensor_value_info("y", FLOAT, ["batch", "width"]),
         helper.make_tensor_value_info("row_sums", FLOAT, ["batch"])], g.initializers)
    data = np.random.RandomState(104)
    inputs = []
    for batch, sign in [(1, 1.0), (3, -1.0), (5, 1.0), (2, -1.0), (5, -1.0)]:
        inputs.append({"x": (sign * (np.abs(data.standard_normal((batch, 4))) + 0.1)).astype(np.float32)})
    return make_model(graph, 17), inputs


# ---- 5. nonzero_gather -------------------------------------------------------------------------------------

def nonzero_gather() -> tuple[onnx.ModelProto, list[dict]]:
    """`x[x > 0]` as exported: NonZero of the mask, transposed to one index row per element, GatherND."""
    g = GraphBuilder()
    indices = g.op("Transpose", g.op("NonZero", g.op("Greater", "x", g.constant(np.array(0, np.float32)))))
    g.nodes.append(helper.make_node("GatherND", ["x", indices], ["positives"], name="/GatherND"))
    g.nodes.append(helper.make_node("ReduceSum", ["positives"], ["total"], name="/ReduceSum", keepdims=1))
    graph = helper.make_graph(
        g.nodes, "nonzero_gather", [helper.make_tensor_value_info("x", FLOAT, ["batch", 5])],
        [helper.make_tensor_value_info("positives", FLOAT, ["count"]),
         helper.make_tensor_value_info("total", FLOAT, [1])], g.initializers)
    data = np.random.RandomState(105)
    inputs = [{"x": data.standard_normal((batch, 5)).astype(np.float32)} for batch in [1, 4, 9, 2]]
    inputs.append({"x": -np.abs(data.standard_normal((3, 5))).astype(np.float32)})  # nothing selected
    return make_model(graph, 17), inputs


MODELS = {
    "transformer_encoder": transformer_encoder,
    "lstm_dynamic_sequence": lstm_dynamic_sequence,
    "loop_scripted": loop_scripted,
    "loop_counted": loop_counted,
    "if_branch_shapes": if_branch_shapes,
    "nonzero_gather": nonzero_gather,
}


# ---- writing -----------------------------------------------------------------------------------------------

def reference_outputs(model: onnx.ModelProto, feeds: dict) -> list[np.ndarray]:
    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    session = ort.InferenceSession(model.SerializeToString(), options, providers=["CPUExecutionProvider"])
    return session.run(None, feeds)


def write_tensor(path: str, array: np.ndarray, name: str) -> None:
    data = numpy_helper.from_array(array, name).SerializeToString()
    if len(data) > MAX_FILE_BYTES:
        sys.exit(f"make_dynamic_models: {path} would be {len(data)} bytes (limit {MAX_FILE_BYTES}); shrink its shape")
    with open(path, "wb") as f:
        f.write(data)


def write_model(directory: str, name: str) -> None:
    model, data_sets = MODELS[name]()
    case_dir = os.path.join(directory, name)
    shutil.rmtree(case_dir, ignore_errors=True)
    os.makedirs(case_dir)
    model_bytes = model.SerializeToString()
    if len(model_bytes) > MAX_FILE_BYTES:
        sys.exit(f"make_dynamic_models: {name}/model.onnx is {len(model_bytes)} bytes (limit {MAX_FILE_BYTES})")
    with open(os.path.join(case_dir, "model.onnx"), "wb") as f:
        f.write(model_bytes)
    input_names = [value.name for value in model.graph.input]
    output_names = [value.name for value in model.graph.output]
    shapes = []
    for n, feeds in enumerate(data_sets):
        if sorted(feeds) != sorted(input_names):
            sys.exit(f"make_dynamic_models: {name} data set {n} feeds {sorted(feeds)}, the graph has {input_names}")
        outputs = reference_outputs(model, feeds)
        set_dir = os.path.join(case_dir, f"test_data_set_{n}")
        os.makedirs(set_dir)
        for k, input_name in enumerate(input_names):
            write_tensor(os.path.join(set_dir, f"input_{k}.pb"), feeds[input_name], input_name)
        for k, (output_name, value) in enumerate(zip(output_names, outputs)):
            write_tensor(os.path.join(set_dir, f"output_{k}.pb"), np.asarray(value), output_name)
        shapes.append(" ".join(f"{key}{list(np.shape(value))}" for key, value in feeds.items()))
    print(f"{name}: {len(data_sets)} data sets ({'; '.join(shapes)})")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("-o", "--output", required=True, help="directory to write <name>/ into")
    parser.add_argument("--only", default="", help="comma-separated model names (default: all)")
    args = parser.parse_args()
    names = [n for n in args.only.split(",") if n] or list(MODELS)
    unknown = [n for n in names if n not in MODELS]
    if unknown:
        sys.exit(f"make_dynamic_models: unknown model(s) {unknown}; known: {list(MODELS)}")
    os.makedirs(args.output, exist_ok=True)
    for name in names:
        write_model(args.output, name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
