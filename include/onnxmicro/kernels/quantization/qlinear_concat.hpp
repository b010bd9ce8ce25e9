// SPDX-License-Identifier: MIT
// QLinearConcat (com.microsoft, version 1, the only one): Concat of int8/uint8 tensors along `axis`, each with its
// own scale and zero point, requantised to Y's. Inputs: Y_scale, Y_zero_point, then (X, X_scale, X_zero_point)
// per tensor; all parameters per tensor and known at prepare time. An input quantized like Y is copied; any
// other goes through a 256-entry table (quantize(dequantize(x)) in float32, as onnxruntime) built at prepare.
#pragma once
#include <cstdint>
#include <cstring>

#include "onnxmicro/kernels/kernel_api.hpp"
#include "onnxmicro/kernels/quantization/qoperator_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

namespace qlinear_concat_detail {

/// The implementation of QLinearConcat (see the file comment).
struct QLinearConcatImpl : KernelDefaults {
  static constexpr std::string_view kDomain = "com.microsoft";
  static constexpr std::string_view kOpType = "QLinearConcat";
  static constexpr int kYScale = 0;
  static constexpr int kYZeroPoint = 1;
  static constexpr int kFirstX = 2;  ///< X_i, X_scale_i, X_zero_point_i at kFirstX + 3 * i
  static constexpr int kY = 0;

  struct Part {
    std::int64_t block;  ///< elements of one outer slice: dim(axis) * inner size
    bool copy;           ///< quantized like Y: a plain copy
    qoperator_util::LookupTable table;
  };
  struct State {
    const Part* parts;
    int count;
    std::int64_t outer;  ///< product of the dims before axis
  };

  static Status prepare(PrepareContext& ctx) noexcept {
    const int count = (ctx.input_count() - kFirstX) / 3;
    if (count < 1 || (ctx.input_count() - kFirstX) % 3 != 0) {
      return Status(StatusCode::invalid_model)
             << "expected Y_scale, Y_zero_point and then (X, X_scale, X_zero_point) per input, got "
             << ctx.input_count() << " inputs";
    }
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kYZeroPoint));
    ONNXMICRO_RETURN_IF_ERROR(qoperator_util::require_8bit(ctx, kYZeroPoint));
    const DataType t = ctx.input(kYZeroPoint).dtype;
    qoperator_util::QuantParams yq;
    ONNXMICRO_RETURN_IF_ERROR(qoperator_util::read_quant_params(ctx, kYScale, kYZeroPoint, t, yq));
    std::int64_t axis = 0;
    ONNXMICRO_RETURN_IF_ERROR(ctx.required_attribute("axis", axis));

    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kFirstX));
    const Shape& first = ctx.input(kFirstX).shape;
    const int rank = first.rank();
    if (axis < -rank || axis >= rank || rank == 0) {
      return Status(StatusCode::invalid_model)
             << "attribute 'axis' is " << axis << ", expected in [" << -rank << ", " << rank - 1 << "] for input "
             << kFirstX << " '" << ctx.input(kFirstX).name << "' " << first;
    }
    if (axis < 0) axis += rank;
    State* s = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(s));
    Span<Part> parts;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_persistent(static_cast<std::size_t>(count), parts));
    s->parts = parts.data();
    s->count = count;
    s->outer = 1;
    for (int d = 0; d < axis; ++d) s->outer *= first[d];
    std::int64_t inner = 1;
    for (int d = static_cast<int>(axis) + 1; d < rank; ++d) inner *= first[d];

    Shape y = first;
    y[static_cast<int>(axis)] = 0;
    for (int i = 0; i < count; ++i) {
      const int xi = kFirstX + 3 * i;
      ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(xi));
      if (ctx.input(xi).dtype != t) {
        return ctx.input_error(xi) << " has dtype " << dtype_name(ctx.input(xi).dtype) << ", expected " << dtype_name(t)
                                   << " (the dtype of input 1 'Y_zero_point')";
      }
      const Shape& shape = ctx.input(xi).shape;
      bool same = shape.rank() == rank;
      for (int d = 0; same && d < rank; ++d) same = d == axis || shape[d] == first[d];
      if (!same) {
        return ctx.input_error(xi) << " has shape " << shape << ", expected the shape of input " << kFirstX << " "
                                   << first << " except on axis " << axis;
      }
      qoperator_util::QuantParams xq;
      ONNXMICRO_RETURN_IF_ERROR(qoperator_util::read_quant_params(ctx, xi + 1, xi + 2, t, xq));
      Part& part = parts[static_cast<std::size_t>(i)];
      part.block = shape[static_cast<int>(axis)] * inner;
      part.copy = xq.scale == yq.scale && xq.zero_point == yq.zero_point;
      if (!part.copy) part.table.build(t, xq, yq, [](float v) { return v; });
      y[static_cast<int>(axis)] += shape[static_cast<int>(axis)];
    }
    ctx.set_output(kY, t, y);
    return {};
  }

  static Status run(RunContext& ctx) noexcept {
    const State& s = ctx.state<State>();
    std::uint8_t* y = static_cast<std::uint8_t*>(ctx.output(kY).data);  // int8 and uint8 alike, as bytes
    for (std::int64_t o = 0; o < s.outer; ++o) {
      for (int i = 0; i < s.count; ++i) {
        const Part& part = s.parts[i];
        const std::uint8_t* x = static_cast<const std::uint8_t*>(ctx.input(kFirstX + 3 * i).data) + o * part.block;
        if (part.copy) {
          if (part.block > 0) std::memcpy(y, x, static_cast<std::size_t>(part.block));
        } else {
          part.table.apply(x, y, part.block);
        }
        y += part.block;
      }
    }
    return {};
  }
};

}  // namespace qlinear_concat_detail

// Version 1: the only version.
using QLinearConcat_1 = VersionedKernel<qlinear_concat_detail::QLinearConcatImpl, 1>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
