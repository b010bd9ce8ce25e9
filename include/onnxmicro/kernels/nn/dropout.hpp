// SPDX-License-Identifier: MIT
// Dropout. In inference (every version before 12, and 12+ unless the training_mode input is true) Y is a copy
// of X and the optional mask is all ones (true). In training mode (12+, training_mode = true, ratio > 0) each
// element is kept with probability 1 - ratio and scaled by 1 / (1 - ratio); the mask says which were kept.
// The random draws reproduce onnx's reference (numpy.random.RandomState(seed).uniform(0, 1, X.shape) >= ratio,
// i.e. MT19937 seeded with `seed`, two 32-bit draws per 53-bit double), restarted from `seed` on every run, so
// the output is deterministic. Without a `seed` attribute the spec leaves the sequence unspecified; seed 0 is
// used. Opset 1 and 6 define is_test (training when 0); this runtime only runs inference there, so those
// versions always copy (TODO(#3): training mode of Dropout-1/6).
#pragma once
#include <cstdint>
#include <cstring>

#include "onnxmicro/kernels/common/compute_type.hpp"
#include "onnxmicro/kernels/common/float_formats.hpp"
#include "onnxmicro/kernels/kernel_api.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {
namespace dropout_detail {

/// MT19937 as numpy's legacy RandomState uses it (init_genrand seeding, 53-bit doubles from two draws).
class Mt19937 {
 public:
  explicit Mt19937(std::uint32_t seed) noexcept {
    state_[0] = seed;
    for (int i = 1; i < kSize; ++i) {
      state_[i] = 1812433253u * (state_[i - 1] ^ (state_[i - 1] >> 30)) + static_cast<std::uint32_t>(i);
    }
    index_ = kSize;
  }
  std::uint32_t next() noexcept {
    if (index_ >= kSize) regenerate();
    std::uint32_t y = state_[index_++];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    y ^= y >> 18;
    return y;
  }
  /// Uniform double in [0, 1) (numpy's random_standard_uniform for MT19937).
  double next_double() noexcept {
    const std::uint32_t a = next() >> 5, b = next() >> 6;
    return (static_cast<double>(a) * 67108864.0 + static_cast<double>(b)) / 9007199254740992.0;
  }

 private:
  static constexpr int kSize = 624;
  static constexpr int kShift = 397;
  void regenerate() noexcept {
    for (int i = 0; i < kSize; ++i) {
      const std::uint32_t y = (state_[i] & 0x80000000u) | (state_[(i + 1) % kSize] & 0x7fffffffu);
      state_[i] = state_[(i + kShift) % kSize] ^ (y >> 1) ^ ((y & 1u) ? 0x9908b0dfu : 0u);
    }
    index_ = 0;
  }
  std::uint32_t state_[kSize];
  int index_;
};

struct DropoutImpl : kernels::KernelDefaults {
  static constexpr std::string_view kOpType = "Dropout";
  static constexpr int kInPlaceInput = 0;
  static constexpr int kData = 0;
  static constexpr int kRatio = 1;
  static constexpr int kTrainingMode = 2;
  static constexpr int kOutput = 0;
  static constexpr int kMask = 1;

  struct Rules {
    bool ratio_input;  ///< 12+: ratio and training_mode are inputs, seed an attribute
    bool bool_mask;    ///< 10+: the mask is bool (before: X's dtype)
  };

  struct State {
    DataType dtype;
    DataType ratio_dtype;
    std::int64_t count;
    std::size_t element_bytes;
    bool write_mask;
    bool bool_mask;
    bool may_train;  ///< 12+ with a training_mode input
    std::uint32_t seed;
  };

  static Status prepare(kernels::PrepareContext& ctx, int since) noexcept {
    const Rules rules{/*ratio_input=*/since >= 12, /*bool_mask=*/since >= 10};
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kData));
    const kernels::TensorInfo& x = ctx.input(kData);
    switch (compiled_dtype(x.dtype)) {
      case DataType::float32:
      case DataType::float64:
      case DataType::float16: break;
      case DataType::bfloat16:  // 13+
      case DataType::float8e4m3fn:
      case DataType::float8e4m3fnuz:
      case DataType::float8e5m2:
      case DataType::float8e5m2fnuz:  // 22+
        if (ctx.opset_version() >= (x.dtype == DataType::bfloat16 ? 13 : 22)) break;
        return ctx.unsupported_input_dtype(kData);
      default: return ctx.unsupported_input_dtype(kData);
    }
    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
    state->dtype = x.dtype;
    state->count = x.shape.element_count();
    state->element_bytes = dtype_size(x.dtype);
    state->bool_mask = rules.bool_mask;
    state->write_mask = ctx.has_output(kMask);

