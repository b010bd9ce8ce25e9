#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes the fuzzers' seed corpora: small valid models made with onnx.helper (a CNN, an MLP, If/Loop/Scan, a
node with an attribute of every type, QDQ, shape ops, string/sequence/optional inputs) plus the repo's committed models (tests/models/*/model.onnx).

  make_seeds.py -o <dir>    # writes <dir>/models/*.onnx (fuzz_wire, fuzz_load_prepare)
                            # and <dir>/mutate/*.bin (fuzz_mutate_run: a 64-byte control header + a model)

Deterministic: the same onnx version writes the same bytes."""
import argparse
import pathlib
import random
import shutil
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

REPO = pathlib.Path(__file__).resolve().parents[2]
MUTATE_HEADER_BYTES = 64  # must match kControlBytes in fuzz_mutate_run.cpp
rng = np.random.default_rng(7)


def weights(name, shape, dtype=np.float32):
    if dtype == np.float32:
        return numpy_helper.from_array(rng.standard_normal(shape).astype(np.float32), name)
    return numpy_helper.from_array(rng.integers(-5, 5, size=shape).astype(dtype), name)


def ints(name, values):
    return numpy_helper.from_array(np.array(values, dtype=np.int64), name)


def model(nodes, inputs, outputs, initializers=(), opset=13, name="g"):
    graph = helper.make_graph(nodes, name, inputs, outputs, list(initializers))
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)], producer_name="make_seeds")
    m.ir_version = 8
    return m


def f32(name, shape):
    return helper.make_tensor_value_info(name, TensorProto.FLOAT, shape)


def cnn():
    nodes = [
        helper.make_node("Conv", ["x", "w", "b"], ["c"], kernel_shape=[3, 3], pads=[1, 1, 1, 1], strides=[1, 1],
                         dilations=[1, 1], group=1),
        helper.make_node("BatchNormalization", ["c", "s", "bb", "m", "v"], ["n"], epsilon=1e-5),
        helper.make_node("Relu", ["n"], ["r"]),
        helper.make_node("MaxPool", ["r"], ["p"], kernel_shape=[2, 2], strides=[2, 2]),
        helper.make_node("AveragePool", ["p"], ["ap"], kernel_shape=[1, 1]),
        helper.make_node("Flatten", ["ap"], ["f"], axis=1),
        helper.make_node("Gemm", ["f", "gw", "gb"], ["gm"], transB=1, alpha=1.0, beta=1.0),
        helper.make_node("Softmax", ["gm"], ["y"], axis=1),
    ]
    inits = [weights("w", [4, 2, 3, 3]), weights("b", [4]), weights("s", [4]), weights("bb", [4]), weights("m", [4]),
             numpy_helper.from_array(np.ones(4, np.float32), "v"), weights("gw", [3, 16]), weights("gb", [3])]
    return model(nodes, [f32("x", ["N", 2, 4, 4])], [f32("y", ["N", 3])], inits)


def mlp():
    nodes = [
        helper.make_node("MatMul", ["x", "w1"], ["h"]),
        helper.make_node("Add", ["h", "b1"], ["ha"]),
        helper.make_node("Sigmoid", ["ha"], ["hs"]),
        helper.make_node("Tanh", ["hs"], ["ht"]),
        helper.make_node("Reshape", ["ht", "shape"], ["hr"]),
        helper.make_node("Transpose", ["hr"], ["tr"], perm=[1, 0]),
        helper.make_node("Concat", ["tr", "tr"], ["cc"], axis=0),
        helper.make_node("Slice", ["cc", "starts", "ends", "axes"], ["sl"]),
        helper.make_node("Gather", ["sl", "idx"], ["y"], axis=0),
    ]
    inits = [weights("w1", [4, 6]), weights("b1", [6]), ints("shape", [-1, 2]), ints("starts", [1]), ints("ends", [5]),
             ints("axes", [0]), ints("idx", [0, 2])]
    return model(nodes, [f32("x", [3, 4])], [f32("y", None)], inits)


def control_flow():
    then_graph = helper.make_graph([helper.make_node("Add", ["x", "one"], ["t"])], "then", [], [f32("t", [2])])
    else_graph = helper.make_graph([helper.make_node("Mul", ["x", "two"], ["e"])], "else", [], [f32("e", [2])])
    body = helper.make_graph(
        [helper.make_node("Identity", ["cond_in"], ["cond_out"]),
         helper.make_node("Add", ["acc_in", "one"], ["acc_out"]),
         helper.make_node("Mul", ["acc_out", "two"], ["unused"])],
        "body",
        [helper.make_tensor_value_info("i", TensorProto.INT64, []),
         helper.make_tensor_value_info("cond_in", TensorProto.BOOL, []), f32("acc_in", [2])],
        [helper.make_tensor_value_info("cond_out", TensorProto.BOOL, []), f32("acc_out", [2])])
    scan_body = helper.make_graph([helper.make_node("Add", ["s_in", "row"], ["s_out"]),
                                   helper.make_node("Identity", ["s_out"], ["row_out"])], "scan_body",
                                  [f32("s_in", [2]), f32("row", [2])], [f32("s_out", [2]), f32("row_out", [2])])
    nodes = [
        helper.make_node("If", ["cond"], ["branch"], then_branch=then_graph, else_branch=else_graph),
        helper.make_node("Loop", ["trip", "cond", "branch"], ["final"], body=body),
        helper.make_node("Scan", ["final", "rows"], ["scan_sum", "scan_rows"], body=scan_body,
                         num_scan_inputs=1),
    ]
    inits = [numpy_helper.from_array(np.ones(2, np.float32), "one"),
             numpy_helper.from_array(np.full(2, 2, np.float32), "two"), weights("rows", [3, 2])]
    inputs = [helper.make_tensor_value_info("cond", TensorProto.BOOL, []), f32("x", [2]),
              helper.make_tensor_value_info("trip", TensorProto.INT64, [])]
    return model(nodes, inputs, [f32("scan_sum", [2]), f32("scan_rows", None)], inits, opset=13)


def every_attribute_type():
    sub = helper.make_graph([helper.make_node("Identity", ["x"], ["z"])], "sub", [], [f32("z", [2])])
    t = weights("t", [2])
    attrs = dict(f=0.5, i=3, s=b"text", t=t, g=sub, floats=[1.0, 2.5], ints=[1, -2, 3], strings=[b"a", b"bc"],
                 tensors=[t, ints("u", [1, 2])], graphs=[sub, sub])
    node = helper.make_node("Identity", ["x"], ["y"], **attrs)
    node.attribute.append(helper.make_attribute("tp", helper.make_tensor_type_proto(TensorProto.FLOAT, [2])))
    node.attribute.append(helper.make_attribute("sp", helper.make_sparse_tensor(
        numpy_helper.from_array(np.array([1.5], np.float32), "vals"), ints("ind", [1]), [3])))
    return model([node], [f32("x", [2])], [f32("y", [2])])


def qdq():
    nodes = [
        helper.make_node("QuantizeLinear", ["x", "xs", "xz"], ["xq"]),
        helper.make_node("DequantizeLinear", ["xq", "xs", "xz"], ["xd"]),
        helper.make_node("DequantizeLinear", ["wq", "ws", "wz"], ["wd"]),
        helper.make_node("Conv", ["xd", "wd"], ["c"], kernel_shape=[1, 1]),
        helper.make_node("QuantizeLinear", ["c", "xs", "xz"], ["cq"]),
        helper.make_node("QLinearConv", ["cq", "xs", "xz", "wq", "ws", "wz", "xs", "xz"], ["qc"]),
        helper.make_node("Reshape", ["qc", "shape"], ["qr"]),
        helper.make_node("QLinearMatMul", ["qr", "xs", "xz", "mq", "ws", "wz", "xs", "xz"], ["qm"]),
        helper.make_node("MatMulInteger", ["qr", "mq"], ["mi"]),
        helper.make_node("DequantizeLinear", ["qm", "xs", "xz"], ["y"]),
    ]
    inits = [numpy_helper.from_array(np.array(0.1, np.float32), "xs"),
             numpy_helper.from_array(np.array(3, np.uint8), "xz"),
             numpy_helper.from_array(rng.integers(0, 255, size=[2, 2, 1, 1]).astype(np.uint8), "wq"),
             numpy_helper.from_array(np.array(0.05, np.float32), "ws"),
             numpy_helper.from_array(np.array(1, np.uint8), "wz"),
             numpy_helper.from_array(rng.integers(0, 255, size=[3, 2]).astype(np.uint8), "mq"),
             ints("shape", [-1, 3])]
    return model(nodes, [f32("x", [1, 2, 3, 3])], [f32("y", None), helper.make_tensor_value_info(
        "mi", TensorProto.INT32, None)], inits)


def shape_ops(opset):
    nodes = [
        helper.make_node("Shape", ["x"], ["s"]),
        helper.make_node("ConstantOfShape", ["s"], ["zeros"], value=numpy_helper.from_array(np.array([2.0], np.float32))),
        helper.make_node("Add", ["x", "zeros"], ["a"]),
        helper.make_node("Pad", ["a", "pads"], ["p"], mode="constant"),
        helper.make_node("Resize", ["p", "", "scales"], ["rs"], mode="nearest"),
        helper.make_node("Unsqueeze", ["rs", "ax0"], ["u"]),
        helper.make_node("Squeeze", ["u", "ax0"], ["sq"]),
        helper.make_node("Split", ["sq", "split"], ["s1", "s2"], axis=1),
        helper.make_node("Expand", ["s1", "eshape"], ["e"]),
        helper.make_node("Tile", ["e", "reps"], ["ti"]),
        helper.make_node("ReduceMean", ["ti"] + (["ax0"] if opset >= 18 else []), ["rm"],
                         **({} if opset >= 18 else {"axes": [0]})),
        helper.make_node("TopK", ["rm", "k"], ["tv", "tidx"], axis=-1),
        helper.make_node("Cast", ["tidx"], ["tf"], to=TensorProto.FLOAT),
        helper.make_node("Greater", ["tv", "tf"], ["gt"]),
        helper.make_node("Where", ["gt", "tv", "tf"], ["w"]),
        helper.make_node("Range", ["r0", "r1", "r2"], ["rg"]),
        helper.make_node("Clip", ["w", "lo", "hi"], ["y"]),
        helper.make_node("Constant", [], ["cst"], value_floats=[1.0, 2.0]),
    ]
    inits = [ints("pads", [0, 1, 0, 1]), numpy_helper.from_array(np.array([1.0, 2.0], np.float32), "scales"),
             ints("ax0", [0]), ints("split", [3, 5]), ints("eshape", [2, 1]), ints("reps", [1, 2]), ints("k", [1]),
             ints("r0", 0), ints("r1", 5), ints("r2", 2),
             numpy_helper.from_array(np.array(-1.0, np.float32), "lo"),
             numpy_helper.from_array(np.array(1.0, np.float32), "hi")]
    return model(nodes, [f32("x", [2, 2])], [f32("y", None), helper.make_tensor_value_info("rg", TensorProto.INT64,
                                                                                           None)], inits, opset=opset)


def strings_and_sequences():
    """String, sequence and optional graph inputs and outputs (fuzz_mutate_run fills and offers them)."""
    seq_type = helper.make_sequence_type_proto(helper.make_tensor_type_proto(TensorProto.FLOAT, None))
    opt_type = helper.make_optional_type_proto(helper.make_tensor_type_proto(TensorProto.FLOAT, None))
    nodes = [
        helper.make_node("StringNormalizer", ["text"], ["upper"], case_change_action="UPPER"),
        helper.make_node("StringConcat", ["upper", "text"], ["joined"]),
        helper.make_node("StringSplit", ["joined"], ["parts", "counts"], delimiter="a", maxsplit=2),
        helper.make_node("SequenceLength", ["seq"], ["n"]),
        helper.make_node("ConcatFromSequence", ["seq"], ["cat"], axis=0),
        helper.make_node("SequenceInsert", ["seq", "cat"], ["seq2"]),
        helper.make_node("OptionalHasElement", ["opt"], ["has"]),
    ]
    inputs = [helper.make_tensor_value_info("text", TensorProto.STRING, ["N"]),
              helper.make_value_info("seq", seq_type), helper.make_value_info("opt", opt_type)]
    outputs = [helper.make_tensor_value_info("parts", TensorProto.STRING, None),
               helper.make_tensor_value_info("counts", TensorProto.INT64, None),
               helper.make_tensor_value_info("n", TensorProto.INT64, []),
               helper.make_value_info("seq2", seq_type), helper.make_tensor_value_info("has", TensorProto.BOOL, [])]
    return model(nodes, inputs, outputs, opset=20)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-o", "--output", required=True, type=pathlib.Path)
    args = parser.parse_args()
    models_dir = args.output / "models"
    mutate_dir = args.output / "mutate"
    for d in (models_dir, mutate_dir):
        shutil.rmtree(d, ignore_errors=True)
        d.mkdir(parents=True)

    seeds = {"cnn": cnn(), "mlp": mlp(), "control_flow": control_flow(), "every_attribute_type": every_attribute_type(),
             "qdq": qdq(), "shape_ops_13": shape_ops(13), "shape_ops_18": shape_ops(18),
             "strings_and_sequences": strings_and_sequences()}
    blobs = {name: m.SerializeToString() for name, m in seeds.items()}
    for path in sorted(REPO.glob("tests/models/*/model.onnx")):
        blobs["repo_" + path.parent.name] = path.read_bytes()
    header_rng = random.Random(11)
    for name, blob in blobs.items():
        (models_dir / f"{name}.onnx").write_bytes(blob)
        # Header byte 0 = number of mutations (0: the model as is), then mutation slots and the input-fill seed.
        (mutate_dir / f"{name}.bin").write_bytes(bytes(MUTATE_HEADER_BYTES) + blob)
        for k in range(3):
            header = bytearray(header_rng.randrange(256) for _ in range(MUTATE_HEADER_BYTES))
            header[0] = k + 1
            (mutate_dir / f"{name}_m{k}.bin").write_bytes(bytes(header) + blob)
    print(f"make_seeds: {len(blobs)} models into {models_dir}, {4 * len(blobs)} inputs into {mutate_dir}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
