// SPDX-License-Identifier: MIT
// The float32 path of LSTM and RNN through the GEMM core (GemmPath in recurrent_config.hpp). Per direction:
//   1. projection[T*B, G*H] = X[T*B, I] * W^T + (Wb + Rb): every time step's input part in one product;
//   2. per time step: gates[B, G*H] = the step's projection rows + H[B, H] * R^T, one product for the whole batch;
//      then the cell's gate math on each batch row (sigmoid/tanh vectorised for the default activations).
// A bidirectional layer on two or more threads runs its directions as two tasks, each on scratch of its own: a step's
// product (batch x gates*hidden x hidden) is mostly too small to split (kMinTaskWork), so splitting the steps would
// leave the recurrence on one core. The results are the same as one task's (every product adds in the same order).
// Rows past their sequence_lens take part in the product but keep their state, as the per-row path computes them.
// Hosted builds only (ONNXMICRO_ENABLE_FAST_PATHS); size-optimised sessions keep the per-row path, which reads W and R
// in place.
#pragma once
#include <cstring>

#include "onnxmicro/kernels/common/gemm.hpp"
#include "onnxmicro/kernels/common/scratch.hpp"
#include "onnxmicro/kernels/common/vector_math.hpp"
#include "onnxmicro/kernels/nn/recurrent_config.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {
namespace recurrent_util {

/// dst[d, j] = Wb[d, j] + Rb[d, j] for B [directions, 2 * gh]; zeros without B.
inline void sum_bias_halves(const float* b, std::int64_t directions, std::int64_t gh, float* dst) noexcept {
  for (std::int64_t d = 0; d < directions; ++d)
    for (std::int64_t j = 0; j < gh; ++j)
      dst[d * gh + j] = b == nullptr ? 0.0f : b[d * 2 * gh + j] + b[d * 2 * gh + gh + j];
}

/// Floats of one direction's transposed `rows` x `cols` weights: striped for the micro-kernels of `isa`
/// (gemm::pack_b_striped: each depth panel of a 16-column strip one block, where rows of 4 x hidden floats, 2 KiB
/// apart at hidden 128, fall into two of L1's sets) or plain.
inline std::int64_t direction_floats(Isa isa, bool striped, std::int64_t rows, std::int64_t cols) noexcept {
  return striped ? gemm::striped_b_floats(isa, cols, rows) : rows * cols;
}

/// `rows` x `cols` of a constant input transposed once into persistent memory (per direction; striped for the
/// micro-kernels when `isa` has them), or a scratch offset for run() to transpose into when the input is not constant.
inline Status plan_transposed(PrepareContext& ctx, int input, Isa isa, std::int64_t directions, std::int64_t rows,
                              std::int64_t cols, scratch::ScratchLayout& layout, const float*& packed,
                              std::size_t& offset, bool& striped) noexcept {
  const TensorInfo& info = ctx.input(input);
  striped = false;
  if (!info.is_constant) {
    offset = layout.reserve<float>(rows * cols);
    return {};
  }
  striped = gemm::b_strip_columns(isa) > 0;
  const std::int64_t per_direction = direction_floats(isa, striped, rows, cols);
  Span<float> memory;
  ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_persistent(static_cast<std::size_t>(directions * per_direction), memory));
  const float* source = static_cast<const float*>(info.const_data);
  for (std::int64_t d = 0; d < directions; ++d) {
    float* into = memory.data() + d * per_direction;
    if (striped) {  // B(p, j) = W[j][p]: the transpose read in place
      gemm::pack_b_striped(isa, cols, rows, source + d * rows * cols, 1, cols, into);
    } else {
      gemm::transpose(source + d * rows * cols, rows, cols, into);
    }
  }
  packed = memory.data();
  return {};
}

/// Whether a bidirectional layer runs its two directions as two tasks: when the workers would split a step's product
/// into two tasks or fewer (always on two threads), two serial directions keep more cores busy.
inline bool directions_in_parallel(const Config& cfg, const Workers& workers, std::int64_t gh) noexcept {
  if (cfg.directions != 2 || workers.count() < 2) return false;
  const double step_work = static_cast<double>(cfg.batch) * static_cast<double>(gh) * static_cast<double>(cfg.hidden);
  return workers.tasks_for(step_work, kMinTaskWork, gh) <= 2;
}

