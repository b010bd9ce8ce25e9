# SPDX-License-Identifier: MIT
"""Writes the malformed-model corpus: one directory per class of broken model, and manifest.tsv.

    python3 tests/malformed/make_corpus.py -o OUT_DIR

Each case is OUT_DIR/<class>/model.onnx (plus side files for external data: data files, a symbolic link and a
hard link the script makes). manifest.tsv has one line per case, tab-separated:

    class   stage   status_code   substring   inputs

stage is where onnxmicro must refuse the model (load = Model::load, prepare = Session::prepare, run =
Session::run), status_code the StatusCode name, substring a piece of the message that names the culprit.
inputs (run stage only) gives each graph input's values, "name=v,v,...;name=...", filled into the input as
prepared (the count must match its element count); "-" when none.

Pure Python with a hand-written protobuf encoder (no onnx package), so that it can write invalid wire data and
runs with the system python3. tests/malformed/check_corpus.cpp checks every case.
"""
import argparse
import os
import shutil
import struct
import sys

# ---- protobuf encoding ----------------------------------------------------------------------------------------

VARINT, FIXED64, LEN, START_GROUP, END_GROUP, FIXED32 = 0, 1, 2, 3, 4, 5


def varint(value):
    value &= (1 << 64) - 1  # negative int64 values: ten bytes, as protobuf writes them
    out = bytearray()
    while value >= 0x80:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def tag(field, wire):
    return varint((field << 3) | wire)


def f_varint(field, value):
    return tag(field, VARINT) + varint(value)


def f_bytes(field, data):
    if isinstance(data, str):
        data = data.encode()
    return tag(field, LEN) + varint(len(data)) + data


def f_float(field, value):
    return tag(field, FIXED32) + struct.pack("<f", value)


def f_packed(field, values):
    return f_bytes(field, b"".join(varint(v) for v in values))


def f_packed_floats(field, values):
    return f_bytes(field, struct.pack("<%df" % len(values), *values))


# ---- ONNX messages (field numbers from onnx.proto) ------------------------------------------------------------

FLOAT, UINT8, INT8, INT32, INT64, BOOL = 1, 2, 3, 6, 7, 9
ATTR_FLOAT, ATTR_INT, ATTR_STRING, ATTR_TENSOR, ATTR_GRAPH, ATTR_FLOATS, ATTR_INTS = 1, 2, 3, 4, 5, 6, 7


def tensor(name, dtype, dims, raw=None, floats=None, int32s=None, int64s=None, external=None):
    t = b"".join(f_varint(1, d) for d in dims) + f_varint(2, dtype)
    if floats is not None:
        t += f_packed_floats(4, floats)
    if int32s is not None:
        t += f_packed(5, int32s)
    if int64s is not None:
        t += f_packed(7, int64s)
    t += f_bytes(8, name)
    if raw is not None:
        t += f_bytes(9, raw)
    if external is not None:
        for key, value in external:
            t += f_bytes(13, f_bytes(1, key) + f_bytes(2, value))
        t += f_varint(14, 1)  # data_location = EXTERNAL
    return t


def floats_raw(values):
    return struct.pack("<%df" % len(values), *values)


def int64s_raw(values):
    return struct.pack("<%dq" % len(values), *values)


def tensor_type(dtype, dims):
    shape = b"".join(f_bytes(1, f_varint(1, d)) for d in dims)
    return f_bytes(1, f_varint(1, dtype) + f_bytes(2, shape))


def value_info(name, dtype, dims):
    return f_bytes(1, name) + f_bytes(2, tensor_type(dtype, dims))


def attr_int(name, v):
    return f_bytes(1, name) + f_varint(3, v) + f_varint(20, ATTR_INT)


def attr_float(name, v):
    return f_bytes(1, name) + f_float(2, v) + f_varint(20, ATTR_FLOAT)


def attr_ints(name, vs):
    return f_bytes(1, name) + b"".join(f_varint(8, v) for v in vs) + f_varint(20, ATTR_INTS)


def attr_string(name, v):
    return f_bytes(1, name) + f_bytes(4, v) + f_varint(20, ATTR_STRING)


