// SPDX-License-Identifier: MIT
// DynamicQuantizeLSTM (com.microsoft, version 1, the only one): what onnxruntime's quantize_dynamic makes of an
// LSTM. The gate math is LSTM's (lstm.hpp); the two matrix products run on 8-bit integers as onnxruntime's
// kernel does them:
//  - W [directions, input_size, 4 * hidden] and R [directions, hidden, 4 * hidden] (transposed against LSTM's W
//    and R), int8 or uint8, with float scales per direction ([directions]) or per output column
//    ([directions, 4 * hidden]) and zero points of the same shape that hold one value per direction (onnxruntime
//    refuses others; so does this kernel).
//  - X is quantized to uint8 once per run, over its first max(sequence_lens) steps (scale = range / 255 with the
//    range extended to 0, zero point rounded half to even: DynamicQuantizeLinear's rule), and multiplied by W
//    for every step at once; the hidden state is quantized the same way before every step, over every batch
//    row, and multiplied by R. Products are exact in int32 and scaled by x_scale * w_scale[column].
// Scales and zero points are read at run time, so they may be graph inputs or computed by other nodes.
// With sequence_lens, rows whose sequence has ended keep their last state and still count in the hidden state's
// range. onnxruntime splits the batch between its threads and takes one range per part; results then differ by
// rounding (the conformance models run batch 1, where both agree).
#pragma once
#include <cmath>
#include <cstdint>

#include "onnxmicro/kernels/common/scratch.hpp"
#include "onnxmicro/kernels/kernel_api.hpp"
#include "onnxmicro/kernels/nn/lstm.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

namespace dynamic_quantize_lstm_detail {

/// The implementation of DynamicQuantizeLSTM (see the file comment).
struct DynamicQuantizeLSTMImpl : KernelDefaults, private recurrent_util::RecurrentOp<LstmCell> {
  static constexpr std::string_view kDomain = "com.microsoft";
  static constexpr std::string_view kOpType = "DynamicQuantizeLSTM";
  static constexpr int kWScale = 8, kWZeroPoint = 9, kRScale = 10, kRZeroPoint = 11;

  struct State {
    recurrent_util::Config cfg;
    bool w_signed, r_signed;
    bool w_per_column, r_per_column;  ///< scale has 4 * hidden values per direction
    // Scratch offsets (bytes): quantized X, the input projection, the quantized hidden state, h and c of every
    // batch row, one row's int32 accumulators.
    std::size_t x_offset, projection_offset, hidden_q_offset, h_offset, c_offset, acc_offset;
  };

  static Status prepare(PrepareContext& ctx) noexcept {
    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
    recurrent_util::Config& cfg = state->cfg;
    for (int i :
         {recurrent_util::kX, recurrent_util::kW, recurrent_util::kR, kWScale, kWZeroPoint, kRScale, kRZeroPoint}) {
      ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(i));
    }
    ONNXMICRO_RETURN_IF_ERROR(check_dtypes(ctx));
    ONNXMICRO_RETURN_IF_ERROR(parse_direction(ctx, cfg));
    ONNXMICRO_RETURN_IF_ERROR(check_shapes(ctx, cfg, /*transposed_weights=*/true));
    ONNXMICRO_RETURN_IF_ERROR(parse_activations(ctx, cfg));
    ONNXMICRO_RETURN_IF_ERROR(parse_clip(ctx, cfg));
    ONNXMICRO_RETURN_IF_ERROR(LstmCell::parse<1>(ctx, cfg));
    ONNXMICRO_RETURN_IF_ERROR(check_params(ctx, cfg, recurrent_util::kW, kWScale, kWZeroPoint, state->w_per_column));
    ONNXMICRO_RETURN_IF_ERROR(check_params(ctx, cfg, recurrent_util::kR, kRScale, kRZeroPoint, state->r_per_column));
    state->w_signed = ctx.input(recurrent_util::kW).dtype == DataType::int8;
    state->r_signed = ctx.input(recurrent_util::kR).dtype == DataType::int8;

    const std::int64_t d = cfg.directions, b = cfg.batch, t = cfg.seq_length, h = cfg.hidden;
    if (ctx.has_output(recurrent_util::kY)) ctx.set_output(recurrent_util::kY, DataType::float32, Shape{t, d, b, h});
    if (ctx.has_output(recurrent_util::kYH)) ctx.set_output(recurrent_util::kYH, DataType::float32, Shape{d, b, h});
    if (ctx.has_output(recurrent_util::kYC)) ctx.set_output(recurrent_util::kYC, DataType::float32, Shape{d, b, h});
    plan_scratch(ctx, *state);
    return {};
  }

