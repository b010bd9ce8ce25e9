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

--dynamic writes the same encoder (the same weights) as torch.onnx.export with dynamic_axes exports it instead:
inputs input_ids / attention_mask [batch, sequence], outputs last_hidden_state [batch, sequence, 128] and
pooler_output [batch, 128]. Nothing shape-dependent is folded any more, so the graph gains the exporter's
shape arithmetic (all int64, every constant still an initializer):
  token types  BertModel.forward: Shape(input_ids) -> Gather 0 / 1 (batch, sequence); the token_type_ids buffer
               [1, 64] Sliced to [:, :sequence], then expand(batch, sequence) as the exporter's expand symbolic
               writes it: Unsqueeze + Concat + Reshape [-1] -> size; Where(Equal(size, Mul(ConstantOfShape(
               Shape(size), 1), -1)), ones, size) -> Expand
  positions    BertEmbeddings: Shape(input_ids) -> Gather 1 -> Add 0 (past_key_values_length) -> Unsqueeze; the
               position_ids buffer [1, 64] Sliced to [:, 0:sequence]; its Gather broadcasts over the batch
  reshapes     x.size()[:-1] + (2, 64) and x.size()[:-2] + (128,): Shape -> Gather 0, Shape -> Gather 1 of the
               tensor being reshaped, Unsqueeze each, Concat with the constant tail, Reshape
The mask path and everything else is as above. Cases from the one model.onnx (DYNAMIC_CASES):
    <out>/bert_tiny_1x8/     batch 1, sequence 8, attention_mask all ones
    <out>/bert_tiny_3x21/    batch 3, sequence 21, attention_mask 0 on the last 0, 5 and 12 positions of the rows
each with test_data_set_0/input_0.pb, input_1.pb, output_0.pb, output_1.pb as above (bench/make_bench_models.py
writes them too, beside its CNNs).

Deterministic: fixed seeds and stable serialisation, so every run writes the same bytes.
Usage: <repo>/.venv/bin/python tests/models/make_bert_tiny.py -o DIR [--dynamic]
"""
from __future__ import annotations

import argparse
import functools
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
# --dynamic: case name -> (batch, sequence, attention_mask zeros at the end of each row)
DYNAMIC_CASES = {
    "bert_tiny_1x8": (1, 8, (0,)),
    "bert_tiny_3x21": (3, 21, (0, 5, 12)),
}
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

    def __init__(self, seed: int, dynamic: bool = False):
        super().__init__(seed)
        self._node_names: set[str] = set()
        self.dynamic = dynamic  # batch and sequence as graph dimensions, not folded into constants

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

    # ---- shape arithmetic (dynamic only) ----------------------------------------------------------------------

    def dimensions(self, x: str, axes: list[int], scope: str) -> list[str]:
        """x.size(a) for each axis a as the tracer records it: Shape -> Gather(scalar a), once per dimension."""
        return [self.op("Gather", [self.op("Shape", [x], scope), self.constant(f"index_{a}", np.array(a, np.int64))],
                        scope, axis=0) for a in axes]

    def unsqueeze(self, scalar: str, scope: str) -> str:
        """A traced int as a 1-element tensor (a Slice bound, a list element of a shape)."""
        return self.op("Unsqueeze", [scalar, self.constant("axes_0", np.array([0], np.int64))], scope)

    def size_with(self, x: str, keep: int, tail: tuple[int, ...], scope: str) -> str:
        """x.size()[:keep] + tail as a view() target: the kept dimensions Unsqueezed, Concat with constant [n]s."""
        dims = [self.unsqueeze(d, scope) for d in self.dimensions(x, list(range(keep)), scope)]
        tail_dims = [self.constant(f"dim_{n}", np.array([n], np.int64)) for n in tail]
        return self.op("Concat", dims + tail_dims, scope, axis=0)

    def slice_to(self, buffer: str, end: str, scope: str) -> str:
        """buffer[:, 0:end] for a traced int end: Slice(starts [0], ends Unsqueeze(end), axes [1], steps [1])."""
        return self.op("Slice", [buffer, self.constant("slice.starts", np.array([0], np.int64)),
                                 self.unsqueeze(end, scope), self.constant("slice.axes", np.array([1], np.int64)),
                                 self.constant("slice.steps", np.array([1], np.int64))], scope)

    def expand(self, x: str, scalars: list[str], scope: str) -> str:
        """x.expand(*scalars) as the exporter's expand symbolic writes it (a -1 in the size keeps that dimension):
        size = Reshape(Concat(Unsqueeze...), [-1]); Where(Equal(size, Mul(ones, -1)), ones, size); Expand."""
        size = self.op("Concat", [self.unsqueeze(d, scope) for d in scalars], scope, axis=0)
        size = self.op("Reshape", [size, self.constant("shape.flat", np.array([-1], np.int64))], scope, allowzero=0)
        ones = self.op("ConstantOfShape", [self.op("Shape", [size], scope)], scope,
                       value=helper.make_tensor("value", TensorProto.INT64, [1], [1]))
        minus_ones = self.op("Mul", [ones, self.constant("expand.minus_one", np.array(-1, np.int64))], scope)
        size = self.op("Where", [self.op("Equal", [size, minus_ones], scope), ones, size], scope)
        return self.op("Expand", [x, size], scope)

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

def default_token_type_ids(g: GraphBuilder) -> str:
    """Dynamic only: BertModel.forward's token_type_ids[:, :sequence].expand(batch, sequence), [batch, sequence]."""
    batch, sequence = g.dimensions("input_ids", [0, 1], "")
    buffer = g.constant("embeddings.token_type_ids", np.zeros((1, MAX_POSITIONS), np.int64))
    return g.expand(g.slice_to(buffer, sequence, ""), [batch, sequence], "")