template <typename Cell>
Status prepare_gemm_path(PrepareContext& ctx, const Config& cfg, GemmPath& path) noexcept {
  const std::int64_t d = cfg.directions, gh = Cell::kGates * cfg.hidden, h = cfg.hidden;
  path.enabled = true;
  if (ONNXMICRO_ENABLE_ISA_DISPATCH) path.isa = ctx.isa();  // (else baseline, as allocated)
  path.vector_gates = Cell::vector_gates(cfg, ctx.has_input(kPeepholes));
  scratch::ScratchLayout layout;
  ONNXMICRO_RETURN_IF_ERROR(
      plan_transposed(ctx, kW, path.isa, d, gh, cfg.input_size, layout, path.w_t, path.w_t_offset, path.w_striped));
  ONNXMICRO_RETURN_IF_ERROR(
      plan_transposed(ctx, kR, path.isa, d, gh, h, layout, path.r_t, path.r_t_offset, path.r_striped));
  if (!ctx.has_input(kB) || ctx.input(kB).is_constant) {
    Span<float> bias;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_persistent(static_cast<std::size_t>(d * gh), bias));
    const float* b = ctx.has_input(kB) ? static_cast<const float*>(ctx.input(kB).const_data) : nullptr;
    sum_bias_halves(b, d, gh, bias.data());
    path.bias = bias.data();
  } else {
    path.bias_offset = layout.reserve<float>(gh);
  }
  path.projection_offset = layout.reserve<float>(cfg.seq_length * cfg.batch * gh);
  path.gates_offset = layout.reserve<float>(cfg.batch * gh);
  path.h_offset = layout.reserve<float>(cfg.batch * h);
  path.c_offset = layout.reserve<float>(cfg.batch * h);
  path.tmp_offset = layout.reserve<float>(h);
  const std::size_t direction_bytes = align_up(layout.bytes(), scratch::kScratchAlignment);
  const bool parallel = directions_in_parallel(cfg, ctx.thread_workers(), gh);
  ctx.request_scratch(parallel ? 2 * direction_bytes : direction_bytes);
  path.direction_scratch_stride = parallel ? direction_bytes : 0;
  return {};
}

/// One direction's transposed weights and summed bias: packed at prepare, or made in scratch now.
struct DirectionWeights {
  const float* w_t;
  const float* r_t;
  const float* bias;
};

template <typename Cell>
DirectionWeights direction_weights(const Config& cfg, const GemmPath& path, RunContext& ctx, void* scratch,
                                   std::int64_t d) noexcept {
  const std::int64_t gh = Cell::kGates * cfg.hidden, i = cfg.input_size, h = cfg.hidden;
  DirectionWeights out{};  // (packed: offsets into the persistent copies; else made in scratch now)
  if (path.w_t != nullptr) {
    out.w_t = path.w_t + d * direction_floats(path.isa, path.w_striped, gh, i);
  } else {
    float* w_t = scratch::scratch_at<float>(scratch, path.w_t_offset);
    gemm::transpose(ctx.input(kW).template data_as<float>() + d * gh * i, gh, i, w_t);
    out.w_t = w_t;
  }
  if (path.r_t != nullptr) {
    out.r_t = path.r_t + d * direction_floats(path.isa, path.r_striped, gh, h);
  } else {
    float* r_t = scratch::scratch_at<float>(scratch, path.r_t_offset);
    gemm::transpose(ctx.input(kR).template data_as<float>() + d * gh * h, gh, h, r_t);
    out.r_t = r_t;
  }
  if (path.bias != nullptr) {
    out.bias = path.bias + d * gh;
  } else {
    float* bias = scratch::scratch_at<float>(scratch, path.bias_offset);
    sum_bias_halves(ctx.input(kB).template data_as<float>() + d * 2 * gh, 1, gh, bias);
    out.bias = bias;
  }
  return out;
}

