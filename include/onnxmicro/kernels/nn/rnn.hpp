// SPDX-License-Identifier: MIT
// RNN: Ht = f(clip(Xt*W^T + Ht-1*R^T + Wb + Rb)), f = Tanh by default. The time loop, attributes and shapes
// are shared with GRU and LSTM (recurrent_util.hpp).
#pragma once
#include <type_traits>

#include "onnxmicro/kernels/nn/recurrent_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

/// The gate math of one RNN time step.
struct RnnCell {
  static constexpr int kGates = 1;
  static constexpr int kActivations = 1;
  static constexpr bool kHasCell = false;
  static constexpr std::string_view kDefaultActivations[kActivations] = {"Tanh"};
  static constexpr int kScratchVectors = 1;
  static constexpr bool kGemmPath = true;

  template <int kSince>
  static Status parse(PrepareContext&, recurrent_util::Config&) noexcept {
    return {};
  }

  /// The gemm path's activation vectorises for Tanh without clip.
  static bool vector_gates(const recurrent_util::Config& cfg, bool) noexcept {
    for (int d = 0; d < cfg.directions; ++d)
      if (cfg.activations[d].kind != recurrent_util::ActivationKind::tanh) return false;
    return !cfg.has_clip;
  }

  /// One batch row's step on the gemm path from its pre-activations `pre`.
  static void apply_row(const recurrent_util::GemmPath& path, const recurrent_util::Config& cfg,
                        const recurrent_util::Activation* activations, const float*, float* pre, float* h, float*,
                        float*) noexcept {
    if (path.vector_gates) return vector_math::tanh(path.isa, pre, h, cfg.hidden);
    for (std::int64_t j = 0; j < cfg.hidden; ++j) h[j] = activations[0](recurrent_util::clip_value(cfg, pre[j]));
  }

  template <typename A, typename T>
  static void step(const recurrent_util::Config& cfg, const recurrent_util::Weights<T>& wt, const T* x, A* h, A*,
                   A* scratch) noexcept {
    recurrent_util::gate_inputs(cfg, wt, kGates, x, h, 0, 1, scratch);
    for (std::int64_t j = 0; j < cfg.hidden; ++j) h[j] = wt.activations[0](recurrent_util::clip_value(cfg, scratch[j]));
  }
};

/// RNN's versions (VersionedKernel): RecurrentOp supplies run() and prepare_version<kSince>(),
/// which takes the version as a template argument.
struct RnnImpl : KernelDefaults, recurrent_util::RecurrentOp<RnnCell> {
  static constexpr std::string_view kOpType = "RNN";
  template <int kSince>
  static Status prepare(PrepareContext& ctx, std::integral_constant<int, kSince>) noexcept {
    return prepare_version<kSince>(ctx);
  }
};

/// RNN-1: the first version; its `output_sequence` attribute is implied by whether the node names Y.
using RNN_1 = VersionedKernel<RnnImpl, 1, 7>;
/// RNN-7: output_sequence removed (no change in what is computed).
using RNN_7 = VersionedKernel<RnnImpl, 7, 14>;
/// RNN-14: attribute `layout` (1: batch-major X, initial_h, Y, Y_h).
using RNN_14 = VersionedKernel<RnnImpl, 14, 22>;
/// RNN-22: bfloat16.
using RNN_22 = VersionedKernel<RnnImpl, 22>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