def embeddings(g: GraphBuilder, token_type_ids: str = "") -> str:
    """The three embeddings' sum and LayerNorm; token_type_ids: default_token_type_ids' output when dynamic."""
    word = g.parameter("embeddings.word_embeddings.weight", g.normal((VOCAB, HIDDEN), EMBEDDING_STD))
    position = g.parameter("embeddings.position_embeddings.weight", g.normal((MAX_POSITIONS, HIDDEN), EMBEDDING_STD))
    token_type = g.parameter("embeddings.token_type_embeddings.weight", g.normal((TYPE_VOCAB, HIDDEN), EMBEDDING_STD))
    if g.dynamic:  # position_ids[:, past_key_values_length:sequence + past_key_values_length], past 0; [1, sequence]
        (sequence,) = g.dimensions("input_ids", [1], "/embeddings")
        end = g.op("Add", [sequence, g.constant("embeddings.past_length", np.array(0, np.int64))], "/embeddings")
        buffer = g.constant("embeddings.position_ids", np.arange(MAX_POSITIONS, dtype=np.int64).reshape(1, -1))
        position_ids = g.slice_to(buffer, end, "/embeddings")
    else:  # The position_ids buffer sliced to the sequence, and the default all-zero token_type_ids, both folded.
        position_ids = g.constant("embeddings.position_ids", np.arange(SEQUENCE, dtype=np.int64).reshape(1, SEQUENCE))
        token_type_ids = g.constant("embeddings.token_type_ids", np.zeros((1, SEQUENCE), np.int64))
    x = g.op("Gather", [word, "input_ids"], "/embeddings/word_embeddings")
    x = g.op("Add", [x, g.op("Gather", [token_type, token_type_ids], "/embeddings/token_type_embeddings")],
             "/embeddings")
    x = g.op("Add", [x, g.op("Gather", [position, position_ids], "/embeddings/position_embeddings")],
             "/embeddings")
    return g.layer_norm(x, "embeddings.LayerNorm")


def extended_attention_mask(g: GraphBuilder) -> str:
    """(1.0 - attention_mask[:, None, None, :].to(float32)) * -10000.0, shape [1, 1, 1, 16] ([batch, 1, 1, seq])."""
    mask = g.op("Unsqueeze", ["attention_mask", g.constant("axes_1", np.array([1], np.int64))], "")
    mask = g.op("Unsqueeze", [mask, g.constant("axes_2", np.array([2], np.int64))], "")
    mask = g.op("Cast", [mask], "", to=FLOAT)
    mask = g.op("Sub", [g.constant("mask.one", np.array(1.0, np.float32)), mask], "")
    return g.op("Mul", [mask, g.constant("mask.value", np.array(MASK_VALUE, np.float32))], "")


def self_attention(g: GraphBuilder, x: str, mask: str, module: str) -> str:
    scope = scope_of(module)
    fixed_heads_shape = "" if g.dynamic else g.constant("shape.heads", np.array([1, SEQUENCE, HEADS, HEAD_DIM],
                                                                                np.int64))

    def split_heads(projection: str, perm: list[int]) -> str:  # transpose_for_scores
        # dynamic: x.size()[:-1] + (heads, head_size)
        heads_shape = g.size_with(projection, 2, (HEADS, HEAD_DIM), scope) if g.dynamic else fixed_heads_shape
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
    if g.dynamic:  # context.size()[:-2] + (all_head_size,)
        hidden_shape = g.size_with(context, 2, (HIDDEN,), scope)
    else:
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


