// SPDX-License-Identifier: MIT
// TensorView: dtype + shape + a pointer to data owned by someone else (the arena, the model bytes, the caller).
#pragma once
#include <cstddef>
#include <cstdint>

#include "onnxmicro/core/dtype.hpp"
#include "onnxmicro/core/shape.hpp"

ONNXMICRO_NAMESPACE_BEGIN

/// Bytes needed for `count` elements of `dtype` (sub-byte types packed densely, rounded up to whole bytes).
constexpr std::size_t byte_size_of(DataType dtype, std::int64_t count) noexcept {
  if (count <= 0) return 0;
  if (is_sub_byte(dtype)) return static_cast<std::size_t>((count * dtype_bits(dtype) + 7) / 8);
  return static_cast<std::size_t>(count) * dtype_size(dtype);
}

/// A typed, shaped window onto memory it does not own. Elements are dense, row-major (C order).
struct TensorView {
  DataType dtype = DataType::undefined;
  Shape shape;
  void* data = nullptr;

  std::int64_t element_count() const noexcept { return shape.element_count(); }
  std::size_t byte_size() const noexcept { return byte_size_of(dtype, shape.element_count()); }

  /// Typed access. The caller has checked dtype (kernels do it in prepare).
  template <typename T>
  T* data_as() const noexcept {
    return static_cast<T*>(data);
  }
};

/// A read-only TensorView (inputs of a kernel, constants in the model).
struct ConstTensorView {
  DataType dtype = DataType::undefined;
  Shape shape;
  const void* data = nullptr;

  ConstTensorView() noexcept = default;
  ConstTensorView(DataType t, const Shape& s, const void* d) noexcept : dtype(t), shape(s), data(d) {}
  ConstTensorView(const TensorView& v) noexcept : dtype(v.dtype), shape(v.shape), data(v.data) {}  // NOLINT

  std::int64_t element_count() const noexcept { return shape.element_count(); }
  std::size_t byte_size() const noexcept { return byte_size_of(dtype, shape.element_count()); }
  template <typename T>
  const T* data_as() const noexcept {
    return static_cast<const T*>(data);
  }
};

/// The tensor a ValueRef describes (sequence/optional elements).
inline ConstTensorView view_of(const ValueRef& ref) noexcept {
  Shape shape;
  shape.resize(ref.rank);
  for (int d = 0; d < ref.rank; ++d) shape[d] = ref.dims[d];
  return ConstTensorView(ref.dtype, shape, ref.data);
}
/// A ValueRef describing `view` (its data pointer is kept, not copied).
inline ValueRef value_ref_of(const ConstTensorView& view) noexcept {
  ValueRef ref{};
  ref.dtype = view.dtype;
  ref.rank = view.shape.rank();
  for (int d = 0; d < ref.rank; ++d) ref.dims[d] = view.shape[d];
  ref.data = view.data;
  return ref;
}

/// Checked byte size of a tensor of `shape` and `dtype`: fails on negative dims, overflow, or more than
/// ONNXMICRO_MAX_TENSOR_BYTES bytes.
inline Status checked_byte_size(DataType dtype, const Shape& shape, std::size_t& bytes) noexcept {
  std::int64_t count = 0;
  ONNXMICRO_RETURN_IF_ERROR(shape.checked_element_count(count));
  std::size_t element = dtype_size(dtype);
  if (!is_sub_byte(dtype) && element == 0) {
    return Status(StatusCode::unsupported) << "dtype " << dtype_name(dtype) << " has no fixed element size";
  }
  const std::uint64_t limit = static_cast<std::uint64_t>(ONNXMICRO_MAX_TENSOR_BYTES);
  if (!is_sub_byte(dtype) && static_cast<std::uint64_t>(count) > limit / element) {
    return Status(StatusCode::limit_exceeded) << "tensor of shape " << shape << " and dtype " << dtype_name(dtype)
                                              << " exceeds ONNXMICRO_MAX_TENSOR_BYTES";
  }
  bytes = byte_size_of(dtype, count);
  return {};
}

ONNXMICRO_NAMESPACE_END
