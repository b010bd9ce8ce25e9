// SPDX-License-Identifier: MIT
// The engine shared by LayerNormalization, RMSNormalization, GroupNormalization and InstanceNormalization:
// X is viewed as `rows` consecutive blocks of `block` elements; each block is normalised by its own statistics
// (mean and 1 / sqrt(variance + epsilon), or for RMS 1 / sqrt(mean(x^2) + epsilon)) and then scaled and
// shifted by scale/bias tensors that broadcast (numpy rules) onto a "parameter view" of X: a shape with X's
// element count chosen by the op (X itself for LayerNormalization, [N, C, 1...] style views for the per-channel
// and per-group ops). Statistics are accumulated in double and applied in the compute type (float for the
// 16-bit types, else the type itself). Run-time memory: the per-block statistics, in scratch.
#pragma once
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "onnxmicro/kernels/common/broadcast.hpp"
#include "onnxmicro/kernels/common/compute_type.hpp"
#include "onnxmicro/kernels/common/scratch.hpp"
#include "onnxmicro/kernels/kernel_api.hpp"
#include "onnxmicro/kernels/nn/spatial_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {
namespace normalization_util {

/// Everything run() needs to normalise blocks of X; lives in the kernel's State.
struct BlockNormalizer {
  void (*compute)(const BlockNormalizer&, const void* x, const void* scale, const void* bias, void* y,
                  void* scratch) noexcept = nullptr;
  std::int64_t rows = 0;   ///< number of blocks
  std::int64_t block = 0;  ///< elements per block
  bool subtract_mean = true;
  bool has_scale = true;
  bool has_bias = false;
  double epsilon = 1e-5;
  DataType x_dtype = DataType::undefined;
  DataType param_dtype = DataType::undefined;  ///< dtype of scale and bias
  kernels::BroadcastPlan<3> plan;              ///< over (X, scale, bias) onto the parameter view
  std::size_t mean_offset = 0, inv_offset = 0, param_offset = 0;
  std::int64_t scale_count = 0, bias_count = 0;
  /// Optional statistics outputs (LayerNormalization's Mean/InvStdDev), written as `stat_dtype`.
  DataType stat_dtype = DataType::undefined;
};

/// True for the dtypes the normalisation ops accept.
constexpr bool is_normalizable(DataType dtype) noexcept { return compute_type::is_loadable_floating(dtype); }

/// Reads the FLOAT attribute `epsilon` (default `default_value`) and checks it is finite and >= 0.
inline Status read_epsilon(const kernels::PrepareContext& ctx, float default_value, double& epsilon) noexcept {
  float value = default_value;
  ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("epsilon", value, default_value));
  if (!(value >= 0.0f) || !std::isfinite(value)) {
    return Status(StatusCode::invalid_model)
           << "attribute 'epsilon' is " << static_cast<double>(value) << ", expected a finite value >= 0";
  }
  epsilon = static_cast<double>(value);
  return {};
}

/// Checks that input `index` (shape `shape`, as the op views it) broadcasts onto `view` (the parameter view
/// of X); `role` names it in the error.
inline Status check_param_shape(const kernels::PrepareContext& ctx, int index, const Shape& shape, const Shape& view,
                                const char* expectation) noexcept {
  bool ok = shape.rank() <= view.rank();
  for (int i = 0; ok && i < shape.rank(); ++i) {
    const std::int64_t dim = shape[shape.rank() - 1 - i];
    ok = dim == 1 || dim == view[view.rank() - 1 - i];
  }
  if (ok) return {};
  return ctx.input_error(index) << " has shape " << ctx.input(index).shape << ", expected " << expectation;
}

/// Sum of `n` elements of `row` minus `shift`, squared when `square`, in double over four independent partial sums
/// (four adds in flight instead of one chain).
template <typename T>
double sum_in_double(const T* row, std::int64_t n, double shift, bool square) noexcept {
  double partial[4] = {0.0, 0.0, 0.0, 0.0};
  std::int64_t i = 0;
  for (; i + 4 <= n; i += 4) {
    for (int k = 0; k < 4; ++k) {
      const double d = static_cast<double>(compute_type::widen(row[i + k])) - shift;
      partial[k] += square ? d * d : d;
    }
  }
  for (; i < n; ++i) {
    const double d = static_cast<double>(compute_type::widen(row[i])) - shift;
    partial[0] += square ? d * d : d;
  }
  return (partial[0] + partial[1]) + (partial[2] + partial[3]);
}

/// y = ((x - mean) * inv) [* scale] [+ bias] over `n` elements of one block; scale/bias advance by their steps
/// (1: one value per element, 0: one value for all). Unit steps take a loop the compiler vectorises.
template <bool kScale, bool kBias, typename T, typename Acc>
void normalize_span(const T* x, T* y, std::int64_t n, Acc mean, Acc inv, const Acc* scale, std::int64_t scale_step,
                    const Acc* bias, std::int64_t bias_step) noexcept {
  if ((!kScale || scale_step == 1) && (!kBias || bias_step == 1)) {
    for (std::int64_t j = 0; j < n; ++j) {
      Acc v = (compute_type::widen(x[j]) - mean) * inv;
      if constexpr (kScale) v = v * scale[j];
      if constexpr (kBias) v = v + bias[j];
      y[j] = compute_type::narrow<T>(v);
    }
    return;
  }
  for (std::int64_t j = 0; j < n; ++j) {
    Acc v = (compute_type::widen(x[j]) - mean) * inv;
    if constexpr (kScale) v = v * scale[j * scale_step];
    if constexpr (kBias) v = v + bias[j * bias_step];
    y[j] = compute_type::narrow<T>(v);
  }
}