  static Status run(RunContext& ctx) noexcept {
    const State& s = ctx.state<State>();
    const recurrent_util::Config& cfg = s.cfg;
    const std::int32_t* lens = ctx.has_input(recurrent_util::kSequenceLens)
                                   ? ctx.input(recurrent_util::kSequenceLens).data_as<std::int32_t>()
                                   : nullptr;
    std::int64_t steps = lens == nullptr ? cfg.seq_length : 0;  // max(sequence_lens): the steps that run
    for (std::int64_t b = 0; lens != nullptr && b < cfg.batch; ++b) {
      if (lens[b] < 0 || lens[b] > cfg.seq_length) {
        return Status(StatusCode::out_of_range) << "input 4 'sequence_lens'[" << b << "] is " << lens[b]
                                                << ", expected a value in [0, " << cfg.seq_length << "]";
      }
      if (lens[b] > steps) steps = lens[b];
    }
    ONNXMICRO_RETURN_IF_ERROR(check_zero_points(ctx, s, kWZeroPoint));
    ONNXMICRO_RETURN_IF_ERROR(check_zero_points(ctx, s, kRZeroPoint));
    const Quantized x = quantize(ctx.input(recurrent_util::kX).data_as<float>(), steps * cfg.batch * cfg.input_size,
                                 scratch<std::int16_t>(ctx, s.x_offset));
    for (int d = 0; d < cfg.directions; ++d) run_direction(ctx, s, d, steps, lens, x);
    return {};
  }

 private:
  /// A dynamically quantized operand: values minus the zero point, and the scale.
  struct Quantized {
    const std::int16_t* values;
    float scale;
  };

  template <typename T>
  static T* scratch(RunContext& ctx, std::size_t offset) noexcept {
    return scratch::scratch_at<T>(ctx.scratch(), offset);
  }

