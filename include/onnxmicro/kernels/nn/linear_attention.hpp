// SPDX-License-Identifier: MIT
// LinearAttention: a recurrent state S (d_k x d_v per KV head) updated once per token t and read by the query:
//   linear:      S = S + k (x) v
//   gated:       S = exp(g) * S + k (x) v
//   delta:       S = S + k (x) beta * (v - S^T k)
//   gated_delta: S = exp(g) * S + k (x) beta * (v - (exp(g) * S)^T k)       o_t = scale * q^T S
// query/key/value/decay/beta are packed (batch, T, heads * dim); decay is per KV head (last dim kv_heads) or per
// key feature (kv_heads * d_k); beta per KV head or one value (last dim 1). Query head h reads KV head
// h / (q_heads / kv_heads). past_state/present_state are (batch, kv_heads, d_k, d_v). As in the reference, the
// state and all arithmetic are float32 whatever the dtypes; present_state takes past_state's dtype (query's when
// there is no past_state). chunk_size is a tuning hint without effect on the result.
#pragma once
#include <cmath>
#include <cstdint>
#include <string_view>

#include "onnxmicro/kernels/nn/attention_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

namespace linear_attention_detail {

/// The implementation of LinearAttention (see the file comment).
struct LinearAttentionImpl : KernelDefaults {
  static constexpr std::string_view kOpType = "LinearAttention";
  static constexpr int kQuery = 0;
  static constexpr int kKey = 1;
  static constexpr int kValue = 2;
  static constexpr int kPastState = 3;
  static constexpr int kDecay = 4;
  static constexpr int kBeta = 5;
  static constexpr int kOutput = 0;
  static constexpr int kPresentState = 1;

  using LinearTypes = TypeList<float, float16_t, bfloat16_t>;

  struct State {
    attention_util::ElementLoader load_t;      // query/key/value/decay/beta dtype
    attention_util::ElementLoader load_state;  // past_state dtype
    void (*store_output)(void* data, std::int64_t index, float value) noexcept;
    void (*store_state)(void* data, std::int64_t index, float value) noexcept;
    std::int64_t batch, len, q_heads, kv_heads, group, d_k, d_v;
    bool gating, delta, has_past;
    std::int64_t decay_width;  // 1 (per head) or d_k (per key feature)
    std::int64_t beta_heads;   // kv_heads or 1
    float scale;
  };

