// SPDX-License-Identifier: MIT
// What RNN, GRU and LSTM (and their quantized variants) share before the time loop: activations with their
// alpha/beta values, the node's shapes and attributes (Config), the input/output positions, one direction's weight
// pointers and the per-row gate helpers, and the state of the GEMM path (recurrent_gemm.hpp).
#pragma once
#include <cmath>
#include <cstdint>
#include <string_view>

#include "onnxmicro/kernels/common/elementwise.hpp"
#include "onnxmicro/kernels/kernel_api.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {
namespace recurrent_util {

enum class ActivationKind : std::uint8_t {
  relu,
  tanh,
  sigmoid,
  affine,
  leaky_relu,
  thresholded_relu,
  scaled_tanh,
  hard_sigmoid,
  elu,
  softsign,
  softplus,
};

/// One activation function with its parameters.
struct Activation {
  ActivationKind kind = ActivationKind::tanh;
  float alpha = 0;
  float beta = 0;

  template <typename A>
  A operator()(A x) const noexcept {
    const A a = static_cast<A>(alpha);
    const A b = static_cast<A>(beta);
    switch (kind) {
      case ActivationKind::relu: return x > A(0) ? x : A(0);
      case ActivationKind::tanh: return std::tanh(x);
      case ActivationKind::sigmoid: return A(1) / (A(1) + std::exp(-x));
      case ActivationKind::affine: return a * x + b;
      case ActivationKind::leaky_relu: return x >= A(0) ? x : a * x;
      case ActivationKind::thresholded_relu: return x > a ? x : A(0);
      case ActivationKind::scaled_tanh: return a * std::tanh(b * x);
      case ActivationKind::hard_sigmoid: {
        const A y = a * x + b;
        return y < A(0) ? A(0) : (y > A(1) ? A(1) : y);
      }
      case ActivationKind::elu: return x >= A(0) ? x : a * (std::exp(x) - A(1));
      case ActivationKind::softsign: return x / (A(1) + std::fabs(x));
      case ActivationKind::softplus: return std::log1p(std::exp(x));
    }
    return x;
  }
};

/// Most activations one node holds: 3 per direction (LSTM's f, g, h) times 2 directions.
constexpr int kMaxActivations = 6;

struct ActivationInfo {
  std::string_view name;
  ActivationKind kind;
  bool uses_alpha, uses_beta;
  float default_alpha, default_beta;
};

constexpr ActivationInfo kActivationTable[] = {
    {"Relu", ActivationKind::relu, false, false, 0.0f, 0.0f},
    {"Tanh", ActivationKind::tanh, false, false, 0.0f, 0.0f},
    {"Sigmoid", ActivationKind::sigmoid, false, false, 0.0f, 0.0f},
    {"Affine", ActivationKind::affine, true, true, 1.0f, 0.0f},
    {"LeakyRelu", ActivationKind::leaky_relu, true, false, 0.01f, 0.0f},
    {"ThresholdedRelu", ActivationKind::thresholded_relu, true, false, 1.0f, 0.0f},
    {"ScaledTanh", ActivationKind::scaled_tanh, true, true, 1.0f, 1.0f},
    {"HardSigmoid", ActivationKind::hard_sigmoid, true, true, 0.2f, 0.5f},
    {"Elu", ActivationKind::elu, true, false, 1.0f, 0.0f},
    {"Softsign", ActivationKind::softsign, false, false, 0.0f, 0.0f},
    {"Softplus", ActivationKind::softplus, false, false, 0.0f, 0.0f},
};

inline bool equals_ignoring_case(std::string_view a, std::string_view b) noexcept {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    char x = a[i], y = b[i];
    if (x >= 'A' && x <= 'Z') x = static_cast<char>(x - 'A' + 'a');
    if (y >= 'A' && y <= 'Z') y = static_cast<char>(y - 'A' + 'a');
    if (x != y) return false;
  }
  return true;
}

/// Shapes and attributes of one recurrent node, fixed at prepare time.
struct Config {
  int directions = 1;
  bool reverse = false;      ///< direction == "reverse" (a single direction run backwards)
  bool batch_first = false;  ///< layout == 1 (opset 14+)
  bool has_clip = false;
  float clip = 0;
  bool linear_before_reset = false;  ///< GRU
  bool input_forget = false;         ///< LSTM
  std::int64_t seq_length = 0, batch = 0, input_size = 0, hidden = 0;
  int activations_per_direction = 1;
  Activation activations[kMaxActivations];
};

