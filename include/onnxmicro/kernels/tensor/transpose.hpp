// SPDX-License-Identifier: MIT
// Transpose: output axis i is input axis perm[i] (perm defaults to the reversed axes). Opsets 13, 21, 23, 24
// and 25 only widened the dtype list, so one kernel serves every version; elements move as raw bits (1, 2, 4, 8
// or 16 bytes, or packed 2/4/6-bit elements for the sub-byte dtypes).
//
// prepare() simplifies the permutation before anything runs: size-1 axes are dropped and input axes that stay
// adjacent in the output are merged, so NCHW->NHWC ([0,2,3,1]) becomes a batch of 2-D transposes
// (N x [C, H*W] -> N x [H*W, C]) and an identity permutation becomes one memcpy.
#pragma once
#include <cstdint>
#include <cstring>

#include "onnxmicro/kernels/common/shape_util.hpp"
#include "onnxmicro/kernels/kernel_api.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

namespace transpose_detail {

/// The implementation of Transpose (see the file comment).
struct TransposeImpl : KernelDefaults {
  static constexpr std::string_view kOpType = "Transpose";
  static constexpr int kInput = 0;
  static constexpr int kOutput = 0;

  enum class Plan : std::uint8_t {
    copy,        ///< the permutation keeps element order: one memcpy
    batched_2d,  ///< [batch, rows, cols] -> [batch, cols, rows]
    general,     ///< odometer over the output with per-axis input strides
  };

  struct State {
    Plan plan;
    std::uint8_t element_bits;
    int rank;                            ///< rank after simplification
    std::int64_t out_dims[kMaxRank];     ///< simplified output dims
    std::int64_t src_strides[kMaxRank];  ///< input element stride of each simplified output axis
    std::int64_t batch, rows, cols;      ///< batched_2d only (input is [batch, rows, cols])
  };

  static Status prepare(PrepareContext& ctx) noexcept {
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kInput));
    const TensorInfo& in = ctx.input(kInput);
    std::size_t bits = 0;
    ONNXMICRO_RETURN_IF_ERROR(shape_util::input_element_bits(ctx, kInput, bits));
    const int rank = in.shape.rank();