def attr_tensor(name, t):
    return f_bytes(1, name) + f_bytes(5, t) + f_varint(20, ATTR_TENSOR)


def attr_graph(name, g):
    return f_bytes(1, name) + f_bytes(6, g) + f_varint(20, ATTR_GRAPH)


def node(op, inputs, outputs, attrs=(), name="", domain=""):
    n = b"".join(f_bytes(1, i) for i in inputs) + b"".join(f_bytes(2, o) for o in outputs)
    if name:
        n += f_bytes(3, name)
    n += f_bytes(4, op)
    n += b"".join(f_bytes(5, a) for a in attrs)
    if domain:
        n += f_bytes(7, domain)
    return n


def graph(nodes, inputs, outputs, initializers=(), name="g"):
    g = b"".join(f_bytes(1, n) for n in nodes) + f_bytes(2, name)
    g += b"".join(f_bytes(5, t) for t in initializers)
    g += b"".join(f_bytes(11, v) for v in inputs) + b"".join(f_bytes(12, v) for v in outputs)
    return g


def model(g, opsets=(("", 13),), ir_version=8):
    m = f_varint(1, ir_version) + f_bytes(2, "onnxmicro-malformed")
    m += f_bytes(7, g)
    for domain, version in opsets:
        m += f_bytes(8, (f_bytes(1, domain) if domain else b"") + f_varint(2, version))
    return m


def relu_model(x_dims=(2, 2)):
    """A valid one-node model: the base that wire-level cases break."""
    return model(graph([node("Relu", ["x"], ["y"], name="relu0")], [value_info("x", FLOAT, x_dims)],
                       [value_info("y", FLOAT, x_dims)]))


def one_node(op, inputs, outputs, attrs=(), inits=(), opset=13, node_name="n0", in_vi=None, out_vi=None,
             domain="", opsets=None):
    g = graph([node(op, inputs, outputs, attrs, node_name, domain)], in_vi or [], out_vi or [], inits)
    return model(g, opsets if opsets is not None else (("", opset),))


# ---- cases ----------------------------------------------------------------------------------------------------

CASES = []  # (class, stage, code, substring, inputs, build(dir) -> model bytes)


def case(name, stage, code, substring, inputs="-"):
    def register(build):
        CASES.append((name, stage, code, substring, inputs, build))
        return build
    return register


# Wire format. The base is a valid Relu model; each case breaks its bytes.
@case("truncated_tag", "load", "invalid_model", "truncated")
def _(d):
    return relu_model() + b"\x80"  # a tag's varint whose continuation byte never comes


@case("truncated_varint", "load", "invalid_model", "truncated")
def _(d):
    return relu_model() + tag(1, VARINT) + b"\xff\xff"  # ir_version's value cut mid-varint


@case("truncated_payload", "load", "invalid_model", "past the end")
def _(d):
    return relu_model() + tag(2, LEN) + varint(40) + b"onnx"  # producer_name: 40 bytes promised, 4 present


@case("varint_over_10_bytes", "load", "invalid_model", "varint")
def _(d):
    return relu_model() + tag(1, VARINT) + b"\xff" * 10 + b"\x01"


@case("length_prefix_overflow", "load", "invalid_model", "past the end")
def _(d):
    # 2^64 - 2: position + length wraps around in a naive bounds check.
    return relu_model() + tag(2, LEN) + varint((1 << 64) - 2) + b"xx"


@case("length_prefix_past_end_nested", "load", "invalid_model", "past the end")
def _(d):
    # Inside the graph: a node whose length runs past the graph's own end (but not past the file's).
    g = graph([node("Relu", ["x"], ["y"], name="relu0")], [value_info("x", FLOAT, [2])], [value_info("y", FLOAT, [2])])
    broken = g + tag(1, LEN) + varint(50)
    return f_varint(1, 8) + f_bytes(7, broken) + f_bytes(8, f_varint(2, 13)) + b"\x00" * 60


@case("field_number_zero", "load", "invalid_model", "field number 0")
def _(d):
    return relu_model() + tag(0, VARINT) + varint(1)


