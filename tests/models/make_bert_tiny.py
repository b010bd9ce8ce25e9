# SPDX-License-Identifier: MIT
"""Writes a BERT-tiny-shaped encoder with random weights as an ONNX backend test case, DIR/bert_tiny/.

The graph is built with onnx.helper (no torch, no transformers) and follows what ``torch.onnx.export`` of
HuggingFace's BertModel ``prajjwal1/bert-tiny`` (eager attention, eval mode, fixed input shapes, constant
folding on) produces at opset 17. The weights are random (numpy default_rng, fixed seed); no third-party
weights are copied. Sizes are bert-tiny's except the two tables that only set the file size:

    hidden 128, 2 layers, 2 attention heads (head size 64), intermediate 512, LayerNorm epsilon 1e-12,
    vocabulary 512 (bert-tiny: 30522), max positions 64 (bert-tiny: 512), 2 token types

Graph (values named like the exporter's: node "/encoder/layer.0/attention/self/MatMul", output
"<node>_output_0"; parameters "encoder.layer.0.attention.self.query.bias"):
  embeddings   Gather(word_embeddings, input_ids) + Gather(token_type_embeddings, zeros [1, 16])
               + Gather(position_embeddings, position_ids [1, 16] = 0..15), LayerNormalization
  mask         attention_mask [1, 16] -> Unsqueeze(1) -> Unsqueeze(2) -> Cast(float) -> Sub(1.0, .) -> Mul(-10000)
               (transformers' get_extended_attention_mask; -10000 rather than finfo.min keeps it free of inf)
  layer x 2    nn.Linear as MatMul(x, W^T) then Add(bias, .); Q, K, V -> Reshape [1, 16, 2, 64] -> Transpose
               ([0, 2, 1, 3]; K [0, 2, 3, 1], the exporter's fusion of permute + transpose(-1, -2)), MatMul,
               Div 8.0, Add mask, Softmax(-1), MatMul V, Transpose back, Reshape [1, 16, 128], output dense,
               residual Add, LayerNormalization; FFN dense 128 -> 512, the exporter's exact GELU at opset < 20
               (Div sqrt(2), Erf, Add 1, Mul x, Mul 0.5), dense 512 -> 128, residual Add, LayerNormalization
  pooler       Gather(axis 1, index 0) (hidden_states[:, 0]) -> Gemm(transB=1) -> Tanh
Outputs last_hidden_state [1, 16, 128] and pooler_output [1, 128]. Constants (shapes, axes, scalars, the folded
position_ids / token_type_ids buffers) are int64 / float initializers rather than Constant nodes, so every node
on the float path is one a device backend runs; the only non-float work is the mask's Unsqueeze/Cast.

Initialization: embeddings N(0, 0.02) (BERT's initializer_range); dense weights N(0, 1/fan_in), so projections
keep unit variance and the attention softmax is visibly non-uniform (with 0.02 everywhere the scores are ~0.05
apart and Softmax/mask bugs hide); biases N(0, 0.02); LayerNorm weight 1 + N(0, 0.1), bias N(0, 0.1).

Layout (an onnxmicro_conformance case):
    <out>/bert_tiny/model.onnx
    <out>/bert_tiny/test_data_set_0/input_0.pb    input_ids [1, 16] int64, uniform in [0, vocabulary)
    <out>/bert_tiny/test_data_set_0/input_1.pb    attention_mask [1, 16] int64, ones, last 3 positions 0
    <out>/bert_tiny/test_data_set_0/output_0.pb   last_hidden_state, from onnxruntime (CPU EP, no graph
    <out>/bert_tiny/test_data_set_0/output_1.pb   pooler_output       optimisations, one thread)

Deterministic: fixed seeds and stable serialisation, so every run writes the same bytes.
Usage: <repo>/.venv/bin/python tests/models/make_bert_tiny.py -o DIR
"""
from __future__ import annotations

import argparse
import os
import shutil
import sys

try:
    import numpy as np
    import onnx
    from onnx import TensorProto, helper
except ImportError as error:  # pragma: no cover - a setup problem, say how to fix it
    sys.exit(f"make_bert_tiny: {error}; run with the repo venv: \"$(tools/setup_python.sh)\" {sys.argv[0]} ...")

# The initializer helpers of bench/'s CNN builder and the reference run and tensor writer of the QOperator models.
_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(_HERE, "..", "..", "bench"))
sys.path.insert(0, _HERE)
from make_bench_models import GraphBuilder as BenchGraphBuilder  # noqa: E402
from make_qoperator_op_models import reference_outputs, write_tensor  # noqa: E402

