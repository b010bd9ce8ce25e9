// SPDX-License-Identifier: MIT
// The [outer, length, inner] view of a tensor around one axis, shared by the kernels that work along a single
// axis (ArgMax/ArgMin, LogSoftmax, Hardmax, CumSum, TopK): element (o, k, i) sits at (o * length + k) * inner + i.
#pragma once
#include <cstdint>
#include <string_view>

#include "onnxmicro/kernels/kernel_api.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

/// A tensor seen as [outer, length, inner] around an axis.
struct AxisSlices {
  std::int64_t outer = 1;
  std::int64_t length = 1;
  std::int64_t inner = 1;
};

namespace axis_slices {

/// Fails with `unsupported` unless input `index` has a fully known shape.
inline Status require_static_shape(const PrepareContext& ctx, int index) noexcept {
  const TensorInfo& info = ctx.input(index);
  if (info.shape.is_static()) return {};
  return ctx.input_error(index, {}, StatusCode::unsupported)
         << " has shape " << info.shape << "; shapes must be known at prepare time";
}

/// Checks `axis` (as written in the model; `what` names it in errors) against `shape`: accepted range is
/// [-rank, rank - 1 + extra_high] (extra_high = 1 for the opset 1-12 "coerce to 2-D" ops, where axis == rank
/// is legal), negatives only when `allow_negative`. Returns it normalised to >= 0.
inline Status normalize(std::int64_t axis, const Shape& shape, std::string_view what, bool allow_negative,
                        int extra_high, int& out) noexcept {
  const int rank = shape.rank();
  const int high = rank - 1 + extra_high;
  if (axis < 0 && !allow_negative) {
    return Status(StatusCode::invalid_model) << what << " is " << axis
                                             << ", but negative axes are only allowed from opset 11 on; expected a "
                                                "value in [0, "
                                             << high << "] for shape " << shape;
  }
  const std::int64_t normalised = axis < 0 ? axis + rank : axis;
  if (normalised < 0 || normalised > high) {
    return Status(StatusCode::invalid_model)
           << what << " is " << axis << ", expected a value in [" << -rank << ", " << high << "] for shape " << shape;
  }
  out = static_cast<int>(normalised);
  return {};
}

/// Product of dims [begin, end).
inline std::int64_t product(const Shape& shape, int begin, int end) noexcept {
  std::int64_t n = 1;
  for (int i = begin; i < end; ++i) n *= shape[i];
  return n;
}

/// Slices along `axis` (opset 13+ LogSoftmax/Hardmax, ArgMax, CumSum, TopK).
inline AxisSlices along(const Shape& shape, int axis) noexcept {
  AxisSlices s;
  s.outer = product(shape, 0, axis);
  s.length = shape[axis];
  s.inner = product(shape, axis + 1, shape.rank());
  return s;
}

/// Rows of the 2-D coercion at `axis` (opset 1-12 LogSoftmax/Hardmax): [prod(dims[:axis]), prod(dims[axis:])].
inline AxisSlices coerced_2d(const Shape& shape, int axis) noexcept {
  AxisSlices s;
  s.outer = product(shape, 0, axis);
  s.length = product(shape, axis, shape.rank());
  s.inner = 1;
  return s;
}

}  // namespace axis_slices
}  // namespace kernels
ONNXMICRO_NAMESPACE_END