    std::int64_t perm[kMaxRank];
    std::size_t count = 0;
    bool present = false;
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute_ints("perm", perm, kMaxRank, count, present));
    if (!present) {
      for (int i = 0; i < rank; ++i) perm[i] = rank - 1 - i;
      count = static_cast<std::size_t>(rank);
    }
    ONNXMICRO_RETURN_IF_ERROR(validate_perm(perm, count, rank));

    Shape out;
    out.resize(rank);
    for (int i = 0; i < rank; ++i) out[i] = in.shape[static_cast<int>(perm[i])];
    ctx.set_output(kOutput, in.dtype, out);

    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
    state->element_bits = static_cast<std::uint8_t>(bits);
    plan(in.shape, perm, *state);
    return {};
  }

  static Status run(RunContext& ctx) noexcept {
    const State& state = ctx.state<State>();
    const ConstTensorView& in = ctx.input(kInput);
    void* dst = ctx.output(kOutput).data;
    if (in.element_count() == 0) return {};
    if (state.plan == Plan::copy) {
      std::memcpy(dst, in.data, in.byte_size());
      if (state.element_bits < 8) shape_util::clear_padding_bits(dst, in.element_count(), state.element_bits);
      return {};
    }
    if (state.element_bits < 8) {
      run_packed(state, in.data, dst, in.element_count());
      return {};
    }
    switch (state.element_bits) {
      case 8: run_typed<std::uint8_t>(state, in.data, dst); break;
      case 16: run_typed<std::uint16_t>(state, in.data, dst); break;
      case 32: run_typed<std::uint32_t>(state, in.data, dst); break;
      case 64: run_typed<std::uint64_t>(state, in.data, dst); break;
      default: run_typed<Bits128>(state, in.data, dst); break;
    }
    return {};
  }

  /// Fills the plan of `state` for transposing `shape` by `perm` (already validated).
  static void plan(const Shape& shape, const std::int64_t* perm, State& state) noexcept {
    const int rank = shape.rank();
    // 1. Drop size-1 axes: they do not change element order.
    int new_index[kMaxRank];
    std::int64_t dims[kMaxRank];
    int kept = 0;
    for (int a = 0; a < rank; ++a) {
      new_index[a] = shape[a] == 1 ? -1 : kept;
      if (shape[a] != 1) dims[kept++] = shape[a];
    }
    int p[kMaxRank];
    int n = 0;
    for (int i = 0; i < rank; ++i) {
      int a = new_index[perm[i]];
      if (a >= 0) p[n++] = a;
    }
    // 2. Merge input axis a into a-1 when it directly follows a-1 in the output too.
    bool merged_into_previous[kMaxRank] = {};
    for (int i = 1; i < n; ++i)
      if (p[i] == p[i - 1] + 1) merged_into_previous[p[i]] = true;
    int group_of[kMaxRank] = {};
    std::int64_t group_dims[kMaxRank] = {};
    int groups = 0;
    for (int a = 0; a < n; ++a) {
      if (!merged_into_previous[a]) group_dims[groups++] = 1;
      group_of[a] = groups - 1;
      group_dims[groups - 1] *= dims[a];
    }
    int q[kMaxRank];
    int m = 0;
    for (int i = 0; i < n; ++i)
      if (i == 0 || !merged_into_previous[p[i]]) q[m++] = group_of[p[i]];

    // 3. Pick the loop. Element strides of the simplified input, per output axis.
    std::int64_t in_strides[kMaxRank] = {};
    std::int64_t stride = 1;
    for (int a = groups - 1; a >= 0; --a) {
      in_strides[a] = stride;
      stride *= group_dims[a];
    }
    state.rank = m;
    for (int i = 0; i < m; ++i) {
      state.out_dims[i] = group_dims[q[i]];
      state.src_strides[i] = in_strides[q[i]];
    }
    bool identity = true;
    for (int i = 0; i < m; ++i) identity = identity && q[i] == i;
    if (identity) {
      state.plan = Plan::copy;
    } else if (m == 2 || (m == 3 && q[0] == 0 && q[1] == 2 && q[2] == 1)) {
      // m == 2 is necessarily [1, 0] (a non-identity permutation of two axes).
      state.plan = Plan::batched_2d;
      state.batch = m == 3 ? group_dims[0] : 1;
      state.rows = group_dims[m - 2];
      state.cols = group_dims[m - 1];
    } else {
      state.plan = Plan::general;
    }
  }

 private:
  struct Bits128 {
    std::uint64_t low, high;
  };

  static Status validate_perm(const std::int64_t* perm, std::size_t count, int rank) noexcept {
    if (count != static_cast<std::size_t>(rank)) {
      Status status(StatusCode::invalid_model);
      status << "attribute 'perm' ";
      shape_util::append_int_list(status, perm, count);
      return status << " has " << count << " values, expected " << rank << " (the rank of input 0)";
    }
    bool seen[kMaxRank] = {};
    for (int i = 0; i < rank; ++i) {
      if (perm[i] < 0 || perm[i] >= rank || seen[perm[i]]) {
        Status status(StatusCode::invalid_model);
        status << "attribute 'perm' ";
        shape_util::append_int_list(status, perm, count);
        status << " is not a permutation of [0, " << rank - 1 << "]: perm[" << i << "] is " << perm[i];
        return status << (perm[i] >= 0 && perm[i] < rank ? " (repeated)" : " (out of range)");
      }
      seen[perm[i]] = true;
    }
    return {};
  }

  template <typename T>
  static void run_typed(const State& state, const void* src_bytes, void* dst_bytes) noexcept {
    const T* src = static_cast<const T*>(src_bytes);
    T* dst = static_cast<T*>(dst_bytes);
    if (state.plan == Plan::batched_2d) {
      // Blocked so that both the rows read and the rows written stay in cache.
      constexpr std::int64_t kBlock = 16;
      const std::int64_t rows = state.rows, cols = state.cols;
      for (std::int64_t b = 0; b < state.batch; ++b) {
        const T* s = src + b * rows * cols;
        T* d = dst + b * rows * cols;
        for (std::int64_t r0 = 0; r0 < rows; r0 += kBlock) {
          const std::int64_t r1 = r0 + kBlock < rows ? r0 + kBlock : rows;
          for (std::int64_t c0 = 0; c0 < cols; c0 += kBlock) {
            const std::int64_t c1 = c0 + kBlock < cols ? c0 + kBlock : cols;
            for (std::int64_t c = c0; c < c1; ++c)
              for (std::int64_t r = r0; r < r1; ++r) d[c * rows + r] = s[r * cols + c];
          }
        }
      }
      return;
    }
    // General: walk the output in order; the innermost axis is a strided read.
    const int rank = state.rank;
    const std::int64_t inner = state.out_dims[rank - 1];
    const std::int64_t inner_stride = state.src_strides[rank - 1];
    std::int64_t index[kMaxRank] = {};
    std::int64_t src_offset = 0;
    for (;;) {
      const T* s = src + src_offset;
      for (std::int64_t k = 0; k < inner; ++k) dst[k] = s[k * inner_stride];
      dst += inner;
      int axis = rank - 2;
      for (; axis >= 0; --axis) {
        src_offset += state.src_strides[axis];
        if (++index[axis] < state.out_dims[axis]) break;
        src_offset -= state.src_strides[axis] * state.out_dims[axis];
        index[axis] = 0;
      }
      if (axis < 0) return;
    }
  }

  // Packed sub-byte elements: the same odometer, one element at a time (such tensors are small and rare).
  static void run_packed(const State& state, const void* src, void* dst, std::int64_t count) noexcept {
    const int rank = state.rank;
    std::int64_t index[kMaxRank] = {};
    std::int64_t src_offset = 0;
    for (std::int64_t out = 0; out < count; ++out) {
      shape_util::set_packed(dst, out, state.element_bits, shape_util::get_packed(src, src_offset, state.element_bits));
      for (int axis = rank - 1; axis >= 0; --axis) {
        src_offset += state.src_strides[axis];
        if (++index[axis] < state.out_dims[axis]) break;
        src_offset -= state.src_strides[axis] * state.out_dims[axis];
        index[axis] = 0;
      }
    }
    shape_util::clear_padding_bits(dst, count, state.element_bits);
  }
};

}  // namespace transpose_detail

// Opset 1: perm attribute (default: reversed axes). Later versions only add dtypes.
using Transpose_1 = VersionedKernel<transpose_detail::TransposeImpl, 1>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
