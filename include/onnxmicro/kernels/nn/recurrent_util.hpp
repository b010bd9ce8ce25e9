// SPDX-License-Identifier: MIT
// What RNN, GRU and LSTM share: attribute parsing (direction, hidden_size, activations with their
// alpha/beta lists, clip, layout), input shape checks, and the time loop. Each op supplies a Cell with the
// gate math of one time step; the driver walks every direction and batch row through its own sequence
// length (steps past sequence_lens[b] write zeros to Y and leave Y_h/Y_c at the last valid step), reading
// and writing either layout. float16/bfloat16 compute in float32, float64 in double.
//
// Activation alpha/beta values are consumed in order by the activations that take them (Affine, LeakyRelu,
// ThresholdedRelu, ScaledTanh, HardSigmoid, Elu), as the spec says and onnxruntime does; an activation whose
// value is missing from the list uses onnxruntime's default. Names match case-insensitively.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <type_traits>

#include "onnxmicro/kernels/nn/recurrent_config.hpp"
#include "onnxmicro/kernels/nn/recurrent_gemm.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {
namespace recurrent_util {

/// The shared kernel body. Cell provides:
///   static constexpr std::string_view kName; static constexpr int kGates, kActivations;
///   static constexpr bool kHasCell; static constexpr std::string_view kDefaultActivations[kActivations];
///   static constexpr int kScratchVectors;  // A vectors of length hidden the step uses beyond h and c
///   static Status parse(PrepareContext&, Config&);  // op-only attributes
///   template <typename A, typename T> static void step(const Config&, const Weights<T>&, const T* x, A* h,
///                                                      A* c, A* scratch);
///   static constexpr bool kGemmPath;  // LSTM and RNN; with it (recurrent_gemm.hpp):
///   static bool vector_gates(const Config&, bool has_peepholes);  // the gate math vectorises
///   static void apply_row(const GemmPath&, const Config&, const Activation*, const float* peepholes, float* pre,
///                         float* h, float* c, float* tmp);  // one batch row's step from its pre-activations
template <typename Cell>
struct RecurrentOp {
  struct State {
    Config cfg;
    Status (*run)(const Config&, RunContext&) noexcept;
#if ONNXMICRO_ENABLE_FAST_PATHS
    GemmPath gemm;
#endif
  };

  /// kSince: the kernel's first version. layout: opset 14+; bfloat16: opset 22+.
  template <int kSince>
  static Status prepare_version(PrepareContext& ctx) noexcept {
    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
    Config& cfg = state->cfg;
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kX));
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kW));
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kR));
    const DataType dtype = ctx.input(kX).dtype;
    switch (compiled_dtype(dtype)) {
      case DataType::float32: state->run = &run_typed<float>; break;
      case DataType::float64: state->run = &run_typed<double>; break;
      case DataType::float16: state->run = &run_typed<float16_t>; break;
      case DataType::bfloat16:
        // bfloat16: added in opset 22.
        if (kSince < 22) return ctx.unsupported_input_dtype(kX);
        state->run = &run_typed<bfloat16_t>;
        break;
      default: return ctx.unsupported_input_dtype(kX);
    }
    const int float_inputs[] = {kW, kR, kB, kInitialH, kInitialC, kPeepholes};
    for (int i : float_inputs) {
      if (!Cell::kHasCell && i > kInitialH) break;
      if (ctx.has_input(i)) ONNXMICRO_RETURN_IF_ERROR(ctx.require_same_dtype(kX, i));
    }
    if (ctx.has_input(kSequenceLens) && ctx.input(kSequenceLens).dtype != DataType::int32) {
      return ctx.input_error(kSequenceLens)
             << " has dtype " << dtype_name(ctx.input(kSequenceLens).dtype) << ", expected int32";
    }

    ONNXMICRO_RETURN_IF_ERROR(parse_direction(ctx, cfg));
    std::int64_t layout = 0;
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("layout", layout, 0));
    // layout: added in opset 14.
    if (layout != 0 && (kSince < 14 || layout != 1)) {
      return Status(StatusCode::invalid_model)
             << "attribute 'layout' is " << layout
             << (kSince < 14 ? ", but layout exists only from opset 14 on" : ", expected 0 or 1");
    }
    cfg.batch_first = layout == 1;
    ONNXMICRO_RETURN_IF_ERROR(check_shapes(ctx, cfg));
    ONNXMICRO_RETURN_IF_ERROR(parse_activations(ctx, cfg));
    ONNXMICRO_RETURN_IF_ERROR(parse_clip(ctx, cfg));
    ONNXMICRO_RETURN_IF_ERROR(Cell::template parse<kSince>(ctx, cfg));

    const std::int64_t d = cfg.directions, b = cfg.batch, t = cfg.seq_length, h = cfg.hidden;
    if (ctx.has_output(kY)) {
      ctx.set_output(kY, dtype, cfg.batch_first ? Shape{b, t, d, h} : Shape{t, d, b, h});
    }
    const Shape state_shape = cfg.batch_first ? Shape{b, d, h} : Shape{d, b, h};
    if (ctx.has_output(kYH)) ctx.set_output(kYH, dtype, state_shape);
    if (Cell::kHasCell && ctx.has_output(kYC)) ctx.set_output(kYC, dtype, state_shape);
    const std::size_t acc_size = dtype == DataType::float64 ? sizeof(double) : sizeof(float);
    ctx.request_scratch(static_cast<std::size_t>((2 + Cell::kScratchVectors) * h) * acc_size);