@case("wire_type_start_group", "load", "invalid_model", "group")
def _(d):
    return relu_model() + tag(30, START_GROUP) + tag(30, END_GROUP)


@case("wire_type_end_group", "load", "invalid_model", "group")
def _(d):
    return relu_model() + tag(30, END_GROUP)


@case("wire_type_invalid_6", "load", "invalid_model", "wire type")
def _(d):
    return relu_model() + tag(30, 6)


@case("message_nesting_too_deep", "load", "limit_exceeded", "ONNXMICRO_MAX_PROTO_DEPTH")
def _(d):
    # TypeProto.sequence_type.elem_type... 40 levels: 80 nested messages, past the proto depth limit of 64
    # without any subgraph.
    t = f_bytes(1, f_varint(1, FLOAT))
    for _ in range(40):
        t = f_bytes(4, f_bytes(1, t))
    vi = f_bytes(1, "x") + f_bytes(2, t)
    return model(graph([node("Identity", ["x"], ["y"], name="id0")], [vi], [value_info("y", FLOAT, [1])]))


def nested_if(levels):
    """An If whose then/else branches hold an If ... `levels` deep; the innermost branches output a constant."""
    def body(level):
        if level == levels:
            const = node("Constant", [], ["r%d" % level], [attr_tensor("value", tensor("c", FLOAT, [1], floats=[1.0]))],
                         "const%d" % level)
            return graph([const], [], [value_info("r%d" % level, FLOAT, [1])], name="b%d" % level)
        inner = body(level + 1)
        n = node("If", ["cond"], ["r%d" % level], [attr_graph("then_branch", inner), attr_graph("else_branch", inner)],
                 "if%d" % level)
        return graph([n], [], [value_info("r%d" % level, FLOAT, [1])], name="b%d" % level)
    top = node("If", ["cond"], ["y"], [attr_graph("then_branch", body(1)), attr_graph("else_branch", body(1))], "if0")
    return model(graph([top], [value_info("cond", BOOL, [])], [value_info("y", FLOAT, [1])]))


@case("subgraph_nesting_too_deep", "load", "limit_exceeded", "ONNXMICRO_MAX_SUBGRAPH_DEPTH")
def _(d):
    return nested_if(17)


@case("function_recursion", "load", "limit_exceeded", "model-local function 'Again' calls nest more than")
def _(d):
    # A model-local function that calls itself: expansion must stop at the call-depth limit, not recurse forever.
    fn = (f_bytes(1, "Again") + f_bytes(4, "a") + f_bytes(5, "b") +
          f_bytes(7, node("Again", ["a"], ["b"], domain="local")) +
          f_bytes(9, f_bytes(1, "local") + f_varint(2, 1)) + f_bytes(10, "local"))
    g = graph([node("Again", ["x"], ["y"], name="call0", domain="local")], [value_info("x", FLOAT, [2])],
              [value_info("y", FLOAT, [2])])
    return model(g, opsets=(("", 18), ("local", 1)), ir_version=10) + f_bytes(25, fn)


# Tensors.
def init_model(t, name="w"):
    """Identity of initializer `name` (the tensor under test) to the graph output."""
    return model(graph([node("Identity", [name], ["y"], name="id0")], [], [value_info("y", FLOAT, [2, 2])], [t]))


@case("negative_dim", "load", "invalid_model", "'w'")
def _(d):
    return init_model(tensor("w", FLOAT, [2, -2], raw=floats_raw([0.0] * 4)))


@case("dims_product_overflow", "load", "limit_exceeded", "'w'")
def _(d):
    return init_model(tensor("w", FLOAT, [1 << 32, 1 << 32, 1 << 32], raw=b""))


@case("dims_byte_size_overflow", "load", "limit_exceeded", "'w'")
def _(d):
    # 2^61 elements: the count fits in int64, the float byte size (2^63) does not.
    return init_model(tensor("w", FLOAT, [1 << 61], raw=b""))


@case("tensor_bytes_over_limit", "load", "limit_exceeded", "ONNXMICRO_MAX_TENSOR_BYTES")
def _(d):
    return init_model(tensor("w", FLOAT, [1 << 39], raw=b""))  # 2^41 bytes > 2^40


