// SPDX-License-Identifier: MIT
// GRU (gate blocks z, r, h in W, R and B):
//   zt = f(clip(Xt*Wz^T + Ht-1*Rz^T + Wbz + Rbz))      rt = f(clip(... r ...))
//   ht = g(clip(Xt*Wh^T + (rt (.) Ht-1)*Rh^T + Rbh + Wbh))           linear_before_reset = 0
//   ht = g(clip(Xt*Wh^T + rt (.) (Ht-1*Rh^T + Rbh) + Wbh))           linear_before_reset = 1
//   Ht = (1 - zt) (.) ht + zt (.) Ht-1;   f = Sigmoid, g = Tanh by default.
// The time loop, attributes and shapes are shared with RNN and LSTM (recurrent_util.hpp).
#pragma once
#include <type_traits>

#include "onnxmicro/kernels/nn/recurrent_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

/// The gate math of one GRU time step. Scratch: z, r, r (.) Ht-1, and h's recurrent term.
struct GruCell {
  static constexpr int kGates = 3;
  static constexpr int kActivations = 2;
  static constexpr bool kHasCell = false;
  static constexpr std::string_view kDefaultActivations[kActivations] = {"Sigmoid", "Tanh"};
  static constexpr int kScratchVectors = 4;
  static constexpr bool kGemmPath = false;  // (the reset gate scales H before R_h: two products a step; not yet)

  template <int kSince>
  static Status parse(PrepareContext& ctx, recurrent_util::Config& cfg) noexcept {
    std::int64_t linear_before_reset = 0;
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("linear_before_reset", linear_before_reset, 0));
    // linear_before_reset: added in opset 3.
    if (kSince < 3 && linear_before_reset != 0) {
      return Status(StatusCode::invalid_model) << "attribute 'linear_before_reset' exists only from opset 3 on";
    }
    cfg.linear_before_reset = linear_before_reset != 0;
    return {};
  }

  template <typename A, typename T>
  static void step(const recurrent_util::Config& cfg, const recurrent_util::Weights<T>& wt, const T* x, A* h, A*,
                   A* scratch) noexcept {
    using recurrent_util::bias;
    using recurrent_util::clip_value;
    using recurrent_util::dot;
    const std::int64_t H = cfg.hidden, I = cfg.input_size, gh = kGates * H;
    const recurrent_util::Activation& f = wt.activations[0];
    const recurrent_util::Activation& g = wt.activations[1];
    A* z = scratch;
    A* r = z + H;
    A* reset_h = r + H;
    A* candidate = reset_h + H;
    recurrent_util::gate_inputs(cfg, wt, kGates, x, h, 0, 2, z);  // z and r are adjacent
    for (std::int64_t j = 0; j < 2 * H; ++j) z[j] = f(clip_value(cfg, z[j]));
    for (std::int64_t j = 0; j < H; ++j) reset_h[j] = r[j] * h[j];
    for (std::int64_t j = 0; j < H; ++j) {
      const std::int64_t row = 2 * H + j;
      const A input_term = dot<A>(wt.w + row * I, x, I) + bias<A>(wt.b, 0, gh, row);
      A pre;
      if (cfg.linear_before_reset) {
        pre = input_term + r[j] * (dot<A>(wt.r + row * H, h, H) + bias<A>(wt.b, 1, gh, row));
      } else {
        pre = input_term + dot<A>(wt.r + row * H, reset_h, H) + bias<A>(wt.b, 1, gh, row);
      }
      candidate[j] = g(clip_value(cfg, pre));
    }
    for (std::int64_t j = 0; j < H; ++j) h[j] = (A(1) - z[j]) * candidate[j] + z[j] * h[j];
  }
};

/// GRU's versions (VersionedKernel): RecurrentOp supplies run() and prepare_version<kSince>(),
/// which takes the version as a template argument.
struct GruImpl : KernelDefaults, recurrent_util::RecurrentOp<GruCell> {
  static constexpr std::string_view kOpType = "GRU";
  template <int kSince>
  static Status prepare(PrepareContext& ctx, std::integral_constant<int, kSince>) noexcept {
    return prepare_version<kSince>(ctx);
  }
};

/// GRU-1: the first version (always linear_before_reset = 0; default direction spelled "foward").
using GRU_1 = VersionedKernel<GruImpl, 1, 3>;
/// GRU-3: attribute `linear_before_reset`.
using GRU_3 = VersionedKernel<GruImpl, 3, 7>;
/// GRU-7: output_sequence removed (no change in what is computed).
using GRU_7 = VersionedKernel<GruImpl, 7, 14>;
/// GRU-14: attribute `layout` (1: batch-major X, initial_h, Y, Y_h).
using GRU_14 = VersionedKernel<GruImpl, 14, 22>;
/// GRU-22: bfloat16.
using GRU_22 = VersionedKernel<GruImpl, 22>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
