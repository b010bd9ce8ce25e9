// SPDX-License-Identifier: MIT
// QLinearSoftmax (com.microsoft, version 1, the only one): y = quantize(softmax(dequantize(x))) for int8/uint8 x,
// computed as onnxruntime's CPU kernel does so that results agree with it, but for one step (below). QDQ fusion
// also turns DequantizeLinear -> Softmax -> QuantizeLinear into this op:
//  - a 256-entry float32 table of exp((q - 255 + shift) * x_scale), built at prepare. `shift` puts the row
//    maximum at exp(log(FLT_MAX / length) - 5) so that a float32 sum of `length` entries cannot overflow; the row
//    maximum is then aligned with the table's last entry (x_zero_point cancels out, as in any softmax);
//  - per row: the float32 sum of the entries in element order, then
//    y = saturate(round_half_even((entry / sum) / y_scale) + y_zero_point), QuantizeLinear's own rounding.
//    onnxruntime multiplies by floor(1 / y_scale) instead: the same for the 1/256 its quantizer writes, but 254
//    for the 1/255 (float32: 1 / 254.99998) a calibrated uint8 softmax gets, a quantum low near the top, which
//    then spreads through attention (3 quanta at a transformer layer's output, tests/quantization qdq_accuracy).
// Attribute `opset` (written by onnxruntime's quantizer) selects the Softmax semantics: below 13 the input is a
// 2-D matrix [prod(dims[:axis]), prod(dims[axis:])] normalised per row, from 13 the normalisation runs along
// `axis` only; `axis` then defaults to -1 whatever `opset` says (onnxruntime's schema). Without `opset` (QDQ
// fusion keeps the Softmax node's attributes only) the node's own opset version decides, and `axis` defaults as
// in that Softmax: 1 below 13, -1 from 13.
#pragma once
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "onnxmicro/kernels/kernel_api.hpp"
#include "onnxmicro/kernels/quantization/qoperator_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

namespace qlinear_softmax_detail {

/// The implementation of QLinearSoftmax (see the file comment).
struct QLinearSoftmaxImpl : KernelDefaults {
  static constexpr std::string_view kDomain = "com.microsoft";
  static constexpr std::string_view kOpType = "QLinearSoftmax";
  // Each row is read completely (max, sum) before any of its elements is written, and rows are disjoint.
  static constexpr int kInPlaceInput = 0;

  static constexpr int kX = 0;
  static constexpr int kXScale = 1;
  static constexpr int kXZeroPoint = 2;
  static constexpr int kYScale = 3;
  static constexpr int kYZeroPoint = 4;
  static constexpr int kY = 0;

  /// First opset whose Softmax normalises along one axis instead of over the flattened trailing dims.
  static constexpr std::int64_t kSingleAxisOpset = 13;

  struct State {
    float table[256];  // indexed by (uint8 x - row max + 255) or by the byte of (int8 x - row max + 127)
    float y_scale;
    std::int32_t y_zero;
    // The input as [outer, length, inner]: each (outer, inner) pair is one row of `length` elements.
    std::int64_t outer;
    std::int64_t length;
    std::int64_t inner;
    void (*compute)(const State&, const void*, void*) noexcept;
  };

  static Status prepare(PrepareContext& ctx) noexcept {
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kX));
    ONNXMICRO_RETURN_IF_ERROR(qoperator_util::require_8bit(ctx, kX));
    const TensorInfo& x = ctx.input(kX);
    if (!x.shape.is_static()) {
      return ctx.input_error(kX, {}, StatusCode::unsupported) << " has shape " << x.shape << "; shapes must be known";
    }
    const int rank = x.shape.rank();
    if (rank < 1) {
      return ctx.input_error(kX) << " is a scalar, expected rank >= 1";
    }
    qoperator_util::QuantParams xq, yq;
    ONNXMICRO_RETURN_IF_ERROR(qoperator_util::read_quant_params(ctx, kXScale, kXZeroPoint, x.dtype, xq));
    ONNXMICRO_RETURN_IF_ERROR(qoperator_util::read_quant_params(ctx, kYScale, kYZeroPoint, x.dtype, yq));

