// SPDX-License-Identifier: MIT
// BatchNormalization: Y = (X - mean) / sqrt(var + epsilon) * scale + B per channel (axis 1) of
// X = (N, C, D1, ..., Dn). Inference mode uses the given mean/var. Training mode (training_mode = 1, opset
// 14+) normalises with the batch statistics (population variance over N and D1..Dn) and outputs
// running_mean = mean * momentum + batch_mean * (1 - momentum), likewise running_var. The legacy training
// outputs of versions 1-9 (mean, var, saved_mean, saved_var) are not supported. float16/bfloat16 are computed
// in float32.
#pragma once
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "onnxmicro/kernels/common/compute_type.hpp"
#include "onnxmicro/kernels/common/scratch.hpp"
#include "onnxmicro/kernels/kernel_api.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {
namespace batch_normalization_detail {

/// Implementation shared by every BatchNormalization version.
struct BatchNormalizationImpl : kernels::KernelDefaults {
  static constexpr std::string_view kOpType = "BatchNormalization";
  using RunContext = kernels::RunContext;
  static constexpr int kX = 0;
  static constexpr int kScale = 1;
  static constexpr int kBias = 2;
  static constexpr int kMean = 3;
  static constexpr int kVar = 4;
  static constexpr int kY = 0;
  static constexpr int kRunningMean = 1;
  static constexpr int kRunningVar = 2;

  /// What changes between versions.
  struct Rules {
    bool spatial_attr;       ///< 1-8: `spatial` (0: one parameter per channel *and* spatial position)
    bool free_param_dtypes;  ///< 15+: scale/B may differ in dtype from X (mean/var may since 14)
  };

  struct State {
    void (*compute)(const State&, RunContext&) noexcept;
    std::int64_t batch;        ///< N
    std::int64_t channels;     ///< C (1 for a 1-D X)
    std::int64_t inner;        ///< elements per (n, c): product of D1..Dn
    std::int64_t params;       ///< elements of each parameter: C, or C * inner when spatial = 0
    std::int64_t param_inner;  ///< consecutive X elements sharing one parameter: inner, or 1 when spatial = 0
    float epsilon, momentum;
    bool training;
    bool write_running_mean, write_running_var;
    DataType scale_dtype, bias_dtype, mean_dtype, var_dtype;
    /// The factors of y = x * a + b, in the compute type: params values a, then params values b. Folded once at
    /// prepare for inference with constant parameters; else null, and run() folds them into scratch.
    const void* folded;
    std::size_t factors_offset;  ///< scratch: the factors when not folded at prepare
    std::size_t scale_offset, bias_offset, mean_offset, var_offset;  ///< scratch (training), params doubles each
  };

  /// The rules of version kSince. It arrives as a type (VersionedKernel passes std::integral_constant), so that
  /// versions before 14 do not compile the training path (code size on a microcontroller).
  template <int kSince>
  static Status prepare(kernels::PrepareContext& ctx, std::integral_constant<int, kSince>) noexcept {
    return prepare<(kSince >= 14)>(ctx, {/*spatial_attr=*/kSince < 9, /*free_param_dtypes=*/kSince >= 15});
  }

  /// kTrainingAttr (14+): the `training_mode` attribute.
  template <bool kTrainingAttr>
  static Status prepare(kernels::PrepareContext& ctx, const Rules& rules) noexcept {
    for (int i = kX; i <= kVar; ++i) ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(i));
    const kernels::TensorInfo& x = ctx.input(kX);
    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
    bool double_factors = false;  // the compute type: double for double X, else float
    switch (compiled_dtype(x.dtype)) {
      case DataType::float32: state->compute = &compute<float, kTrainingAttr>; break;
      case DataType::float64:
        state->compute = &compute<double, kTrainingAttr>;
        double_factors = true;
        break;
      case DataType::float16: state->compute = &compute<float16_t, kTrainingAttr>; break;
      case DataType::bfloat16: state->compute = &compute<bfloat16_t, kTrainingAttr>; break;
      default: return ctx.unsupported_input_dtype(kX);
    }
    for (int i = kScale; i <= kVar; ++i) {
      if (!compute_type::is_loadable_floating(ctx.input(i).dtype)) return ctx.unsupported_input_dtype(i);
    }
    if (rules.free_param_dtypes) {
      ONNXMICRO_RETURN_IF_ERROR(ctx.require_same_dtype(kScale, kBias));
    } else {
      ONNXMICRO_RETURN_IF_ERROR(ctx.require_same_dtype(kX, kScale));
      ONNXMICRO_RETURN_IF_ERROR(ctx.require_same_dtype(kX, kBias));
    }
    if (!kTrainingAttr) ONNXMICRO_RETURN_IF_ERROR(ctx.require_same_dtype(kX, kMean));
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_same_dtype(kMean, kVar));

