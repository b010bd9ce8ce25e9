// SPDX-License-Identifier: MIT
// LSTM (gate blocks i, o, f, c in W, R and B; peepholes P = [Pi, Po, Pf]):
//   it = f(clip(Xt*Wi^T + Ht-1*Ri^T + Pi (.) Ct-1 + Wbi + Rbi))
//   ft = f(clip(Xt*Wf^T + Ht-1*Rf^T + Pf (.) Ct-1 + Wbf + Rbf))     (input_forget = 1: ft = 1 - it)
//   ct = g(clip(Xt*Wc^T + Ht-1*Rc^T + Wbc + Rbc))
//   Ct = ft (.) Ct-1 + it (.) ct
//   ot = f(clip(Xt*Wo^T + Ht-1*Ro^T + Po (.) Ct + Wbo + Rbo))
//   Ht = ot (.) h(Ct);   f = Sigmoid, g = h = Tanh by default.
// input_forget couples the gates as onnxruntime does. The time loop, attributes and shapes are shared with
// RNN and GRU (recurrent_util.hpp).
#pragma once
#include <type_traits>

#include "onnxmicro/kernels/nn/recurrent_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

/// The gate math of one LSTM time step. Scratch: the four gates' pre-activations.
struct LstmCell {
  static constexpr int kGates = 4;
  static constexpr int kActivations = 3;
  static constexpr bool kHasCell = true;
  static constexpr std::string_view kDefaultActivations[kActivations] = {"Sigmoid", "Tanh", "Tanh"};
  static constexpr int kScratchVectors = 4;
  static constexpr bool kGemmPath = true;

  template <int kSince>
  static Status parse(PrepareContext& ctx, recurrent_util::Config& cfg) noexcept {
    std::int64_t input_forget = 0;
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("input_forget", input_forget, 0));
    cfg.input_forget = input_forget != 0;
    return {};
  }

  template <typename A, typename T>
  static void step(const recurrent_util::Config& cfg, const recurrent_util::Weights<T>& wt, const T* x, A* h, A* c,
                   A* scratch) noexcept {
    recurrent_util::gate_inputs(cfg, wt, kGates, x, h, 0, kGates, scratch);
    apply_gates(cfg, wt.activations, wt.p, scratch, h, c);
  }

  /// The gemm path's gate math vectorises for the default activations without clip, peepholes or input_forget.
  static bool vector_gates(const recurrent_util::Config& cfg, bool has_peepholes) noexcept {
    using recurrent_util::ActivationKind;
    const recurrent_util::Activation* a = cfg.activations;
    for (int d = 0; d < cfg.directions; ++d, a += kActivations) {
      if (a[0].kind != ActivationKind::sigmoid || a[1].kind != ActivationKind::tanh ||
          a[2].kind != ActivationKind::tanh)
        return false;
    }
    return !cfg.has_clip && !has_peepholes && !cfg.input_forget;
  }

  /// One batch row's step on the gemm path from its pre-activations `pre` (blocks i, o, f, c; overwritten).
  static void apply_row(const recurrent_util::GemmPath& path, const recurrent_util::Config& cfg,
                        const recurrent_util::Activation* activations, const float* p, float* pre, float* h, float* c,
                        float* tmp) noexcept {
    if (!path.vector_gates) return apply_gates(cfg, activations, p, pre, h, c);
    const std::int64_t H = cfg.hidden;
    vector_math::sigmoid(path.isa, pre, pre, 3 * H);  // i, o, f
    vector_math::tanh(path.isa, pre + 3 * H, pre + 3 * H, H);
    const float* in = pre;
    const float* forget = pre + 2 * H;
    const float* cell = pre + 3 * H;
    for (std::int64_t j = 0; j < H; ++j) c[j] = forget[j] * c[j] + in[j] * cell[j];
    vector_math::tanh(path.isa, c, tmp, H);
    const float* out = pre + H;
    for (std::int64_t j = 0; j < H; ++j) h[j] = out[j] * tmp[j];
  }

  /// One step's state update from the gates' pre-activations `pre` (blocks i, o, f, c; biases included) and
  /// the peepholes `p` ([Pi, Po, Pf] or nullptr). DynamicQuantizeLSTM shares it.
  template <typename A, typename P>
  static void apply_gates(const recurrent_util::Config& cfg, const recurrent_util::Activation* activations, const P* p,
                          const A* pre, A* h, A* c) noexcept {
    using recurrent_util::clip_value;
    const std::int64_t H = cfg.hidden;
    const recurrent_util::Activation& f = activations[0];
    const recurrent_util::Activation& g = activations[1];
    const recurrent_util::Activation& act_h = activations[2];
    const A* in = pre;
    const A* out = pre + H;
    const A* forget = pre + 2 * H;
    const A* cell = pre + 3 * H;
    for (std::int64_t j = 0; j < H; ++j) {
      const A p_i = p == nullptr ? A(0) : static_cast<A>(load_element(p[j]));
      const A p_o = p == nullptr ? A(0) : static_cast<A>(load_element(p[H + j]));
      const A p_f = p == nullptr ? A(0) : static_cast<A>(load_element(p[2 * H + j]));
      const A i_gate = f(clip_value(cfg, in[j] + p_i * c[j]));
      const A f_gate = cfg.input_forget ? A(1) - i_gate : f(clip_value(cfg, forget[j] + p_f * c[j]));
      const A c_new = f_gate * c[j] + i_gate * g(clip_value(cfg, cell[j]));
      const A o_gate = f(clip_value(cfg, out[j] + p_o * c_new));
      c[j] = c_new;
      h[j] = o_gate * act_h(c_new);
    }
  }
};

/// LSTM's versions (VersionedKernel): RecurrentOp supplies run() and prepare_version<kSince>(),
/// which takes the version as a template argument.
struct LstmImpl : KernelDefaults, recurrent_util::RecurrentOp<LstmCell> {
  static constexpr std::string_view kOpType = "LSTM";
  template <int kSince>
  static Status prepare(PrepareContext& ctx, std::integral_constant<int, kSince>) noexcept {
    return prepare_version<kSince>(ctx);
  }
};

/// LSTM-1: the first version; its `output_sequence` attribute is implied by whether the node names Y.
using LSTM_1 = VersionedKernel<LstmImpl, 1, 7>;
/// LSTM-7: output_sequence removed (no change in what is computed).
using LSTM_7 = VersionedKernel<LstmImpl, 7, 14>;
/// LSTM-14: attribute `layout` (1: batch-major X, initial_h/c, Y, Y_h/c).
using LSTM_14 = VersionedKernel<LstmImpl, 14, 22>;
/// LSTM-22: bfloat16.
using LSTM_22 = VersionedKernel<LstmImpl, 22>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