    if (rules.ratio_input) {
      if (ctx.has_input(kRatio)) {
        const kernels::TensorInfo& r = ctx.input(kRatio);
        if (!compute_type::is_loadable_floating(r.dtype)) return ctx.unsupported_input_dtype(kRatio);
        if (r.shape.element_count() != 1) {
          return ctx.input_error(kRatio, "ratio") << " has shape " << r.shape << ", expected a scalar";
        }
        state->ratio_dtype = r.dtype;
      }
      if (ctx.has_input(kTrainingMode)) {
        const kernels::TensorInfo& t = ctx.input(kTrainingMode);
        if (t.dtype != DataType::boolean) {
          return ctx.input_error(kTrainingMode, "training_mode")
                 << " has dtype " << dtype_name(t.dtype) << ", expected bool";
        }
        if (t.shape.element_count() != 1) {
          return ctx.input_error(kTrainingMode, "training_mode") << " has shape " << t.shape << ", expected a scalar";
        }
        state->may_train = true;
      }
      std::int64_t seed = 0;
      ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("seed", seed, 0));
      state->seed = static_cast<std::uint32_t>(seed);  // numpy's RandomState takes the seed modulo 2^32 too
    } else {
      float ratio = 0.5f;
      ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("ratio", ratio, 0.5f));
      if (!(ratio >= 0.0f && ratio < 1.0f)) {
        return Status(StatusCode::invalid_model)
               << "attribute 'ratio' is " << static_cast<double>(ratio) << ", expected a value in [0, 1)";
      }
    }
    ctx.set_output(kOutput, x.dtype, x.shape);
    if (state->write_mask) ctx.set_output(kMask, rules.bool_mask ? DataType::boolean : x.dtype, x.shape);
    return {};
  }

  static Status run(kernels::RunContext& ctx) noexcept {
    const State& s = ctx.state<State>();
    const void* x = ctx.input(kData).data;
    void* y = ctx.output(kOutput).data;
    double ratio = 0.5;
    if (ctx.has_input(kRatio)) compute_type::load_floating(s.ratio_dtype, ctx.input(kRatio).data, &ratio, 1);
    bool training = false;
    if (s.may_train && ctx.has_input(kTrainingMode)) {
      training = *static_cast<const unsigned char*>(ctx.input(kTrainingMode).data) != 0;
    }
    void* mask = s.write_mask ? ctx.output(kMask).data : nullptr;
    if (!training || ratio == 0.0) {
      if (y != x && s.count > 0) std::memcpy(y, x, static_cast<std::size_t>(s.count) * s.element_bytes);
      if (mask != nullptr) fill_ones(s, mask);
      return {};
    }
    if (!(ratio > 0.0 && ratio < 1.0)) {
      return Status(StatusCode::invalid_argument)
             << "input 1 (ratio) is " << ratio << " in training mode, expected a value in [0, 1)";
    }
    // The reference scales in X's precision: scale = 1 / (1 - ratio) rounded to X's compute type.
    const double scale = s.dtype == DataType::float64 ? 1.0 / (1.0 - ratio)
                                                      : static_cast<double>(1.0f / (1.0f - static_cast<float>(ratio)));
    Mt19937 random(s.seed);
    for (std::int64_t i = 0; i < s.count; ++i) {
      const bool keep = random.next_double() >= ratio;
      store_scaled(s.dtype, x, y, i, keep ? scale : 0.0);
      if (mask != nullptr) set_mask(s, mask, i, keep);
    }
    return {};
  }

 private:
  static void fill_ones(const State& s, void* mask) noexcept {
    for (std::int64_t i = 0; i < s.count; ++i) set_mask(s, mask, i, true);
  }
  static void set_mask(const State& s, void* mask, std::int64_t i, bool keep) noexcept {
    if (s.bool_mask) {
      static_cast<bool*>(mask)[i] = keep;
      return;
    }
    const double one = keep ? 1.0 : 0.0;  // before opset 10 the mask has X's (float) dtype
    compute_type::store_floating(s.dtype, &one,
                                 static_cast<unsigned char*>(mask) + i * static_cast<std::int64_t>(s.element_bytes), 1);
  }
  /// y[i] = x[i] * factor in X's dtype (factor 0 for dropped elements).
  static void store_scaled(DataType dtype, const void* x, void* y, std::int64_t i, double factor) noexcept {
    using float_formats::MiniFloat;
    const MiniFloat* format = nullptr;
    switch (compiled_dtype(dtype)) {
      case DataType::float8e4m3fn: format = &float_formats::kFloat8E4M3FN; break;
      case DataType::float8e4m3fnuz: format = &float_formats::kFloat8E4M3FNUZ; break;
      case DataType::float8e5m2: format = &float_formats::kFloat8E5M2; break;
      case DataType::float8e5m2fnuz: format = &float_formats::kFloat8E5M2FNUZ; break;
      case DataType::float64: {
        static_cast<double*>(y)[i] = factor == 0.0 ? 0.0 : static_cast<const double*>(x)[i] * factor;
        return;
      }
      default: {
        const std::size_t bytes = dtype_size(dtype);
        float v = 0.0f;
        compute_type::load_floating(dtype, static_cast<const unsigned char*>(x) + i * static_cast<std::int64_t>(bytes),
                                    &v, 1);
        const float out = factor == 0.0 ? 0.0f : v * static_cast<float>(factor);
        compute_type::store_floating(dtype, &out, static_cast<unsigned char*>(y) + i * static_cast<std::int64_t>(bytes),
                                     1);
        return;
      }
    }
    const std::uint8_t bits = static_cast<const std::uint8_t*>(x)[i];
    const double v = factor == 0.0 ? 0.0 : float_formats::decode_minifloat(*format, bits) * factor;
    static_cast<std::uint8_t*>(y)[i] = float_formats::encode_minifloat(*format, v, true);
  }
};

}  // namespace dropout_detail

// Dropout-1: ratio and is_test attributes (consumed_inputs is legacy); mask has X's dtype. 6 dropped
// consumed_inputs, 7 dropped is_test (always inference); neither changes what this kernel computes.
using Dropout_1 = VersionedKernel<dropout_detail::DropoutImpl, 1, 10>;
// Dropout-10: the mask output becomes bool.
using Dropout_10 = VersionedKernel<dropout_detail::DropoutImpl, 10, 12>;
// Dropout-12: ratio and training_mode become optional inputs, seed an attribute (training mode is random).
// 13 added bfloat16, 22 the float8 types.
using Dropout_12 = VersionedKernel<dropout_detail::DropoutImpl, 12>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