template <typename T>
void compute_blocks(const BlockNormalizer& s, const void* x_data, const void* scale_data, const void* bias_data,
                    void* y_data, void* scratch) noexcept {
  using Acc = compute_type::ComputeType<T>;
  const T* x = static_cast<const T*>(x_data);
  T* y = static_cast<T*>(y_data);
  Acc* mean = scratch::scratch_at<Acc>(scratch, s.mean_offset);
  Acc* inv = scratch::scratch_at<Acc>(scratch, s.inv_offset);
  Acc* scale = scratch::scratch_at<Acc>(scratch, s.param_offset);
  Acc* bias = scale + s.scale_count;
  // scale/bias may have another float dtype than X (RMSNormalization's V): read them into the compute type.
  if (s.has_scale) compute_type::load_floating(s.param_dtype, scale_data, scale, s.scale_count);
  if (s.has_bias) compute_type::load_floating(s.param_dtype, bias_data, bias, s.bias_count);

  for (std::int64_t r = 0; r < s.rows; ++r) {
    const T* row = x + r * s.block;
    const double m = s.subtract_mean ? sum_in_double(row, s.block, 0.0, false) / static_cast<double>(s.block) : 0.0;
    const double squares = sum_in_double(row, s.block, m, true);
    mean[r] = static_cast<Acc>(m);
    inv[r] = static_cast<Acc>(1.0 / std::sqrt(squares / static_cast<double>(s.block) + s.epsilon));
  }

  auto span = s.has_scale ? (s.has_bias ? &normalize_span<true, true, T, Acc> : &normalize_span<true, false, T, Acc>)
                          : (s.has_bias ? &normalize_span<false, true, T, Acc> : &normalize_span<false, false, T, Acc>);
  std::int64_t r = 0, position = 0;  // block and position in it of the current output element
  s.plan.for_each_row([&](const std::int64_t* offsets, std::int64_t out, std::int64_t n) {
    const std::int64_t scale_step = s.plan.inner_stride(1), bias_step = s.plan.inner_stride(2);
    for (std::int64_t j = 0; j < n;) {  // the row's pieces that lie in one block each
      const std::int64_t take = n - j < s.block - position ? n - j : s.block - position;
      span(x + out + j, y + out + j, take, mean[r], inv[r], scale + offsets[1] + j * scale_step, scale_step,
           bias + offsets[2] + j * bias_step, bias_step);
      j += take;
      position += take;
      if (position == s.block) {
        position = 0;
        ++r;
      }
    }
  });
}

/// Sets up `s` for X (dtype `x_dtype`, `rows` blocks of `block` elements) whose parameters broadcast onto
/// `view` (same element count as X). `scale`/`bias` are null when absent; scale and bias share `param_dtype`.
/// Reserves the scratch in `layout`.
inline Status plan_blocks(DataType x_dtype, std::int64_t rows, std::int64_t block, const Shape& view,
                          const Shape* scale, const Shape* bias, DataType param_dtype, scratch::ScratchLayout& layout,
                          BlockNormalizer& s) noexcept {
  s.x_dtype = x_dtype;
  s.rows = rows;
  s.block = block;
  s.has_scale = scale != nullptr;
  s.has_bias = bias != nullptr;
  s.param_dtype = param_dtype;
  const Shape none;  // a scalar: broadcasts anywhere, never read
  const Shape* const operands[3] = {&view, scale ? scale : &none, bias ? bias : &none};
  ONNXMICRO_RETURN_IF_ERROR(kernels::make_broadcast_plan(operands, view, s.plan));
  s.scale_count = scale ? scale->element_count() : 0;
  s.bias_count = bias ? bias->element_count() : 0;
  const bool is_float = spatial_util::visit_float_dtype(x_dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    using Acc = compute_type::ComputeType<T>;
    s.compute = &compute_blocks<T>;
    s.mean_offset = layout.reserve<Acc>(rows);
    s.inv_offset = layout.reserve<Acc>(rows);
    s.param_offset = layout.reserve<Acc>(s.scale_count + s.bias_count);
  });
  if (!is_float) return Status(StatusCode::unsupported) << "normalisation of dtype " << dtype_name(x_dtype);
  return {};
}

/// Runs the normaliser; `bias` may be null when absent.
inline void run_blocks(const BlockNormalizer& s, const void* x, const void* scale, const void* bias, void* y,
                       void* scratch) noexcept {
  s.compute(s, x, scale, bias, y, scratch);
}

/// Writes the per-block mean (`mean_out`) and inverse standard deviation (`inv_out`) computed by the last
/// run_blocks() in `s.stat_dtype`; either may be null.
inline void store_statistics(const BlockNormalizer& s, void* scratch, void* mean_out, void* inv_out) noexcept {
  const bool narrow = s.x_dtype != DataType::float64;
  if (mean_out != nullptr) {
    if (narrow)
      compute_type::store_floating(s.stat_dtype, scratch::scratch_at<float>(scratch, s.mean_offset), mean_out, s.rows);
    else
      compute_type::store_floating(s.stat_dtype, scratch::scratch_at<double>(scratch, s.mean_offset), mean_out, s.rows);
  }
  if (inv_out != nullptr) {
    if (narrow)
      compute_type::store_floating(s.stat_dtype, scratch::scratch_at<float>(scratch, s.inv_offset), inv_out, s.rows);
    else
      compute_type::store_floating(s.stat_dtype, scratch::scratch_at<double>(scratch, s.inv_offset), inv_out, s.rows);
  }
}

}  // namespace normalization_util
}  // namespace kernels
ONNXMICRO_NAMESPACE_END
