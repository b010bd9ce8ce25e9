# SPDX-License-Identifier: MIT
"""Reference semantics of quantized models that do not depend on the CPU computing them (issue #16).

`reference(model, feeds)` runs a model with the `onnx` package's reference evaluator (numpy; integer products are
exact), extended with numpy versions of the onnxruntime com.microsoft ops that quantize_static's QOperator format
and quantize_dynamic write. Each follows the op's definition: dequantize the inputs, compute in float, quantize
with round-half-to-even and saturation (onnxruntime's own kernels round in float32 too, so they may differ from
these by one quantum near a tie). onnxruntime itself is no reference for integer ops: on x86-64 CPUs without
AVX-512 VNNI its u8 x s8 GEMM sums pairs of products in saturating 16 bits.
"""
from __future__ import annotations

import numpy as np
import onnx
from onnx.reference import ReferenceEvaluator
from onnx.reference.op_run import OpRun


def quantize(real: np.ndarray, scale, zero_point: np.ndarray) -> np.ndarray:
    """saturate(round_half_even(real / scale) + zero_point) in zero_point's integer type."""
    info = np.iinfo(zero_point.dtype)
    q = np.rint(real.astype(np.float64) / np.float64(scale)) + np.int64(zero_point)
    return np.clip(q, info.min, info.max).astype(zero_point.dtype)


def dequantize(q: np.ndarray, scale, zero_point) -> np.ndarray:
    return ((q.astype(np.int64) - np.int64(zero_point)) * np.float64(scale)).astype(np.float32)


def dynamic_quantize(x: np.ndarray) -> tuple[np.ndarray, np.float32]:
    """uint8 value - zero point and scale, as DynamicQuantizeLinear (float32, ties to even)."""
    x = x.astype(np.float32)
    low, high = min(np.float32(0), x.min(initial=0)), max(np.float32(0), x.max(initial=0))
    scale = np.float32(1) if high == low else np.float32((high - low) / np.float32(255))
    zero = np.float32(np.rint(np.clip(np.float32(0) - low / scale, 0, 255)))
    q = np.clip(np.rint(x / scale) + zero, 0, 255)
    return (q - zero).astype(np.int64), scale


def sigmoid(x: np.ndarray) -> np.ndarray:
    return (1 / (1 + np.exp(-x.astype(np.float64)))).astype(np.float32)


class DynamicQuantizeLSTM(OpRun):
    """com.microsoft.DynamicQuantizeLSTM as onnxruntime's CPU kernel computes it (one thread): X quantized once
    over its steps and multiplied by W for every step, the hidden state quantized before each step over the
    whole batch; default activations, no clip, no peepholes, no sequence_lens (what the test models use)."""
    op_domain = "com.microsoft"

    def _run(self, x, w, r, b=None, sequence_lens=None, initial_h=None, initial_c=None, p=None, w_scale=None,
             w_zero_point=None, r_scale=None, r_zero_point=None, direction=None, hidden_size=None,
             activations=None, activation_alpha=None, activation_beta=None, clip=None, input_forget=None):
        assert sequence_lens is None and p is None and activations is None and clip is None and not input_forget
        steps, batch, _ = x.shape
        directions = w.shape[0]
        hidden = r.shape[1]
        xq, x_scale = dynamic_quantize(x)
        y = np.zeros((steps, directions, batch, hidden), np.float32)
        y_h = np.zeros((directions, batch, hidden), np.float32)
        y_c = np.zeros((directions, batch, hidden), np.float32)
        for d in range(directions):
            def scaled_product(a, a_scale, weights, scale, zero):
                acc = a @ (weights[d].astype(np.int64) - int(zero[d].reshape(-1)[0]))
                return acc.astype(np.float32) * (np.float32(a_scale) * scale[d].reshape(1, -1).astype(np.float32))
            projection = scaled_product(xq.reshape(steps * batch, -1), x_scale, w, w_scale, w_zero_point)
            projection = projection.reshape(steps, batch, 4 * hidden)
            bias = (b[d, :4 * hidden] + b[d, 4 * hidden:]) if b is not None else np.zeros(4 * hidden, np.float32)
            h = initial_h[d].copy() if initial_h is not None else np.zeros((batch, hidden), np.float32)
            c = initial_c[d].copy() if initial_c is not None else np.zeros((batch, hidden), np.float32)
            order = range(steps - 1, -1, -1) if (direction == "reverse" or d == 1) else range(steps)
            for t in order:
                hq, h_scale = dynamic_quantize(h)
                gates = projection[t] + scaled_product(hq, h_scale, r, r_scale, r_zero_point) + bias
                i, o, f, g = np.split(gates, 4, axis=1)
                c = sigmoid(f) * c + sigmoid(i) * np.tanh(g)
                h = (sigmoid(o) * np.tanh(c)).astype(np.float32)
                y[t, d] = h
            y_h[d], y_c[d] = h, c
        return y, y_h, y_c


class QGemm(OpRun):
    """com.microsoft.QGemm: exact int32 products plus the int32 bias, scaled in float64."""
    op_domain = "com.microsoft"

    def _run(self, a, a_scale, a_zero_point, b, b_scale, b_zero_point, c=None, y_scale=None, y_zero_point=None,
             alpha=None, transA=None, transB=None):
        a = a.T if transA else a
        b = b.T if transB else b
        acc = (a.astype(np.int64) - int(a_zero_point)) @ (b.astype(np.int64) - b_zero_point.astype(np.int64))
        if c is not None:
            acc = acc + c.astype(np.int64)
        real = acc * (np.float64(a_scale) * b_scale.astype(np.float64) * np.float64(1.0 if alpha is None else alpha))
        if y_scale is None:
            return (real.astype(np.float32),)
        return (quantize(real, y_scale, y_zero_point),)