  static Status check_dtypes(PrepareContext& ctx) noexcept {
    if (ctx.input(recurrent_util::kX).dtype != DataType::float32)
      return ctx.unsupported_input_dtype(recurrent_util::kX);
    for (int i : {recurrent_util::kW, recurrent_util::kR}) {
      const DataType t = ctx.input(i).dtype;
      if (t != DataType::int8 && t != DataType::uint8) return ctx.unsupported_input_dtype(i);
    }
    for (int i : {recurrent_util::kB, recurrent_util::kInitialH, recurrent_util::kInitialC, recurrent_util::kPeepholes,
                  kWScale, kRScale}) {
      if (ctx.has_input(i) && ctx.input(i).dtype != DataType::float32) return ctx.unsupported_input_dtype(i);
    }
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_same_dtype(recurrent_util::kW, kWZeroPoint));
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_same_dtype(recurrent_util::kR, kRZeroPoint));
    if (ctx.has_input(recurrent_util::kSequenceLens) &&
        ctx.input(recurrent_util::kSequenceLens).dtype != DataType::int32) {
      return ctx.unsupported_input_dtype(recurrent_util::kSequenceLens);
    }
    return {};
  }

  /// Scale and zero point of W or R: [directions] or [directions, 4 * hidden], the same shape.
  static Status check_params(PrepareContext& ctx, const recurrent_util::Config& cfg, int weights, int scale, int zero,
                             bool& per_column) noexcept {
    const Shape per_direction{cfg.directions}, per_column_shape{cfg.directions, 4 * cfg.hidden};
    const TensorInfo& info = ctx.input(scale);
    per_column = info.shape == per_column_shape;
    if (!per_column && info.shape != per_direction) {
      return ctx.input_error(scale) << " (scale of input " << weights << " '" << ctx.input(weights).name
                                    << "'): expected shape " << per_direction << " or " << per_column_shape << ", got "
                                    << info.shape;
    }
    if (ctx.input(zero).shape != info.shape) {
      return ctx.input_error(zero) << " (zero point): expected the shape of its scale " << info.shape << ", got "
                                   << ctx.input(zero).shape;
    }
    return {};
  }

  /// onnxruntime's kernel takes one zero point per direction; per-column values must all be equal.
  static Status check_zero_points(RunContext& ctx, const State& s, int zero) noexcept {
    const bool per_column = zero == kWZeroPoint ? s.w_per_column : s.r_per_column;
    if (!per_column) return {};
    const std::int64_t columns = 4 * s.cfg.hidden;
    const auto* values = ctx.input(zero).data_as<std::uint8_t>();  // int8 or uint8: compared as bytes
    for (std::int64_t i = 0; i < s.cfg.directions * columns; ++i) {
      if (values[i] != values[i / columns * columns]) {
        return Status(StatusCode::unsupported)
               << "input " << zero << (zero == kWZeroPoint ? " (W_zero_point)" : " (R_zero_point)") << ": value " << i
               << " differs from the first of its direction; DynamicQuantizeLSTM takes one zero point per direction "
                  "(as onnxruntime)";
      }
    }
    return {};
  }

  static void plan_scratch(PrepareContext& ctx, State& s) noexcept {
    const recurrent_util::Config& cfg = s.cfg;
    const std::int64_t rows = cfg.seq_length * cfg.batch, columns = 4 * cfg.hidden;
    std::size_t offset = 0;
    const auto take = [&offset](std::int64_t count, std::size_t element) {
      const std::size_t at = offset;
      offset += (static_cast<std::size_t>(count) * element + 15) / 16 * 16;
      return at;
    };
    s.x_offset = take(rows * cfg.input_size, sizeof(std::int16_t));
    s.projection_offset = take(rows * columns, sizeof(float));
    s.hidden_q_offset = take(cfg.batch * cfg.hidden, sizeof(std::int16_t));
    s.h_offset = take(cfg.batch * cfg.hidden, sizeof(float));
    s.c_offset = take(cfg.batch * cfg.hidden, sizeof(float));
    s.acc_offset = take(columns, sizeof(std::int32_t));
    ctx.request_scratch(offset);
  }

  /// Quantizes `count` floats to uint8 as DynamicQuantizeLinear does, storing value - zero_point.
  static Quantized quantize(const float* x, std::int64_t count, std::int16_t* out) noexcept {
    float low = 0.0f, high = 0.0f;
    for (std::int64_t i = 0; i < count; ++i) {
      if (x[i] < low) low = x[i];
      if (x[i] > high) high = x[i];
    }
    const float scale = high == low ? 1.0f : (high - low) / 255.0f;
    const float zero = std::nearbyint(saturate(0.0f - low / scale));
    for (std::int64_t i = 0; i < count; ++i) {
      out[i] = static_cast<std::int16_t>(saturate(std::nearbyint(x[i] / scale) + zero) - zero);
    }
    return {out, scale};
  }
  static float saturate(float v) noexcept { return v >= 255.0f ? 255.0f : (v >= 0.0f ? v : 0.0f); }

  /// acc[j] = sum_k a[k] * (w[k * columns + j] - zero) for j < columns: one row times an 8-bit matrix.
  static void multiply_row(const std::int16_t* a, std::int64_t depth, const void* w, bool is_signed, int zero,
                           std::int64_t columns, std::int32_t* acc) noexcept {
    for (std::int64_t j = 0; j < columns; ++j) acc[j] = 0;
    for (std::int64_t k = 0; k < depth; ++k) {
      const std::int32_t v = a[k];
      if (v == 0) continue;
      if (is_signed) {
        const std::int8_t* row = static_cast<const std::int8_t*>(w) + k * columns;
        for (std::int64_t j = 0; j < columns; ++j) acc[j] += v * (row[j] - zero);
      } else {
        const std::uint8_t* row = static_cast<const std::uint8_t*>(w) + k * columns;
        for (std::int64_t j = 0; j < columns; ++j) acc[j] += v * (row[j] - zero);
      }
    }
  }

  /// Scaled products of one direction's weights `input` (W or R): out[j] (+)= acc[j] * a_scale * scale[j].
  struct Product {
    const void* weights;
    bool is_signed;
    int zero;
    const float* scale;  ///< this direction's first scale
    bool per_column;
  };
  static Product product(RunContext& ctx, const State& s, int weights, int scale, int zero, int d) noexcept {
    const std::int64_t columns = 4 * s.cfg.hidden;
    const bool per_column = weights == recurrent_util::kW ? s.w_per_column : s.r_per_column;
    const bool is_signed = weights == recurrent_util::kW ? s.w_signed : s.r_signed;
    const std::int64_t depth = weights == recurrent_util::kW ? s.cfg.input_size : s.cfg.hidden;
    const std::int64_t param = per_column ? d * columns : d;
    const auto* zero_bytes = ctx.input(zero).data_as<std::uint8_t>();
    Product p;
    p.weights = ctx.input(weights).data_as<std::uint8_t>() + d * depth * columns;
    p.is_signed = is_signed;
    p.zero = is_signed ? static_cast<int>(static_cast<std::int8_t>(zero_bytes[param])) : zero_bytes[param];
    p.scale = ctx.input(scale).data_as<float>() + param;
    p.per_column = per_column;
    return p;
  }
  static void accumulate(const Product& p, const std::int16_t* a, std::int64_t depth, float a_scale,
                         std::int64_t columns, std::int32_t* acc, bool add, float* out) noexcept {
    multiply_row(a, depth, p.weights, p.is_signed, p.zero, columns, acc);
    for (std::int64_t j = 0; j < columns; ++j) {
      const float value = static_cast<float>(acc[j]) * (a_scale * p.scale[p.per_column ? j : 0]);
      out[j] = add ? out[j] + value : value;
    }
  }

  static void run_direction(RunContext& ctx, const State& s, int d, std::int64_t steps, const std::int32_t* lens,
                            const Quantized& x) noexcept {
    const recurrent_util::Config& cfg = s.cfg;
    const std::int64_t B = cfg.batch, H = cfg.hidden, I = cfg.input_size, G = 4 * H, T_len = cfg.seq_length;
    const bool backwards = cfg.directions == 2 ? d == 1 : cfg.reverse;
    const Product w = product(ctx, s, recurrent_util::kW, kWScale, kWZeroPoint, d);
    const Product r = product(ctx, s, recurrent_util::kR, kRScale, kRZeroPoint, d);
    const float* bias =
        ctx.has_input(recurrent_util::kB) ? ctx.input(recurrent_util::kB).data_as<float>() + d * 2 * G : nullptr;
    const float* peepholes = ctx.has_input(recurrent_util::kPeepholes)
                                 ? ctx.input(recurrent_util::kPeepholes).data_as<float>() + d * 3 * H
                                 : nullptr;
    const float* h0 =
        ctx.has_input(recurrent_util::kInitialH) ? ctx.input(recurrent_util::kInitialH).data_as<float>() : nullptr;
    const float* c0 =
        ctx.has_input(recurrent_util::kInitialC) ? ctx.input(recurrent_util::kInitialC).data_as<float>() : nullptr;
    float* y = ctx.has_output(recurrent_util::kY) ? ctx.output(recurrent_util::kY).data_as<float>() : nullptr;
    float* projection = scratch<float>(ctx, s.projection_offset);
    float* h = scratch<float>(ctx, s.h_offset);
    float* c = scratch<float>(ctx, s.c_offset);
    std::int16_t* hidden_q = scratch<std::int16_t>(ctx, s.hidden_q_offset);
    std::int32_t* acc = scratch<std::int32_t>(ctx, s.acc_offset);

    // X * W for every step that runs at once (row t * B + b of X is step t of batch row b).
    for (std::int64_t row = 0; row < steps * B; ++row) {
      accumulate(w, x.values + row * I, I, x.scale, G, acc, false, projection + row * G);
    }
    for (std::int64_t i = 0; i < B * H; ++i) {
      h[i] = h0 == nullptr ? 0.0f : h0[d * B * H + i];
      c[i] = c0 == nullptr ? 0.0f : c0[d * B * H + i];
    }
    for (std::int64_t step = 0; step < T_len; ++step) {
      const Quantized hidden = quantize(h, B * H, hidden_q);
      for (std::int64_t b = 0; b < B; ++b) {
        const std::int64_t len = lens == nullptr ? T_len : lens[b];
        const std::int64_t t = step < len && backwards ? len - 1 - step : step;
        float* y_row = y == nullptr ? nullptr : y + ((t * cfg.directions + d) * B + b) * H;
        if (step >= len) {  // past this row's sequence: Y is zero, Y_h/Y_c keep the last step
          for (std::int64_t j = 0; y_row != nullptr && j < H; ++j) y_row[j] = 0.0f;
          continue;
        }
        float* pre = projection + (t * B + b) * G;
        accumulate(r, hidden.values + b * H, H, hidden.scale, G, acc, true, pre);
        for (std::int64_t j = 0; bias != nullptr && j < G; ++j) pre[j] += bias[j] + bias[G + j];
        LstmCell::apply_gates(cfg, cfg.activations + d * cfg.activations_per_direction, peepholes, pre, h + b * H,
                              c + b * H);
        for (std::int64_t j = 0; y_row != nullptr && j < H; ++j) y_row[j] = h[b * H + j];
      }
    }
    float* yh = ctx.has_output(recurrent_util::kYH) ? ctx.output(recurrent_util::kYH).data_as<float>() : nullptr;
    float* yc = ctx.has_output(recurrent_util::kYC) ? ctx.output(recurrent_util::kYC).data_as<float>() : nullptr;
    for (std::int64_t i = 0; i < B * H; ++i) {
      if (yh != nullptr) yh[d * B * H + i] = h[i];
      if (yc != nullptr) yc[d * B * H + i] = c[i];
    }
  }
};

}  // namespace dynamic_quantize_lstm_detail

// Version 1: the only version.
using DynamicQuantizeLSTM_1 = VersionedKernel<dynamic_quantize_lstm_detail::DynamicQuantizeLSTMImpl, 1>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