NAME = "bert_tiny"
OPSET = 17
IR_VERSION = 8  # what torch.onnx.export writes for opset 17
PRODUCER = "onnxmicro tests/models/make_bert_tiny.py"
FLOAT = TensorProto.FLOAT
WEIGHT_SEED = 20240917
INPUT_SEED = 17
MAX_MODEL_BYTES = 2 * 1024 * 1024  # keeps the generated case small

VOCAB, MAX_POSITIONS, TYPE_VOCAB = 512, 64, 2
HIDDEN, LAYERS, HEADS, INTERMEDIATE = 128, 2, 2, 512
HEAD_DIM = HIDDEN // HEADS
SEQUENCE = 16
PADDED = 3  # attention_mask is 0 on the last PADDED positions
LAYER_NORM_EPSILON = 1e-12
MASK_VALUE = -10000.0
EMBEDDING_STD = 0.02  # BERT's initializer_range
BIAS_STD = 0.02


def scope_of(module: str) -> str:
    """"encoder.layer.0.attention.self" -> "/encoder/layer.0/attention/self", the exporter's node scope."""
    parts: list[str] = []
    for part in module.split(".") if module else []:
        if part.isdigit() and parts:
            parts[-1] += "." + part
        else:
            parts.append(part)
    return "/" + "/".join(parts) if parts else ""


class GraphBuilder(BenchGraphBuilder):
    """Collects nodes and initializers; names nodes <scope>/<Op>[_k] and their outputs <node>_output_0."""

    def __init__(self, seed: int):
        super().__init__(seed)
        self._node_names: set[str] = set()

    # ---- plumbing ---------------------------------------------------------------------------------------------

    def op(self, op_type: str, inputs: list[str], scope: str, output: str = "", **attributes) -> str:
        """Adds one node with one output (named `output` if given); returns the output's name."""
        base = f"{scope}/{op_type}"
        name, k = base, 0
        while name in self._node_names:  # the exporter's Add, Add_1, Add_2 within one scope
            k += 1
            name = f"{base}_{k}"
        self._node_names.add(name)
        output = output or f"{name}_output_0"
        self.nodes.append(helper.make_node(op_type, inputs, [output], name=name, **attributes))
        return output

    def normal(self, shape: tuple[int, ...], std: float) -> np.ndarray:
        return std * self.rng.standard_normal(shape)

    # ---- layers -----------------------------------------------------------------------------------------------

    def linear(self, x: str, module: str, fan_in: int, fan_out: int) -> str:
        """nn.Linear on a 3-D input: MatMul with the transposed weight [in, out], then Add(bias, product)."""
        w = self.parameter(f"{module}.weight_t", self.normal((fan_in, fan_out), 1.0 / np.sqrt(fan_in)))
        b = self.parameter(f"{module}.bias", self.normal((fan_out,), BIAS_STD))
        scope = scope_of(module)
        return self.op("Add", [b, self.op("MatMul", [x, w], scope)], scope)

    def gemm(self, x: str, module: str, fan_in: int, fan_out: int) -> str:
        """nn.Linear on a 2-D input: Gemm with the weight [out, in] and transB=1."""
        w = self.parameter(f"{module}.weight", self.normal((fan_out, fan_in), 1.0 / np.sqrt(fan_in)))
        b = self.parameter(f"{module}.bias", self.normal((fan_out,), BIAS_STD))
        return self.op("Gemm", [x, w, b], scope_of(module), alpha=1.0, beta=1.0, transB=1)

    def layer_norm(self, x: str, module: str, output: str = "") -> str:
        weight = self.parameter(f"{module}.weight", 1.0 + self.normal((HIDDEN,), 0.1))
        bias = self.parameter(f"{module}.bias", self.normal((HIDDEN,), 0.1))
        return self.op("LayerNormalization", [x, weight, bias], scope_of(module), output,
                       axis=-1, epsilon=LAYER_NORM_EPSILON)

    def gelu(self, x: str, module: str) -> str:
        """torch.nn.functional.gelu(approximate='none') below opset 20: x * (1 + erf(x / sqrt(2))) * 0.5."""
        scope = scope_of(module)
        sqrt2 = self.constant("gelu.sqrt2", np.array(np.sqrt(2.0), np.float32))
        one = self.constant("gelu.one", np.array(1.0, np.float32))
        half = self.constant("gelu.half", np.array(0.5, np.float32))
        erf = self.op("Erf", [self.op("Div", [x, sqrt2], scope)], scope)
        return self.op("Mul", [self.op("Mul", [x, self.op("Add", [erf, one], scope)], scope), half], scope)


