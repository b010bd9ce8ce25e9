// SPDX-License-Identifier: MIT
// What prepare() records for every graph value and every node, as the planning units of runtime/ fill it in:
// kernel resolution and node preparation (node_preparation.hpp), initializer and input binding (initializers.hpp,
// input_binding.hpp), lifetimes and buffers (lifetimes.hpp). Session owns the tables; run() reads only
// NodeRuntime's bound views.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "onnxmicro/kernels/kernel_api.hpp"
#include "onnxmicro/kernels/kernel_set.hpp"
#include "onnxmicro/model/loader.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace detail {

/// One graph value: what prepare inferred and where it lives.
struct ValueRuntime {
  kernels::TensorInfo info;
  std::int32_t buffer = -1;  ///< planned buffer, -1 for constants
  std::int32_t first_use = -1;
  std::int32_t last_use = -1;
  void* data = nullptr;  ///< where the value lives after planning (arena slot or constant data)
};

/// One node: its kernel, the kernel's state and scratch, and the views run() hands it.
struct NodeRuntime {
  const KernelEntry* kernel = nullptr;
  void* state = nullptr;
  std::size_t scratch_bytes = 0;
  std::int32_t scratch_buffer = -1;
  bool folded = false;
  Span<kernels::TensorInfo> input_infos;
  Span<kernels::TensorInfo> output_infos;
  Span<ConstTensorView> inputs;
  Span<TensorView> outputs;
  void* scratch = nullptr;
#if ONNXMICRO_ENABLE_FAST_PATHS    // (only fast paths round differently)
  const char* rounding = nullptr;  ///< PrepareContext::note_rounding()
#endif
};

/// A failed kernel or planning status, prefixed with the node's identity.
inline Status node_error(const model::Node& node, const Status& cause) noexcept {
  Status s(cause.code());
  Model::describe_node(s, node) << ": " << cause.message_view();
  return s;
}

/// node_error() for input or output k of `node` having a dtype this build compiles out (one copy for both checks).
inline Status disabled_dtype_error(const model::Node& node, const char* role, std::size_t k, std::string_view name,
                                   DataType dtype) noexcept {
  return node_error(node, kernels::PrepareContext::disabled_dtype(role, static_cast<int>(k), name, dtype));
}

/// Zero-size tensors still get a valid, aligned pointer.
inline void* empty_tensor_storage() noexcept {
  alignas(ONNXMICRO_TENSOR_ALIGNMENT) static unsigned char storage[ONNXMICRO_TENSOR_ALIGNMENT];
  return storage;
}

/// Metadata for a tensor of `bytes` (an empty tensor's shared storage when 0); nullptr when exhausted.
inline void* allocate_tensor_storage(MetadataAllocator& allocator, std::size_t bytes) noexcept {
  return bytes == 0 ? empty_tensor_storage() : allocator.allocate(bytes, ONNXMICRO_TENSOR_ALIGNMENT);
}

}  // namespace detail
ONNXMICRO_NAMESPACE_END