class QLinearAdd(OpRun):
    op_domain = "com.microsoft"

    def _run(self, a, a_scale, a_zero_point, b, b_scale, b_zero_point, c_scale, c_zero_point):
        real = dequantize(a, a_scale, a_zero_point).astype(np.float64) + dequantize(b, b_scale, b_zero_point)
        return (quantize(real, c_scale, c_zero_point),)


class QLinearMul(OpRun):
    op_domain = "com.microsoft"

    def _run(self, a, a_scale, a_zero_point, b, b_scale, b_zero_point, c_scale, c_zero_point):
        real = dequantize(a, a_scale, a_zero_point).astype(np.float64) * dequantize(b, b_scale, b_zero_point)
        return (quantize(real, c_scale, c_zero_point),)


class QLinearGlobalAveragePool(OpRun):
    op_domain = "com.microsoft"

    def _run(self, x, x_scale, x_zero_point, y_scale, y_zero_point, channels_last=None):
        real = dequantize(x, x_scale, x_zero_point).astype(np.float64)
        axes = tuple(range(1, x.ndim - 1)) if channels_last else tuple(range(2, x.ndim))
        return (quantize(real.mean(axis=axes, keepdims=True), y_scale, y_zero_point),)


class QLinearSoftmax(OpRun):
    """Softmax of the dequantized input along `axis` (opset >= 13 semantics; earlier: over the flattened tail)."""
    op_domain = "com.microsoft"

    def _run(self, x, x_scale, x_zero_point, y_scale, y_zero_point, axis=None, opset=None):
        real = dequantize(x, x_scale, x_zero_point).astype(np.float64)
        axis = -1 if axis is None else axis
        shape = real.shape
        if opset is not None and opset < 13:
            axis = axis % real.ndim
            real = real.reshape(int(np.prod(shape[:axis])), -1)
            axis = 1
        e = np.exp(real - real.max(axis=axis, keepdims=True))
        return (quantize((e / e.sum(axis=axis, keepdims=True)).reshape(shape), y_scale, y_zero_point),)


def per_axis(parameter: np.ndarray, ndim: int, axis) -> np.ndarray:
    """A scalar, or a 1-D parameter shaped to broadcast along `axis` of an ndim-D tensor."""
    if parameter.size == 1:
        return parameter.reshape(())
    shape = [1] * ndim
    shape[(1 if axis is None else axis) % ndim] = parameter.size
    return parameter.reshape(shape)


class DequantizeLinear(OpRun):
    """int8/uint8/int32 DequantizeLinear, per tensor or per axis (the evaluator implements the op from opset 19 on
    only; versions 13 to 19 compute the same for these types)."""
    op_domain = ""

    def _run(self, x, scale, zero_point=None, axis=None, block_size=None, output_dtype=None, precision=None):
        assert not block_size, "blocked DequantizeLinear is not used by these models"
        zero = np.zeros((), np.int64) if zero_point is None else per_axis(zero_point, x.ndim, axis)
        real = (x.astype(np.int64) - zero.astype(np.int64)) * per_axis(scale, x.ndim, axis).astype(np.float64)
        return (real.astype(scale.dtype),)


class MatMul(OpRun):
    """MatMul. Float operands: float64 products summed in depth order, one numpy elementwise add per depth index,
    then rounded to the operands' type. numpy's own float matmul calls a BLAS whose kernel, and so its summation
    order, depends on the CPU (OpenBLAS's AVX-512 and AVX2 kernels round the same product differently); elementwise
    IEEE operations in a fixed order give the same bits everywhere. Integer operands: numpy's exact matmul."""
    op_domain = ""

    def _run(self, a, b):
        if not np.issubdtype(a.dtype, np.floating):
            return (np.matmul(a, b),)
        left = a[None, :] if a.ndim == 1 else a
        right = b[:, None] if b.ndim == 1 else b
        left, right = left.astype(np.float64), right.astype(np.float64)
        total = left[..., :, 0:1] * right[..., 0:1, :]
        for k in range(1, left.shape[-1]):
            total = total + left[..., :, k:k + 1] * right[..., k:k + 1, :]
        total = total.astype(a.dtype)
        if a.ndim == 1:
            total = total[..., 0, :]
        if b.ndim == 1:
            total = total[..., 0]
        return (total,)


class QuantizeLinear(OpRun):
    """QuantizeLinear to int8/uint8, per tensor or per axis: x / scale in float32, as the spec's reference."""
    op_domain = ""

    def _run(self, x, scale, zero_point=None, axis=None, block_size=None, output_dtype=None, precision=None,
             saturate=None):
        assert not block_size, "blocked QuantizeLinear is not used by these models"
        zero = np.zeros((), np.uint8) if zero_point is None else per_axis(zero_point, x.ndim, axis)
        info = np.iinfo(zero.dtype)
        scaled = np.rint(x.astype(np.float32) / per_axis(scale, x.ndim, axis).astype(np.float32))
        return (np.clip(scaled.astype(np.int64) + zero.astype(np.int64), info.min, info.max).astype(zero.dtype),)


CONTRIB_OPS = [DequantizeLinear, QuantizeLinear, MatMul, DynamicQuantizeLSTM, QGemm, QLinearAdd, QLinearMul, QLinearGlobalAveragePool, QLinearSoftmax]


def reference(model: onnx.ModelProto, feeds: dict) -> list[np.ndarray]:
    """The model's outputs by its definition (a com.microsoft op missing above fails loudly)."""
    return ReferenceEvaluator(model, new_ops=CONTRIB_OPS).run(None, feeds)