/// Where one batch row's state lives in initial_h/c and Y_h/c, and its row of Y at time t.
inline std::int64_t state_offset(const Config& cfg, std::int64_t d, std::int64_t b) noexcept {
  return (cfg.batch_first ? b * cfg.directions + d : d * cfg.batch + b) * cfg.hidden;
}
inline std::int64_t y_offset(const Config& cfg, std::int64_t d, std::int64_t b, std::int64_t t) noexcept {
  return (cfg.batch_first ? (b * cfg.seq_length + t) * cfg.directions + d : (t * cfg.directions + d) * cfg.batch + b) *
         cfg.hidden;
}

/// What one run of the GEMM path reads and writes (null for absent optional inputs and outputs).
struct GemmRun {
  const float* x;
  const std::int32_t* lens;
  const float *h0, *c0, *peepholes;
  float *y, *yh, *yc;
  float *projection, *gates, *h, *c, *tmp;  ///< scratch
};

/// The buffers of one direction's run, its scratch buffers in `scratch` (the direction's slice).
template <typename Cell>
GemmRun gemm_run_buffers(const GemmPath& path, RunContext& ctx, void* scratch) noexcept {
  auto in = [&](int i) { return ctx.has_input(i) ? ctx.input(i).template data_as<float>() : nullptr; };
  auto out = [&](int i) { return ctx.has_output(i) ? ctx.output(i).template data_as<float>() : nullptr; };
  GemmRun r{};
  r.x = in(kX);
  r.lens = ctx.has_input(kSequenceLens) ? ctx.input(kSequenceLens).template data_as<std::int32_t>() : nullptr;
  r.h0 = in(kInitialH);
  r.c0 = Cell::kHasCell ? in(kInitialC) : nullptr;
  r.peepholes = Cell::kHasCell ? in(kPeepholes) : nullptr;
  r.y = out(kY);
  r.yh = out(kYH);
  r.yc = Cell::kHasCell ? out(kYC) : nullptr;
  r.projection = scratch::scratch_at<float>(scratch, path.projection_offset);
  r.gates = scratch::scratch_at<float>(scratch, path.gates_offset);
  r.h = scratch::scratch_at<float>(scratch, path.h_offset);
  r.c = scratch::scratch_at<float>(scratch, path.c_offset);
  r.tmp = scratch::scratch_at<float>(scratch, path.tmp_offset);
  return r;
}

/// projection[r] = bias + X[r] * W^T for every row of X (time-major or batch-major, as the layout says).
template <typename Cell>
void project_inputs(const Config& cfg, const GemmPath& path, const Workers& workers, const DirectionWeights& wt,
                    const GemmRun& r) noexcept {
  const std::int64_t rows = cfg.seq_length * cfg.batch, gh = Cell::kGates * cfg.hidden;
  for (std::int64_t row = 0; row < rows; ++row) std::memcpy(r.projection + row * gh, wt.bias, sizeof(float) * gh);
  if (path.w_striped) {
    gemm::multiply_striped(workers, path.isa, rows, gh, cfg.input_size, r.x, cfg.input_size, 1, wt.w_t, r.projection,
                           gh);
  } else {
    gemm::multiply(workers, path.isa, rows, gh, cfg.input_size, r.x, cfg.input_size, 1, wt.w_t, gh, r.projection, gh);
  }
}

