// SPDX-License-Identifier: MIT
// Attention: scaled dot-product attention Y = softmax(softcap(Q*s . (K*s)^T) + bias) . V with s = sqrt(scale),
// over 4-D inputs (batch, heads, sequence, head_size) or 3-D inputs (batch, sequence, heads * head_size) split by
// q_num_heads / kv_num_heads. Grouped-query attention shares KV head h / (q_heads / kv_heads) among query heads.
// The additive bias sums: attn_mask (bool: false -> -inf; numbers: added; a mask shorter than the key sequence is
// padded with -inf), the bottom-right causal mask (query i sees key j iff j <= i + offset), the sliding window
// (opset 25) and the nonpad_kv_seqlen padding (opset 24). A query row whose bias is -inf everywhere gives zeros.
// past_key/past_value are concatenated before K/V along the sequence (present_key/present_value). The optional
// qk_matmul_output is the raw scores (mode 0), after softcap (1), after the bias (2) or the probabilities (3).
//
// Precision follows the ONNX reference: Q and K are scaled and rounded in their dtype, scores, softcap and bias
// sums are rounded to T1, the softmax runs in softmax_precision (default: T1) and the probabilities are rounded
// to T1 before the product with V; dot products accumulate in float (double when T1 or T2 is double).
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "onnxmicro/kernels/nn/attention_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

/// What Attention_23, _24 and _25 share; `version` selects the inputs and attributes each one has.
struct AttentionCommon : KernelDefaults {
  static constexpr std::string_view kOpType = "Attention";
  static constexpr int kQ = 0;
  static constexpr int kK = 1;
  static constexpr int kV = 2;
  static constexpr int kMask = 3;
  static constexpr int kPastKey = 4;
  static constexpr int kPastValue = 5;
  static constexpr int kNonpadKvSeqlen = 6;  // opset 24+
  static constexpr int kY = 0;
  static constexpr int kPresentKey = 1;
  static constexpr int kPresentValue = 2;
  static constexpr int kQkOutput = 3;

  /// Element strides of a (batch, head, sequence, feature) view of a 3-D or 4-D tensor; features are dense.
  struct Layout {
    std::int64_t batch;
    std::int64_t head;
    std::int64_t seq;
  };

  struct State;
  using Function = void (*)(const RunContext& ctx, const State& state) noexcept;

  struct State {
    Function compute;
    std::int64_t batch, q_heads, kv_heads, group;
    std::int64_t q_len, new_kv_len, past_len, kv_len;
    std::int64_t head_size, v_head_size;
    Layout q, k, v, y;
    // attn_mask broadcast to (batch, q_heads, q_len, mask_len); positions past mask_len are masked.
    attention_util::ElementLoader mask_load;  // nullptr: no mask
    bool mask_is_bool;
    std::int64_t mask_len;
    std::int64_t mask_strides[4];
    bool causal;
    bool has_nonpad;
    std::int64_t left_window, right_window;  // -1: unbounded
    double scale_factor;                     // sqrt(scale), rounded to T1 in compute
    double softcap;                          // 0: none
    std::int64_t qk_mode;
    DataType softmax_dtype;  // precision the softmax is computed in
  };

  static Status prepare(PrepareContext& ctx, int version) noexcept {
    using attention_util::require_rank;
    ONNXMICRO_RETURN_IF_ERROR(require_rank(ctx, kQ, 3, 4));
    const int rank = ctx.input(kQ).shape.rank();
    ONNXMICRO_RETURN_IF_ERROR(require_rank(ctx, kK, rank, rank));
    ONNXMICRO_RETURN_IF_ERROR(require_rank(ctx, kV, rank, rank));
    ONNXMICRO_RETURN_IF_ERROR(attention_util::require_dtype(ctx, kQ, FloatTypes{}));
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_same_dtype(kQ, kK));
    ONNXMICRO_RETURN_IF_ERROR(attention_util::require_dtype(ctx, kV, FloatTypes{}));
    const DataType t1 = ctx.input(kQ).dtype;
    const DataType t2 = ctx.input(kV).dtype;