  static Status prepare(PrepareContext& ctx) noexcept {
    using attention_util::require_rank;
    for (int i : {kQuery, kKey, kValue}) ONNXMICRO_RETURN_IF_ERROR(require_rank(ctx, i, 3, 3));
    ONNXMICRO_RETURN_IF_ERROR(attention_util::require_dtype(ctx, kQuery, LinearTypes{}));
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_same_dtype(kQuery, kKey));
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_same_dtype(kQuery, kValue));
    State* st = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(st));
    ONNXMICRO_RETURN_IF_ERROR(attention_util::positive_attribute(ctx, "q_num_heads", st->q_heads, true));
    ONNXMICRO_RETURN_IF_ERROR(attention_util::positive_attribute(ctx, "kv_num_heads", st->kv_heads, true));
    if (st->q_heads % st->kv_heads != 0) {
      return Status(StatusCode::invalid_model) << "attribute 'q_num_heads' (" << st->q_heads
                                               << ") must be a multiple of 'kv_num_heads' (" << st->kv_heads << ")";
    }
    st->group = st->q_heads / st->kv_heads;
    std::string_view rule;
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("update_rule", rule, "gated_delta"));
    if (rule != "linear" && rule != "gated" && rule != "delta" && rule != "gated_delta") {
      return Status(StatusCode::invalid_model)
             << "attribute 'update_rule' is '" << rule << "', expected 'linear', 'gated', 'delta' or 'gated_delta'";
    }
    st->gating = rule == "gated" || rule == "gated_delta";
    st->delta = rule == "delta" || rule == "gated_delta";

    const Shape& q = ctx.input(kQuery).shape;
    st->batch = q[0];
    st->len = q[1];
    if (q[2] % st->q_heads != 0 || ctx.input(kKey).shape[2] % st->kv_heads != 0 ||
        ctx.input(kValue).shape[2] % st->kv_heads != 0) {
      return Status(StatusCode::invalid_model)
             << "the last dims of query " << q << ", key " << ctx.input(kKey).shape << " and value "
             << ctx.input(kValue).shape << " must divide by q_num_heads / kv_num_heads";
    }
    st->d_k = q[2] / st->q_heads;
    st->d_v = ctx.input(kValue).shape[2] / st->kv_heads;
    const std::int64_t key_dims[3] = {st->batch, st->len, st->kv_heads * st->d_k};
    const std::int64_t value_dims[3] = {st->batch, st->len, st->kv_heads * st->d_v};
    for (int axis = 0; axis < 3; ++axis) {
      ONNXMICRO_RETURN_IF_ERROR(
          attention_util::require_dim(ctx, kKey, axis, key_dims[axis], "[batch, T, kv_num_heads * d_k]"));
      ONNXMICRO_RETURN_IF_ERROR(
          attention_util::require_dim(ctx, kValue, axis, value_dims[axis], "[batch, T, kv_num_heads * d_v]"));
    }
    ONNXMICRO_RETURN_IF_ERROR(prepare_gates(ctx, *st));

    const DataType t = ctx.input(kQuery).dtype;
    DataType state_dtype = t;
    st->has_past = ctx.has_input(kPastState);
    if (st->has_past) {
      ONNXMICRO_RETURN_IF_ERROR(require_rank(ctx, kPastState, 4, 4));
      ONNXMICRO_RETURN_IF_ERROR(attention_util::require_dtype(ctx, kPastState, LinearTypes{}));
      state_dtype = ctx.input(kPastState).dtype;
      const std::int64_t dims[4] = {st->batch, st->kv_heads, st->d_k, st->d_v};
      for (int axis = 0; axis < 4; ++axis) {
        ONNXMICRO_RETURN_IF_ERROR(
            attention_util::require_dim(ctx, kPastState, axis, dims[axis], "[batch, kv_num_heads, d_k, d_v]"));
      }
    }
    float scale = 0.0f;
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("scale", scale, 0.0f));
    st->scale = scale == 0.0f ? static_cast<float>(1.0 / std::sqrt(static_cast<double>(st->d_k))) : scale;

    st->load_t = attention_util::element_loader(t);
    st->load_state = attention_util::element_loader(state_dtype);
    st->store_output = store_function(t);
    st->store_state = store_function(state_dtype);
    ctx.set_output(kOutput, t, Shape{st->batch, st->len, st->q_heads * st->d_v});
    if (ctx.has_output(kPresentState))
      ctx.set_output(kPresentState, state_dtype, Shape{st->batch, st->kv_heads, st->d_k, st->d_v});
    // The float32 state of one KV head and one row of d_v corrections.
    ctx.request_scratch(static_cast<std::size_t>(st->d_k * st->d_v + st->d_v) * sizeof(float));
    return {};
  }

  static Status run(RunContext& ctx) noexcept {
    const State& st = ctx.state<State>();
    float* state = static_cast<float*>(ctx.scratch());
    float* correction = state + st.d_k * st.d_v;
    const void* q = ctx.input(kQuery).data;
    const void* k = ctx.input(kKey).data;
    const void* v = ctx.input(kValue).data;
    const void* decay = st.gating ? ctx.input(kDecay).data : nullptr;
    const void* beta = st.delta ? ctx.input(kBeta).data : nullptr;
    void* out = ctx.output(kOutput).data;
    const std::int64_t state_size = st.d_k * st.d_v;
    const std::int64_t k_row = st.kv_heads * st.d_k;
    const std::int64_t v_row = st.kv_heads * st.d_v;
    const std::int64_t q_row = st.q_heads * st.d_k;
    for (std::int64_t b = 0; b < st.batch; ++b) {
      for (std::int64_t kh = 0; kh < st.kv_heads; ++kh) {
        const std::int64_t state_base = (b * st.kv_heads + kh) * state_size;
        for (std::int64_t i = 0; i < state_size; ++i) {
          state[i] = st.has_past ? static_cast<float>(st.load_state(ctx.input(kPastState).data, state_base + i)) : 0.0f;
        }
        for (std::int64_t t = 0; t < st.len; ++t) {
          const std::int64_t token = b * st.len + t;
          const std::int64_t k_base = token * k_row + kh * st.d_k;
          const std::int64_t v_base = token * v_row + kh * st.d_v;
          if (st.gating) {
            const std::int64_t g_base = token * st.kv_heads * st.decay_width + kh * st.decay_width;
            for (std::int64_t d = 0; d < st.d_k; ++d) {
              const float g = std::exp(static_cast<float>(st.load_t(decay, g_base + (st.decay_width == 1 ? 0 : d))));
              for (std::int64_t m = 0; m < st.d_v; ++m) state[d * st.d_v + m] *= g;
            }
          }
          for (std::int64_t m = 0; m < st.d_v; ++m) correction[m] = static_cast<float>(st.load_t(v, v_base + m));
          if (st.delta) {
            const float rate =
                static_cast<float>(st.load_t(beta, token * st.beta_heads + (st.beta_heads == 1 ? 0 : kh)));
            for (std::int64_t m = 0; m < st.d_v; ++m) {
              float retrieved = 0.0f;
              for (std::int64_t d = 0; d < st.d_k; ++d) {
                retrieved += state[d * st.d_v + m] * static_cast<float>(st.load_t(k, k_base + d));
              }
              correction[m] = rate * (correction[m] - retrieved);
            }
          }
          for (std::int64_t d = 0; d < st.d_k; ++d) {
            const float key = static_cast<float>(st.load_t(k, k_base + d));
            for (std::int64_t m = 0; m < st.d_v; ++m) state[d * st.d_v + m] += key * correction[m];
          }
          for (std::int64_t h = kh * st.group; h < (kh + 1) * st.group; ++h) {
            const std::int64_t q_base = token * q_row + h * st.d_k;
            const std::int64_t out_base = (token * st.q_heads + h) * st.d_v;
            for (std::int64_t m = 0; m < st.d_v; ++m) {
              float sum = 0.0f;
              for (std::int64_t d = 0; d < st.d_k; ++d) {
                sum += static_cast<float>(st.load_t(q, q_base + d)) * state[d * st.d_v + m];
              }
              st.store_output(out, out_base + m, st.scale * sum);
            }
          }
        }
        if (ctx.has_output(kPresentState)) {
          for (std::int64_t i = 0; i < state_size; ++i) {
            st.store_state(ctx.output(kPresentState).data, state_base + i, state[i]);
          }
        }
      }
    }
    return {};
  }

 private:
  /// decay is required by the gated rules and forbidden otherwise; beta likewise for the delta rules.
  static Status prepare_gates(const PrepareContext& ctx, State& st) noexcept {
    struct Gate {
      int index;
      const char* name;
      bool required;
    };
    const Gate gates[2] = {{kDecay, "decay", st.gating}, {kBeta, "beta", st.delta}};
    for (const Gate& gate : gates) {
      if (ctx.has_input(gate.index) != gate.required) {
        return Status(StatusCode::invalid_model)
               << "input " << gate.index << " '" << gate.name << "' is " << (gate.required ? "required" : "not allowed")
               << " with this attribute 'update_rule'";
      }
      if (!gate.required) continue;
      ONNXMICRO_RETURN_IF_ERROR(attention_util::require_rank(ctx, gate.index, 3, 3));
      ONNXMICRO_RETURN_IF_ERROR(ctx.require_same_dtype(kQuery, gate.index));
      ONNXMICRO_RETURN_IF_ERROR(attention_util::require_dim(ctx, gate.index, 0, st.batch, "batch size"));
      ONNXMICRO_RETURN_IF_ERROR(attention_util::require_dim(ctx, gate.index, 1, st.len, "sequence length"));
      const std::int64_t last = ctx.input(gate.index).shape[2];
      const bool per_head = last == st.kv_heads;
      if (gate.index == kDecay) {
        if (!per_head && last != st.kv_heads * st.d_k) {
          return ctx.input_error(kDecay, "decay") << " of shape " << ctx.input(gate.index).shape
                                                  << ": last dim must be kv_num_heads or kv_num_heads * d_k";
        }
        st.decay_width = per_head ? 1 : st.d_k;
      } else {
        if (!per_head && last != 1) {
          return ctx.input_error(kBeta, "beta")
                 << " of shape " << ctx.input(gate.index).shape << ": last dim must be kv_num_heads or 1";
        }
        st.beta_heads = per_head ? st.kv_heads : 1;
      }
    }
    return {};
  }

  template <typename T>
  static void store_as(void* data, std::int64_t index, float value) noexcept {
    static_cast<T*>(data)[index] = store_element<T>(value);
  }
  static auto store_function(DataType dtype) noexcept -> void (*)(void*, std::int64_t, float) noexcept {
    void (*store)(void*, std::int64_t, float) noexcept = nullptr;
    visit_dtype(dtype, LinearTypes{}, [&](auto tag) noexcept { store = &store_as<typename decltype(tag)::type>; });
    return store;
  }
};

}  // namespace linear_attention_detail

// Opset 27: first version.
using LinearAttention_27 = VersionedKernel<linear_attention_detail::LinearAttentionImpl, 27>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