@case("rank_over_limit", "load", "limit_exceeded", "ONNXMICRO_MAX_RANK")
def _(d):
    return init_model(tensor("w", FLOAT, [1] * 9, raw=floats_raw([0.0])))


@case("raw_data_size_mismatch", "load", "invalid_model", "'w'")
def _(d):
    return init_model(tensor("w", FLOAT, [2, 2], raw=floats_raw([0.0] * 3)))


@case("typed_data_count_mismatch", "load", "invalid_model", "'w'")
def _(d):
    return init_model(tensor("w", FLOAT, [2, 2], floats=[0.0] * 5))


@case("two_data_fields", "load", "invalid_model", "'w'")
def _(d):
    return init_model(tensor("w", FLOAT, [2, 2], raw=floats_raw([0.0] * 4), floats=[0.0] * 4))


@case("unknown_dtype", "load", "invalid_model", "'w'")
def _(d):
    return init_model(tensor("w", 99, [2, 2], raw=floats_raw([0.0] * 4)))


@case("undefined_dtype", "load", "invalid_model", "'w'")
def _(d):
    return init_model(tensor("w", 0, [2, 2], raw=floats_raw([0.0] * 4)))


@case("undefined_dtype_graph_input", "load", "invalid_model", "'x'")
def _(d):
    return model(graph([node("Relu", ["x"], ["y"], name="relu0")], [value_info("x", 0, [2])],
                       [value_info("y", FLOAT, [2])]))


@case("qdq_zero_point_out_of_range", "prepare", "invalid_model", "int32_data[0] = 300 is out of the range of uint8")
def _(d):
    # uint8 values travel in int32_data: 300 does not fit.
    zp = tensor("zp", UINT8, [], int32s=[300])
    sc = tensor("sc", FLOAT, [], floats=[0.5])
    return one_node("QuantizeLinear", ["x", "sc", "zp"], ["y"], inits=[sc, zp], node_name="q0",
                    in_vi=[value_info("x", FLOAT, [2])], out_vi=[value_info("y", UINT8, [2])])


# Graph structure.
@case("undefined_node_input", "load", "invalid_model", "'ghost'")
def _(d):
    return model(graph([node("Add", ["x", "ghost"], ["y"], name="add0")], [value_info("x", FLOAT, [2])],
                       [value_info("y", FLOAT, [2])]))


@case("undefined_graph_output", "load", "invalid_model", "'nowhere'")
def _(d):
    return model(graph([node("Relu", ["x"], ["y"], name="relu0")], [value_info("x", FLOAT, [2])],
                       [value_info("nowhere", FLOAT, [2])]))


@case("duplicate_output_name", "load", "invalid_model", "'y'")
def _(d):
    return model(graph([node("Relu", ["x"], ["y"], name="relu0"), node("Neg", ["x"], ["y"], name="neg0")],
                       [value_info("x", FLOAT, [2])], [value_info("y", FLOAT, [2])]))


@case("output_shadows_graph_input", "load", "invalid_model", "'x'")
def _(d):
    return model(graph([node("Relu", ["x"], ["x"], name="relu0")], [value_info("x", FLOAT, [2])],
                       [value_info("x", FLOAT, [2])]))


@case("cycle", "load", "invalid_model", "cycle")
def _(d):
    return model(graph([node("Add", ["x", "b"], ["a"], name="add_a"), node("Relu", ["a"], ["b"], name="relu_b"),
                        node("Neg", ["a"], ["y"], name="neg_y")],
                       [value_info("x", FLOAT, [2])], [value_info("y", FLOAT, [2])]))


@case("domain_without_opset_import", "load", "invalid_model", "com.example")
def _(d):
    return one_node("Frobnicate", ["x"], ["y"], node_name="frob0", domain="com.example",
                    in_vi=[value_info("x", FLOAT, [2])], out_vi=[value_info("y", FLOAT, [2])])


@case("no_opset_import_at_all", "load", "invalid_model", "no opset_import")
def _(d):
    return model(graph([node("Relu", ["x"], ["y"], name="relu0")], [value_info("x", FLOAT, [2])],
                       [value_info("y", FLOAT, [2])]), opsets=())