    const Shape& xs = x.shape;
    if (xs.rank() < 1) {
      return ctx.input_error(kX, "X") << " is a scalar, expected (N, C, ...)";
    }
    state->batch = xs[0];
    state->channels = xs.rank() >= 2 ? xs[1] : 1;  // a 1-D X of N values has one channel (opset 9+)
    state->inner = 1;
    for (int i = 2; i < xs.rank(); ++i) state->inner *= xs[i];

    std::int64_t spatial = 1;
    if (rules.spatial_attr) {
      ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("spatial", spatial, 1));
      if (spatial != 0 && spatial != 1) {
        return Status(StatusCode::invalid_model) << "attribute 'spatial' is " << spatial << ", expected 0 or 1";
      }
    }
    state->params = spatial ? state->channels : state->channels * state->inner;
    state->param_inner = spatial ? state->inner : 1;
    static constexpr const char* kNames[] = {"X", "scale", "B", "mean", "var"};
    for (int i = kScale; i <= kVar; ++i) {
      const Shape& p = ctx.input(i).shape;
      const bool ok = spatial ? (p.rank() == 1 && p[0] == state->channels) : p.element_count() == state->params;
      if (!ok) {
        Status status = ctx.input_error(i, kNames[i]);
        status << " has shape " << p << ", expected ";
        if (spatial) {
          status << "[" << state->channels << "] (one value per channel of X " << xs << ")";
        } else {
          status << state->params << " elements (C x D1 x ... x Dn of X " << xs << ", spatial = 0)";
        }
        return status;
      }
    }

    float epsilon = 1e-5f, momentum = 0.9f;
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("epsilon", epsilon, 1e-5f));
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("momentum", momentum, 0.9f));
    state->epsilon = epsilon;
    state->momentum = momentum;

    const bool extra_outputs = ctx.has_output(1) || ctx.has_output(2) || ctx.has_output(3) || ctx.has_output(4);
    if (kTrainingAttr) {
      std::int64_t training_mode = 0;
      ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("training_mode", training_mode, 0));
      if (training_mode != 0 && training_mode != 1) {
        return Status(StatusCode::invalid_model)
               << "attribute 'training_mode' is " << training_mode << ", expected 0 or 1";
      }
      state->training = training_mode == 1;
      if (!state->training && extra_outputs) {
        return Status(StatusCode::invalid_model)
               << "outputs running_mean/running_var are only produced with training_mode = 1";
      }
    } else if (extra_outputs) {
      // Versions 1-9 signal training by asking for mean/var/saved_mean/saved_var; only inference is supported.
      return Status(StatusCode::unsupported)
             << "training-mode outputs (mean, var, saved_mean, saved_var) of BatchNormalization before opset 14 "
                "are not supported; only output 0 (Y) may be used";
    }
    state->write_running_mean = state->training && ctx.has_output(kRunningMean);
    state->write_running_var = state->training && ctx.has_output(kRunningVar);

    state->scale_dtype = ctx.input(kScale).dtype;
    state->bias_dtype = ctx.input(kBias).dtype;
    state->mean_dtype = ctx.input(kMean).dtype;
    state->var_dtype = ctx.input(kVar).dtype;
    bool constant_parameters = !state->training;
    for (int i = kScale; i <= kVar; ++i) constant_parameters = constant_parameters && ctx.input(i).is_constant;
    if (constant_parameters) {
      // The usual inference case: folded once here, so run() neither converts nor divides (a software double
      // division and square root per channel on a Cortex-M4F), and needs no scratch.
      const void* const params[4] = {ctx.input(kScale).const_data, ctx.input(kBias).const_data,
                                     ctx.input(kMean).const_data, ctx.input(kVar).const_data};
      if (double_factors) {
        ONNXMICRO_RETURN_IF_ERROR(fold_at_prepare<double>(ctx, params, *state));
      } else {
        ONNXMICRO_RETURN_IF_ERROR(fold_at_prepare<float>(ctx, params, *state));
      }
    } else {
      scratch::ScratchLayout layout;
      state->factors_offset =
          double_factors ? layout.reserve<double>(2 * state->params) : layout.reserve<float>(2 * state->params);
      if (state->training) {
        state->scale_offset = layout.reserve<double>(state->params);
        state->bias_offset = layout.reserve<double>(state->params);
        state->mean_offset = layout.reserve<double>(state->params);
        state->var_offset = layout.reserve<double>(state->params);
      }
      ctx.request_scratch(layout.bytes());
    }

    ctx.set_output(kY, x.dtype, xs);
    if (state->write_running_mean) ctx.set_output(kRunningMean, state->mean_dtype, ctx.input(kMean).shape);
    if (state->write_running_var) ctx.set_output(kRunningVar, state->var_dtype, ctx.input(kVar).shape);
    return {};
  }

  static Status run(RunContext& ctx) noexcept {
    const State& state = ctx.state<State>();
    state.compute(state, ctx);
    return {};
  }

 private:
  /// Inference: the factors of y = x * a + b, a = scale / sqrt(var + epsilon) and b = B - mean * a per parameter,
  /// computed in double whatever the parameters' dtypes, into `factors` (a then b, params each). `params` are the
  /// scale, B, mean and var data.
  template <typename C>
  static void fold(const State& s, const void* const (&params)[4], C* factors) noexcept {
    const DataType dtypes[4] = {s.scale_dtype, s.bias_dtype, s.mean_dtype, s.var_dtype};
    for (std::int64_t p = 0; p < s.params; ++p) {
      double v[4] = {};
      for (int i = 0; i < 4; ++i) {
        const auto* base = static_cast<const unsigned char*>(params[i]);
        compute_type::load_floating(dtypes[i], base + static_cast<std::size_t>(p) * dtype_size(dtypes[i]), &v[i], 1);
      }
      const double a = v[0] / std::sqrt(v[3] + static_cast<double>(s.epsilon));
      factors[p] = static_cast<C>(a);
      factors[s.params + p] = static_cast<C>(v[1] - v[2] * a);
    }
  }

  template <typename C>
  static Status fold_at_prepare(kernels::PrepareContext& ctx, const void* const (&params)[4], State& state) noexcept {
    Span<C> factors;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_persistent(static_cast<std::size_t>(state.params) * 2, factors));
    fold(state, params, factors.data());
    state.folded = factors.data();
    return {};
  }

  template <typename T, bool kTrainingAttr>
  static void compute(const State& s, RunContext& ctx) noexcept {
    using C = compute_type::ComputeType<T>;
    const T* x = static_cast<const T*>(ctx.input(kX).data);
    T* y = static_cast<T*>(ctx.output(kY).data);
    const C* factors = static_cast<const C*>(s.folded);
    if (factors == nullptr) {
      void* scratch = ctx.scratch();
      C* scratch_factors = scratch::scratch_at<C>(scratch, s.factors_offset);
      bool from_batch = false;  // training mode: only the versions with the attribute compile that path
      if constexpr (kTrainingAttr) {
        from_batch = s.training;
        if (from_batch) training_factors(s, ctx, x, scratch, scratch_factors);
      }
      if (!from_batch) {
        const void* const params[4] = {ctx.input(kScale).data, ctx.input(kBias).data, ctx.input(kMean).data,
                                       ctx.input(kVar).data};
        fold(s, params, scratch_factors);
      }
      factors = scratch_factors;
    }
    for (std::int64_t n = 0; n < s.batch; ++n) {
      const T* x_n = x + n * s.params * s.param_inner;
      T* y_n = y + n * s.params * s.param_inner;
      for (std::int64_t p = 0; p < s.params; ++p) {
        const C scale = factors[p];
        const C shift = factors[s.params + p];
        const T* src = x_n + p * s.param_inner;
        T* dst = y_n + p * s.param_inner;
        for (std::int64_t i = 0; i < s.param_inner; ++i)
          dst[i] = compute_type::narrow<T>(compute_type::widen(src[i]) * scale + shift);
      }
    }
  }

  /// Training mode: the factors from the batch statistics, and the running statistics written.
  template <typename T, typename C>
  static void training_factors(const State& s, RunContext& ctx, const T* x, void* scratch, C* factors) noexcept {
    double* a = scratch::scratch_at<double>(scratch, s.scale_offset);
    double* b = scratch::scratch_at<double>(scratch, s.bias_offset);
    double* mean = scratch::scratch_at<double>(scratch, s.mean_offset);
    double* var = scratch::scratch_at<double>(scratch, s.var_offset);
    compute_type::load_floating(s.scale_dtype, ctx.input(kScale).data, a, s.params);
    compute_type::load_floating(s.bias_dtype, ctx.input(kBias).data, b, s.params);
    compute_type::load_floating(s.mean_dtype, ctx.input(kMean).data, mean, s.params);
    compute_type::load_floating(s.var_dtype, ctx.input(kVar).data, var, s.params);
    // Batch statistics per channel (params == channels here), two passes for a stable variance. The
    // running statistics are written first, while mean/var still hold the inputs.
    const double count = static_cast<double>(s.batch * s.inner);
    for (std::int64_t c = 0; c < s.channels; ++c) {
      double sum = 0.0;
      for (std::int64_t n = 0; n < s.batch; ++n) {
        const T* row = x + (n * s.channels + c) * s.inner;
        for (std::int64_t i = 0; i < s.inner; ++i) sum += static_cast<double>(compute_type::widen(row[i]));
      }
      const double batch_mean = count > 0 ? sum / count : 0.0;
      double squares = 0.0;
      for (std::int64_t n = 0; n < s.batch; ++n) {
        const T* row = x + (n * s.channels + c) * s.inner;
        for (std::int64_t i = 0; i < s.inner; ++i) {
          const double d = static_cast<double>(compute_type::widen(row[i])) - batch_mean;
          squares += d * d;
        }
      }
      const double batch_var = count > 0 ? squares / count : 0.0;
      const double momentum = static_cast<double>(s.momentum);
      mean[c] = mean[c] * momentum + batch_mean * (1.0 - momentum);  // now the running mean
      var[c] = var[c] * momentum + batch_var * (1.0 - momentum);     // now the running var
      const double inv = 1.0 / std::sqrt(batch_var + static_cast<double>(s.epsilon));
      a[c] = a[c] * inv;
      b[c] = b[c] - batch_mean * a[c];
    }
    if (s.write_running_mean) compute_type::store_floating(s.mean_dtype, mean, ctx.output(kRunningMean).data, s.params);
    if (s.write_running_var) compute_type::store_floating(s.var_dtype, var, ctx.output(kRunningVar).data, s.params);
    for (std::int64_t p = 0; p < s.params; ++p) {
      factors[p] = static_cast<C>(a[p]);
      factors[s.params + p] = static_cast<C>(b[p]);
    }
  }
};

}  // namespace batch_normalization_detail

// BatchNormalization-1 (also 6 and 7): inference with per-channel (spatial = 1) or per-activation
// (spatial = 0) parameters. 6 dropped consumed_inputs and 7 dropped is_test, neither of which changes
// inference; training outputs are not supported.
using BatchNormalization_1 = VersionedKernel<batch_normalization_detail::BatchNormalizationImpl, 1, 9>;
// BatchNormalization-9: `spatial` removed (parameters are always per channel); X may be 1-D (one channel).
using BatchNormalization_9 = VersionedKernel<batch_normalization_detail::BatchNormalizationImpl, 9, 14>;
// BatchNormalization-14: training_mode attribute with outputs running_mean/running_var; mean/var may have
// their own float dtype (U).
using BatchNormalization_14 = VersionedKernel<batch_normalization_detail::BatchNormalizationImpl, 14, 15>;
// BatchNormalization-15: scale/B may have their own float dtype too (T1), independent of X (T) and
// mean/var (T2).
using BatchNormalization_15 = VersionedKernel<batch_normalization_detail::BatchNormalizationImpl, 15>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