# ---- BertModel --------------------------------------------------------------------------------------------------

def embeddings(g: GraphBuilder) -> str:
    word = g.parameter("embeddings.word_embeddings.weight", g.normal((VOCAB, HIDDEN), EMBEDDING_STD))
    position = g.parameter("embeddings.position_embeddings.weight", g.normal((MAX_POSITIONS, HIDDEN), EMBEDDING_STD))
    token_type = g.parameter("embeddings.token_type_embeddings.weight", g.normal((TYPE_VOCAB, HIDDEN), EMBEDDING_STD))
    # The position_ids buffer sliced to the sequence, and the default all-zero token_type_ids, both folded.
    position_ids = g.constant("embeddings.position_ids", np.arange(SEQUENCE, dtype=np.int64).reshape(1, SEQUENCE))
    token_type_ids = g.constant("embeddings.token_type_ids", np.zeros((1, SEQUENCE), np.int64))
    x = g.op("Gather", [word, "input_ids"], "/embeddings/word_embeddings")
    x = g.op("Add", [x, g.op("Gather", [token_type, token_type_ids], "/embeddings/token_type_embeddings")],
             "/embeddings")
    x = g.op("Add", [x, g.op("Gather", [position, position_ids], "/embeddings/position_embeddings")],
             "/embeddings")
    return g.layer_norm(x, "embeddings.LayerNorm")


def extended_attention_mask(g: GraphBuilder) -> str:
    """(1.0 - attention_mask[:, None, None, :].to(float32)) * -10000.0, shape [1, 1, 1, 16]."""
    mask = g.op("Unsqueeze", ["attention_mask", g.constant("axes_1", np.array([1], np.int64))], "")
    mask = g.op("Unsqueeze", [mask, g.constant("axes_2", np.array([2], np.int64))], "")
    mask = g.op("Cast", [mask], "", to=FLOAT)
    mask = g.op("Sub", [g.constant("mask.one", np.array(1.0, np.float32)), mask], "")
    return g.op("Mul", [mask, g.constant("mask.value", np.array(MASK_VALUE, np.float32))], "")


def self_attention(g: GraphBuilder, x: str, mask: str, module: str) -> str:
    scope = scope_of(module)
    heads_shape = g.constant("shape.heads", np.array([1, SEQUENCE, HEADS, HEAD_DIM], np.int64))

    def split_heads(projection: str, perm: list[int]) -> str:  # transpose_for_scores
        return g.op("Transpose", [g.op("Reshape", [projection, heads_shape], scope, allowzero=0)], scope, perm=perm)

    # The exporter's order: query's dense first, then key and value split, then query split.
    query = g.linear(x, f"{module}.query", HIDDEN, HIDDEN)
    key = split_heads(g.linear(x, f"{module}.key", HIDDEN, HIDDEN), [0, 2, 3, 1])      # [1, heads, 64, 16]
    value = split_heads(g.linear(x, f"{module}.value", HIDDEN, HIDDEN), [0, 2, 1, 3])  # [1, heads, 16, 64]
    query = split_heads(query, [0, 2, 1, 3])                                             # [1, heads, 16, 64]
    scores = g.op("MatMul", [query, key], scope)
    scores = g.op("Div", [scores, g.constant("attention.scale", np.array(np.sqrt(HEAD_DIM), np.float32))], scope)
    probabilities = g.op("Softmax", [g.op("Add", [scores, mask], scope)], scope, axis=-1)
    context = g.op("Transpose", [g.op("MatMul", [probabilities, value], scope)], scope, perm=[0, 2, 1, 3])
    hidden_shape = g.constant("shape.hidden", np.array([1, SEQUENCE, HIDDEN], np.int64))
    return g.op("Reshape", [context, hidden_shape], scope, allowzero=0)


def encoder_layer(g: GraphBuilder, x: str, mask: str, module: str, output: str = "") -> str:
    context = self_attention(g, x, mask, f"{module}.attention.self")
    attention_output = f"{module}.attention.output"
    y = g.op("Add", [g.linear(context, f"{attention_output}.dense", HIDDEN, HIDDEN), x], scope_of(attention_output))
    x = g.layer_norm(y, f"{attention_output}.LayerNorm")
    hidden = g.linear(x, f"{module}.intermediate.dense", HIDDEN, INTERMEDIATE)
    hidden = g.gelu(hidden, f"{module}.intermediate.intermediate_act_fn")
    y = g.op("Add", [g.linear(hidden, f"{module}.output.dense", INTERMEDIATE, HIDDEN), x], scope_of(f"{module}.output"))
    return g.layer_norm(y, f"{module}.output.LayerNorm", output)