@case("unknown_op", "prepare", "unsupported", "'mystery0'")
def _(d):
    return one_node("NoSuchOp", ["x"], ["y"], node_name="mystery0",
                    in_vi=[value_info("x", FLOAT, [2])], out_vi=[value_info("y", FLOAT, [2])])


# Attributes.
@case("attribute_wrong_type", "prepare", "invalid_model", "'axis'")
def _(d):
    return one_node("Flatten", ["x"], ["y"], [attr_float("axis", 1.0)], node_name="flat0",
                    in_vi=[value_info("x", FLOAT, [2, 3])], out_vi=[value_info("y", FLOAT, [2, 3])])


@case("attribute_missing_required", "prepare", "invalid_model", "'to'")
def _(d):
    return one_node("Cast", ["x"], ["y"], node_name="cast0",
                    in_vi=[value_info("x", FLOAT, [2])], out_vi=[value_info("y", FLOAT, [2])])


def conv_model(attrs, x=(1, 2, 5, 5), w=(4, 2, 3, 3)):
    wt = tensor("W", FLOAT, list(w), raw=floats_raw([0.5] * (w[0] * w[1] * w[2] * w[3])))
    return one_node("Conv", ["x", "W"], ["y"], attrs, inits=[wt], node_name="conv0",
                    in_vi=[value_info("x", FLOAT, list(x))], out_vi=[value_info("y", FLOAT, [1, 4, 3, 3])])


@case("conv_kernel_shape_rank", "prepare", "invalid_model", "kernel_shape")
def _(d):
    return conv_model([attr_ints("kernel_shape", [3])])


@case("conv_strides_rank", "prepare", "invalid_model", "strides")
def _(d):
    return conv_model([attr_ints("strides", [1, 1, 1])])


@case("conv_pads_length", "prepare", "invalid_model", "pads")
def _(d):
    return conv_model([attr_ints("pads", [1, 1])])


@case("conv_dilations_rank", "prepare", "invalid_model", "dilations")
def _(d):
    return conv_model([attr_ints("dilations", [1])])


@case("conv_stride_zero", "prepare", "invalid_model", "strides")
def _(d):
    return conv_model([attr_ints("strides", [1, 0])])


@case("conv_dilation_negative", "prepare", "invalid_model", "dilations")
def _(d):
    return conv_model([attr_ints("dilations", [-1, 1])])


@case("conv_group_zero", "prepare", "invalid_model", "group")
def _(d):
    return conv_model([attr_int("group", 0)])


@case("conv_group_not_dividing_channels", "prepare", "invalid_model", "group")
def _(d):
    return conv_model([attr_int("group", 3)], x=(1, 4, 5, 5), w=(3, 1, 3, 3))


@case("default_domain_not_imported", "load", "invalid_model", "'relu0'")
def _(d):
    # Only a custom domain is imported: the Relu of the default domain has no opset to resolve against.
    return model(graph([node("Relu", ["x"], ["y"], name="relu0")], [value_info("x", FLOAT, [2])],
                       [value_info("y", FLOAT, [2])]), opsets=(("com.example", 1),))


def pool_model(attrs):
    return one_node("MaxPool", ["x"], ["y"], attrs, node_name="pool0", in_vi=[value_info("x", FLOAT, [1, 1, 4, 4])],
                    out_vi=[value_info("y", FLOAT, [1, 1, 2, 2])])


@case("pool_kernel_shape_rank", "prepare", "invalid_model", "kernel_shape")
def _(d):
    return pool_model([attr_ints("kernel_shape", [2, 2, 2])])


@case("pool_stride_zero", "prepare", "invalid_model", "strides")
def _(d):
    return pool_model([attr_ints("kernel_shape", [2, 2]), attr_ints("strides", [0, 2])])


@case("pool_kernel_shape_missing", "prepare", "invalid_model", "kernel_shape")
def _(d):
    return pool_model([])


