// SPDX-License-Identifier: MIT
// Initializers at prepare time: a tensor whose raw bytes are little-endian and aligned stays where it is in the
// model bytes (zero-copy); any other is decoded once into metadata.
#pragma once
#include <cstdint>

#include "onnxmicro/runtime/prepared_graph.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace detail {

/// Whether the initializer's raw bytes can serve as the tensor's storage as they are.
inline bool usable_in_place(const proto::Tensor& tensor, DataType dtype, std::size_t bytes) noexcept {
  if (!tensor.has_raw_data || !host_is_little_endian() || tensor.raw_data.size() != bytes) return false;
  // Sub-byte dtypes (dtype_size 0) are packed bytes: any address will do.
  const std::size_t unit = dtype_size(dtype);
  return unit == 0 || reinterpret_cast<std::uintptr_t>(tensor.raw_data.data()) % unit == 0;
}

/// Makes `rt` the constant initializer `value` (rt's name and dtype already set).
inline ONNXMICRO_DETAIL_ALWAYS_INLINE Status bind_initializer(const model::Value& value, MetadataAllocator& allocator,
                                                              ValueRuntime& rt) noexcept {
  const proto::Tensor& tensor = value.initializer();
  ONNXMICRO_RETURN_IF_ERROR(rt.info.shape.assign(tensor.dims, static_cast<std::size_t>(tensor.rank)));
  // The loader resolves external data (model/external_data.hpp) into raw_data; unresolved means a bug there.
  if (tensor.data_location == proto::DataLocation::external && !tensor.has_raw_data) {
    return Status(StatusCode::internal) << "initializer '" << value.name
                                        << "' uses external data that the loader did not resolve";
  }
  std::size_t bytes = 0;
  Status st = checked_byte_size(value.dtype, rt.info.shape, bytes);
  if (!st.ok()) return Status(st.code()) << "initializer '" << value.name << "': " << st.message_view();
  rt.info.is_constant = true;
  if (bytes == 0) {
    rt.info.const_data = empty_tensor_storage();
  } else if (!dtype_enabled(value.dtype)) {
    // Never decoded (decode_to() is compiled without this dtype): node preparation refuses, by node, every node
    // reading it, and a graph output is refused here.
    if (value.is_graph_output) {
      return Status(StatusCode::unsupported)
             << "graph output '" << value.name << "' is an initializer of dtype " << dtype_name(value.dtype)
             << ", which this build leaves out (" << dtype_disabled_by(value.dtype) << ")";
    }
    rt.info.const_data = nullptr;
  } else if (usable_in_place(tensor, value.dtype, bytes)) {
    rt.info.const_data = tensor.raw_data.data();  // zero-copy: the weights stay in the model bytes
  } else {
    void* storage = allocator.allocate(bytes, ONNXMICRO_TENSOR_ALIGNMENT);
    if (storage == nullptr) {
      return Status(StatusCode::out_of_memory)
             << "metadata allocator exhausted decoding initializer '" << value.name << "' (" << bytes << " bytes)";
    }
    ONNXMICRO_RETURN_IF_ERROR(tensor.decode_to(storage, bytes));
    rt.info.const_data = storage;
  }
  rt.data = const_cast<void*>(rt.info.const_data);
  return {};
}

}  // namespace detail
ONNXMICRO_NAMESPACE_END
