// SPDX-License-Identifier: MIT
// PRelu: y = x < 0 ? slope * x : x elementwise; slope broadcasts onto x (unidirectional: y has x's shape).
// Versions: 1 (with `consumed_inputs`, ignored) and 6 apply a slope of shape [C] per channel (axis 1, as in
// Caffe; PyTorch exports rely on it) besides the numpy-broadcastable cases; 7 defined slope as
// unidirectionally broadcastable to x; 9 (int32/int64/uint32/uint64) and 16 (bfloat16) widened the dtypes.
#pragma once
#include <type_traits>

#include "onnxmicro/kernels/common/elementwise.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

struct PReluOp {
  static constexpr std::string_view kOpType = "PRelu";
  template <typename C>
  static C apply(C x, C slope) noexcept {
    if constexpr (std::is_unsigned_v<C>) {
      (void)slope;
      return x;  // never negative
    } else if constexpr (std::is_integral_v<C>) {
      return x < C(0) ? wrapping_mul(slope, x) : x;
    } else {
      return x < C(0) ? slope * x : x;  // NaN stays NaN
    }
  }
};

/// Dtypes of PRelu since opset 16.
using PReluTypes =
    TypeList<float, double, float16_t, bfloat16_t, std::int32_t, std::int64_t, std::uint32_t, std::uint64_t>;

namespace prelu_detail {

/// Opset 7+: the binary body, after checking that slope broadcasts unidirectionally (numpy rules, y has x's shape).
struct PReluImpl : BinaryElementwise<PReluOp, PReluTypes> {
  using Body = BinaryElementwise<PReluOp, PReluTypes>;

  static Status prepare(PrepareContext& ctx) noexcept {
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kInputA));
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kInputB));
    Shape output;
    ONNXMICRO_RETURN_IF_ERROR(broadcast_input_shapes(ctx, {kInputA, kInputB}, output));
    const TensorInfo& x = ctx.input(kInputA);
    if (!(output == x.shape)) {
      return ctx.input_error(kInputB, "slope")
             << " has shape " << ctx.input(kInputB).shape << ", which does not broadcast unidirectionally to input 0 '"
             << x.name << "' shape " << x.shape;
    }
    return Body::prepare(ctx, elementwise_detail::kLegacyBroadcastUntil);  // numpy rules
  }
};

/// Opset 1 and 6: as 7, plus a slope of shape [C] that applies per channel (axis 1) of x.
struct PReluPerChannelImpl : KernelDefaults {
  static constexpr std::string_view kOpType = "PRelu";
  static constexpr int kInPlaceInput = 0;

  struct ChannelState {
    void (*compute)(const void* x, const void* slope, void* y, std::int64_t batches, std::int64_t channels,
                    std::int64_t inner) noexcept;
  };

  static Status prepare(PrepareContext& ctx) noexcept {
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kInputA));
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kInputB));
    if (!is_per_channel(ctx.input(kInputA).shape, ctx.input(kInputB).shape)) return PReluImpl::prepare(ctx);
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_same_dtype(kInputA, kInputB));
    ChannelState* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
    switch (compiled_dtype(ctx.input(kInputA).dtype)) {
      case DataType::float32: state->compute = &per_channel<float>; break;
      case DataType::float64: state->compute = &per_channel<double>; break;
      case DataType::float16: state->compute = &per_channel<float16_t>; break;
      default: return ctx.unsupported_input_dtype(kInputA);
    }
    ctx.set_output(kOutput, ctx.input(kInputA).dtype, ctx.input(kInputA).shape);
    return {};
  }

  static Status run(RunContext& ctx) noexcept {
    const Shape& x = ctx.input(kInputA).shape;
    if (!is_per_channel(x, ctx.input(kInputB).shape)) return PReluImpl::run(ctx);
    std::int64_t inner = 1;
    for (int d = 2; d < x.rank(); ++d) inner *= x[d];
    ctx.state<ChannelState>().compute(ctx.input(kInputA).data, ctx.input(kInputB).data, ctx.output(kOutput).data, x[0],
                                      x[1], inner);
    return {};
  }

 private:
  static constexpr int kInputA = 0;
  static constexpr int kInputB = 1;
  static constexpr int kOutput = 0;

  // The per-channel reading applies only where numpy broadcasting would not (slope [C] against x's last dim).
  static bool is_per_channel(const Shape& x, const Shape& slope) noexcept {
    return x.rank() >= 3 && slope.rank() == 1 && slope[0] == x[1] && slope[0] != x[x.rank() - 1] && slope[0] != 1;
  }

  template <typename T>
  static void per_channel(const void* x, const void* slope, void* y, std::int64_t batches, std::int64_t channels,
                          std::int64_t inner) noexcept {
    const T* in = static_cast<const T*>(x);
    const T* s = static_cast<const T*>(slope);
    T* out = static_cast<T*>(y);
    for (std::int64_t b = 0; b < batches; ++b) {
      for (std::int64_t c = 0; c < channels; ++c) {
        const std::int64_t base = (b * channels + c) * inner;
        for (std::int64_t i = 0; i < inner; ++i) {
          if constexpr (std::is_same_v<T, float16_t>) {
            const float v = in[base + i].to_float();
            out[base + i] = v < 0.0f ? T::from_float(s[c].to_float() * v) : in[base + i];
          } else {
            out[base + i] = in[base + i] < T(0) ? s[c] * in[base + i] : in[base + i];
          }
        }
      }
    }
  }
};

}  // namespace prelu_detail

// Opset 1 and 6: per-channel slope [C] besides numpy broadcasting.
using PRelu_1 = VersionedKernel<prelu_detail::PReluPerChannelImpl, 1, 7>;
// Opset 7+: slope broadcasts unidirectionally (9 and 16 widened the dtypes).
using PRelu_7 = VersionedKernel<prelu_detail::PReluImpl, 7>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