# Run-time values.
@case("gather_index_out_of_range", "run", "out_of_range", "'gather0'", "idx=0,7")
def _(d):
    data = tensor("data", FLOAT, [3, 2], raw=floats_raw([1, 2, 3, 4, 5, 6]))
    return one_node("Gather", ["data", "idx"], ["y"], [attr_int("axis", 0)], inits=[data], node_name="gather0",
                    in_vi=[value_info("idx", INT64, [2])], out_vi=[value_info("y", FLOAT, [2, 2])])


@case("gather_elements_index_out_of_range", "run", "out_of_range", "'gather_el0'", "idx=0,-4")
def _(d):
    data = tensor("data", FLOAT, [3], raw=floats_raw([1, 2, 3]))
    return one_node("GatherElements", ["data", "idx"], ["y"], [], inits=[data], node_name="gather_el0",
                    in_vi=[value_info("idx", INT64, [2])], out_vi=[value_info("y", FLOAT, [2])])


@case("scatter_elements_index_out_of_range", "run", "out_of_range", "'scatter0'", "idx=1,3")
def _(d):
    data = tensor("data", FLOAT, [3], raw=floats_raw([1, 2, 3]))
    upd = tensor("upd", FLOAT, [2], raw=floats_raw([9, 9]))
    return one_node("ScatterElements", ["data", "idx", "upd"], ["y"], [], inits=[data, upd], node_name="scatter0",
                    in_vi=[value_info("idx", INT64, [2])], out_vi=[value_info("y", FLOAT, [3])])


@case("scatter_nd_index_out_of_range", "run", "out_of_range", "'scatter_nd0'", "idx=5")
def _(d):
    data = tensor("data", FLOAT, [3], raw=floats_raw([1, 2, 3]))
    upd = tensor("upd", FLOAT, [1], raw=floats_raw([9]))
    return one_node("ScatterND", ["data", "idx", "upd"], ["y"], [], inits=[data, upd], node_name="scatter_nd0",
                    in_vi=[value_info("idx", INT64, [1, 1])], out_vi=[value_info("y", FLOAT, [3])])


@case("reshape_incompatible_size", "prepare", "invalid_model", "'reshape0'")
def _(d):
    shape = tensor("shape", INT64, [2], raw=int64s_raw([4, 2]))
    return one_node("Reshape", ["x", "shape"], ["y"], [], inits=[shape], node_name="reshape0",
                    in_vi=[value_info("x", FLOAT, [2, 3])], out_vi=[value_info("y", FLOAT, [4, 2])])


@case("loop_trip_count_over_limit", "run", "limit_exceeded", "ONNXMICRO_MAX_LOOP_ITERATIONS",
      "M=%d;cond=1" % (1 << 40))
def _(d):
    # The body keeps the condition true and adds 1 to a counter: only the iteration limit stops it.
    body = graph([node("Identity", ["c_in"], ["c_out"], name="keep_going"),
                  node("Add", ["v_in", "one"], ["v_out"], name="count")],
                 [value_info("i", INT64, []), value_info("c_in", BOOL, []), value_info("v_in", FLOAT, [1])],
                 [value_info("c_out", BOOL, []), value_info("v_out", FLOAT, [1])],
                 [tensor("one", FLOAT, [1], raw=floats_raw([1.0]))], name="body")
    v0 = tensor("v0", FLOAT, [1], raw=floats_raw([0.0]))
    return one_node("Loop", ["M", "cond", "v0"], ["v"], [attr_graph("body", body)], inits=[v0], node_name="loop0",
                    in_vi=[value_info("M", INT64, []), value_info("cond", BOOL, [])],
                    out_vi=[value_info("v", FLOAT, [1])])


# Quantization.
def qdq_model(scale, zero_point, zp_dtype=UINT8, op="QuantizeLinear"):
    sc = tensor("sc", FLOAT, [], floats=[scale])
    zp = tensor("zp", zp_dtype, [], int32s=[zero_point])
    x_dtype, y_dtype = (FLOAT, zp_dtype) if op == "QuantizeLinear" else (zp_dtype, FLOAT)
    return one_node(op, ["x", "sc", "zp"], ["y"], inits=[sc, zp], node_name="q0",
                    in_vi=[value_info("x", x_dtype, [2])], out_vi=[value_info("y", y_dtype, [2])])


