// SPDX-License-Identifier: MIT
// RotaryEmbedding (RoPE): rotates the first rotary_embedding_dim features of every head by position-dependent
// angles: for each pair (x1, x2), y1 = cos*x1 - sin*x2 and y2 = sin*x1 + cos*x2. Pairs are the two halves of
// the rotated features, or neighbours (x[2i], x[2i+1]) when `interleaved`. The input is (batch, heads, seq,
// head_size), or (batch, seq, heads * head_size) with the `num_heads` attribute. cos/sin come from
// cos_cache[position_ids[b, s]] (caches (max_position, rotary_dim / 2)) or, without position_ids, from
// cos_cache[b, s] (caches (batch, seq, rotary_dim / 2)). Features past rotary_dim pass through unchanged.
// float16/bfloat16 compute in float and round after each product and sum, as the reference does.
#pragma once
#include <cstdint>

#include "onnxmicro/kernels/nn/attention_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

namespace rotary_embedding_detail {

/// The implementation of RotaryEmbedding (see the file comment).
struct RotaryEmbeddingImpl : KernelDefaults {
  static constexpr std::string_view kOpType = "RotaryEmbedding";
  static constexpr int kInPlaceInput = 0;
  static constexpr int kInput = 0;
  static constexpr int kCos = 1;
  static constexpr int kSin = 2;
  static constexpr int kPositionIds = 3;
  static constexpr int kOutput = 0;

  using RotaryTypes = TypeList<float, float16_t, bfloat16_t>;

  struct State;
  using Function = Status (*)(const RunContext& ctx, const State& state) noexcept;
  struct State {
    Function compute;
    std::int64_t batch, heads, seq, head_size, rotary_half;
    // Element strides of the input (and output) seen as (batch, head, seq, feature).
    std::int64_t batch_stride, head_stride, seq_stride;
    bool interleaved;
    bool has_position_ids;
    std::int64_t max_position;  // rows of the caches when position_ids index them
  };