    // A written QLinearSoftmax carries `opset` and defaults `axis` to -1 (onnxruntime's schema); a node fused from
    // DequantizeLinear -> Softmax -> QuantizeLinear has Softmax's attributes only, so Softmax's defaults apply.
    const bool has_opset = ctx.has_attribute("opset");
    std::int64_t opset = 0;
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("opset", opset, ctx.opset_version()));
    const bool single_axis = opset >= kSingleAxisOpset;
    std::int64_t requested = 0;
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("axis", requested, has_opset || single_axis ? -1 : 1));
    const std::int64_t axis = requested < 0 ? requested + rank : requested;
    if (axis < 0 || axis >= rank) {
      return Status(StatusCode::invalid_model)
             << "attribute 'axis' is " << requested << ", expected a value in [" << -rank << ", " << rank - 1
             << "] for input 0 '" << x.name << "' of shape " << x.shape;
    }

    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
    const int a = static_cast<int>(axis);
    state->outer = product(x.shape, 0, a);
    state->length = single_axis ? x.shape[a] : product(x.shape, a, rank);
    state->inner = single_axis ? product(x.shape, a + 1, rank) : 1;
    const bool is_signed = x.dtype == DataType::int8;
    // The table depends on the row length; an empty row never reads it.
    build_table(state->table, xq.scale, state->length > 0 ? state->length : 1, is_signed);
    state->y_scale = yq.scale;
    state->y_zero = yq.zero_point;
    state->compute = is_signed ? &compute<std::int8_t> : &compute<std::uint8_t>;
    ctx.set_output(kY, x.dtype, x.shape);
    return {};
  }

  static Status run(RunContext& ctx) noexcept {
    const State& s = ctx.state<State>();
    s.compute(s, ctx.input(kX).data, ctx.output(kY).data);
    return {};
  }

 private:
  static std::int64_t product(const Shape& shape, int begin, int end) noexcept {
    std::int64_t n = 1;
    for (int i = begin; i < end; ++i) n *= shape[i];
    return n;
  }

  // onnxruntime's table: entry for step i (0..255, the row maximum at 255) is exp((i - 255 + shift) * x_scale)
  // with shift = max(0, ln(FLT_MAX / length) - 5) / x_scale, computed in double and stored as float32. int8
  // steps are stored at byte (i - 128), where (x - max + 127) lands.
  static void build_table(float* table, float x_scale, std::int64_t length, bool is_signed) noexcept {
    const float headroom = std::numeric_limits<float>::max() / static_cast<float>(length);
    double shift = std::log(static_cast<double>(headroom)) - 5.0;
    shift = (shift > 0.0 ? shift : 0.0) / static_cast<double>(x_scale);
    for (int i = 0; i < 256; ++i) {
      const double e = std::exp((static_cast<double>(i) - 255.0 + shift) * static_cast<double>(x_scale));
      table[static_cast<std::uint8_t>(is_signed ? i - 128 : i)] = static_cast<float>(e);
    }
  }

  template <typename T>
  static void compute(const State& s, const void* in, void* out) noexcept {
    constexpr bool kSigned = std::is_same_v<T, std::int8_t>;
    constexpr std::int32_t kLow = kSigned ? -128 : 0;
    constexpr std::int32_t kHigh = kSigned ? 127 : 255;
    // The index offset that maps the row maximum to the table's last step.
    constexpr std::int32_t kTop = kSigned ? 127 : 255;
    const T* x = static_cast<const T*>(in);
    T* y = static_cast<T*>(out);
    const std::int64_t n = s.length;
    const std::int64_t stride = s.inner;
    if (n == 0) return;
    for (std::int64_t o = 0; o < s.outer; ++o) {
      for (std::int64_t i = 0; i < s.inner; ++i) {
        const std::int64_t base = o * n * stride + i;
        std::int32_t max = x[base];
        for (std::int64_t k = 1; k < n; ++k) {
          const std::int32_t v = x[base + k * stride];
          max = v > max ? v : max;
        }
        const std::int32_t offset = kTop - max;
        // Sequential float32 sum, in element order as onnxruntime adds.
        float sum = 0.0f;
        for (std::int64_t k = 0; k < n; ++k) {
          sum += s.table[static_cast<std::uint8_t>(x[base + k * stride] + offset)];
        }
        for (std::int64_t k = 0; k < n; ++k) {
          const float e = s.table[static_cast<std::uint8_t>(x[base + k * stride] + offset)];
          // Dividing first also keeps short rows finite (their maximum entry is ~FLT_MAX / (length * e^5)), where
          // onnxruntime's product overflows and it returns the zero point for uint8.
          const float rounded = std::nearbyint((e / sum) / s.y_scale);  // half to even, the default rounding mode
          std::int32_t q = rounded > 65536.0f ? 65536 : static_cast<std::int32_t>(rounded);
          q += s.y_zero;
          y[base + k * stride] = static_cast<T>(q < kLow ? kLow : (q > kHigh ? kHigh : q));
        }
      }
    }
  }
};

}  // namespace qlinear_softmax_detail

// Version 1: the only version.
using QLinearSoftmax_1 = VersionedKernel<qlinear_softmax_detail::QLinearSoftmaxImpl, 1>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