@case("qdq_scale_zero", "prepare", "invalid_model", "input 1 'sc' (y_scale) element 0 is 0")
def _(d):
    return qdq_model(0.0, 0)


@case("qdq_scale_negative", "prepare", "invalid_model", "input 1 'sc' (y_scale) element 0 is -0.5")
def _(d):
    return qdq_model(-0.5, 0)


@case("qdq_dequantize_scale_zero", "prepare", "invalid_model", "input 1 'sc' (x_scale) element 0 is 0")
def _(d):
    return qdq_model(0.0, 0, INT8, "DequantizeLinear")


# External data: every location must stay inside the model's directory and the file.
def external_model(location, offset=None, length=None):
    ext = [("location", location)]
    if offset is not None:
        ext.append(("offset", str(offset)))
    if length is not None:
        ext.append(("length", str(length)))
    return init_model(tensor("w", FLOAT, [2, 2], external=ext))


def write_weights(path):
    with open(path, "wb") as f:
        f.write(floats_raw([1, 2, 3, 4]))


@case("external_absolute_path", "load", "invalid_model", "'w'")
def _(d):
    return external_model("/etc/passwd")


@case("external_dotdot", "load", "invalid_model", "'w'")
def _(d):
    write_weights(os.path.join(os.path.dirname(d), "outside.bin"))
    return external_model("../outside.bin")


@case("external_symlink_out", "load", "invalid_model", "'w'")
def _(d):
    outside = os.path.join(os.path.dirname(d), "outside_symlink_target.bin")
    write_weights(outside)
    os.symlink(outside, os.path.join(d, "weights.bin"))
    return external_model("weights.bin")


@case("external_hard_link", "load", "invalid_model", "'w'")
def _(d):
    outside = os.path.join(os.path.dirname(d), "outside_hard_link_target.bin")
    write_weights(outside)
    os.link(outside, os.path.join(d, "weights.bin"))
    return external_model("weights.bin")


@case("external_offset_length_past_end", "load", "invalid_model", "'w'")
def _(d):
    write_weights(os.path.join(d, "weights.bin"))  # 16 bytes
    return external_model("weights.bin", offset=8, length=16)


@case("external_offset_overflow", "load", "invalid_model", "'w'")
def _(d):
    write_weights(os.path.join(d, "weights.bin"))
    return external_model("weights.bin", offset=(1 << 64) - 8, length=16)


@case("external_length_not_tensor_size", "load", "invalid_model", "'w'")
def _(d):
    write_weights(os.path.join(d, "weights.bin"))
    return external_model("weights.bin", offset=0, length=12)


@case("external_missing_file", "load", "io_error", "missing.bin")
def _(d):
    return external_model("missing.bin")


# Input files of `onnxmicro run` (stage cli): a valid model, broken or mistyped input files. Each case's build
# writes its files into its directory and the manifest's inputs column names them.
STRING = 8


def sequence_type(dtype):
    return f_bytes(4, f_bytes(1, f_bytes(1, f_varint(1, dtype))))  # TypeProto.sequence_type.elem_type.tensor_type


def optional_type(dtype):
    return f_bytes(9, f_bytes(1, f_bytes(1, f_varint(1, dtype))))  # TypeProto.optional_type.elem_type.tensor_type


def typed_value(name, type_proto):
    return f_bytes(1, name) + f_bytes(2, type_proto)


def sequence_length_model():
    return one_node("SequenceLength", ["seq"], ["n"], in_vi=[typed_value("seq", sequence_type(FLOAT))],
                    out_vi=[value_info("n", INT64, [])])


def has_element_model():
    return one_node("OptionalHasElement", ["opt"], ["has"], opset=18, in_vi=[typed_value("opt", optional_type(FLOAT))],
                    out_vi=[value_info("has", BOOL, [])])


def write(d, name, data):
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def npy_file(descr, shape, data):
    header = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (descr, shape)
    header += " " * (63 - (10 + len(header)) % 64) + "\n"
    return b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode() + data