  static Status prepare(PrepareContext& ctx) noexcept {
    using attention_util::require_rank;
    ONNXMICRO_RETURN_IF_ERROR(require_rank(ctx, kInput, 3, 4));
    ONNXMICRO_RETURN_IF_ERROR(attention_util::require_dtype(ctx, kInput, RotaryTypes{}));
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_same_dtype(kInput, kCos));
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_same_dtype(kInput, kSin));
    State* st = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(st));
    const Shape& x = ctx.input(kInput).shape;
    st->batch = x[0];
    if (x.rank() == 4) {
      st->heads = x[1];
      st->seq = x[2];
      st->head_size = x[3];
      st->batch_stride = x[1] * x[2] * x[3];
      st->head_stride = x[2] * x[3];
      st->seq_stride = x[3];
    } else {
      ONNXMICRO_RETURN_IF_ERROR(attention_util::positive_attribute(ctx, "num_heads", st->heads, true));
      if (x[2] % st->heads != 0) {
        return ctx.input_error(kInput) << " of shape " << x << ": hidden size " << x[2]
                                       << " is not divisible by attribute 'num_heads' (" << st->heads << ")";
      }
      st->seq = x[1];
      st->head_size = x[2] / st->heads;
      st->batch_stride = x[1] * x[2];
      st->head_stride = st->head_size;
      st->seq_stride = x[2];
    }
    std::int64_t rotary_dim = 0;
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("rotary_embedding_dim", rotary_dim, 0));
    if (rotary_dim == 0) rotary_dim = st->head_size;
    if (rotary_dim < 0 || rotary_dim > st->head_size || rotary_dim % 2 != 0) {
      return Status(StatusCode::invalid_model)
             << "attribute 'rotary_embedding_dim' is " << rotary_dim
             << ", expected an even value in [0, head_size = " << st->head_size << "]";
    }
    st->rotary_half = rotary_dim / 2;
    std::int64_t interleaved = 0;
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("interleaved", interleaved, 0));
    st->interleaved = interleaved != 0;

    st->has_position_ids = ctx.has_input(kPositionIds);
    const int cache_rank = st->has_position_ids ? 2 : 3;
    ONNXMICRO_RETURN_IF_ERROR(require_rank(ctx, kCos, cache_rank, cache_rank));
    ONNXMICRO_RETURN_IF_ERROR(require_rank(ctx, kSin, cache_rank, cache_rank));
    if (ctx.input(kCos).shape != ctx.input(kSin).shape) {
      return ctx.input_error(kSin, "sin_cache")
             << " has shape " << ctx.input(kSin).shape << ", expected cos_cache's shape " << ctx.input(kCos).shape;
    }
    ONNXMICRO_RETURN_IF_ERROR(
        attention_util::require_dim(ctx, kCos, cache_rank - 1, st->rotary_half, "rotary_embedding_dim / 2"));
    if (st->has_position_ids) {
      ONNXMICRO_RETURN_IF_ERROR(require_rank(ctx, kPositionIds, 2, 2));
      if (ctx.input(kPositionIds).dtype != DataType::int64) return ctx.unsupported_input_dtype(kPositionIds);
      ONNXMICRO_RETURN_IF_ERROR(attention_util::require_dim(ctx, kPositionIds, 0, st->batch, "batch size"));
      ONNXMICRO_RETURN_IF_ERROR(attention_util::require_dim(ctx, kPositionIds, 1, st->seq, "sequence length"));
      st->max_position = ctx.input(kCos).shape[0];
    } else {
      ONNXMICRO_RETURN_IF_ERROR(attention_util::require_dim(ctx, kCos, 0, st->batch, "batch size"));
      ONNXMICRO_RETURN_IF_ERROR(attention_util::require_dim(ctx, kCos, 1, st->seq, "sequence length"));
      st->max_position = 0;
    }
    visit_dtype(ctx.input(kInput).dtype, RotaryTypes{},
                [&](auto tag) noexcept { st->compute = &compute<typename decltype(tag)::type>; });
    ctx.set_output(kOutput, ctx.input(kInput).dtype, x);
    return {};
  }

  static Status run(RunContext& ctx) noexcept {
    const State& st = ctx.state<State>();
    return st.compute(ctx, st);
  }

 private:
  // Safe in place: each pair is read before it is written and nothing else reads it afterwards.
  template <typename T>
  static Status compute(const RunContext& ctx, const State& st) noexcept {
    using attention_util::round_to;
    using C = compute_t<T>;
    const T* x = static_cast<const T*>(ctx.input(kInput).data);
    const T* cos_cache = static_cast<const T*>(ctx.input(kCos).data);
    const T* sin_cache = static_cast<const T*>(ctx.input(kSin).data);
    const std::int64_t* positions =
        st.has_position_ids ? static_cast<const std::int64_t*>(ctx.input(kPositionIds).data) : nullptr;
    T* y = static_cast<T*>(ctx.output(kOutput).data);
    const std::int64_t half = st.rotary_half;
    for (std::int64_t b = 0; b < st.batch; ++b) {
      for (std::int64_t s = 0; s < st.seq; ++s) {
        std::int64_t row = b * st.seq + s;
        if (positions != nullptr) {
          row = positions[row];
          if (row < 0 || row >= st.max_position) {
            return Status(StatusCode::out_of_range) << "input 3 'position_ids' holds " << row << ", outside [0, "
                                                    << st.max_position << ") (the rows of cos_cache)";
          }
        }
        const T* cos_row = cos_cache + row * half;
        const T* sin_row = sin_cache + row * half;
        for (std::int64_t h = 0; h < st.heads; ++h) {
          const std::int64_t base = b * st.batch_stride + h * st.head_stride + s * st.seq_stride;
          const T* in = x + base;
          T* out = y + base;
          for (std::int64_t i = 0; i < half; ++i) {
            const std::int64_t i1 = st.interleaved ? 2 * i : i;
            const std::int64_t i2 = st.interleaved ? 2 * i + 1 : i + half;
            const C x1 = load_element(in[i1]);
            const C x2 = load_element(in[i2]);
            const C c = load_element(cos_row[i]);
            const C sn = load_element(sin_row[i]);
            out[i1] = store_element<T>(round_to<T>(c * x1) - round_to<T>(sn * x2));
            out[i2] = store_element<T>(round_to<T>(sn * x1) + round_to<T>(c * x2));
          }
          if (out != in) {
            for (std::int64_t d = 2 * half; d < st.head_size; ++d) out[d] = in[d];
          }
        }
      }
    }
    return {};
  }
};

}  // namespace rotary_embedding_detail

// Opset 23: first version.
using RotaryEmbedding_23 = VersionedKernel<rotary_embedding_detail::RotaryEmbeddingImpl, 23>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