/// What one op contributes to the shared driver.
///   kGates: gate blocks in W/R (RNN 1, GRU 3, LSTM 4); kActivations: per direction;
///   kDefaultActivations: their default names; kHasCell: LSTM's initial_c/P inputs and Y_c output.
/// The input layout is X, W, R, B, sequence_lens, initial_h[, initial_c, P] and outputs Y, Y_h[, Y_c].
constexpr int kX = 0, kW = 1, kR = 2, kB = 3, kSequenceLens = 4, kInitialH = 5, kInitialC = 6, kPeepholes = 7;
constexpr int kY = 0, kYH = 1, kYC = 2;

/// Pointers one direction's step needs (direction offsets already applied).
template <typename T>
struct Weights {
  const T* w;  ///< [gates*hidden, input_size]
  const T* r;  ///< [gates*hidden, hidden]
  const T* b;  ///< [2*gates*hidden] or nullptr (zeros)
  const T* p;  ///< [3*hidden] or nullptr (LSTM peepholes)
  const Activation* activations;
};

/// Dot product of a T row with a vector of T or of the compute type A.
template <typename A, typename T, typename V>
inline A dot(const T* row, const V* v, std::int64_t n) noexcept {
  A sum = 0;
  for (std::int64_t k = 0; k < n; ++k) sum += static_cast<A>(load_element(row[k])) * static_cast<A>(load_element(v[k]));
  return sum;
}

/// Bias value j of the W half (0) or R half (1) of B, or 0 when B is absent.
template <typename A, typename T>
inline A bias(const T* b, int half, std::int64_t gates_times_hidden, std::int64_t j) noexcept {
  return b == nullptr ? A(0) : static_cast<A>(load_element(b[half * gates_times_hidden + j]));
}

template <typename A>
inline A clip_value(const Config& cfg, A x) noexcept {
  if (!cfg.has_clip) return x;
  const A c = static_cast<A>(cfg.clip);
  return x < -c ? -c : (x > c ? c : x);
}

/// Pre-activation x·W[j] + h·R[j] + Wb[j] + Rb[j] for every row j of the gate blocks [first, first + count).
template <typename A, typename T>
inline void gate_inputs(const Config& cfg, const Weights<T>& wt, int gates, const T* x, const A* h, int first,
                        int count, A* out) noexcept {
  const std::int64_t gh = gates * cfg.hidden;
  for (std::int64_t j = first * cfg.hidden; j < (first + count) * cfg.hidden; ++j) {
    out[j - first * cfg.hidden] = dot<A>(wt.w + j * cfg.input_size, x, cfg.input_size) +
                                  dot<A>(wt.r + j * cfg.hidden, h, cfg.hidden) + bias<A>(wt.b, 0, gh, j) +
                                  bias<A>(wt.b, 1, gh, j);
  }
}

/// Every sequence_lens value (lens may be null: all T) must lie in [0, T].
inline Status check_sequence_lens(const std::int32_t* lens, std::int64_t batch, std::int64_t t_len) noexcept {
  for (std::int64_t b = 0; lens != nullptr && b < batch; ++b) {
    if (lens[b] < 0 || lens[b] > t_len) {
      return Status(StatusCode::out_of_range)
             << "input 4 'sequence_lens'[" << b << "] is " << lens[b] << ", expected a value in [0, " << t_len << "]";
    }
  }
  return {};
}

/// The float32 path through the GEMM core (recurrent_gemm.hpp), chosen at prepare for cells with kGemmPath
/// (LSTM, RNN) on hosted builds: the input projection of every time step in one product, then one product of the
/// hidden states of the whole batch with the recurrent weights per step. W and R are transposed (and the two bias
/// halves summed) once at prepare when constant, else into scratch at run.
struct GemmPath {
  bool enabled = false;
  bool vector_gates = false;  ///< default activations, no clip/peepholes/input_forget: sigmoid/tanh vectorised
  Isa isa = Isa::baseline;
  const float* w_t = nullptr;   ///< per direction [input_size, gates*hidden] (or striped), or null: at w_t_offset
  const float* r_t = nullptr;   ///< per direction [hidden, gates*hidden] (or striped), or null: at r_t_offset
  const float* bias = nullptr;  ///< [directions, gates*hidden] (Wb + Rb), or null: at bias_offset
  bool w_striped = false, r_striped = false;  ///< w_t / r_t striped for the micro-kernels (recurrent_gemm.hpp)
  std::size_t w_t_offset = 0, r_t_offset = 0, bias_offset = 0;
  std::size_t projection_offset = 0, gates_offset = 0, h_offset = 0, c_offset = 0, tmp_offset = 0;
  /// Bytes from direction 0's scratch buffers to direction 1's; non-zero: the two directions run as two tasks
  /// (directions_in_parallel).
  std::size_t direction_scratch_stride = 0;
};

}  // namespace recurrent_util
}  // namespace kernels
ONNXMICRO_NAMESPACE_END