@case("cli_string_where_float", "cli", "exit_1", "holds string data, the model declares float", "input_0.pb")
def _(d):
    write(d, "input_0.pb", b"".join(f_varint(1, n) for n in (2, 2)) + f_varint(2, STRING) +
          b"".join(f_bytes(6, "w") for _ in range(4)))
    return relu_model()


@case("cli_string_count_mismatch", "cli", "exit_1", "describe 3 elements but the tensor stores 2", "input_0.pb")
def _(d):
    write(d, "input_0.pb", f_varint(1, 3) + f_varint(2, STRING) + f_bytes(6, "a") + f_bytes(6, "b"))
    return one_node("Identity", ["x"], ["y"], in_vi=[value_info("x", STRING, [3])], out_vi=[value_info("y", STRING, [3])])


@case("cli_sequence_wrong_element_type", "cli", "exit_1", "element 0 is an int64 tensor", "input_0.pb")
def _(d):
    write(d, "input_0.pb", f_bytes(1, "seq") + f_varint(2, 1) + f_bytes(3, tensor("", INT64, [1], raw=int64s_raw([3]))))
    return sequence_length_model()


@case("cli_sequence_truncated", "cli", "exit_1", "is not a valid onnx SequenceProto", "input_0.pb")
def _(d):
    write(d, "input_0.pb", (f_bytes(1, "seq") + f_varint(2, 1) + f_bytes(3, tensor("", FLOAT, [1], raw=floats_raw([1]))))[:-3])
    return sequence_length_model()


@case("cli_sequence_of_sequences", "cli", "exit_1", "only sequences of tensors are supported", "input_0.pb")
def _(d):
    write(d, "input_0.pb", f_bytes(1, "seq") + f_varint(2, 3) + f_bytes(5, f_varint(2, 1)))
    return sequence_length_model()


@case("cli_optional_of_wrong_kind", "cli", "exit_1", "is an optional of a sequence, the model declares", "input_0.pb")
def _(d):
    write(d, "input_0.pb", f_bytes(1, "opt") + f_varint(2, 3) + f_bytes(5, f_varint(2, 1)))
    return has_element_model()


@case("cli_optional_truncated", "cli", "exit_1", "is not a valid onnx OptionalProto", "input_0.pb")
def _(d):
    write(d, "input_0.pb", f_bytes(1, "opt") + f_varint(2, 1) + tag(3, LEN) + varint(30) + b"\x08")
    return has_element_model()


@case("cli_npy_object_array", "cli", "exit_1", ".npy dtype '|O' is not supported", "input_0.npy")
def _(d):
    write(d, "input_0.npy", npy_file("|O", "(2, 2)", b"\x00" * 32))
    return relu_model()


@case("cli_npy_bad_code_point", "cli", "exit_1", "is not a Unicode code point", "input_0.npy")
def _(d):
    write(d, "input_0.npy", npy_file("<U1", "(3,)", struct.pack("<3I", 0x61, 0x110000, 0x62)))
    return one_node("Identity", ["x"], ["y"], in_vi=[value_info("x", STRING, [3])], out_vi=[value_info("y", STRING, [3])])


@case("cli_npy_strings_where_float", "cli", "exit_1", "holds string data, the model declares float", "input_0.npy")
def _(d):
    write(d, "input_0.npy", npy_file("|S2", "(2, 2)", b"abcdefgh"))
    return relu_model()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("-o", "--output", required=True, help="directory to (re)create")
    args = parser.parse_args()
    out = os.path.abspath(args.output)
    if os.path.isdir(out):
        shutil.rmtree(out)
    os.makedirs(out)
    names = set()
    lines = []
    for name, stage, code, substring, inputs, build in CASES:
        assert name not in names, name
        names.add(name)
        d = os.path.join(out, name)
        os.makedirs(d)
        with open(os.path.join(d, "model.onnx"), "wb") as f:
            f.write(build(d))
        lines.append("\t".join([name, stage, code, substring, inputs]))
    with open(os.path.join(out, "manifest.tsv"), "w") as f:
        f.write("# class\tstage\tstatus_code\tsubstring\tinputs\n")
        f.write("\n".join(lines) + "\n")
    print("make_corpus: %d cases in %s" % (len(CASES), out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