    State* st = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(st));
    const Shape& qs = ctx.input(kQ).shape;
    const Shape& ks = ctx.input(kK).shape;
    const Shape& vs = ctx.input(kV).shape;
    st->batch = qs[0];
    ONNXMICRO_RETURN_IF_ERROR(attention_util::require_dim(ctx, kK, 0, st->batch, "batch size of Q"));
    ONNXMICRO_RETURN_IF_ERROR(attention_util::require_dim(ctx, kV, 0, st->batch, "batch size of Q"));
    const bool has_q_heads = ctx.has_attribute("q_num_heads");
    const bool has_kv_heads = ctx.has_attribute("kv_num_heads");
    if (rank == 3) {
      ONNXMICRO_RETURN_IF_ERROR(attention_util::positive_attribute(ctx, "q_num_heads", st->q_heads, true));
      ONNXMICRO_RETURN_IF_ERROR(attention_util::positive_attribute(ctx, "kv_num_heads", st->kv_heads, true));
      ONNXMICRO_RETURN_IF_ERROR(split_heads(ctx, kQ, st->q_heads, "q_num_heads", st->head_size));
      std::int64_t k_head_size = 0;
      ONNXMICRO_RETURN_IF_ERROR(split_heads(ctx, kK, st->kv_heads, "kv_num_heads", k_head_size));
      ONNXMICRO_RETURN_IF_ERROR(split_heads(ctx, kV, st->kv_heads, "kv_num_heads", st->v_head_size));
      if (k_head_size != st->head_size) {
        return ctx.input_error(kK, "K") << " of shape " << ks << " has head size " << k_head_size << ", expected "
                                        << st->head_size << " (Q's head size)";
      }
      st->q_len = qs[1];
      st->new_kv_len = ks[1];
      st->q = {qs[1] * qs[2], st->head_size, qs[2]};
      st->k = {ks[1] * ks[2], k_head_size, ks[2]};
      st->v = {vs[1] * vs[2], st->v_head_size, vs[2]};
    } else {
      // opset 25: the head-count attributes describe 3-D inputs only
      if (version >= 25 && (has_q_heads || has_kv_heads)) {
        return Status(StatusCode::invalid_model)
               << "attributes 'q_num_heads' and 'kv_num_heads' must not be set for 4-D inputs";
      }
      st->q_heads = qs[1];
      st->kv_heads = ks[1];
      st->head_size = qs[3];
      st->v_head_size = vs[3];
      ONNXMICRO_RETURN_IF_ERROR(attention_util::require_dim(ctx, kK, 3, st->head_size, "head size of Q"));
      ONNXMICRO_RETURN_IF_ERROR(attention_util::require_dim(ctx, kV, 1, st->kv_heads, "KV heads of K"));
      st->q_len = qs[2];
      st->new_kv_len = ks[2];
      st->q = {qs[1] * qs[2] * qs[3], qs[2] * qs[3], qs[3]};
      st->k = {ks[1] * ks[2] * ks[3], ks[2] * ks[3], ks[3]};
      st->v = {vs[1] * vs[2] * vs[3], vs[2] * vs[3], vs[3]};
    }
    ONNXMICRO_RETURN_IF_ERROR(
        attention_util::require_dim(ctx, kV, rank == 3 ? 1 : 2, st->new_kv_len, "sequence length of K"));
    if (st->kv_heads <= 0 || st->q_heads % st->kv_heads != 0) {
      return Status(StatusCode::invalid_model)
             << "query heads (" << st->q_heads << ") must be a multiple of key/value heads (" << st->kv_heads << ")";
    }
    st->group = st->q_heads / st->kv_heads;

    ONNXMICRO_RETURN_IF_ERROR(prepare_past(ctx, *st));
    ONNXMICRO_RETURN_IF_ERROR(prepare_attributes(ctx, version, t1, *st));
    ONNXMICRO_RETURN_IF_ERROR(prepare_mask(ctx, *st));
    st->has_nonpad = false;
    if (version >= 24 && ctx.has_input(kNonpadKvSeqlen)) {
      const TensorInfo& in = ctx.input(kNonpadKvSeqlen);
      if (in.dtype != DataType::int64) return ctx.unsupported_input_dtype(kNonpadKvSeqlen);
      if (in.shape.rank() != 1 || in.shape[0] != st->batch) {
        return ctx.input_error(kNonpadKvSeqlen) << " has shape " << in.shape << ", expected [" << st->batch << "]";
      }
      if (st->past_len > 0 || ctx.has_input(kPastKey)) {
        return ctx.input_error(kNonpadKvSeqlen, "nonpad_kv_seqlen") << " cannot be combined with past_key";
      }
      st->has_nonpad = true;
    }

    // Outputs.
    if (rank == 3) {
      st->y = {st->q_len * st->q_heads * st->v_head_size, st->v_head_size, st->q_heads * st->v_head_size};
      ctx.set_output(kY, t1, Shape{st->batch, st->q_len, st->q_heads * st->v_head_size});
    } else {
      st->y = {st->q_heads * st->q_len * st->v_head_size, st->q_len * st->v_head_size, st->v_head_size};
      ctx.set_output(kY, t1, Shape{st->batch, st->q_heads, st->q_len, st->v_head_size});
    }
    if (ctx.has_output(kPresentKey)) {
      ctx.set_output(kPresentKey, t1, Shape{st->batch, st->kv_heads, st->kv_len, st->head_size});
    }
    if (ctx.has_output(kPresentValue)) {
      ctx.set_output(kPresentValue, t2, Shape{st->batch, st->kv_heads, st->kv_len, st->v_head_size});
    }
    if (ctx.has_output(kQkOutput)) {
      ctx.set_output(kQkOutput, t1, Shape{st->batch, st->q_heads, st->q_len, st->kv_len});
    }

    visit_dtype(t1, FloatTypes{}, [&](auto tag1) noexcept {
      visit_dtype(t2, FloatTypes{}, [&](auto tag2) noexcept {
        st->compute = &compute<typename decltype(tag1)::type, typename decltype(tag2)::type>;
      });
    });
    const bool wide = t1 == DataType::float64 || t2 == DataType::float64;
    const std::size_t element = wide ? sizeof(double) : sizeof(float);
    // A softmax row in double, one row of scores, one of biases, and the scaled query row.
    ctx.request_scratch(static_cast<std::size_t>(2 * st->kv_len + st->head_size) * element +
                        static_cast<std::size_t>(st->kv_len) * sizeof(double));
    return {};
  }

  static Status run(RunContext& ctx) noexcept { return attention_util::run_state_compute<State>(ctx); }

 private:
  /// Splits the last dim of 3-D input i into `heads` heads; fails unless it divides evenly.
  static Status split_heads(const PrepareContext& ctx, int i, std::int64_t heads, const char* attribute,
                            std::int64_t& head_size) noexcept {
    const Shape& s = ctx.input(i).shape;
    if (s[2] % heads != 0) {
      return ctx.input_error(i) << " of shape " << s << ": hidden size " << s[2] << " is not divisible by attribute '"
                                << attribute << "' (" << heads << ")";
    }
    head_size = s[2] / heads;
    return {};
  }

  static Status prepare_past(const PrepareContext& ctx, State& st) noexcept {
    const bool has_key = ctx.has_input(kPastKey);
    const bool has_value = ctx.has_input(kPastValue);
    st.past_len = 0;
    if (has_key != has_value) {
      return Status(StatusCode::invalid_model) << "inputs 4 'past_key' and 5 'past_value' must be given together";
    }
    if (has_key) {
      ONNXMICRO_RETURN_IF_ERROR(attention_util::require_rank(ctx, kPastKey, 4, 4));
      ONNXMICRO_RETURN_IF_ERROR(attention_util::require_rank(ctx, kPastValue, 4, 4));
      ONNXMICRO_RETURN_IF_ERROR(ctx.require_same_dtype(kQ, kPastKey));
      ONNXMICRO_RETURN_IF_ERROR(ctx.require_same_dtype(kV, kPastValue));
      st.past_len = ctx.input(kPastKey).shape[2];
      const std::int64_t key_dims[4] = {st.batch, st.kv_heads, st.past_len, st.head_size};
      const std::int64_t value_dims[4] = {st.batch, st.kv_heads, st.past_len, st.v_head_size};
      for (int axis = 0; axis < 4; ++axis) {
        ONNXMICRO_RETURN_IF_ERROR(
            attention_util::require_dim(ctx, kPastKey, axis, key_dims[axis], "[batch, kv_heads, past_len, head_size]"));
        ONNXMICRO_RETURN_IF_ERROR(attention_util::require_dim(ctx, kPastValue, axis, value_dims[axis],
                                                              "[batch, kv_heads, past_len, v_head_size]"));
      }
    }
    st.kv_len = st.past_len + st.new_kv_len;
    return {};
  }

  static Status prepare_attributes(const PrepareContext& ctx, int version, DataType t1, State& st) noexcept {
    std::int64_t causal = 0;
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("is_causal", causal, 0));
    st.causal = causal != 0;
    float scale = 0.0f;
    if (ctx.has_attribute("scale")) {
      ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("scale", scale, 0.0f));
      st.scale_factor = std::sqrt(static_cast<double>(scale));
    } else {
      st.scale_factor = std::sqrt(1.0 / std::sqrt(static_cast<double>(st.head_size)));
    }
    float softcap = 0.0f;
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("softcap", softcap, 0.0f));
    st.softcap = softcap > 0.0f ? softcap : 0.0;
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("qk_matmul_output_mode", st.qk_mode, 0));
    if (st.qk_mode < 0 || st.qk_mode > 3) {
      return Status(StatusCode::invalid_model)
             << "attribute 'qk_matmul_output_mode' is " << st.qk_mode << ", expected 0, 1, 2 or 3";
    }
    st.softmax_dtype = t1;
    if (ctx.has_attribute("softmax_precision")) {
      std::int64_t precision = 0;
      ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("softmax_precision", precision, 0));
      const DataType dtype = static_cast<DataType>(precision);
      if (!attention_util::is_float_dtype(dtype)) {
        return Status(StatusCode::invalid_model) << "attribute 'softmax_precision' is " << precision
                                                 << ", expected 1 (float), 10 (float16), 11 (double) or 16 (bfloat16)";
      }
      st.softmax_dtype = dtype;
    }
    st.left_window = -1;
    st.right_window = -1;
    if (version >= 25) {  // sliding window: added in opset 25
      ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("left_window_size", st.left_window, -1));
      ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("right_window_size", st.right_window, -1));
      if (st.left_window < -1 || st.right_window < -1) {
        return Status(StatusCode::invalid_model)
               << "attributes 'left_window_size' and 'right_window_size' must be -1 or nonnegative, got "
               << st.left_window << " and " << st.right_window;
      }
    }
    return {};
  }

  /// Broadcasts attn_mask (rank 1-4) right-aligned onto (batch, q_heads, q_len, kv_len); its last dim may be
  /// shorter than kv_len (the rest counts as masked).
  static Status prepare_mask(const PrepareContext& ctx, State& st) noexcept {
    st.mask_load = nullptr;
    st.mask_is_bool = false;
    st.mask_len = 0;
    for (std::int64_t& stride : st.mask_strides) stride = 0;
    if (!ctx.has_input(kMask)) return {};
    ONNXMICRO_RETURN_IF_ERROR(attention_util::require_rank(ctx, kMask, 1, 4));
    const TensorInfo& in = ctx.input(kMask);
    st.mask_load = attention_util::element_loader(in.dtype);
    if (st.mask_load == nullptr) return ctx.unsupported_input_dtype(kMask);
    st.mask_is_bool = in.dtype == DataType::boolean;
    const int rank = in.shape.rank();
    st.mask_len = in.shape[rank - 1];
    const std::int64_t target[4] = {st.batch, st.q_heads, st.q_len, st.kv_len};
    std::int64_t stride = 1;
    for (int axis = 3; axis >= 4 - rank; --axis) {
      const std::int64_t dim = in.shape[axis - (4 - rank)];
      const bool fits = axis == 3 ? dim <= target[3] : (dim == target[axis] || dim == 1);
      if (!fits) {
        return ctx.input_error(kMask) << " of shape " << in.shape
                                      << " does not broadcast to [batch, q_heads, q_len, kv_len] = [" << target[0]
                                      << "," << target[1] << "," << target[2] << "," << target[3] << "]";
      }
      st.mask_strides[axis] = (dim == 1 && axis != 3) ? 0 : stride;
      stride *= dim;
    }
    return {};
  }

  /// Fills `bias` with the additive bias of query row (b, h, i) and returns true when every key is masked.
  template <typename C>
  static bool row_bias(const RunContext& ctx, const State& st, std::int64_t b, std::int64_t h, std::int64_t i,
                       std::int64_t offset, C* bias) noexcept {
    constexpr C kMasked = attention_util::negative_infinity<C>();
    const void* mask = st.mask_load != nullptr ? ctx.input(kMask).data : nullptr;
    const std::int64_t nonpad =
        st.has_nonpad ? static_cast<const std::int64_t*>(ctx.input(kNonpadKvSeqlen).data)[b] : st.kv_len;
    const std::int64_t mask_row = b * st.mask_strides[0] + h * st.mask_strides[1] + i * st.mask_strides[2];
    bool all_masked = true;
    for (std::int64_t j = 0; j < st.kv_len; ++j) {
      C value = 0;
      if (mask != nullptr) {
        if (j >= st.mask_len) {
          value = kMasked;
        } else {
          const double m = st.mask_load(mask, mask_row + j * st.mask_strides[3]);
          value = st.mask_is_bool ? (m != 0.0 ? C(0) : kMasked) : static_cast<C>(m);
        }
      }
      // Each constraint adds its own -inf, so a +inf mask value meeting one gives NaN, as in the reference.
      const std::int64_t diff = i + offset - j;  // how far key j lies behind the query's absolute position
      if (st.causal && diff < 0) value += kMasked;
      if (st.left_window >= 0 && diff > st.left_window) value += kMasked;
      if (st.right_window >= 0 && -diff > st.right_window) value += kMasked;
      if (j >= nonpad) value += kMasked;
      bias[j] = value;
      if (!(std::isinf(value) && value < 0)) all_masked = false;
    }
    return all_masked;
  }

  template <typename T1, typename T2>
  static void compute(const RunContext& ctx, const State& st) noexcept {
    using attention_util::round_to;
    using C = std::conditional_t<std::is_same_v<T1, double> || std::is_same_v<T2, double>, double, float>;
    const T1* q = static_cast<const T1*>(ctx.input(kQ).data);
    const T1* k = static_cast<const T1*>(ctx.input(kK).data);
    const T2* v = static_cast<const T2*>(ctx.input(kV).data);
    const bool has_past = st.past_len > 0;
    const T1* past_k = has_past ? static_cast<const T1*>(ctx.input(kPastKey).data) : nullptr;
    const T2* past_v = has_past ? static_cast<const T2*>(ctx.input(kPastValue).data) : nullptr;
    T1* y = static_cast<T1*>(ctx.output(kY).data);
    T1* qk_out = ctx.has_output(kQkOutput) ? static_cast<T1*>(ctx.output(kQkOutput).data) : nullptr;
    const std::int64_t* nonpad =
        st.has_nonpad ? static_cast<const std::int64_t*>(ctx.input(kNonpadKvSeqlen).data) : nullptr;

    // Row j of key/value head kh: the past cache first, then the new tokens.
    auto key_row = [&](std::int64_t b, std::int64_t kh, std::int64_t j) noexcept -> const T1* {
      if (j < st.past_len) return past_k + ((b * st.kv_heads + kh) * st.past_len + j) * st.head_size;
      return k + b * st.k.batch + kh * st.k.head + (j - st.past_len) * st.k.seq;
    };
    auto value_row = [&](std::int64_t b, std::int64_t kh, std::int64_t j) noexcept -> const T2* {
      if (j < st.past_len) return past_v + ((b * st.kv_heads + kh) * st.past_len + j) * st.v_head_size;
      return v + b * st.v.batch + kh * st.v.head + (j - st.past_len) * st.v.seq;
    };
    if (ctx.has_output(kPresentKey) || ctx.has_output(kPresentValue)) {
      T1* present_k = ctx.has_output(kPresentKey) ? static_cast<T1*>(ctx.output(kPresentKey).data) : nullptr;
      T2* present_v = ctx.has_output(kPresentValue) ? static_cast<T2*>(ctx.output(kPresentValue).data) : nullptr;
      for (std::int64_t b = 0; b < st.batch; ++b) {
        for (std::int64_t kh = 0; kh < st.kv_heads; ++kh) {
          for (std::int64_t j = 0; j < st.kv_len; ++j) {
            const std::int64_t row = (b * st.kv_heads + kh) * st.kv_len + j;
            if (present_k != nullptr) {
              std::memcpy(present_k + row * st.head_size, key_row(b, kh, j), sizeof(T1) * st.head_size);
            }
            if (present_v != nullptr) {
              std::memcpy(present_v + row * st.v_head_size, value_row(b, kh, j), sizeof(T2) * st.v_head_size);
            }
          }
        }
      }
    }

    double* wide_row = static_cast<double*>(ctx.scratch());
    C* scores = reinterpret_cast<C*>(wide_row + st.kv_len);
    C* bias = scores + st.kv_len;
    C* q_row = bias + st.kv_len;
    const C factor = round_to<T1>(static_cast<C>(st.scale_factor));
    const bool wide_softmax = st.softmax_dtype == DataType::float64;
    for (std::int64_t b = 0; b < st.batch; ++b) {
      // Keys before the query block: the internal cache, or the external one nonpad_kv_seqlen describes.
      const std::int64_t offset = has_past ? st.past_len : nonpad != nullptr ? nonpad[b] - st.q_len : 0;
      for (std::int64_t h = 0; h < st.q_heads; ++h) {
        const std::int64_t kh = h / st.group;
        for (std::int64_t i = 0; i < st.q_len; ++i) {
          const T1* q_in = q + b * st.q.batch + h * st.q.head + i * st.q.seq;
          for (std::int64_t d = 0; d < st.head_size; ++d) {
            q_row[d] = round_to<T1>(static_cast<C>(load_element(q_in[d])) * factor);
          }
          const bool all_masked = row_bias(ctx, st, b, h, i, offset, bias);
          T1* qk_row = qk_out != nullptr ? qk_out + ((b * st.q_heads + h) * st.q_len + i) * st.kv_len : nullptr;
          for (std::int64_t j = 0; j < st.kv_len; ++j) {
            const T1* k_in = key_row(b, kh, j);
            C dot = 0;
            for (std::int64_t d = 0; d < st.head_size; ++d) {
              dot += q_row[d] * round_to<T1>(static_cast<C>(load_element(k_in[d])) * factor);
            }
            const C raw = round_to<T1>(dot);
            C capped = raw;
            if (st.softcap > 0) {
              const C cap = static_cast<C>(st.softcap);
              capped = round_to<T1>(round_to<T1>(static_cast<C>(std::tanh(round_to<T1>(raw / cap)))) * cap);
            }
            scores[j] = round_to<T1>(capped + bias[j]);
            // Mode 0 is the raw product, as the spec says; the onnx 1.23 reference returns the softcapped scores
            // there too (no conformance case has mode 0 with a softcap).
            if (qk_row != nullptr && st.qk_mode < 3) {
              qk_row[j] = store_element<T1>(static_cast<compute_t<T1>>(st.qk_mode == 0   ? raw
                                                                       : st.qk_mode == 1 ? capped
                                                                                         : scores[j]));
            }
          }
          if (wide_softmax) {
            for (std::int64_t j = 0; j < st.kv_len; ++j) wide_row[j] = scores[j];
            attention_util::softmax_row(wide_row, st.kv_len, st.softmax_dtype);
            for (std::int64_t j = 0; j < st.kv_len; ++j) scores[j] = static_cast<C>(wide_row[j]);
          } else {
            attention_util::softmax_row(scores, st.kv_len, st.softmax_dtype);
          }
          for (std::int64_t j = 0; j < st.kv_len; ++j) {
            // The fully-masked-row guard decides on the bias, not on the (possibly NaN) scores.
            scores[j] = all_masked ? C(0) : round_to<T1>(scores[j]);
            if (qk_row != nullptr && st.qk_mode == 3) {
              qk_row[j] = store_element<T1>(static_cast<compute_t<T1>>(scores[j]));
            }
          }
          T1* y_out = y + b * st.y.batch + h * st.y.head + i * st.y.seq;
          for (std::int64_t d = 0; d < st.v_head_size; ++d) {
            C sum = 0;
            for (std::int64_t j = 0; j < st.kv_len; ++j) {
              sum += scores[j] * static_cast<C>(load_element(value_row(b, kh, j)[d]));
            }
            y_out[d] = store_element<T1>(static_cast<compute_t<T1>>(sum));
          }
        }
      }
    }
  }
};

// Opset 23: first version (inputs Q, K, V, attn_mask, past_key, past_value).
using Attention_23 = VersionedKernel<AttentionCommon, 23, 24>;
// Opset 24: input 6 nonpad_kv_seqlen (external KV cache: padding mask and per-batch causal offset).
using Attention_24 = VersionedKernel<AttentionCommon, 24, 25>;
// Opset 25: left_window_size / right_window_size; q_num_heads / kv_num_heads rejected for 4-D inputs.
using Attention_25 = VersionedKernel<AttentionCommon, 25>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