#if ONNXMICRO_ENABLE_FAST_PATHS
    if constexpr (Cell::kGemmPath) {
      if (dtype == DataType::float32 && !ctx.size_optimized()) {
        ONNXMICRO_RETURN_IF_ERROR(prepare_gemm_path<Cell>(ctx, cfg, state->gemm));
      }
    }
#endif
    return {};
  }

  static Status run(RunContext& ctx) noexcept {
    const State& state = ctx.state<State>();
#if ONNXMICRO_ENABLE_FAST_PATHS
    if constexpr (Cell::kGemmPath) {
      if (state.gemm.enabled) return run_gemm_path<Cell>(state.cfg, state.gemm, ctx);
    }
#endif
    return state.run(state.cfg, ctx);
  }

  // Attribute parsing, shared with the quantized recurrent kernels (DynamicQuantizeLSTM).
  static Status parse_clip(PrepareContext& ctx, Config& cfg) noexcept {
    proto::Attribute clip;
    if (!ctx.find_attribute("clip", clip)) return {};
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("clip", cfg.clip, 0.0f));
    if (!(cfg.clip > 0.0f)) {
      return Status(StatusCode::invalid_model) << "attribute 'clip' is " << cfg.clip << ", expected > 0";
    }
    cfg.has_clip = true;
    return {};
  }

  static Status parse_direction(PrepareContext& ctx, Config& cfg) noexcept {
    std::string_view direction;
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("direction", direction, "forward"));
    // GRU-1's schema spells its default "foward"; a model may carry that spelling.
    if (direction == "forward" || direction == "foward") {
      cfg.directions = 1;
    } else if (direction == "reverse") {
      cfg.directions = 1;
      cfg.reverse = true;
    } else if (direction == "bidirectional") {
      cfg.directions = 2;
    } else {
      return Status(StatusCode::invalid_model)
             << "attribute 'direction' is '" << direction << "', expected forward, reverse or bidirectional";
    }
    return {};
  }

  static Status shape_error(const PrepareContext& ctx, int index, const Shape& expected) noexcept {
    return ctx.input_error(index) << ": expected shape " << expected << ", got " << ctx.input(index).shape;
  }

  /// Shapes of X, W, R and the optional inputs; fills cfg's sizes. `transposed_weights`: W is
  /// [directions, input_size, gates * hidden] and R [directions, hidden, gates * hidden] (onnxruntime's quantized
  /// recurrent ops) instead of [directions, gates * hidden, input_size] and [directions, gates * hidden, hidden].
  static Status check_shapes(PrepareContext& ctx, Config& cfg, bool transposed_weights = false) noexcept {
    const TensorInfo& x = ctx.input(kX);
    const TensorInfo& w = ctx.input(kW);
    const TensorInfo& r = ctx.input(kR);
    if (x.shape.rank() != 3) {
      return ctx.input_error(kX) << ": expected rank 3 "
                                 << (cfg.batch_first ? "[batch_size, seq_length, input_size]"
                                                     : "[seq_length, batch_size, input_size]")
                                 << ", got " << x.shape;
    }
    if (r.shape.rank() != 3) {
      return ctx.input_error(kR) << ": expected rank 3, got " << r.shape;
    }
    cfg.seq_length = x.shape[cfg.batch_first ? 1 : 0];
    cfg.batch = x.shape[cfg.batch_first ? 0 : 1];
    cfg.input_size = x.shape[2];
    std::int64_t hidden = transposed_weights ? r.shape[1] : r.shape[2];
    if (ctx.has_attribute("hidden_size")) {
      ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("hidden_size", hidden, 0));
      if (hidden <= 0) {
        return Status(StatusCode::invalid_model) << "attribute 'hidden_size' is " << hidden << ", expected > 0";
      }
    }
    cfg.hidden = hidden;
    const std::int64_t d = cfg.directions, g = Cell::kGates;
    const Shape w_shape =
        transposed_weights ? Shape{d, cfg.input_size, g * hidden} : Shape{d, g * hidden, cfg.input_size};
    const Shape r_shape = transposed_weights ? Shape{d, hidden, g * hidden} : Shape{d, g * hidden, hidden};
    if (w.shape != w_shape) return shape_error(ctx, kW, w_shape);
    if (r.shape != r_shape) return shape_error(ctx, kR, r_shape);
    if (ctx.has_input(kB) && ctx.input(kB).shape != Shape{d, 2 * g * hidden}) {
      return shape_error(ctx, kB, Shape{d, 2 * g * hidden});
    }
    if (ctx.has_input(kSequenceLens) && ctx.input(kSequenceLens).shape != Shape{cfg.batch}) {
      return shape_error(ctx, kSequenceLens, Shape{cfg.batch});
    }
    const Shape state_shape = cfg.batch_first ? Shape{cfg.batch, d, hidden} : Shape{d, cfg.batch, hidden};
    const int state_inputs[] = {kInitialH, kInitialC};
    for (int i : state_inputs) {
      if (i == kInitialC && !Cell::kHasCell) break;
      if (ctx.has_input(i) && ctx.input(i).shape != state_shape) return shape_error(ctx, i, state_shape);
    }
    if (Cell::kHasCell && ctx.has_input(kPeepholes) && ctx.input(kPeepholes).shape != Shape{d, 3 * hidden}) {
      return shape_error(ctx, kPeepholes, Shape{d, 3 * hidden});
    }
    return {};
  }

  static Status parse_activations(PrepareContext& ctx, Config& cfg) noexcept {
    const int per_direction = Cell::kActivations;
    cfg.activations_per_direction = per_direction;
    std::string_view names[kMaxActivations];
    int count = 0;
    proto::Attribute list;
    if (ctx.find_attribute("activations", list)) {
      ONNXMICRO_RETURN_IF_ERROR(PrepareContext::expect_type(list, proto::AttributeType::strings));
      for (std::string_view name : list.strings()) {
        if (count == kMaxActivations) {
          count = kMaxActivations + 1;
          break;
        }
        names[count++] = name;
      }
      // One direction's list for a bidirectional node is used for both (as onnxruntime accepts).
      if (count == per_direction && cfg.directions == 2) {
        for (int i = 0; i < per_direction; ++i) names[per_direction + i] = names[i];
        count = 2 * per_direction;
      }
      if (count != per_direction * cfg.directions) {
        return Status(StatusCode::invalid_model)
               << "attribute 'activations' has " << count << " names, expected " << per_direction * cfg.directions
               << " (" << per_direction << " per direction)";
      }
    } else {
      for (int d = 0; d < cfg.directions; ++d)
        for (int i = 0; i < per_direction; ++i) names[count++] = Cell::kDefaultActivations[i];
    }
    float alphas[kMaxActivations], betas[kMaxActivations];
    std::size_t alpha_count = 0, beta_count = 0;
    bool present = false;
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute_floats("activation_alpha", alphas, kMaxActivations, alpha_count, present));
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute_floats("activation_beta", betas, kMaxActivations, beta_count, present));
    std::size_t next_alpha = 0, next_beta = 0;
    for (int i = 0; i < count; ++i) {
      const ActivationInfo* info = nullptr;
      for (const ActivationInfo& candidate : kActivationTable)
        if (equals_ignoring_case(candidate.name, names[i])) info = &candidate;
      if (info == nullptr) {
        return Status(StatusCode::unsupported)
               << "attribute 'activations'[" << i << "] is '" << names[i]
               << "', expected one of Relu, Tanh, Sigmoid, Affine, LeakyRelu, ThresholdedRelu, ScaledTanh, "
                  "HardSigmoid, Elu, Softsign, Softplus";
      }
      Activation& a = cfg.activations[i];
      a.kind = info->kind;
      a.alpha = info->default_alpha;
      a.beta = info->default_beta;
      if (info->uses_alpha && next_alpha < alpha_count) a.alpha = alphas[next_alpha++];
      if (info->uses_beta && next_beta < beta_count) a.beta = betas[next_beta++];
    }
    return {};
  }

 private:
  template <typename T>
  static Status run_typed(const Config& cfg, RunContext& ctx) noexcept {
    using A = std::conditional_t<std::is_same_v<T, double>, double, float>;
    const std::int64_t T_len = cfg.seq_length, B = cfg.batch, H = cfg.hidden, I = cfg.input_size;
    const std::int64_t D = cfg.directions, G = Cell::kGates;
    const T* x = ctx.input(kX).template data_as<T>();
    const std::int32_t* lens =
        ctx.has_input(kSequenceLens) ? ctx.input(kSequenceLens).template data_as<std::int32_t>() : nullptr;
    const T* h0 = ctx.has_input(kInitialH) ? ctx.input(kInitialH).template data_as<T>() : nullptr;
    const T* c0 = Cell::kHasCell && ctx.has_input(kInitialC) ? ctx.input(kInitialC).template data_as<T>() : nullptr;
    T* y = ctx.has_output(kY) ? ctx.output(kY).template data_as<T>() : nullptr;
    T* yh = ctx.has_output(kYH) ? ctx.output(kYH).template data_as<T>() : nullptr;
    T* yc = Cell::kHasCell && ctx.has_output(kYC) ? ctx.output(kYC).template data_as<T>() : nullptr;
    A* h = static_cast<A*>(ctx.scratch());
    A* c = h + H;
    A* scratch = c + H;

    ONNXMICRO_RETURN_IF_ERROR(check_sequence_lens(lens, B, T_len));
    for (std::int64_t d = 0; d < D; ++d) {
      Weights<T> wt;
      wt.w = ctx.input(kW).template data_as<T>() + d * G * H * I;
      wt.r = ctx.input(kR).template data_as<T>() + d * G * H * H;
      wt.b = ctx.has_input(kB) ? ctx.input(kB).template data_as<T>() + d * 2 * G * H : nullptr;
      wt.p = Cell::kHasCell && ctx.has_input(kPeepholes) ? ctx.input(kPeepholes).template data_as<T>() + d * 3 * H
                                                         : nullptr;
      wt.activations = cfg.activations + d * cfg.activations_per_direction;
      const bool backwards = D == 2 ? d == 1 : cfg.reverse;
      for (std::int64_t b = 0; b < B; ++b) {
        const std::int64_t len = lens == nullptr ? T_len : lens[b];
        const std::int64_t state_offset = (cfg.batch_first ? b * D + d : d * B + b) * H;
        for (std::int64_t j = 0; j < H; ++j) {
          h[j] = h0 == nullptr ? A(0) : static_cast<A>(load_element(h0[state_offset + j]));
          c[j] = c0 == nullptr ? A(0) : static_cast<A>(load_element(c0[state_offset + j]));
        }
        for (std::int64_t s = 0; s < T_len; ++s) {
          const std::int64_t t = s < len && backwards ? len - 1 - s : s;
          T* y_row = y == nullptr ? nullptr : y + (cfg.batch_first ? (b * T_len + t) * D + d : (t * D + d) * B + b) * H;
          if (s >= len) {  // past this row's sequence: Y is zero
            if (y_row != nullptr)
              for (std::int64_t j = 0; j < H; ++j) y_row[j] = store_element<T>(0.0f);
            continue;
          }
          const T* x_row = x + (cfg.batch_first ? b * T_len + t : t * B + b) * I;
          Cell::step(cfg, wt, x_row, h, c, scratch);
          if (y_row != nullptr)
            for (std::int64_t j = 0; j < H; ++j) y_row[j] = store_element<T>(static_cast<compute_t<T>>(h[j]));
        }
        for (std::int64_t j = 0; j < H; ++j) {
          if (yh != nullptr) yh[state_offset + j] = store_element<T>(static_cast<compute_t<T>>(h[j]));
          if (yc != nullptr) yc[state_offset + j] = store_element<T>(static_cast<compute_t<T>>(c[j]));
        }
      }
    }
    return {};
  }
};

}  // namespace recurrent_util
}  // namespace kernels
ONNXMICRO_NAMESPACE_END