/// Step s of direction d for the whole batch: the rows' projections, plus H * R^T in one product, then each
/// active row's gate math and its row of Y (rows past their length keep their state and write a zero row of Y).
template <typename Cell>
void recurrent_step(const Config& cfg, const GemmPath& path, const Workers& workers, const DirectionWeights& wt,
                    const GemmRun& r, std::int64_t d, std::int64_t s) noexcept {
  const std::int64_t h_len = cfg.hidden, gh = Cell::kGates * h_len;
  const bool backwards = cfg.directions == 2 ? d == 1 : cfg.reverse;
  const Activation* activations = cfg.activations + d * cfg.activations_per_direction;
  const float* p = r.peepholes == nullptr ? nullptr : r.peepholes + d * 3 * h_len;
  auto length = [&](std::int64_t b) { return r.lens == nullptr ? cfg.seq_length : std::int64_t{r.lens[b]}; };
  for (std::int64_t b = 0; b < cfg.batch; ++b) {
    if (s >= length(b)) continue;
    const std::int64_t t = backwards ? length(b) - 1 - s : s;
    const std::int64_t row = cfg.batch_first ? b * cfg.seq_length + t : t * cfg.batch + b;
    std::memcpy(r.gates + b * gh, r.projection + row * gh, sizeof(float) * gh);
  }
  if (path.r_striped) {
    gemm::multiply_striped(workers, path.isa, cfg.batch, gh, h_len, r.h, h_len, 1, wt.r_t, r.gates, gh);
  } else {
    gemm::multiply(workers, path.isa, cfg.batch, gh, h_len, r.h, h_len, 1, wt.r_t, gh, r.gates, gh);
  }
  for (std::int64_t b = 0; b < cfg.batch; ++b) {
    if (s >= length(b)) {
      if (r.y != nullptr) std::memset(r.y + y_offset(cfg, d, b, s), 0, sizeof(float) * h_len);
      continue;
    }
    Cell::apply_row(path, cfg, activations, p, r.gates + b * gh, r.h + b * h_len, r.c + b * h_len, r.tmp);
    const std::int64_t t = backwards ? length(b) - 1 - s : s;
    if (r.y != nullptr) std::memcpy(r.y + y_offset(cfg, d, b, t), r.h + b * h_len, sizeof(float) * h_len);
  }
}

/// Direction d of the layer, its products split over `workers`, its scratch buffers in `scratch`.
template <typename Cell>
void run_direction(const Config& cfg, const GemmPath& path, RunContext& ctx, const Workers& workers, void* scratch,
                   std::int64_t d) noexcept {
  const GemmRun r = gemm_run_buffers<Cell>(path, ctx, scratch);
  const std::int64_t h_len = cfg.hidden;
  const std::size_t state_bytes = sizeof(float) * static_cast<std::size_t>(h_len);
  const DirectionWeights wt = direction_weights<Cell>(cfg, path, ctx, scratch, d);
  project_inputs<Cell>(cfg, path, workers, wt, r);
  for (std::int64_t b = 0; b < cfg.batch; ++b) {
    float* h = r.h + b * h_len;
    float* c = r.c + b * h_len;
    if (r.h0 != nullptr) std::memcpy(h, r.h0 + state_offset(cfg, d, b), state_bytes);
    if (r.h0 == nullptr) std::memset(h, 0, state_bytes);
    if (r.c0 != nullptr) std::memcpy(c, r.c0 + state_offset(cfg, d, b), state_bytes);
    if (r.c0 == nullptr) std::memset(c, 0, state_bytes);
  }
  for (std::int64_t s = 0; s < cfg.seq_length; ++s) recurrent_step<Cell>(cfg, path, workers, wt, r, d, s);
  for (std::int64_t b = 0; b < cfg.batch; ++b) {
    if (r.yh != nullptr) std::memcpy(r.yh + state_offset(cfg, d, b), r.h + b * h_len, state_bytes);
    if (r.yc != nullptr) std::memcpy(r.yc + state_offset(cfg, d, b), r.c + b * h_len, state_bytes);
  }
}

template <typename Cell>
Status run_gemm_path(const Config& cfg, const GemmPath& path, RunContext& ctx) noexcept {
  const std::int32_t* lens =
      ctx.has_input(kSequenceLens) ? ctx.input(kSequenceLens).template data_as<std::int32_t>() : nullptr;
  ONNXMICRO_RETURN_IF_ERROR(check_sequence_lens(lens, cfg.batch, cfg.seq_length));
  if (path.direction_scratch_stride > 0) {  // (directions_in_parallel at prepare, with the same workers)
    auto direction = [&](std::size_t d) noexcept {
      void* scratch = scratch::scratch_at<unsigned char>(ctx.scratch(), d * path.direction_scratch_stride);
      run_direction<Cell>(cfg, path, ctx, Workers{}, scratch, static_cast<std::int64_t>(d));
    };
    ctx.workers().run(2, direction);
    return {};
  }
  for (std::int64_t d = 0; d < cfg.directions; ++d)
    run_direction<Cell>(cfg, path, ctx, ctx.workers(), ctx.scratch(), d);
  return {};
}

}  // namespace recurrent_util
}  // namespace kernels
ONNXMICRO_NAMESPACE_END