def pooler(g: GraphBuilder, x: str) -> str:
    first_token = g.op("Gather", [x, g.constant("pooler.index", np.array(0, np.int64))], "/pooler", axis=1)
    return g.op("Tanh", [g.gemm(first_token, "pooler.dense", HIDDEN, HIDDEN)], "/pooler/activation",
                "pooler_output")


def build_model() -> tuple[onnx.ModelProto, int]:
    """The model and its learnable parameter count; checked (full_check) and shape-inferred."""
    g = GraphBuilder(WEIGHT_SEED)
    mask = extended_attention_mask(g)
    x = embeddings(g)
    for layer in range(LAYERS):
        x = encoder_layer(g, x, mask, f"encoder.layer.{layer}", "last_hidden_state" if layer == LAYERS - 1 else "")
    pooler(g, x)
    graph = helper.make_graph(
        g.nodes, "main_graph",
        [helper.make_tensor_value_info("input_ids", TensorProto.INT64, [1, SEQUENCE]),
         helper.make_tensor_value_info("attention_mask", TensorProto.INT64, [1, SEQUENCE])],
        [helper.make_tensor_value_info("last_hidden_state", FLOAT, [1, SEQUENCE, HIDDEN]),
         helper.make_tensor_value_info("pooler_output", FLOAT, [1, HIDDEN])],
        g.initializers)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)], producer_name=PRODUCER,
                              producer_version="1", doc_string="BERT-tiny-shaped encoder (graph of "
                              "torch.onnx.export, opset 17), random weights")
    model.ir_version = IR_VERSION
    check_model(model)
    return model, g.parameter_count


def check_model(model: onnx.ModelProto) -> None:
    onnx.checker.check_model(model, full_check=True)
    inferred = onnx.shape_inference.infer_shapes(model, check_type=True, strict_mode=True, data_prop=True)
    expected = {"last_hidden_state": [1, SEQUENCE, HIDDEN], "pooler_output": [1, HIDDEN]}
    for value in inferred.graph.output:
        dims = [d.dim_value for d in value.type.tensor_type.shape.dim]
        if dims != expected[value.name]:
            raise RuntimeError(f"{NAME}: inferred {value.name} shape {dims}, expected {expected[value.name]}")


# ---- writing ----------------------------------------------------------------------------------------------------

def make_inputs() -> dict[str, np.ndarray]:
    rng = np.random.default_rng(INPUT_SEED)
    input_ids = rng.integers(0, VOCAB, (1, SEQUENCE), dtype=np.int64)
    attention_mask = np.ones((1, SEQUENCE), np.int64)
    attention_mask[:, SEQUENCE - PADDED:] = 0
    return {"input_ids": input_ids, "attention_mask": attention_mask}




def write_case(out_dir: str) -> None:
    model, parameters = build_model()
    model_bytes = model.SerializeToString()
    if len(model_bytes) > MAX_MODEL_BYTES:
        sys.exit(f"make_bert_tiny: model.onnx would be {len(model_bytes)} bytes (limit {MAX_MODEL_BYTES})")
    feeds = make_inputs()
    outputs = reference_outputs(model, feeds)
    for value, output in zip(model.graph.output, outputs):
        if not np.all(np.isfinite(output)):
            sys.exit(f"make_bert_tiny: onnxruntime's {value.name} is not finite")
    case_dir = os.path.join(out_dir, NAME)
    set_dir = os.path.join(case_dir, "test_data_set_0")
    shutil.rmtree(case_dir, ignore_errors=True)
    os.makedirs(set_dir)
    with open(os.path.join(case_dir, "model.onnx"), "wb") as f:
        f.write(model_bytes)
    for k, value in enumerate(model.graph.input):
        write_tensor(os.path.join(set_dir, f"input_{k}.pb"), feeds[value.name], value.name)
    for k, (value, output) in enumerate(zip(model.graph.output, outputs)):
        write_tensor(os.path.join(set_dir, f"output_{k}.pb"), np.asarray(output), value.name)
    summary = ", ".join(f"{v.name} std {float(np.std(o)):.3g}" for v, o in zip(model.graph.output, outputs))
    print(f"{NAME}: {parameters:,} parameters, {len(model.graph.node)} nodes, {len(model_bytes):,} bytes, "
          f"{summary} -> {case_dir}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("-o", "--output", required=True, help=f"directory to write {NAME}/ into")
    args = parser.parse_args()
    os.makedirs(args.output, exist_ok=True)
    write_case(args.output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