@functools.lru_cache(maxsize=None)
def build_model(dynamic: bool = False) -> tuple[onnx.ModelProto, int]:
    """The model and its learnable parameter count; checked (full_check) and shape-inferred.

    dynamic: input dimensions "batch" and "sequence" (torch.onnx.export's dynamic_axes), the same weights."""
    g = GraphBuilder(WEIGHT_SEED, dynamic)
    token_type_ids = default_token_type_ids(g) if dynamic else ""
    mask = extended_attention_mask(g)
    x = embeddings(g, token_type_ids)
    for layer in range(LAYERS):
        x = encoder_layer(g, x, mask, f"encoder.layer.{layer}", "last_hidden_state" if layer == LAYERS - 1 else "")
    pooler(g, x)
    batch, sequence = ("batch", "sequence") if dynamic else (1, SEQUENCE)
    graph = helper.make_graph(
        g.nodes, "main_graph",
        [helper.make_tensor_value_info("input_ids", TensorProto.INT64, [batch, sequence]),
         helper.make_tensor_value_info("attention_mask", TensorProto.INT64, [batch, sequence])],
        [helper.make_tensor_value_info("last_hidden_state", FLOAT, [batch, sequence, HIDDEN]),
         helper.make_tensor_value_info("pooler_output", FLOAT, [batch, HIDDEN])],
        g.initializers)
    doc = "BERT-tiny-shaped encoder (graph of torch.onnx.export, opset 17), random weights"
    if dynamic:
        doc = doc.replace("opset 17", "opset 17, dynamic_axes batch and sequence")
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)], producer_name=PRODUCER,
                              producer_version="1", doc_string=doc)
    model.ir_version = IR_VERSION
    check_model(model, batch, sequence)
    return model, g.parameter_count


def check_model(model: onnx.ModelProto, batch: int | str = 1, sequence: int | str = SEQUENCE) -> None:
    """full_check, then strict shape inference with data propagation must give the outputs' declared shapes
    (a dim_param stands for itself: the dynamic model's shape arithmetic must carry batch and sequence through)."""
    onnx.checker.check_model(model, full_check=True)
    inferred = onnx.shape_inference.infer_shapes(model, check_type=True, strict_mode=True, data_prop=True)
    expected = {"last_hidden_state": [batch, sequence, HIDDEN], "pooler_output": [batch, HIDDEN]}
    for value in inferred.graph.output:
        dims = [d.dim_param or d.dim_value for d in value.type.tensor_type.shape.dim]
        if dims != expected[value.name]:
            raise RuntimeError(f"{NAME}: inferred {value.name} shape {dims}, expected {expected[value.name]}")


# ---- writing ----------------------------------------------------------------------------------------------------

def make_inputs(batch: int = 1, sequence: int = SEQUENCE, padded: tuple[int, ...] = (PADDED,)) -> dict[str, np.ndarray]:
    """input_ids uniform in [0, vocabulary); attention_mask 1 but for the last padded[row] positions of each row."""
    rng = np.random.default_rng(INPUT_SEED)
    input_ids = rng.integers(0, VOCAB, (batch, sequence), dtype=np.int64)
    attention_mask = np.ones((batch, sequence), np.int64)
    for row, zeros in enumerate(padded):
        attention_mask[row, sequence - zeros:] = 0
    return {"input_ids": input_ids, "attention_mask": attention_mask}


def write_case(out_dir: str, name: str = NAME) -> None:
    """Writes <out_dir>/<name>/: bert_tiny (the fixed [1, 16] model) or one of DYNAMIC_CASES."""
    dynamic = name in DYNAMIC_CASES
    model, parameters = build_model(dynamic)
    model_bytes = model.SerializeToString()
    if len(model_bytes) > MAX_MODEL_BYTES:
        sys.exit(f"make_bert_tiny: model.onnx would be {len(model_bytes)} bytes (limit {MAX_MODEL_BYTES})")
    feeds = make_inputs(*DYNAMIC_CASES[name]) if dynamic else make_inputs()
    outputs = reference_outputs(model, feeds)
    for value, output in zip(model.graph.output, outputs):
        if not np.all(np.isfinite(output)):
            sys.exit(f"make_bert_tiny: onnxruntime's {value.name} is not finite")
    case_dir = os.path.join(out_dir, name)
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
    shapes = " x ".join(str(list(a.shape)) for a in feeds.values())
    print(f"{name}: {parameters:,} parameters, {len(model.graph.node)} nodes, {len(model_bytes):,} bytes, "
          + (f"inputs {shapes}, " if dynamic else "") + f"{summary} -> {case_dir}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("-o", "--output", required=True, help=f"directory to write {NAME}/ into")
    parser.add_argument("--dynamic", action="store_true",
                        help=f"write {', '.join(DYNAMIC_CASES)} (dynamic batch and sequence) instead of {NAME}")
    args = parser.parse_args()
    os.makedirs(args.output, exist_ok=True)
    for name in DYNAMIC_CASES if args.dynamic else [NAME]:
        write_case(args.output, name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
