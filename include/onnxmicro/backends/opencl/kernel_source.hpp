// SPDX-License-Identifier: MIT
// The OpenCL C program every session builds (or loads from the program cache). One convention for every kernel:
//
//   kernel void om_NAME(global uchar* memory, int params)
//
// `memory` is the session's one device buffer (arena at the host arena's offsets, then constants, then parameter
// blocks, then the error word); `params` is the index, in ints, of this launch's parameter block. Tensors are
// element offsets into the buffer read as float (int64 indices as long, bools as uchar); float parameters are
// stored as their bits (as_float). Work is one-dimensional: one work-item per output element (or row), launched
// rounded up, so every kernel first checks its index against the count in its block.
//
// Numerics follow the CPU kernels' definitions (not bit-for-bit: summation order and the device's exp/erf/tanh
// differ within their OpenCL ULP bounds), and the program is built without -cl-fast-relaxed-math.
#pragma once

ONNXMICRO_NAMESPACE_BEGIN
namespace opencl {

/// Kernel names, in the order of the enum below (the backend creates them by name).
enum class KernelId : int {
  unary,
  binary,
  where_select,
  copy_strided,
  conv2d,
  matmul,
  pool2d,
  global_pool,
  softmax,
  layer_norm,
  batch_norm,
  gather,
  reduce,
  cast,
  resize,
  count
};

inline const char* kernel_name(KernelId id) noexcept {
  static const char* const names[] = {"om_unary",   "om_binary",     "om_where",      "om_copy_strided",
                                      "om_conv2d",  "om_matmul",     "om_pool2d",     "om_global_pool",
                                      "om_softmax", "om_layer_norm", "om_batch_norm", "om_gather",
                                      "om_reduce",  "om_cast",       "om_resize"};
  return names[static_cast<int>(id)];
}

/// Unary op codes of om_unary (parameters: x, y, count, op, alpha, beta).
enum class UnaryOp : int {
  relu,
  leaky_relu,
  clip,
  sigmoid,
  tanh,
  erf,
  gelu,
  gelu_tanh,
  hard_swish,
  hard_sigmoid,
  exp,
  sqrt,
  neg,
  abs,
  log,
  reciprocal,
  elu,
  softplus,
  identity,
  floor,
  ceil,
  sin,
  cos,
  softsign,
  scale  ///< alpha * x (Mean's division)
};

/// Binary op codes of om_binary.
/// Binary op codes of om_binary; equal and after write bool.
enum class BinaryOp : int { add, sub, mul, div, pow, max, min, prelu, equal, less, greater, less_equal, greater_equal };

/// Largest rank of the broadcasting and strided kernels (their parameter blocks hold this many dims).
constexpr int kMaxKernelRank = 6;

inline const char* program_source() noexcept {
  return R"CLC(
#define PARAMS global const int* p = (global const int*)memory + params
#define F ((global float*)memory)

kernel void om_unary(global uchar* memory, int params) {
  PARAMS;
  const int i = get_global_id(0);
  if (i >= p[2]) return;
  const float x = F[p[0] + i];
  const float a = as_float(p[4]);
  const float b = as_float(p[5]);
  float y;
  switch (p[3]) {
    case 0: y = x < 0.0f ? 0.0f : x; break;
    case 1: y = x < 0.0f ? a * x : x; break;
    case 2: y = x < a ? a : (x > b ? b : x); break;
    case 3: y = 1.0f / (1.0f + exp(-x)); break;
    case 4: y = tanh(x); break;
    case 5: y = erf(x); break;
    case 6: y = 0.5f * x * (1.0f + erf(x * 0.70710678118654752f)); break;
    case 7: y = 0.5f * x * (1.0f + tanh(0.79788456080286536f * (x + 0.044715f * x * x * x))); break;
    case 8: y = x * fmax(0.0f, fmin(1.0f, x / 6.0f + 0.5f)); break;
    case 9: y = fmax(0.0f, fmin(1.0f, a * x + b)); break;
    case 10: y = exp(x); break;
    case 11: y = sqrt(x); break;
    case 12: y = -x; break;
    case 13: y = fabs(x); break;
    case 14: y = log(x); break;
    case 15: y = 1.0f / x; break;
    case 16: y = x < 0.0f ? a * (exp(x) - 1.0f) : x; break;
    case 17: y = x > 20.0f ? x : log(1.0f + exp(x)); break;
    case 18: y = x; break;
    case 19: y = floor(x); break;
    case 20: y = ceil(x); break;
    case 21: y = sin(x); break;
    case 22: y = cos(x); break;
    case 23: y = x / (1.0f + fabs(x)); break;
    default: y = a * x; break;
  }
  F[p[1] + i] = y;
}

// a, b, y, count, op, rank, dims[6], a strides[6], b strides[6] (0 where broadcast)
kernel void om_binary(global uchar* memory, int params) {
  PARAMS;
  const int i = get_global_id(0);
  if (i >= p[3]) return;
  int rest = i, ia = 0, ib = 0;
  for (int d = p[5] - 1; d >= 0; --d) {
    const int c = rest % p[6 + d];
    rest /= p[6 + d];
    ia += c * p[12 + d];
    ib += c * p[18 + d];
  }
  const float a = F[p[0] + ia];
  const float b = F[p[1] + ib];
  if (p[4] >= 8) {  // comparisons write bool (the output offset is in bytes)
    bool r;
    switch (p[4]) {
      case 8: r = a == b; break;
      case 9: r = a < b; break;
      case 10: r = a > b; break;
      case 11: r = a <= b; break;
      default: r = a >= b; break;
    }
    memory[p[2] + i] = r ? 1 : 0;
    return;
  }
  float y;
  switch (p[4]) {
    case 0: y = a + b; break;
    case 1: y = a - b; break;
    case 2: y = a * b; break;
    case 3: y = a / b; break;
    case 4: y = pow(a, b); break;
    case 5: y = fmax(a, b); break;
    case 6: y = fmin(a, b); break;
    case 7: y = a < 0.0f ? a * b : a; break;
    default: y = a; break;
  }
  F[p[2] + i] = y;
}

// condition (byte offset), x, y, out, count, rank, dims[6], strides of condition, x, y [6 each]
kernel void om_where(global uchar* memory, int params) {
  PARAMS;
  const int i = get_global_id(0);
  if (i >= p[4]) return;
  int rest = i, ic = 0, ix = 0, iy = 0;
  for (int d = p[5] - 1; d >= 0; --d) {
    const int c = rest % p[6 + d];
    rest /= p[6 + d];
    ic += c * p[12 + d];
    ix += c * p[18 + d];
    iy += c * p[24 + d];
  }
  F[p[3] + i] = memory[p[0] + ic] ? F[p[1] + ix] : F[p[2] + iy];
}

// x, y, count, rank, dims[6], x strides[6], y strides[6]: y[sum c*sy] = x[sum c*sx] (Transpose, Slice, Concat, ...)
kernel void om_copy_strided(global uchar* memory, int params) {
  PARAMS;
  const int i = get_global_id(0);
  if (i >= p[2]) return;
  int rest = i, ix = 0, iy = 0;
  for (int d = p[3] - 1; d >= 0; --d) {
    const int c = rest % p[4 + d];
    rest /= p[4 + d];
    ix += c * p[10 + d];
    iy += c * p[16 + d];
  }
  F[p[1] + iy] = F[p[0] + ix];
}

// x, w, bias (-1: none), y, N, C, H, W, M, OH, OW, KH, KW, sh, sw, ph, pw, dh, dw, group, has_min, has_max, min, max
kernel void om_conv2d(global uchar* memory, int params) {
  PARAMS;
  const int N = p[4], C = p[5], H = p[6], W = p[7], M = p[8], OH = p[9], OW = p[10], KH = p[11], KW = p[12];
  const int i = get_global_id(0);
  if (i >= N * M * OH * OW) return;
  const int ow = i % OW;
  int t = i / OW;
  const int oh = t % OH;
  t /= OH;
  const int m = t % M;
  const int n = t / M;
  const int cg = C / p[19];
  const int g = m / (M / p[19]);
  float acc = p[2] >= 0 ? F[p[2] + m] : 0.0f;
  const int ih0 = oh * p[13] - p[15];
  const int iw0 = ow * p[14] - p[16];
  for (int c = 0; c < cg; ++c) {
    const int x_plane = p[0] + (n * C + g * cg + c) * H * W;
    const int w_plane = p[1] + (m * cg + c) * KH * KW;
    for (int kh = 0; kh < KH; ++kh) {
      const int ih = ih0 + kh * p[17];
      if (ih < 0 || ih >= H) continue;
      for (int kw = 0; kw < KW; ++kw) {
        const int iw = iw0 + kw * p[18];
        if (iw < 0 || iw >= W) continue;
        acc += F[x_plane + ih * W + iw] * F[w_plane + kh * KW + kw];
      }
    }
  }
  if (p[20] && acc < as_float(p[22])) acc = as_float(p[22]);
  if (p[21] && acc > as_float(p[23])) acc = as_float(p[23]);
  F[p[3] + i] = acc;
}

// a, b, c (-1: none), y, batch, M, N, K, batch rank, batch dims[4], a batch strides[4], b batch strides[4],
// a row/col strides, b row/col strides, c row/col strides, alpha, beta, has_min, has_max, min, max
kernel void om_matmul(global uchar* memory, int params) {
  PARAMS;
  const int M = p[5], N = p[6], K = p[7];
  const int i = get_global_id(0);
  if (i >= p[4] * M * N) return;
  const int n = i % N;
  int t = i / N;
  const int m = t % M;
  int rest = t / M, oa = 0, ob = 0;
  for (int d = p[8] - 1; d >= 0; --d) {
    const int c = rest % p[9 + d];
    rest /= p[9 + d];
    oa += c * p[13 + d];
    ob += c * p[17 + d];
  }
  const int a0 = p[0] + oa + m * p[21];
  const int b0 = p[1] + ob + n * p[24];
  float acc = 0.0f;
  for (int k = 0; k < K; ++k) acc += F[a0 + k * p[22]] * F[b0 + k * p[23]];
  acc *= as_float(p[27]);
  if (p[2] >= 0) acc += as_float(p[28]) * F[p[2] + m * p[25] + n * p[26]];
  if (p[29] && acc < as_float(p[31])) acc = as_float(p[31]);
  if (p[30] && acc > as_float(p[32])) acc = as_float(p[32]);
  F[p[3] + i] = acc;
}

// x, y, NC, H, W, OH, OW, KH, KW, sh, sw, ph, pw, dh, dw, average (0: max), count_include_pad, ph_end, pw_end
kernel void om_pool2d(global uchar* memory, int params) {
  PARAMS;
  const int H = p[3], W = p[4], OH = p[5], OW = p[6];
  const int i = get_global_id(0);
  if (i >= p[2] * OH * OW) return;
  const int ow = i % OW;
  const int t = i / OW;
  const int oh = t % OH;
  const int plane = p[0] + (t / OH) * H * W;
  float best = -INFINITY, sum = 0.0f;
  int count = 0;
  for (int kh = 0; kh < p[7]; ++kh) {
    const int ih = oh * p[9] - p[11] + kh * p[13];
    for (int kw = 0; kw < p[8]; ++kw) {
      const int iw = ow * p[10] - p[12] + kw * p[14];
      if (ih >= 0 && ih < H && iw >= 0 && iw < W) {
        const float v = F[plane + ih * W + iw];
        best = v > best ? v : best;
        sum += v;
        ++count;
      } else if (p[16] && ih < H + p[17] && iw < W + p[18]) {
        ++count;
      }
    }
  }
  F[p[1] + i] = p[15] ? sum / (float)count : best;
}

// x, y, NC, HW, average (0: max)
kernel void om_global_pool(global uchar* memory, int params) {
  PARAMS;
  const int i = get_global_id(0);
  if (i >= p[2]) return;
  const int HW = p[3];
  const int base = p[0] + i * HW;
  float sum = 0.0f, best = -INFINITY;
  for (int k = 0; k < HW; ++k) {
    const float v = F[base + k];
    sum += v;
    best = v > best ? v : best;
  }
  F[p[1] + i] = p[4] ? sum / (float)HW : best;
}

// x, y, outer, axis length, inner, log (LogSoftmax)
kernel void om_softmax(global uchar* memory, int params) {
  PARAMS;
  const int L = p[3], inner = p[4];
  const int i = get_global_id(0);
  if (i >= p[2] * inner) return;
  const int base = (i / inner) * L * inner + i % inner;
  float top = -INFINITY;
  for (int k = 0; k < L; ++k) top = fmax(top, F[p[0] + base + k * inner]);
  float sum = 0.0f;
  for (int k = 0; k < L; ++k) sum += exp(F[p[0] + base + k * inner] - top);
  const float log_sum = log(sum);
  for (int k = 0; k < L; ++k) {
    const float shifted = F[p[0] + base + k * inner] - top;
    F[p[1] + base + k * inner] = p[5] ? shifted - log_sum : exp(shifted) / sum;
  }
}

// x, scale, bias (-1: none), y, rows, cols, epsilon
kernel void om_layer_norm(global uchar* memory, int params) {
  PARAMS;
  const int cols = p[5];
  const int r = get_global_id(0);
  if (r >= p[4]) return;
  const int x0 = p[0] + r * cols;
  float mean = 0.0f;
  for (int j = 0; j < cols; ++j) mean += F[x0 + j];
  mean /= (float)cols;
  float var = 0.0f;
  for (int j = 0; j < cols; ++j) {
    const float d = F[x0 + j] - mean;
    var += d * d;
  }
  var /= (float)cols;
  const float inv = 1.0f / sqrt(var + as_float(p[6]));
  for (int j = 0; j < cols; ++j) {
    float y = (F[x0 + j] - mean) * inv * F[p[1] + j];
    if (p[2] >= 0) y += F[p[2] + j];
    F[p[3] + r * cols + j] = y;
  }
}

// x, scale, bias, mean, var, y, count, C, inner, epsilon
kernel void om_batch_norm(global uchar* memory, int params) {
  PARAMS;
  const int i = get_global_id(0);
  if (i >= p[6]) return;
  const int c = (i / p[8]) % p[7];
  const float inv = 1.0f / sqrt(F[p[4] + c] + as_float(p[9]));
  F[p[5] + i] = (F[p[0] + i] - F[p[3] + c]) * inv * F[p[1] + c] + F[p[2] + c];
}

// data, indices (element offset; long or int), y, outer, axis length, inner, index count, indices are int32,
// error word (int offset): an index out of range sets it to 1 and writes 0
kernel void om_gather(global uchar* memory, int params) {
  PARAMS;
  const int inner = p[5], count = p[6], L = p[4];
  const int i = get_global_id(0);
  if (i >= p[3] * count * inner) return;
  const int in = i % inner;
  const int t = i / inner;
  const int j = t % count;
  const int o = t / count;
  long k = p[7] ? (long)((global const int*)memory)[p[1] + j] : ((global const long*)memory)[p[1] + j];
  if (k < 0) k += L;
  if (k < 0 || k >= L) {
    ((global int*)memory)[p[8]] = 1;
    F[p[2] + i] = 0.0f;
    return;
  }
  F[p[2] + i] = F[p[0] + (o * L + (int)k) * inner + in];
}

// x, y, outer, length, inner, mode (0 sum, 1 mean, 2 max, 3 min)
kernel void om_reduce(global uchar* memory, int params) {
  PARAMS;
  const int L = p[3], inner = p[4];
  const int i = get_global_id(0);
  if (i >= p[2] * inner) return;
  const int base = p[0] + (i / inner) * L * inner + i % inner;
  float acc = p[5] == 2 ? -INFINITY : (p[5] == 3 ? INFINITY : 0.0f);
  for (int k = 0; k < L; ++k) {
    const float v = F[base + k * inner];
    acc = p[5] == 2 ? fmax(acc, v) : (p[5] == 3 ? fmin(acc, v) : acc + v);
  }
  F[p[1] + i] = p[5] == 1 ? acc / (float)L : acc;
}

// x, y, count, from (0 float, 1 int32, 2 int64, 3 bool/uint8), to (0 float, 1 int32, 2 int64); offsets in elements
// of each tensor's own type. Float to integer truncates toward zero, as C and the CPU kernel do.
kernel void om_cast(global uchar* memory, int params) {
  PARAMS;
  const int i = get_global_id(0);
  if (i >= p[2]) return;
  float f = 0.0f;
  long v = 0;
  switch (p[3]) {
    case 0: f = F[p[0] + i]; v = (long)f; break;
    case 1: v = ((global const int*)memory)[p[0] + i]; f = (float)v; break;
    case 2: v = ((global const long*)memory)[p[0] + i]; f = (float)v; break;
    default: v = memory[p[0] + i]; f = (float)v; break;
  }
  switch (p[4]) {
    case 0: F[p[1] + i] = f; break;
    case 1: ((global int*)memory)[p[1] + i] = (int)v; break;
    default: ((global long*)memory)[p[1] + i] = v; break;
  }
}
// x, y, count, rank, output dims[6], per axis (tap count, table index)[6], extrapolation value, then the tables the
// CPU kernel's prepare computed (nn/resize_util.hpp): per axis and output coordinate, its flags (1: extrapolated,
// 2: zero) and `tap count` (input offset, weight) pairs. Every combination of the axes' taps is summed.
kernel void om_resize(global uchar* memory, int params) {
  PARAMS;
  const int i = get_global_id(0);
  if (i >= p[2]) return;
  const int rank = p[3];
  int entry[6];
  int rest = i, flags = 0, combinations = 1;
  for (int d = rank - 1; d >= 0; --d) {
    const int c = rest % p[4 + d];
    rest /= p[4 + d];
    entry[d] = p[11 + 2 * d] + c * (1 + 2 * p[10 + 2 * d]);
    flags |= p[entry[d]];
    combinations *= p[10 + 2 * d];
  }
  if (flags & 1) {
    F[p[1] + i] = as_float(p[22]);
    return;
  }
  if (flags & 2) {
    F[p[1] + i] = 0.0f;
    return;
  }
  float acc = 0.0f;
  for (int k = 0; k < combinations; ++k) {
    int which = k, offset = 0;
    float weight = 1.0f;
    for (int d = rank - 1; d >= 0; --d) {
      const int taps = p[10 + 2 * d];
      const int e = entry[d] + 1 + 2 * (which % taps);
      which /= taps;
      offset += p[e];
      weight *= as_float(p[e + 1]);
    }
    acc += weight * F[p[0] + offset];
  }
  F[p[1] + i] = acc;
}
)CLC";
}

}  // namespace opencl
ONNXMICRO_NAMESPACE_END
