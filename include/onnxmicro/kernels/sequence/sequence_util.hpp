// SPDX-License-Identifier: MIT
// What the sequence and optional kernels share. A sequence value is an array of ValueRef descriptors (dtype
// sequence, shape [n]); an optional is one of shape [0] or [1] (core/dtype.hpp). In this build these values are
// known at prepare time (offered by Session::run(inputs)), so the kernels compute their result in prepare() into
// metadata, and run() (called once, when the session folds the node) copies it to the output.
#pragma once
#include <cstring>

#include "onnxmicro/kernels/kernel_api.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {
namespace sequence_util {

/// A result computed at prepare time: run() copies `bytes` bytes from `data` to output 0.
struct PreparedResult {
  const void* data;
  std::size_t bytes;

  static Status run(RunContext& ctx) noexcept {
    const PreparedResult& r = ctx.state<PreparedResult>();
    if (r.bytes != 0 && ctx.output(0).data != r.data) std::memcpy(ctx.output(0).data, r.data, r.bytes);
    return {};
  }
};

/// Input `index` must be a sequence (or, with `kind` optional, an optional) known at prepare time.
inline Status require_container(PrepareContext& ctx, int index, DataType kind = DataType::sequence) noexcept {
  ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(index));
  const TensorInfo& info = ctx.input(index);
  if (info.dtype != kind) {
    return ctx.input_error(index) << " is " << dtype_name(info.dtype) << ", expected a " << dtype_name(kind);
  }
  return ctx.require_constant_input(index);
}

inline const ValueRef* elements_of(const TensorInfo& info) noexcept {
  return static_cast<const ValueRef*>(info.const_data);
}
inline std::int64_t count_of(const TensorInfo& info) noexcept { return info.shape.element_count(); }

/// A scalar (or one-element) int32/int64 input known at prepare time, e.g. a sequence position.
inline Status read_index_input(PrepareContext& ctx, int index, std::int64_t& value) noexcept {
  const TensorInfo& info = ctx.input(index);
  if (info.dtype != DataType::int32 && info.dtype != DataType::int64) return ctx.unsupported_input_dtype(index);
  if (info.shape.element_count() != 1) {
    return ctx.input_error(index) << " must be a scalar, got shape " << info.shape;
  }
  ONNXMICRO_RETURN_IF_ERROR(ctx.require_constant_input(index));
  if (info.dtype == DataType::int32) {
    std::int32_t v;
    std::memcpy(&v, info.const_data, sizeof v);
    value = v;
  } else {
    std::memcpy(&value, info.const_data, sizeof value);
  }
  return {};
}

/// Stores `count` ValueRefs as the node's sequence result (output 0, shape [count]) and sets the output.
inline Status set_sequence_result(PrepareContext& ctx, const ValueRef* refs, std::int64_t count,
                                  DataType kind = DataType::sequence) noexcept {
  PreparedResult* state = nullptr;
  ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
  Span<ValueRef> copy;
  ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_persistent(static_cast<std::size_t>(count), copy));
  for (std::int64_t i = 0; i < count; ++i) copy[static_cast<std::size_t>(i)] = refs[i];
  state->data = copy.data();
  state->bytes = static_cast<std::size_t>(count) * sizeof(ValueRef);
  ctx.set_output(0, kind, Shape{count});
  return {};
}

/// Stores a copy of `value` as the node's tensor result (output 0).
inline Status set_tensor_result(PrepareContext& ctx, const ConstTensorView& value) noexcept {
  PreparedResult* state = nullptr;
  ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
  state->data = value.data;  // constant data: lives as long as the session
  state->bytes = value.byte_size();
  ctx.set_output(0, value.dtype, value.shape);
  return {};
}

/// The ValueRef of input `index` (a tensor or a sequence known at prepare time).
inline Status value_ref_of_input(PrepareContext& ctx, int index, ValueRef& out) noexcept {
  ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(index));
  ONNXMICRO_RETURN_IF_ERROR(ctx.require_constant_input(index));
  const TensorInfo& info = ctx.input(index);
  out = value_ref_of(ConstTensorView(info.dtype, info.shape, info.const_data));
  return {};
}

inline Status position_error(std::int64_t position, std::int64_t low, std::int64_t high) noexcept {
  return Status(StatusCode::invalid_argument)
         << "position " << position << " is out of range [" << low << ", " << high << "]";
}

}  // namespace sequence_util
}  // namespace kernels
ONNXMICRO_NAMESPACE_END
